package playground_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBrowserSettingsFitAPhone: on a phone's screen, 390×844, the settings
// panel, an ephemeral message only the one who opened it sees, shows
// whole, its text in view above its buttons and no label cut, at every
// level: an admin's list of the settings, each setting's choices (in
// Russian, whose words are the longest), and a member's read-only list. Moving between the levels edits the panel in place, once a move;
// choosing a value saves it (the database says so), says so in a toast,
// and brings the panel back to the list, which shows the new value.
func TestBrowserSettingsFitAPhone(t *testing.T) {
	pg := startBrowserPlayground(t)
	ctx, b := newBrowser(t)
	night, office := pg.Groups()[0], pg.Groups()[1]
	b.run(ctx, "opening the page on a phone",
		chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile), chromedp.Navigate(pg.URL()))
	b.waitFor(ctx, "the page to load", `document.body.dataset.ready === '1' && !!document.querySelector('.chat-item')`)

	// panel finds the settings panel by its message: it keeps its id
	// through the edits that move it between its levels.
	// The panel is an ephemeral message, the admin's alone, marked so.
	var panel string
	open := func(hint string) {
		t.Helper()
		b.send(ctx, "/settings")
		b.waitFor(ctx, "the settings panel", `(`+settingsRowJS+`)?.textContent.includes(`+js(hint)+`)`)
		panel = `document.querySelector('#messages-inner .row.ephemeral[data-ephemeral-message-id="` + eval[string](ctx, b, `(`+settingsRowJS+`).dataset.ephemeralMessageId || ''`) + `"]')`
		require.True(t, eval[bool](ctx, b, `!!(`+panel+`)`), "the panel is an ephemeral message")
		assert.Equal(t, "Only visible to you", eval[string](ctx, b, `(`+panel+`).querySelector('.eph-plate').textContent`))
	}
	shown := func() table { t.Helper(); return b.tableOf(ctx, panel) }
	// inView checks that the message rowJS finds, brought to the bottom of
	// the chat, shows whole on the screen: from the top of its bubble to
	// the bottom of its buttons, every label and line whole.
	inView := func(rowJS, what string) {
		t.Helper()
		b.fitsPhone(ctx, rowJS, what)
		type extent struct{ Top, Bottom, Height, Box float64 }
		e := eval[extent](ctx, b, `(() => { const r = `+rowJS+`; r.scrollIntoView({block: 'end'});
			const box = document.getElementById('messages').getBoundingClientRect();
			const top = r.querySelector('.bubble').getBoundingClientRect().top;
			const bottom = (r.querySelector('.kb') || r.querySelector('.bubble')).getBoundingClientRect().bottom;
			return {Top: top - box.top, Bottom: box.bottom - bottom, Height: bottom - top, Box: box.height} })()`)
		t.Logf("%s: %.0f px of the chat's %.0f", what, e.Height, e.Box)
		// Within a pixel: the page lays out in fractions of one.
		assert.GreaterOrEqual(t, e.Top, -1.0, "%s: its text scrolled off the top of the chat (%.0f px high, the chat %.0f)", what, e.Height, e.Box)
		assert.GreaterOrEqual(t, e.Bottom, -1.0, "%s: its buttons below the chat", what)
	}
	// press presses the panel's button with this label and waits until the
	// panel was edited once and cond (JavaScript over r, the panel's row)
	// holds; answer, unless empty, is the toast the press gets.
	press := func(label, answer, cond string) table {
		t.Helper()
		before := shown()
		b.clearToasts(ctx)
		btn := `[...(` + panel + `).querySelectorAll('.kb-btn')].find(b => b.textContent === ` + js(label) + `)`
		b.run(ctx, "pressing "+label, chromedp.Click(chromedp.JSPath(btn)))
		if answer != "" {
			b.waitFor(ctx, fmt.Sprintf("the answer %q to %s", answer, label), toastsJS+`.some(t => t === `+js(answer)+`)`)
		}
		b.waitFor(ctx, "the panel after "+label, `(() => { const r = `+panel+`; return !!r && r.dataset.edits !== `+js(before.Edits)+` && (`+cond+`) })()`)
		after := shown()
		assert.Equal(t, before.ID, after.ID, "%s: the panel is edited in place", label)
		edits, err := strconv.Atoi(before.Edits)
		require.NoError(t, err)
		assert.Equal(t, strconv.Itoa(edits+1), after.Edits, "%s: one edit", label)
		return after
	}
	const back, choices = "← Back", `[...r.querySelectorAll('.kb-btn')].some(b => b.textContent === '← Back')`
	const list = `r.innerText.includes('Tap a setting')`

	b.openChatOnPhone(ctx, night.ID)
	b.as(ctx, "Alice")
	open("Tap a setting")
	first := shown()
	assert.Equal(t, []string{"💰 Stake: 10", "🚪 Min. balance: 100", "🎲 Bets: ×1 · ×2 · ×5 · ½ · bank", "⏱ Turn time: 60\u00a0s",
		"⏳ Lobby time: 10\u00a0min", "🔔 Knocks: 3", "🚀 Start when full: off", "🤖 The house: on", "🌐 Language: English"}, first.Labels)
	inView(panel, "the list")
	stake := press("💰 Stake: 10", "", choices)
	assert.Contains(t, stake.Text, "The chips the banker puts into the bank")
	assert.Contains(t, stake.Labels, "10 ✓")
	inView(panel, "the stake's choices")
	again := press(back, "", list)
	assert.Equal(t, first.Labels, again.Labels, "back at the list, nothing changed")
	press("💰 Stake: 10", "", choices)
	saved := press("25", "Saved. Stake: 25", list)
	assert.Equal(t, "💰 Stake: 25", saved.Labels[0])
	inView(panel, "the list after a change")
	s, err := pg.Store().Settings(context.Background(), night.ID)
	require.NoError(t, err)
	assert.EqualValues(t, 25, s.Game.Stake)

	// A member sees the list in the text, read-only, and not the admin's
	// panel: each is an ephemeral message to the one who asked.
	b.as(ctx, "Carol")
	b.send(ctx, "/settings")
	readOnly := `[...document.querySelectorAll('#messages-inner .row.ephemeral[data-from-bot]')].filter(r => !r.querySelector('.kb') && r.querySelector('.text').textContent.includes('⚙️')).pop()`
	b.waitFor(ctx, "the read-only settings", `(`+readOnly+`)?.textContent.includes('Stake: 25')`)
	inView(readOnly, "the read-only list")
	assert.Zero(t, b.count(ctx, "#messages-inner .row .kb"), "Carol sees no panel: Alice's is hers")

	// Every setting's choices, in Russian, in Office, where Bob is the admin.
	b.run(ctx, "back to the chats", chromedp.Click(chromedp.ID("back")))
	b.as(ctx, "Bob")
	b.openChatOnPhone(ctx, office.ID)
	b.send(ctx, "/lang ru")
	b.waitFor(ctx, "the language set", `[...document.querySelectorAll('#messages-inner .row[data-from-bot] .text')].some(t => t.textContent === 'Язык: русский.')`)
	open("Нажми на настройку")
	inView(panel, "the list in Russian")
	for _, label := range shown().Labels {
		press(label, "", `[...r.querySelectorAll('.kb-btn')].some(b => b.textContent === '← Назад')`)
		inView(panel, label+": its choices in Russian")
		press("← Назад", "", `r.innerText.includes('Нажми на настройку')`)
	}
}
