package bot

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/outbox"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// press handles a button press. Nothing in the callback data is trusted:
// it is parsed strictly, and who may do what is checked against the stored
// table by game.Apply.
func (b *Bot) press(ctx context.Context, u update) {
	q := u.CallbackQuery
	if why := pressProblem(q); why != "" {
		// Nobody to act for, or no chat of ours (an inline-mode message):
		// stop the client's spinner, if there is one, and skip it.
		b.skip(u, why)
		b.answer(q, "", false)
		return
	}
	chat := q.Message.Chat.ID
	if !isGroup(q.Message.Chat) && !q.Message.Chat.IsPrivate() {
		// The bot shows no table or settings in a channel: a press there
		// is forged.
		b.answer(q, i18n.T(b.chatLang(ctx, chat, q.From), i18n.GroupsOnly), true)
		return
	}
	if q.Message.Chat.IsPrivate() {
		// A private chat holds a solo table, and the list of the groups
		// the user follows, whose buttons stop a follow.
		if data, err := callback.Parse(q.Data); err == nil && data.Action == callback.Unfollow {
			b.pressUnfollow(ctx, q, data.Chat, b.chatLang(ctx, chat, q.From))
			return
		}
	}
	if q.Message.Date == 0 {
		b.pressInaccessible(ctx, q)
		return
	}
	key := storage.TableKey{Chat: chat, Thread: int64(u.thread)}
	data, err := callback.Parse(q.Data)
	if err == nil && data.Action.TableAction() {
		b.pressTable(ctx, u, key, data) // the language comes with the table
		return
	}
	lang := b.chatLang(ctx, chat, q.From)
	switch {
	case err != nil:
		b.answer(q, i18n.T(lang, i18n.PopBadButton), false)
	case data.Action == callback.Setting:
		b.pressSetting(ctx, q, key, data, lang)
	case data.Action == callback.SettingInfo:
		b.answer(q, i18n.T(lang, fieldInfo[data.Field]), true)
	case data.Action == callback.Verify:
		b.pressVerify(ctx, q, key, u.thread, data.Game, lang)
	default:
		b.answer(q, i18n.T(lang, i18n.PopBadButton), false)
	}
}

// pressInaccessible answers a press on a message Telegram no longer gives
// the bot: an InaccessibleMessage, with date 0 and nothing but its chat and
// id (Bot API; telegram-bot-api sends it for a message it cannot get:
// deleted, or too old). It names no topic, so it cannot tell which table it
// was drawn for, and the press is applied to none: a press read as one on
// the General table would move that. The table whose message it is (if
// any, and open) is shown again: edited, or where the message was deleted,
// sent anew.
func (b *Bot) pressInaccessible(ctx context.Context, q *tgbotapi.CallbackQuery) {
	chat := q.Message.Chat.ID
	b.answer(q, i18n.T(b.chatLang(ctx, chat, q.From), i18n.PopOutdated), false)
	keys, err := b.store.ChatTables(ctx, chat)
	if err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			b.log.Warn("listing a chat's tables", "chat", chat, "err", err)
		}
		return
	}
	for _, key := range keys {
		v, err := b.store.View(ctx, key)
		if err == nil && v.MessageID == q.Message.MessageID && v.Table.Phase() != game.Closed {
			b.show(v)
			return
		}
	}
}

// pressProblem says what makes a button press senseless, "" when nothing.
// A press by Telegram's stand-in for anonymous admins is not senseless: the
// bot tells them they cannot play.
func pressProblem(q *tgbotapi.CallbackQuery) string {
	switch {
	case q.From == nil:
		return "no from"
	case q.From.ID <= 0:
		return fmt.Sprintf("from user %d", q.From.ID)
	case q.Message == nil:
		return "no message"
	}
	return chatProblem(q.Message.Chat)
}

var fieldInfo = map[string]i18n.Key{
	callback.FieldStake:  i18n.PopInfoStake,
	callback.FieldEntry:  i18n.PopInfoEntry,
	callback.FieldBets:   i18n.PopInfoBets,
	callback.FieldTurn:   i18n.PopInfoTurn,
	callback.FieldLobby:  i18n.PopInfoLobby,
	callback.FieldKnocks: i18n.PopInfoKnocks,
	callback.FieldLang:   i18n.PopInfoLang,
	callback.FieldHouse:  i18n.PopInfoHouse,
}

