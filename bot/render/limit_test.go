package render

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/award"
)

func TestGoldenLongNames(t *testing.T) {
	for _, lang := range i18n.Langs() {
		style, ok := map[i18n.Lang]string{i18n.EN: "ascii", i18n.RU: "cyrillic", i18n.UK: "cyrillic"}[lang]
		require.True(t, ok, "%s: which names does it write?", lang)
		p := fullLog(t, longNames(style))
		require.Len(t, p.Table.Log(), 9, "the whole game's nine duels")
		in := p.input(lang)
		m := Table(in)
		assert.LessOrEqual(t, visibleLen(m.Text), MaxText)
		golden(t, "long_names."+string(lang), dump(m))
		// The same state with less room: the oldest log lines go first.
		golden(t, "long_names_trimmed."+string(lang), fit(in, 1800))
	}
}

// checkMessage asserts what every table message must hold.
func checkMessage(t *testing.T, in Input, m message.Message, context string) {
	t.Helper()
	n := visibleLen(m.Text)
	assert.LessOrEqual(t, n, MaxText, "%s: %d characters", context, n)
	assert.Positive(t, n, context)
	checkHTML(t, m.Text, context)
	for _, row := range m.Keyboard {
		assert.NotEmpty(t, row, context)
		assert.True(t, len(row) == 1 || fits([][]message.Button{row}), "%s: a phone cuts a label of the row %v", context, row)
		for _, b := range row {
			assert.NotEmpty(t, b.Text, context)
			d, err := callback.Parse(b.Data)
			if !assert.NoError(t, err, "%s: button %q", context, b.Text) {
				continue
			}
			if d.Action.TableAction() {
				assert.Equal(t, in.Table.Version(), d.Version, "%s: button %q carries the version", context, b.Text)
			}
		}
	}
}

// tagRE matches the tags the bot's messages use: <b>, <code>, the tg-time
// of a deadline (timeTag) and the mention of a user (Nudge).
var tagRE = regexp.MustCompile(`<(/?)(b|code|tg-time|a)((?: unix="[1-9][0-9]*" format="[tTdDw]+"| href="tg://user\?id=[1-9][0-9]*")?)>`)

// entityRE matches the entities escape writes.
var entityRE = regexp.MustCompile(`&(amp|lt|gt|quot);`)

// checkHTML asserts that html holds only balanced <b>, <code>, <tg-time>
// and <a> tags, the last two with their attributes, a tg-time nested in
// nothing but <b>, and escaped text.
func checkHTML(t *testing.T, html, context string) {
	t.Helper()
	var open []string
	for _, m := range tagRE.FindAllStringSubmatch(html, -1) {
		closing, name, attrs := m[1] == "/", m[2], m[3]
		if closing {
			if assert.NotEmpty(t, open, "%s: %s closes nothing", context, m[0]) {
				assert.Equal(t, name, open[len(open)-1], context)
				open = open[:len(open)-1]
			}
			continue
		}
		assert.Equal(t, name == "tg-time" || name == "a", attrs != "", "%s: %s has the attributes of its tag", context, m[0])
		assert.Equal(t, name == "a", strings.HasPrefix(attrs, " href"), "%s: %s has the attributes of its tag", context, m[0])
		if name == "tg-time" {
			assert.True(t, len(open) == 0 || open[len(open)-1] == "b", "%s: a tg-time nests in <b> only", context)
		} else {
			assert.Empty(t, open, "%s: tags do not nest here", context)
		}
		open = append(open, name)
	}
	assert.Empty(t, open, "%s: unclosed tags", context)
	rest := entityRE.ReplaceAllString(tagRE.ReplaceAllString(html, ""), "")
	assert.NotContains(t, rest, "<", context)
	assert.NotContains(t, rest, ">", context)
	assert.NotContains(t, rest, "&", context)
}

func TestEveryScenarioStateFitsWithLongNames(t *testing.T) {
	all := append([]scenario{{"full_log", fullLog}}, scenarios...)
	for _, style := range nameStyles {
		for _, sc := range all {
			p := sc.play(t, longNames(style))
			for i, st := range p.States {
				for _, lang := range i18n.Langs() {
					in := p.inputFor(st, lang)
					checkMessage(t, in, Table(in), style+"/"+sc.name+"/"+string(lang)+"/"+st.Phase().String()+"#"+string(rune('0'+i%10)))
				}
			}
		}
	}
}

