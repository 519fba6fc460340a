package playground_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/playground"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// inZone puts the browser in a time zone, as a reader's device is.
func (b *browser) inZone(ctx context.Context, zone string) *time.Location {
	b.t.Helper()
	loc, err := time.LoadLocation(zone)
	require.NoError(b.t, err)
	b.run(ctx, "the browser in "+zone, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: zone})
		return err
	}))
	return loc
}

// botSays sends a message as the bot, in HTML, through the Bot API server
// as the bot itself would.
func botSays(t *testing.T, pg *playground.Playground, chat int64, html string) telegramtest.ChatMessage {
	t.Helper()
	resp, err := http.PostForm(pg.Server().URL()+"/bot"+pg.Server().Token()+"/sendMessage",
		url.Values{"chat_id": {itoa(chat)}, "text": {html}, "parse_mode": {"HTML"}})
	require.NoError(t, err)
	defer resp.Body.Close()
	var answer struct {
		OK          bool                     `json:"ok"`
		Description string                   `json:"description"`
		Result      telegramtest.ChatMessage `json:"result"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&answer))
	require.True(t, answer.OK, answer.Description)
	return answer.Result
}

// Day and month names, to say what a reader of each language sees.
var (
	weekdays = map[string][7]string{
		"en": {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"},
		"ru": {"воскресенье", "понедельник", "вторник", "среда", "четверг", "пятница", "суббота"},
		"uk": {"неділя", "понеділок", "вівторок", "середа", "четвер", "пʼятниця", "субота"},
	}
	// inMarch is "17 March", with the year's %d, in each language.
	inMarch = map[string]string{"en": "March 17, %d", "ru": "17 марта %d г.", "uk": "17 березня %d р."}
)

// TestBrowserDateTime: a date_time entity shows as a Telegram client shows
// it, in the reader's own language and time zone, not as the text the bot
// wrote for clients that know no such entity, and by the format the entity
// asks for (the order of the parts: weekday, time, date, as
// messageEntityFormattedDate has it). An English reader sees "6:43 PM",
// a Russian or Ukrainian one "18:43"; a short date leaves out the year when
// it is this year's; a relative time counts down as time passes.
func TestBrowserDateTime(t *testing.T) {
	pg := startPlayground(t, playground.Options{})
	ctx, b := newBrowser(t)
	tokyo := b.inZone(ctx, "Asia/Tokyo")
	office := pg.Groups()[1]

	now := time.Now().In(tokyo)
	// Next year's 17 March, 18:43:05 in Tokyo; this year's 1 June, 9:05.
	next := time.Date(now.Year()+1, time.March, 17, 18, 43, 5, 0, tokyo)
	june := time.Date(now.Year(), time.June, 1, 9, 5, 0, 0, tokyo)
	tag := func(at time.Time, format string) string {
		return fmt.Sprintf(`<tg-time unix="%d" format="%s">%s UTC</tg-time>`, at.Unix(), format, at.UTC().Format("2006-01-02 15:04:05"))
	}
	lines := []string{
		"t " + tag(next, "t"), "T " + tag(next, "T"), "june " + tag(june, "t"),
		"d " + tag(next, "d"), "d this year " + tag(june, "d"), "D " + tag(next, "D"),
		"w " + tag(next, "w"), "wDT " + tag(next, "wDT"),
		"in 3 h " + tag(now.Add(3*time.Hour+30*time.Second), "r"), "5 min ago " + tag(now.Add(-5*time.Minute), "r"),
		"plain " + tag(next, ""),
	}
	msg := botSays(t, pg, office.ID, strings.Join(lines, "\n"))

	y, yy := next.Year(), next.Year()%100
	wants := map[string][]string{
		"en": {"6:43 PM", "6:43:05 PM", "9:05 AM",
			fmt.Sprintf("3/17/%02d", yy), "6/1", fmt.Sprintf(inMarch["en"], y),
			weekdays["en"][next.Weekday()], fmt.Sprintf("%s, 6:43:05 PM, "+inMarch["en"], weekdays["en"][next.Weekday()], y),
			"in 3 hours", "5 minutes ago"},
		"ru": {"18:43", "18:43:05", "09:05",
			fmt.Sprintf("17.03.%02d", yy), "01.06", fmt.Sprintf(inMarch["ru"], y),
			weekdays["ru"][next.Weekday()], fmt.Sprintf("%s, 18:43:05, "+inMarch["ru"], weekdays["ru"][next.Weekday()], y),
			"через 3 часа", "5 минут назад"},
		"uk": {"18:43", "18:43:05", "09:05",
			fmt.Sprintf("17.03.%02d", yy), "01.06", fmt.Sprintf(inMarch["uk"], y),
			weekdays["uk"][next.Weekday()], fmt.Sprintf("%s, 18:43:05, "+inMarch["uk"], weekdays["uk"][next.Weekday()], y),
			"через 3 години", "5 хвилин тому"},
	}

	b.run(ctx, "opening the page", chromedp.EmulateViewport(1280, 800), chromedp.Navigate(pg.URL()))
	b.waitFor(ctx, "the page to load", `document.body.dataset.ready === '1' && !!document.querySelector('.chat-item')`)
	// A Ukrainian reader, added in the page.
	b.as(ctx, "Bob")
	b.run(ctx, "adding Оксана",
		chromedp.Click(chromedp.ID("add-user-btn")),
		chromedp.WaitVisible(chromedp.ID("add-user")),
		chromedp.SendKeys(chromedp.ID("new-first"), "Оксана"),
		chromedp.SetValue(chromedp.ID("new-lang"), "uk"),
		chromedp.Click(chromedp.ID("add-user-ok")))
	b.waitFor(ctx, "Оксана selected", `document.querySelector('.sidebar .user[aria-checked="true"]')?.dataset.userName === 'Оксана'`)
	assert.Equal(t, "uk", eval[string](ctx, b, `document.querySelector('.sidebar .user[data-user-name="Оксана"] .lang')?.textContent`),
		"her language shows on her avatar")

	row := messageRowJS(msg.MessageID)
	for _, r := range []struct{ name, lang string }{{"Bob", "en"}, {"Иван", "ru"}, {"Оксана", "uk"}} {
		b.as(ctx, r.name)
		b.openChat(ctx, office.ID)
		b.waitFor(ctx, "the times", row)
		shown := eval[[]string](ctx, b, `[...`+row+`.querySelectorAll('.date-time')].map(s => s.textContent.replace(/[\u202f\u00a0]/g, ' '))`)
		assert.Equal(t, wants[r.lang], shown, "%s reads in %s", r.name, r.lang)
		text := eval[string](ctx, b, row+`.querySelector('.text').textContent`)
		assert.Contains(t, text, "plain "+next.UTC().Format("2006-01-02 15:04:05")+" UTC", "%s: an entity with no format shows its text", r.name)
		assert.Equal(t, 1, strings.Count(text, " UTC"), "%s: only there", r.name)
	}

	// A relative time counts down: a minute from now, then seconds.
	soon := botSays(t, pg, office.ID, "soon "+tag(time.Now().Add(62*time.Second), "r"))
	b.as(ctx, "Bob")
	soonJS := messageRowJS(soon.MessageID) + `?.querySelector('.date-time')?.textContent`
	b.waitFor(ctx, "a minute from now", soonJS+` === 'in 1 minute'`)
	b.waitFor(ctx, "seconds, as time passes", `/^in \d+ seconds$/.test(`+soonJS+`)`)
}
