package input

import (
	"context"
	"errors"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/button"
	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/fault"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// Act is an action at a table: what a press of one of its buttons asks,
// or the same asked from elsewhere (the Mini App), taking the same path
// (Handler.Act). Nothing in it is trusted but From, whom its caller
// vouches for (Telegram's callback query, or initData it checked).
type Act struct {
	// Key is the table acted at.
	Key storage.TableKey
	// From is who acts, as the store keeps them (Profile).
	From storage.User
	// Data is the button's data, parsed by callback.Parse: the same string
	// a button of the table carries, for the table's version.
	Data callback.Data
	// UpdateID is the update that carries the act, whose delivery again
	// storage answers with storage.ErrDuplicate; 0 for an act that comes
	// in no update (the app's): an act repeated is then caught by the
	// version, as a double tap is.
	UpdateID int
	// Chat is the chat the table's message is in, as Telegram gave it;
	// nil for a table on an inline message, whose chat the bot is not in
	// (no new message can go there: a new table stays in the message,
	// and no notice announces it).
	Chat *tgbotapi.Chat
	// Inline is, for an inline message, the record an act that opens the
	// table gives it (storage.ApplyRequest.Inline): the preset its
	// caller checked. An act of a row that opens an inline message's
	// table (button.OpenInline) without it is refused.
	Inline *storage.Inline
	// Answer, if set, is called once with the answer, before the table is
	// shown (a press's answer goes before its render is queued), but for
	// the house's buttons, whose table is shown first.
	Answer func(ctx context.Context, text string, alert bool)
}

// Acted is how an Act went: the answer a press gets.
type Acted struct {
	// Text is the answer's text (a toast, or an alert); "" for none, as
	// for an act delivered again whose first answer was silent.
	Text string
	// Alert: the answer is an alert to dismiss, not a toast.
	Alert bool
	// Applied: the act changed the table (and View shows it).
	Applied bool
	// View is the table as the act left it, or as it found it when the
	// store read it before refusing it; the zero View when it was not
	// read (a stand-in, a bad button).
	View storage.View
}

// ErrBadAct: the act is not one of the table's: its data names no button
// of that kind of table (button.For), gives a versioned button no version
// (game.Apply checks no version given as 0), or opens an inline message's
// table without its preset; or who acts is one of Telegram's stand-ins
// (an anonymous admin, a channel), who never act at a table.
var ErrBadAct = errors.New("input: not an act of this table")

// ErrRefused: the table's rules refused the act in a way no game error
// names (the house's buttons: seatHouse); Acted says why.
var ErrRefused = errors.New("input: the act is refused")

// Act applies an act at a table as its button's row says (button.Row:
// its command, and the fields that say how), through the one path every
// press takes: game.Command, TableStore.Apply (one transaction with the
// ledger and the fairness record), the double-tap memory, and
// table.Keeper.Show for the chat's message. It returns the answer, and
// nil when the act applied, else why not: ErrBadAct, ErrRefused, or the
// error of the store (game's errors: game.ErrOutdated for an act drawn for
// another version, game.ErrNotSeated, ...; storage.ErrDuplicate for an
// update delivered again), for errors.Is. A refused act changes nothing.
// Who may act is checked against the stored table by game.Apply (the
// house's buttons: by seatHouse). An act delivered again gets the answer
// the first one got, a double tap the first tap's toast.
//
// Run it on the table's chat's goroutine, as every press is: a caller
// outside an update gets there as the table timers do, through the bot's
// Host.OnChat (table.Host), waiting for its answer with a deadline.
func (h *Handler) Act(ctx context.Context, a Act) (Acted, error) {
	acted, err := h.act(ctx, a)
	if a.Answer != nil && !acted.answered {
		a.Answer(ctx, acted.Text, acted.Alert)
	}
	return acted.Acted, err
}

// acted is an Acted, and whether Act.Answer was told it already.
type acted struct {
	Acted
	answered bool
}

// act is Act but for the answer not yet given.
func (h *Handler) act(ctx context.Context, a Act) (acted, error) {
	key, data, from := a.Key, a.Data, a.From
	row, ok := button.For(data.Action, actKind(a.Chat))
	switch {
	case botapi.StandIn(int64(from.ID)):
		return acted{Acted: Acted{Text: i18n.T(h.actorLang(ctx, key.Chat, from), i18n.PopAnonymous), Alert: true}}, ErrBadAct
	case !ok || !tableEffects[row.Does] || row.Versioned && data.Version == 0 || row.Does == button.OpenInline && a.Inline == nil:
		return acted{Acted: Acted{Text: i18n.T(h.actorLang(ctx, key.Chat, from), i18n.PopBadButton)}}, ErrBadAct
	case row.Does == button.House:
		return h.actHouse(ctx, a, row.Command == game.Leave)
	}
	inChat := a.Chat != nil
	cmd := game.Command{Kind: row.Command, User: from.ID, Name: from.Name, Version: data.Version}
	if row.BetAmount {
		cmd.Amount = data.Amount
	}
	if row.CutsTap {
		cmd.Text = callback.TapText(data.Tap)
	}
	req := h.request(key, a.UpdateID, from, cmd)
	if row.ButtonLang {
		req.Language = data.Lang
	}
	req.Inline = a.Inline
	// An inline message stays where it is: it cannot be posted anew.
	req.Repost = row.Repost && inChat
	if row.OpensSolo && inChat {
		if err := h.solo(ctx, a.Chat, &req); err != nil {
			fault.Log(ctx, h.log, "new table", key, err)
			return acted{Acted: Acted{Text: i18n.T(h.actorLang(ctx, key.Chat, from), i18n.PopError)}}, err
		}
	}
	res, err := h.tables.Apply(ctx, req)
	if row.FallsBackToJoin && errors.Is(err, game.ErrTableOpen) {
		cmd = game.Command{Kind: game.Join, User: from.ID, Name: from.Name, Version: res.Table.Version()}
		req = h.request(key, a.UpdateID, from, cmd)
		res, err = h.tables.Apply(ctx, req)
	}
	lang := i18n.ForPresser(res.Settings.Language, from.Language)
	if err != nil {
		return acted{Acted: h.refused(ctx, a, lang, row, cmd, res, err)}, err
	}
	out := Acted{Text: pressToast(lang, row, cmd, res), Applied: true, View: res.View}
	if row.OpensSolo && inChat {
		if why := h.houseAbsent(ctx, res, lang); why != "" {
			out.Text, out.Alert = why, true
		}
	}
	h.presses.remember(key, from.ID, data, out.Text)
	if a.Answer != nil {
		a.Answer(ctx, out.Text, out.Alert)
	}
	if row.Announces && inChat {
		h.showOpened(res.View, from, a.Chat)
	} else {
		h.rooms.Tables.Show(res.View)
	}
	return acted{Acted: out, answered: true}, nil
}

// refused is the answer to an act the store refused with err, res what it
// read.
func (h *Handler) refused(ctx context.Context, a Act, lang i18n.Lang, row button.Row, cmd game.Command, res storage.Applied, err error) Acted {
	out := Acted{View: res.View}
	if errors.Is(err, storage.ErrDuplicate) {
		// Delivered again (after a crash, before its answer): the same
		// answer as the first time, from what storage kept of it.
		out.Text = pressToast(lang, row, cmd, res)
		return out
	}
	if errors.Is(err, game.ErrOutdated) {
		if text, ok := h.presses.again(a.Key, a.From.ID, a.Data, res.Table.Version()); ok {
			// A double tap: the second press of a button the first one
			// took away. It is told nothing new: the first one's toast,
			// or nothing where that was silent.
			out.Text = text
			return out
		}
		if text, ok := staleCut(lang, row, &res.Table); ok {
			out.Text = text
			return out
		}
	}
	out.Text, out.Alert = h.rejection(ctx, lang, err, res.View, a.From.ID)
	return out
}

// actHouse applies an act of the lobby's buttons that seat and, with
// unseat, stand up the house (button.House; seatHouse shows the table). A
// double tap is answered as the first tap was (see presses).
func (h *Handler) actHouse(ctx context.Context, a Act, unseat bool) (acted, error) {
	l := h.actorLang(ctx, a.Key.Chat, a.From)
	ans := h.seatHouse(ctx, a.Key, a.UpdateID, a.From.ID, a.Data.Version, unseat, l)
	out := Acted{Text: ans.text, Alert: ans.alert, Applied: ans.applied, View: ans.view}
	switch {
	case ans.applied:
		h.presses.remember(a.Key, a.From.ID, a.Data, ans.text)
		return acted{Acted: out}, nil
	case ans.outdated:
		if text, ok := h.presses.again(a.Key, a.From.ID, a.Data, ans.version); ok {
			out.Text, out.Alert = text, false
		}
		return acted{Acted: out}, game.ErrOutdated
	case ans.err != nil:
		return acted{Acted: out}, ans.err
	}
	return acted{Acted: out}, ErrRefused
}

// actKind is the kind of the message a table is shown in (button.Kinds),
// by its chat: an inline message's without one.
func actKind(c *tgbotapi.Chat) button.Kinds {
	if c == nil {
		return button.Inline
	}
	return chatKind(c)
}

// actorLang returns the language of an answer only the actor sees: their
// own when the bot speaks it (i18n.ForPresser), as presserLang.
func (h *Handler) actorLang(ctx context.Context, chat int64, from storage.User) i18n.Lang {
	return i18n.ForPresser(h.chatSetting(ctx, chat), from.Language)
}