// TestEveryAwardFits: a game in which every player earned every
// achievement still fits, with the longest names, in the lobby after it,
// the table it closed and its record, and every player's line of awards
// is shown.
func TestEveryAwardFits(t *testing.T) {
	for _, style := range nameStyles {
		for _, sc := range []scenario{{"full_log", fullLog}, {"record", record}, {"closed_cancelled", closedCancelled}} {
			p := sc.play(t, longNames(style))
			require.True(t, p.Table.Finished(), sc.name)
			p.awards = nil
			for _, u := range []game.UserID{alice, bob, carol, dave} {
				p.award(u, award.All()...)
			}
			for _, lang := range i18n.Langs() {
				in := p.input(lang)
				context := style + "/" + sc.name + "/" + string(lang)
				for _, m := range []message.Message{Table(in), Summary(in)} {
					checkMessage(t, in, m, context)
					assert.Equal(t, 4, strings.Count(m.Text, "🏅"), context)
					assert.Contains(t, m.Text, achievementList(lang, award.All()), context)
				}
			}
		}
	}
}

func TestNamesAreEscaped(t *testing.T) {
	names := map[game.UserID]string{alice: `<b>&"A`, bob: `</b><i>B&amp;`, carol: "C<", dave: "D>", eve: "E&"}
	for _, sc := range append([]scenario{{"full_log", fullLog}}, scenarios...) {
		p := sc.play(t, names)
		for _, st := range p.States {
			in := p.inputFor(st, i18n.EN)
			m := Table(in)
			checkHTML(t, m.Text, sc.name)
			assert.NotContains(t, m.Text, `<b>&"A`, sc.name)
			if st.NumSeats() > 0 && st.Phase() == game.Lobby {
				assert.Contains(t, m.Text, "&lt;b&gt;&amp;&quot;A", sc.name)
			}
		}
	}
}

func TestFitLeavesOutTheOldestLogLinesFirstThenShortensNames(t *testing.T) {
	p := fullLog(t, longNames("ascii"))
	in := p.input(i18n.EN)
	lines := build(in, namer{})
	whole := join(lines)
	var logs []string
	var logLines []line
	for _, l := range lines {
		if l.log {
			logs = append(logs, l.html)
			logLines = append(logLines, l)
		}
	}
	require.Len(t, logs, 9+2, "nine duels and two knocks")
	assert.Equal(t, whole, fit(in, visibleLen(whole)), "what fits is left alone")

	kept := len(logs)
	for limit := visibleLen(whole) - 1; limit > 0; limit-- {
		got, ok := trimLog(lines, i18n.EN, limit)
		if !ok {
			assert.Zero(t, kept, "limit %d: the log was left out whole before giving up", limit+1)
			break
		}
		require.LessOrEqual(t, visibleLen(got), limit)
		n := 0
		for n < len(logs) && strings.Contains(got, logs[len(logs)-1-n]) {
			n++
		}
		for _, l := range logs[:len(logs)-n] {
			assert.NotContains(t, got, l, "limit %d: only the newest lines stay", limit)
		}
		assert.LessOrEqual(t, n, kept, "limit %d: fewer lines as the room shrinks", limit)
		kept = n
		// The marker counts the results left out and says what they did
		// to the bank: from the first bank to the bank the lines kept
		// start from.
		dropped := logLines[:len(logLines)-n]
		results := 0
		for _, l := range dropped {
			results += l.results
		}
		end := dropped[len(dropped)-1].to
		assert.Contains(t, got, escape(trimmed(i18n.EN, results, 10, end)), "limit %d", limit)
		if n > 0 {
			first := logLines[len(logLines)-n]
			assert.Equal(t, end, first.from, "limit %d: the lines kept go on from the marker", limit)
			assert.Positive(t, first.results, "limit %d: no knock right after the marker", limit)
		}
	}
	assert.Contains(t, escape(trimmed(i18n.EN, 3, 10, 80)), "3\u00a0earlier results hidden. In them the bank went from 10 to 80.")
	assert.Contains(t, trimmed(i18n.RU, 1, 10, 10), "скрыто: 1\u00a0предыдущий результат. За это время банк не изменился: 10.")

	// With less room than the text without a log, names are shortened.
	short := fit(in, 1200)
	assert.LessOrEqual(t, visibleLen(short), 1200)
	assert.Contains(t, short, ellipsis+" ")
	checkHTML(t, short, "short")
	for limit := 1; limit < 300; limit += 7 {
		got := fit(in, limit)
		assert.LessOrEqual(t, visibleLen(got), limit, "limit %d", limit)
		checkHTML(t, got, "tiny")
	}
}