// answer answers a callback query. It goes straight to the Bot API, not
// through the chat's paced outbox: answers are not rate limited, and the
// player must see the toast at once even while the table's edit waits.
//
// A failure worth a retry (a 5xx, a dropped connection) is retried at once,
// up to answerAttempts in all, while answerRetryWithin has not passed since
// the first try: an unanswered press leaves the player's client spinning
// until it gives up, but a slow failure (a timeout) is not worth the
// chat's queue waiting for it again, and Telegram refuses late answers
// anyway.
func (b *Bot) answer(q *tgbotapi.CallbackQuery, text string, alert bool) {
	start := time.Now()
	var err error
	for range answerAttempts {
		err = b.api.answerCallback(q.ID, text, alert)
		if err == nil || !outbox.IsTemporary(forOutbox(err)) || time.Since(start) > answerRetryWithin {
			break
		}
	}
	if err != nil {
		b.log.Warn("answering a button press", "err", err)
	}
}

// answerAttempts bounds the tries of one callback answer, and
// answerRetryWithin the time after the first try within which a failure is
// tried again.
const (
	answerAttempts    = 3
	answerRetryWithin = 2 * time.Second
)

// tableCommands maps the table buttons to game commands.
var tableCommands = map[callback.Action]game.CommandKind{
	callback.Join:     game.Join,
	callback.Leave:    game.Leave,
	callback.Start:    game.Start,
	callback.Bet:      game.Bet,
	callback.Hit:      game.Hit,
	callback.Stand:    game.Stand,
	callback.NewTable: game.Open,
}

// pressTable applies a table button. Its version must be one the table had:
// game.Apply checks no version given as 0, and a press must never skip
// that check.
func (b *Bot) pressTable(ctx context.Context, u update, key storage.TableKey, data callback.Data) {
	q := u.CallbackQuery
	from := user(q.From)
	switch {
	case standIn(int64(from.ID)):
		b.answer(q, i18n.T(b.chatLang(ctx, key.Chat, q.From), i18n.PopAnonymous), true)
		return
	case data.Version == 0:
		b.answer(q, i18n.T(b.chatLang(ctx, key.Chat, q.From), i18n.PopBadButton), false)
		return
	case data.Action == callback.SeatHouse || data.Action == callback.UnseatHouse:
		b.pressHouse(ctx, u, key, data)
		return
	}
	cmd := game.Command{Kind: tableCommands[data.Action], User: from.ID, Name: from.Name,
		Amount: data.Amount, Version: data.Version}
	req := b.request(key, u.UpdateID, from, cmd)
	// A closed table's message may be far up the chat: its New table opens
	// the lobby at the bottom, as /newgame does, and the old message stays
	// the record of its last game, or goes when it held none.
	req.Repost = data.Action == callback.NewTable
	if cmd.Kind == game.Open {
		// In a private chat, New table opens a solo table, as /newgame.
		if err := b.soloThen(ctx, q.Message.Chat, &req); err != nil {
			b.internal("new table", err)
			b.answer(q, i18n.T(b.chatLang(ctx, key.Chat, q.From), i18n.PopError), false)
			return
		}
	}
	res, err := b.store.Apply(ctx, req)
	if err == nil && cmd.Kind == game.Open {
		b.opened(res.View, from, q.Message.Chat)
	}
	lang := langOf(res.Settings, from.Language)
	if err != nil {
		if errors.Is(err, storage.ErrDuplicate) {
			// Delivered again (after a crash, before its answer): the same
			// answer as the first time, from what storage kept of it.
			b.answer(q, toast(lang, cmd, res.Outcome, &res.Table), false)
			return
		}
		if errors.Is(err, game.ErrOutdated) {
			if text, ok := b.pressedAgain(key, from.ID, data, res.Table.Version()); ok {
				// A double tap: the second press of a button the first
				// one took away. It is told nothing new: the first one's
				// toast, or nothing where that was silent.
				b.answer(q, text, false)
				return
			}
		}
		text, alert := b.rejection(lang, err, res.View, from.ID)
		b.answer(q, text, alert)
		return
	}
	text, alert := toast(lang, cmd, res.Outcome, &res.Table), false
	if cmd.Kind == game.Open {
		if why := b.houseAbsent(res); why != "" {
			text, alert = why, true
		}
	}
	b.remember(key, from.ID, data, text)
	b.answer(q, text, alert)
	b.show(res.View)
}

// pressed is a table's last button press that applied: who pressed what,
// the toast they got, and when.
type pressed struct {
	user  game.UserID
	data  callback.Data
	toast string
	at    time.Time
}

// pressMemory bounds how long a press is remembered once the bot holds
// many: a double tap comes within a second or two.
const pressMemory = time.Minute

