package button

import (
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
)

// Line is a line of a table's keyboard: buttons to lay out in their
// order, at most PerRow to a row (the renderer lays them out to fit a
// phone).
type Line struct {
	PerRow  int
	Buttons []message.Button
}

// Keyboard returns the buttons of a table's message in state s, line by
// line, top to bottom: the rows that show in s (Row.Shows), each drawn
// for s (Row.Draw). A table never opened shows only the buttons that
// open one; a table opened, only buttons that carry its version.
func Keyboard(s State) []Line {
	var out []Line
	for _, l := range layout(s.Kind) {
		var buttons []message.Button
		for _, a := range l.actions {
			if r := byAction[a]; r.Shows(s) {
				buttons = append(buttons, r.Draw(s)...)
			}
		}
		if len(buttons) > 0 {
			out = append(out, Line{PerRow: l.perRow, Buttons: buttons})
		}
	}
	return out
}

// Shows reports whether the row's button shows on a table's message in
// state s: the table's keyboard draws it (no DrawnBy), on that kind, at
// that phase, opened or not as the row says, and If holds.
func (r Row) Shows(s State) bool {
	switch {
	case r.DrawnBy != "", !r.Kinds.Has(s.Kind), !r.Phases.Has(s.Table.Phase()):
		return false
	case (s.Table.Version() == 0) != r.Unopened:
		return false
	}
	return r.If == nil || r.If(s)
}

// Draw returns the row's buttons in state s: one, labelled in s.Lang and
// carrying the table's version (or, Unopened, the settings a table opens
// with; or, OpenApp, the link s.App and no data), or, PerOffer, one per
// bet offered, or, with TapLabels, one per label.
func (r Row) Draw(s State) []message.Button {
	if r.Does == OpenApp {
		b := message.Button{Text: i18n.T(s.Lang, r.label(s)), URL: s.App, Style: r.Style}
		if s.Kind == Solo {
			b.URL, b.WebApp = "", s.App
		}
		return []message.Button{b}
	}
	t := s.Table
	d := callback.Data{Action: r.Action, Version: t.Version(), Game: t.Game()}
	if r.Unopened {
		d.Amount, d.Entry, d.Lang = s.Settings.Stake, s.Settings.EntryLimit, string(s.Lang)
	}
	if len(r.TapLabels) > 0 {
		buttons := make([]message.Button, len(r.TapLabels))
		for i, l := range r.TapLabels {
			d.Tap = i + 1
			buttons[i] = message.Button{Text: i18n.T(s.Lang, l), Data: d.String(), Style: r.Style}
		}
		return buttons
	}
	if !r.PerOffer {
		return []message.Button{{Text: i18n.T(s.Lang, r.label(s)), Data: d.String(), Style: r.Style}}
	}
	turn, ok := t.Turn()
	if !ok {
		return nil
	}
	offers := t.Offers(s.Balances[t.Seat(turn).User])
	buttons := make([]message.Button, len(offers))
	for i, o := range offers {
		d.Amount = o.Amount
		buttons[i] = message.Button{Text: i18n.Bet(s.Lang, o, t.Bank()), Data: d.String()}
	}
	if len(buttons) > 0 {
		// The smallest, the bet every player can make whatever their luck.
		buttons[0].Style = r.Style
	}
	return buttons
}

// label is the row's label in state s.
func (r Row) label(s State) i18n.Key {
	switch {
	case r.SoloLabel != "" && s.Kind == Solo:
		return r.SoloLabel
	case r.AgainLabel != "" && s.Table.Finished():
		return r.AgainLabel
	}
	return r.Label
}
