package appgate

import (
	"context"
	"errors"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/button"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/input"
	"github.com/twentyone-bot/twentyone/bot/webapp"
	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// Acts takes an act at a table: the one path of a press (input.Handler).
type Acts interface {
	Act(ctx context.Context, a input.Act) (input.Acted, error)
}

// Host runs work on a chat's goroutine (the bot's, as table.Host).
type Host interface {
	// OnChat runs fn on the chat's goroutine, one piece of work at a time
	// per chat, in the bot's context; it returns at once.
	OnChat(chat int64, kind string, fn func(ctx context.Context))
}

// Chats reads a chat's type and title (send.Sender's getChat).
type Chats interface {
	Chat(ctx context.Context, chat int64) (botapi.ChatInfo, error)
}

// Kind is the kind of the work an action is on its chat's goroutine (the
// bot's metrics count work by kind).
const Kind = "app"

// Actor takes the app's actions: webapp.Actor over the running bot. Its
// methods are safe for concurrent use.
type Actor struct {
	store   Store
	acts    Acts
	host    Host
	chats   Chats
	started <-chan struct{}
}

// NewActor returns the Actor that reads tables from store, acts through
// acts on host's chat goroutines, and asks chats for a group's title when
// an action opens a table there (its followers' notice names the group).
// No action is taken before started is closed (nil: at once): the bot
// takes none before it started (bot.Bot.Start), as it handles no update.
func NewActor(store Store, acts Acts, host Host, chats Chats, started <-chan struct{}) *Actor {
	if started == nil {
		now := make(chan struct{})
		close(now)
		started = now
	}
	return &Actor{store: store, acts: acts, host: host, chats: chats, started: started}
}

// acted is what the chat's goroutine made of an action.
type acted struct {
	acted input.Acted
	err   error
	taken bool // false: ctx ended before its turn came, nothing done
}

// Act applies data at the table key for user, as a press of the button
// that carries data would (webapp.Actor). It waits for the bot's start,
// then for the chat's turn, and returns the answer, as the package
// webapp's Actor says: nil whenever the table answered (applied, or
// refused by its rules: a version drawn for another, not the user's turn,
// a double tap, ...), webapp.ErrBadAct for data of no action of this
// table, an error wrapping webapp.ErrNoTable for a table never opened, or
// ctx's error when its deadline came first. An action whose turn comes
// after ctx ended is not taken; one taken finishes in the bot's context
// (a storage transaction is never cut in half), so that an action whose
// caller stopped waiting meanwhile may yet apply, as a press whose answer
// was lost.
func (a *Actor) Act(ctx context.Context, key storage.TableKey, u initdata.User, data callback.Data) (webapp.Answer, error) {
	sv, err := a.store.View(ctx, key)
	switch {
	case err != nil:
		return webapp.Answer{}, err
	case sv.Table.Version() == 0:
		return webapp.Answer{}, webapp.ErrNoTable
	}
	key = sv.Key // a group that became a supergroup: its new chat, whose goroutine it is
	act := input.Act{Key: key, Data: data, Chat: a.chat(ctx, key.Chat, data),
		From: input.Profile(&tgbotapi.User{ID: u.ID, FirstName: u.FirstName, UserName: u.Username, LanguageCode: u.LanguageCode})}
	select {
	case <-a.started:
	case <-ctx.Done():
		return webapp.Answer{}, ctx.Err()
	}
	done := make(chan acted, 1)
	a.host.OnChat(key.Chat, Kind, func(bctx context.Context) {
		if ctx.Err() != nil {
			done <- acted{}
			return
		}
		r, err := a.acts.Act(bctx, act)
		done <- acted{acted: r, err: err, taken: true}
	})
	var r acted
	select {
	case r = <-done:
	case <-ctx.Done():
		return webapp.Answer{}, ctx.Err()
	}
	if !r.taken {
		return webapp.Answer{}, ctx.Err()
	}
	return answer(r.acted, r.err)
}

// answer is how an act went, as the app's server answers it.
func answer(r input.Acted, err error) (webapp.Answer, error) {
	ans := webapp.Answer{Text: r.Text, Alert: r.Alert, Applied: r.Applied, Version: r.View.Table.Version()}
	switch {
	case err == nil:
		return ans, nil
	case errors.Is(err, input.ErrBadAct):
		return ans, webapp.ErrBadAct
	case errors.Is(err, input.ErrRefused), errors.Is(err, storage.ErrDuplicate), game.Kind(err) != game.KindInternal:
		return ans, nil // refused by the table's rules: answered
	}
	return ans, err
}

// chat is the chat a table's message is in, as an act needs it (input.Act's
// Chat): nil for a table on an inline message; a private chat for a solo
// table; a group by its id (a supergroup's start with -100), with its
// title only when the act opens a table there and announces it to the
// group's followers (one getChat; without an answer the notice names no
// group).
func (a *Actor) chat(ctx context.Context, id int64, data callback.Data) *tgbotapi.Chat {
	switch {
	case storage.InlineChat(id):
		return nil
	case id > 0:
		return &tgbotapi.Chat{ID: id, Type: "private"}
	}
	c := &tgbotapi.Chat{ID: id, Type: "group"}
	if id < -1_000_000_000_000 {
		c.Type = "supergroup"
	}
	if row, ok := button.For(data.Action, button.Group); ok && row.Announces && a.chats != nil {
		if info, err := a.chats.Chat(ctx, id); err == nil {
			c.Type, c.Title = info.Type, info.Title
		}
	}
	return c
}