// remember records the press that just applied to the table, and the toast
// it got, for pressedAgain.
func (b *Bot) remember(key storage.TableKey, user game.UserID, data callback.Data, toast string) {
	now := b.clock.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.pressed) >= 1024 {
		for k, p := range b.pressed {
			if now.Sub(p.at) >= pressMemory {
				delete(b.pressed, k)
			}
		}
	}
	b.pressed[key] = pressed{user: user, data: data, toast: toast, at: now}
}

// pressedAgain returns the toast of the table's last press that applied,
// when a press by user with data repeats it and nothing else moved the
// table since (it is at the version after the button's); false otherwise,
// or when the bot no longer remembers that press (it restarted).
func (b *Bot) pressedAgain(key storage.TableKey, user game.UserID, data callback.Data, version uint64) (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, ok := b.pressed[key]
	if !ok || p.user != user || p.data != data || version != data.Version+1 {
		return "", false
	}
	return p.toast, true
}

// request is the storage request of cmd made by u in update updateID. It
// carries the language a chat gets when cmd opens its first table: the one
// the bot speaks to u in a chat with none. In a private chat a Leave (the
// solo lobby's Close, or /leave) stands the house up with its player, so
// that the solo table closes (in a game, once it ends) instead of waiting
// with the house alone.
func (b *Bot) request(key storage.TableKey, updateID int, u storage.User, cmd game.Command) storage.ApplyRequest {
	req := storage.ApplyRequest{
		Key: key, UpdateID: int64(updateID), User: u, Command: cmd, Now: b.clock.Now(),
		Language: string(langOf(storage.ChatSettings{}, u.Language)),
	}
	if cmd.Kind == game.Leave && key.Chat > 0 {
		req.Then = &storage.FollowUp{User: houseUser, Command: game.Command{Kind: game.Leave}}
	}
	return req
}

// toast is the short answer to an accepted press. Callback answers are
// not paced, while the table's edit may wait seconds for Telegram's
// pacing, so a toast carries what the player needs now: after Hit, the
// card and the new score; after Stand, the duel's result; after a bet,
// the player's card and the next step; after a start, who bets first. tb
// is the table after the command (for a redelivered press, as it is now).
func toast(lang i18n.Lang, cmd game.Command, out game.Outcome, tb *game.Table) string {
	switch cmd.Kind {
	case game.Join:
		return i18n.T(lang, i18n.PopJoined)
	case game.Leave:
		return i18n.T(lang, i18n.PopLeft)
	case game.Start:
		return startToast(lang, cmd, out, tb)
	case game.Bet:
		return betToast(lang, cmd, tb)
	case game.Hit:
		return hitToast(lang, out)
	case game.Stand:
		for _, e := range out.Events {
			if e.Kind == game.EventDuelEnded {
				return standToast(lang, e.Duel)
			}
		}
	}
	return ""
}

// betToast tells the bet, and while the player is to draw (the table has
// not moved on), their card and the choice they have.
func betToast(lang i18n.Lang, cmd game.Command, tb *game.Table) string {
	amount := i18n.Number(cmd.Amount)
	if i, ok := tb.Turn(); ok && tb.Phase() == game.Drawing && tb.Seat(i).User == cmd.User {
		if h := tb.Seat(i).Hand; h.Len() == 1 {
			return i18n.T(lang, i18n.PopBetCard, amount, i18n.Card(lang, h.Card(0)), strconv.Itoa(h.Score()))
		}
	}
	return i18n.T(lang, i18n.PopBet, amount)
}

// hitToast tells the card drawn and the new score, or how the duel ended.
func hitToast(lang i18n.Lang, out game.Outcome) string {
	for _, e := range out.Events {
		if e.Kind != game.EventDrew {
			continue
		}
		card := i18n.Card(lang, e.Card)
		var hand game.Hand
		for _, d := range out.Events {
			if d.Kind == game.EventDuelEnded {
				hand = d.Duel.Hand
			}
		}
		switch {
		case e.Score > 21:
			return i18n.T(lang, i18n.PopHitBust, card, strconv.Itoa(e.Score))
		case e.Score == 21 && hand.Golden():
			return i18n.T(lang, i18n.PopHitGolden, card)
		case e.Score == 21 && hand.FivePictures():
			return i18n.T(lang, i18n.PopHitFivePictures, card)
		case e.Score == 21:
			return i18n.T(lang, i18n.PopHitTwentyOne, card)
		}
		return i18n.T(lang, i18n.PopHit, card, strconv.Itoa(e.Score))
	}
	return ""
}

