package render

import (
	"github.com/twentyone-bot/twentyone/bot/button"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
)

// Summary draws the record a finished game leaves in the chat once the next
// game has started in a message of its own: how each duel ended, who took
// the bank, what each player won or lost, the achievements earned, and the
// deck check, with a button that shows the game's decks. in.Table is the
// table as the game left it (the lobby after it, or the table it closed:
// game.Table.Finished).
func Summary(in Input) message.Message {
	t := &in.Table
	var kb [][]message.Button
	if _, ok := t.Revealed(); ok {
		verify, _ := button.Of(callback.Verify)
		kb = [][]message.Button{verify.Draw(button.State{Table: t, Lang: in.Lang})}
	}
	return message.Message{Text: fitWith(in, MaxText, buildSummary), Keyboard: kb}
}

func buildSummary(in Input, name namer) []line {
	v := &view{in: in, t: &in.Table, lang: in.Lang, name: name}
	lines := []line{text(bold(v.tr(i18n.SummaryTitle, i18n.Number(int64(v.t.Game())))))}
	if log := v.log(false); len(log) > 0 {
		lines = append(lines, blank)
		lines = append(lines, log...)
	}
	if v.t.Finished() {
		lines = append(lines, blank)
		lines = append(lines, v.summary()...)
	}
	return lines
}