func TestVisibleLen(t *testing.T) {
	tests := []struct {
		html string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"<b>abc</b>", 3},
		{"a &lt;b&gt; &amp; &quot;", 9},
		{"1\u202f000", 5},
		{"🃏", 2},
		{"Ж", 1},
		{"<code>3f</code>\n<b>x</b>", 4},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, visibleLen(tt.html), tt.html)
	}
	assert.Equal(t, `x &lt;b&gt;&amp;&quot;`, escape(`x <b>&"`))
	assert.Equal(t, `x <b>&"`, plainText(escape(`x <b>&"`)))
	assert.Equal(t, "ab", plainText("<b>a</b><code>b</code>"))
}

func TestRandomPlayAlwaysFits(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 21))
	for seed := range 30 {
		names := longNames(nameStyles[seed%len(nameStyles)])
		p := newPlay(t, game.NewRand(rand.NewPCG(uint64(seed), 9)), names)
		for step := 0; step < 300; step++ {
			cmd := game.Command{Kind: game.CommandKind(1 + r.IntN(10)), User: game.UserID(1 + r.IntN(5))}
			cmd.Name = names[cmd.User]
			if cmd.Kind == game.Bet {
				if offers := p.Table.Offers(p.Bal[cmd.User]); len(offers) > 0 {
					cmd.Amount = offers[r.IntN(len(offers))].Amount
				}
			}
			if cmd.Kind == game.Cancel && r.IntN(8) > 0 || cmd.Kind == game.Leave && r.IntN(3) > 0 {
				continue
			}
			cmd.Target = game.UserID(1 + r.IntN(5))
			if r.IntN(6) == 0 {
				p.after(2 * time.Minute)
			}
			next, out, err := game.Apply(p.Table, cmd, p.Env)
			if err != nil {
				continue
			}
			for _, tr := range out.Transfers {
				p.Bal[tr.User] += tr.Amount
			}
			p.Table = next
			for _, lang := range i18n.Langs() {
				in := p.input(lang)
				checkMessage(t, in, Table(in), "random")
			}
		}
	}
}

func TestKeyboardShowsThePhasesButtonsOnly(t *testing.T) {
	actions := func(m message.Message) []callback.Action {
		var as []callback.Action
		for _, row := range m.Keyboard {
			for _, b := range row {
				d, err := callback.Parse(b.Data)
				require.NoError(t, err)
				as = append(as, d.Action)
			}
		}
		return as
	}
	j, l, s, b, h, d, n, v := callback.Join, callback.Leave, callback.Start, callback.Bet, callback.Hit, callback.Stand, callback.NewTable, callback.Verify
	seat, unseat := callback.SeatHouse, callback.UnseatHouse
	tests := []struct {
		sc   scenario
		want []callback.Action
	}{
		{scenarios[0], []callback.Action{j, l, s, seat}},
		{scenario{"lobby_full", func(t testing.TB, n map[game.UserID]string) *play { return full(t, n, nil) }},
			[]callback.Action{l, s}},
		{scenario{"bank_broken", bankBroken}, []callback.Action{l, s, v}},
		{scenario{"lobby_after_game", lobbyAfterGame}, []callback.Action{j, l, s, seat, v}},
		{scenario{"house_lobby", func(t testing.TB, n map[game.UserID]string) *play { return houseLobby(t, n, nil) }},
			[]callback.Action{j, l, s, unseat}},
		{scenario{"house_thinking", houseThinking}, nil},
		{scenario{"house_banker", houseBanker}, []callback.Action{b, b}},
		{scenario{"betting", betting}, []callback.Action{b, b}},
		{scenario{"drawing", drawing}, []callback.Action{h, d}},
		{scenario{"closed_timeout", closedTimeout}, []callback.Action{n}},
		{scenario{"closed_cancelled", closedCancelled}, []callback.Action{n, v}},
	}
	for _, tt := range tests {
		m := Table(tt.sc.play(t, plainNames[i18n.EN]).input(i18n.EN))
		assert.Equal(t, tt.want, actions(m), tt.sc.name)
	}
	assert.Empty(t, actions(Table(Input{Lang: i18n.EN})), "a table never opened has no version for a button to carry")
	// Start shares a row with Join and Leave; Play again, too long for a
	// third of a phone's row, gets a row of its own (in Russian too), and
	// so does the house's button.
	assert.Equal(t, [][]string{{"Join", "Leave", "Start ▶"}, {"🤖 Seat the house"}},
		labels(Table(lobby(t, plainNames[i18n.EN], nil).input(i18n.EN))))
	assert.Equal(t, [][]string{{"Join", "Leave"}, {"Play again ▶"}, {"🤖 Seat the house"}, {"🔐 Check the deck"}},
		labels(Table(lobbyAfterGame(t, plainNames[i18n.EN]).input(i18n.EN))))
	assert.Equal(t, [][]string{{"Сесть", "Встать"}, {"Сыграть ещё ▶"}, {"🤖 Позвать бота"}, {"🔐 Проверить колоду"}},
		labels(Table(lobbyAfterGame(t, plainNames[i18n.RU]).input(i18n.RU))))
	forbidden := lobby(t, plainNames[i18n.EN], nil).input(i18n.EN)
	forbidden.HouseForbidden = true
	assert.Equal(t, [][]string{{"Join", "Leave", "Start ▶"}}, labels(Table(forbidden)), "the house forbidden: not offered")
}

