// Package appgate is the Mini App's way into the running bot: what the
// app's HTTP server (bot/webapp) asks of it, made of the bot's own rooms.
//
//   - Views (webapp.Views, live.Views): a viewer's view of a table, made by
//     bot/webapp/view from what the store holds, as the chat's message is
//     made by render from the same storage.View.
//   - Actor (webapp.Actor): an action, taken on the one path of a press
//     (input.Handler.Act) on the table's chat's goroutine, as the bot runs
//     every update of the chat; its answer as the app's server wants it.
//   - Members (webapp.Members): who may open a table (members.go).
//   - Viewers (table.Viewers): the live push (live.Hub) told of every
//     version the table keeper shows.
//
// The bot builds its Actor (bot.Bot.App) and Members (bot.Bot.AppMembers),
// which ask Telegram through its sender; whoever builds the app's server
// (bot/service) builds the Views and the Viewers over the same store.
package appgate

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/bot/webapp"
	"github.com/twentyone-bot/twentyone/bot/webapp/live"
	"github.com/twentyone-bot/twentyone/bot/webapp/view"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// Store is what a view reads (storage.Store).
type Store interface {
	// View returns a table as it is now (a table never opened: version 0).
	View(ctx context.Context, key storage.TableKey) (storage.View, error)
	// Standing returns a user's line of the chat's leaderboard: their
	// balance (storage.ErrNotFound for a user the chat never saw).
	Standing(ctx context.Context, chat int64, user game.UserID) (storage.Standing, error)
}

// Views makes the viewers' views from the store: webapp.Views and
// live.Views.
type Views struct {
	Store Store
}

// View returns the table's version and the viewer's whole view of it, as
// JSON: the table as the chat's message draws it (render.Input from the
// storage.View, the chat's settings and language), the viewer's balance
// among the seated players' even when they sit nowhere (their standing in
// the chat; none for a user the chat never saw), and their actions. A
// table never opened is an error wrapping webapp.ErrNoTable. It only
// reads, in one transaction of the store's, and may be called from any
// goroutine.
func (vs Views) View(ctx context.Context, key storage.TableKey, v live.Viewer) (uint64, []byte, error) {
	sv, err := vs.Store.View(ctx, key)
	if err != nil {
		return 0, nil, err
	}
	if sv.Table.Version() == 0 {
		return 0, nil, webapp.ErrNoTable
	}
	user := game.UserID(v.User)
	if sv.Balances == nil {
		sv.Balances = map[game.UserID]int64{}
	}
	if _, ok := sv.Balances[user]; !ok {
		st, err := vs.Store.Standing(ctx, sv.Key.Chat, user)
		switch {
		case err == nil:
			sv.Balances[user] = st.Balance
		case !errors.Is(err, storage.ErrNotFound):
			return 0, nil, err
		}
	}
	body, err := json.Marshal(view.Make(view.Input{
		Input: render.Input{Table: sv.Table, Settings: sv.Settings.Game, Balances: sv.Balances, Names: sv.Names,
			HouseForbidden: sv.Settings.HouseForbidden, Solo: sv.Key.Chat > 0, Inline: sv.Inline != nil},
		ChatLanguage: sv.Settings.Language,
		Viewer:       view.Viewer{User: user, LanguageCode: v.Lang},
	}))
	return sv.Table.Version(), body, err
}
