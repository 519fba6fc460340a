package render

import (
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

// view is what the text of one render needs at hand.
type view struct {
	in   Input
	t    *game.Table
	lang i18n.Lang
	name namer
}

// tr translates key into the chat's language.
func (v *view) tr(key i18n.Key, args ...any) string { return i18n.T(v.lang, key, args...) }

// who returns the HTML of a user's name: the house's in the chat's
// language, else the current one from Input.Names, else the one the table
// kept.
func (v *view) who(user game.UserID, kept string) string {
	if user == house.ID {
		return escape(v.tr(i18n.HouseName))
	}
	return v.name.html(v.in.current(user, kept))
}

// balance returns the balance of user as text, and whether it is known.
func (v *view) balance(user game.UserID) (string, bool) {
	b, ok := v.in.Balances[user]
	return i18n.Number(b), ok
}

// build returns the lines of the table text, names shortened by name.
func build(in Input, name namer) []line {
	v := &view{in: in, t: &in.Table, lang: in.Lang, name: name}
	switch in.Table.Phase() {
	case game.Lobby:
		return v.lobby()
	case game.Betting, game.Drawing, game.Cutting:
		return v.game()
	}
	return v.closed()
}

// text returns a line of text that is not part of the log.
func text(html string) line { return line{html: html} }

// blank is an empty line between sections.
var blank = line{}