// labels returns the labels of a message's buttons, row by row.
func labels(m message.Message) [][]string {
	var out [][]string
	for _, row := range m.Keyboard {
		var r []string
		for _, b := range row {
			r = append(r, b.Text)
		}
		out = append(out, r)
	}
	return out
}

func TestBetButtonsMatchTheOffers(t *testing.T) {
	p := knock(t, plainNames[i18n.EN])
	in := p.input(i18n.EN)
	turn, ok := in.Table.Turn()
	require.True(t, ok)
	offers := in.Table.Offers(in.Balances[in.Table.Seat(turn).User])
	var amounts []int64
	for _, row := range Table(in).Keyboard {
		assert.LessOrEqual(t, len(row), 3, "at most three bets to a row")
		for _, b := range row {
			d, err := callback.Parse(b.Data)
			require.NoError(t, err)
			assert.Equal(t, callback.Bet, d.Action)
			amounts = append(amounts, d.Amount)
			assert.True(t, strings.HasPrefix(b.Text, i18n.Number(d.Amount)), "the amount comes first: %q", b.Text)
		}
	}
	require.Len(t, amounts, len(offers))
	for i, o := range offers {
		assert.Equal(t, o.Amount, amounts[i])
	}
	// Bank 80: a share of it says so, and the labels that do not fit
	// three to a phone's row get rows of two.
	assert.Equal(t, [][]string{{"10", "20"}, {"40 · ½ bank", "50"}, {"80 · bank"}}, labels(Table(in)))
	assert.Equal(t, [][]string{{"10", "20"}, {"40 · ½ банка", "50"}, {"80 · ва-банк"}}, labels(Table(p.input(i18n.RU))))
	// A player whose balance caps the bets: the cap reads "all in".
	p.Bal[bob] = 35
	assert.Equal(t, [][]string{{"10", "20", "35 · all in"}}, labels(Table(p.input(i18n.EN))))
}

func TestJoinKeepsOneBlankLineBetweenSections(t *testing.T) {
	a, b := text("a"), text("b")
	tests := []struct {
		name  string
		lines []line
		want  string
	}{
		{"no blank", []line{a, b}, "a\nb"},
		{"one blank", []line{a, blank, b}, "a\n\nb"},
		{"two blanks", []line{a, blank, blank, b}, "a\n\nb"},
		{"three blanks", []line{a, blank, blank, blank, b}, "a\n\nb"},
		{"blanks at either end", []line{blank, blank, a, blank, blank}, "a"},
		{"only blanks", []line{blank, blank}, ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, join(tt.lines), tt.name)
	}
}