// standToast tells the score stood at and the duel's result.
func standToast(lang i18n.Lang, d game.Duel) string {
	mine, banker, bet := strconv.Itoa(d.Hand.Score()), strconv.Itoa(d.Banker.Score()), i18n.Number(d.Bet)
	switch d.Result {
	case game.PlayerHigher:
		return i18n.T(lang, i18n.PopStandWin, mine, banker, bet)
	case game.BankerBust:
		return i18n.T(lang, i18n.PopStandBankerBust, mine, banker, bet)
	case game.Tie:
		return i18n.T(lang, i18n.PopStandTie, mine, banker, bet)
	case game.BankerHigher:
		return i18n.T(lang, i18n.PopStandLose, mine, banker, bet)
	}
	return i18n.T(lang, i18n.PopStand, mine)
}

// startToast tells who bets first: the presser, with their card, or
// another player; nothing when nobody is to bet (the game ended at once).
func startToast(lang i18n.Lang, cmd game.Command, out game.Outcome, tb *game.Table) string {
	for _, e := range out.Events {
		if e.Kind != game.EventTurn {
			continue
		}
		if e.User != cmd.User {
			if i, ok := tb.SeatOf(e.User); ok {
				return i18n.T(lang, i18n.PopStartOther, render.PlayerName(e.User, tb.Seat(i).Name, lang))
			}
			return ""
		}
		for _, d := range out.Events {
			if d.Kind == game.EventDealt && d.User == cmd.User {
				return i18n.T(lang, i18n.PopStartYou, i18n.Card(lang, d.Card), strconv.Itoa(d.Card.Points()))
			}
		}
	}
	return ""
}

// rejection returns the answer to a rejected command and whether it should
// be an alert rather than a toast: an answer for each kind of error
// (game.Kind), the reason told where it helps the user. An internal error
// is logged and answered only "something went wrong".
func (b *Bot) rejection(lang i18n.Lang, err error, v storage.View, user game.UserID) (string, bool) {
	t := &v.Table
	switch game.Kind(err) {
	case game.KindOutdated:
		return i18n.T(lang, i18n.PopOutdated), false
	case game.KindNotYourTurn:
		seat, seated := t.SeatOf(user)
		banker, inGame := t.Banker()
		switch {
		case !seated || t.Seat(seat).Leaving:
			return i18n.T(lang, i18n.PopNotSeated), false
		case inGame && seat == banker:
			return i18n.T(lang, i18n.PopBanker), false
		}
		if i, ok := t.Turn(); ok {
			return i18n.T(lang, i18n.PopTurn, render.PlayerName(t.Seat(i).User, t.Seat(i).Name, lang)), false
		}
		return i18n.T(lang, i18n.PopNotNow), false
	case game.KindInvalid:
		switch {
		case errors.Is(err, game.ErrBetNotOffered):
			return i18n.T(lang, i18n.PopNotOffered), false
		case errors.Is(err, game.ErrInvalidSettings):
			return i18n.T(lang, i18n.PopInvalid, i18n.SettingsProblem(lang, v.Settings.Game)), true
		}
		return i18n.T(lang, i18n.PopBadButton), false
	case game.KindNotAllowed:
		return b.notAllowed(lang, err, v, user)
	}
	b.internal("apply", err)
	return i18n.T(lang, i18n.PopError), false
}

// notAllowed returns the answer to a command the table's state does not
// allow (game.KindNotAllowed), and whether it should be an alert.
func (b *Bot) notAllowed(lang i18n.Lang, err error, v storage.View, user game.UserID) (string, bool) {
	switch {
	case errors.Is(err, game.ErrBelowEntryLimit):
		return i18n.T(lang, i18n.PopNeedChips, i18n.Chips(lang, v.Settings.Game.EntryLimit),
			i18n.Chips(lang, v.Balances[user]), i18n.Chips(lang, b.cfg.DailyBonus)), true
	case errors.Is(err, game.ErrAlreadySeated):
		return i18n.T(lang, i18n.PopSeated), false
	case errors.Is(err, game.ErrTableFull):
		return i18n.T(lang, i18n.PopFull), false
	case errors.Is(err, game.ErrNotSeated):
		return i18n.T(lang, i18n.PopNotSeated), false
	case errors.Is(err, game.ErrNotEnoughPlayers):
		return i18n.T(lang, i18n.PopNeedPlayers, i18n.Count(lang, i18n.NounPlayers, game.MinPlayers)), false
	case errors.Is(err, game.ErrGameInProgress):
		return i18n.T(lang, i18n.PopInProgress), false
	case errors.Is(err, game.ErrNoTable):
		return i18n.T(lang, i18n.PopNoTable), false
	case errors.Is(err, game.ErrTableOpen):
		return i18n.T(lang, i18n.NewGameOpen), false
	}
	// The wrong phase, a timeout too early.
	return i18n.T(lang, i18n.PopNotNow), false
}

// timeout applies a table's timeout for the version it was set for; but
// while a render that is to show the table's turn for the first time waits
// (see tableMessages), it waits for that render, which re-arms the timeout
// once it decided the turn's clock (started again if late), and looks
// again after hiddenRecheck meanwhile.
func (b *Bot) timeout(ctx context.Context, key storage.TableKey, version uint64) {
	if b.turnHidden(ctx, key, version) {
		b.timers.set(key, version, b.clock.Now().Add(hiddenRecheck))
		return
	}
	res, err := b.store.Apply(ctx, storage.ApplyRequest{
		Key: key, Command: game.Command{Kind: game.Timeout, Version: version}, Now: b.clock.Now(),
	})
	switch {
	case err == nil:
		b.show(res.View)
	case errors.Is(err, game.ErrTooEarly):
		// The clock fired early: arm the timer again for the stored deadline.
		b.timers.set(key, res.Table.Version(), res.Table.Deadline())
	case errors.Is(err, game.ErrOutdated), errors.Is(err, game.ErrNoTable):
		// The table moved on; its new deadline has its own timer.
	default:
		// A storage failure: try again later rather than leave the table
		// waiting for a timeout that never comes. A table that moved on
		// meanwhile answers ErrOutdated.
		b.internal("timeout", err)
		b.timers.set(key, version, b.clock.Now().Add(timeoutRetry))
	}
}

// timeoutRetry is how long after a timeout failed it is tried again.
const timeoutRetry = time.Minute

// hiddenRecheck is how soon a timeout, or a move of the house, held by a
// turn not shown yet looks again, unless the render that shows the turn
// re-arms it before (tableMessages.hidden).
const hiddenRecheck = time.Second

// turnHidden reports whether the table, at version, has a turn not shown
// yet while a render that will show it waits (tableMessages.hidden).
func (b *Bot) turnHidden(ctx context.Context, key storage.TableKey, version uint64) bool {
	if !b.tables.pending(key) {
		return false // nothing waits: no read
	}
	v, err := b.store.View(ctx, key)
	if err != nil || v.Table.Version() != version {
		return false
	}
	return b.tables.hidden(key, v.Table.TurnStarted())
}

// verifySent is when a table's deck check was last sent, and of which
// game.
type verifySent struct {
	game uint64
	at   time.Time
}

// verifyCooldown is how long after sending a deck check the table's button
// sends no other: a message per press would let anyone flood the chat
// (also with forged buttons naming other games), and hold up the table's
// edits behind the group's pacing.
const verifyCooldown = 2 * time.Minute

// pressVerify answers the "Check the deck" button: it sends the revealed
// decks of the game the button names, at most one check per table every
// verifyCooldown. A button naming a game that revealed no deck is forged
// or stale: it is refused and starts no cooldown, so that nobody can hold
// up the real button with forged ones.
func (b *Bot) pressVerify(ctx context.Context, q *tgbotapi.CallbackQuery, key storage.TableKey, thread int, gameNo uint64, l i18n.Lang) {
	msg, found, err := b.verifyMessage(ctx, key, gameNo, l)
	switch {
	case err != nil:
		b.answer(q, "", false)
		b.internal("verify", err)
		return
	case !found:
		b.answer(q, i18n.T(l, i18n.PopBadButton), false)
		return
	}
	if wait, ok := b.verifyDue(key, gameNo, l); !ok {
		b.answer(q, wait, false)
		return
	}
	b.answer(q, "", false)
	b.reply(key.Chat, thread, 0, "", msg)
}

// verifyDue says whether the deck check of a game of the table may be sent
// now, and if so records it as sent; else the answer to give instead.
func (b *Bot) verifyDue(key storage.TableKey, gameNo uint64, l i18n.Lang) (string, bool) {
	now := b.clock.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	if last, ok := b.verified[key]; ok && now.Sub(last.at) < verifyCooldown {
		if last.game == gameNo {
			return i18n.T(l, i18n.PopVerifySent), false
		}
		return i18n.T(l, i18n.PopVerifyWait), false
	}
	if len(b.verified) >= 1024 {
		for k, last := range b.verified {
			if now.Sub(last.at) >= verifyCooldown {
				delete(b.verified, k)
			}
		}
	}
	b.verified[key] = verifySent{game: gameNo, at: now}
	return "", true
}
