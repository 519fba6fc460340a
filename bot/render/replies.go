package render

import (
	"strconv"
	"strings"
	"time"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/game/award"
)

// The replies to commands. Each takes names as users wrote them and what
// the chat's books say (views.go), and returns the message, HTML-escaped where it quotes a
// user.

// Plain is a message of plain text, escaped for Telegram's HTML.
func Plain(text string) message.Message { return message.Message{Text: escape(text)} }

// Nudge tells the player to move that it is their turn (i18n.TurnNudge):
// a mention of them by id (tg://user?id=, which notifies them even
// without a username) and the time left at now, when it is drawn (it goes
// out only while there is time left, and is deleted once the turn
// passes).
func Nudge(user int64, name string, ends, now time.Time, lang i18n.Lang) message.Message {
	mention := `<a href="tg://user?id=` + strconv.FormatInt(user, 10) + `">` + NameHTML(name) + "</a>"
	return message.Message{Text: i18n.T(lang, i18n.TurnNudge, mention, i18n.Countdown(lang, ends.Sub(now)))}
}

// Balance is the answer to /balance: the user's balance.
func Balance(name string, balance int64, lang i18n.Lang) message.Message {
	return message.Message{Text: i18n.T(lang, i18n.Balance, NameHTML(name), i18n.Chips(lang, balance))}
}

// BonusGranted says the user got the daily bonus.
func BonusGranted(name string, got Bonus, lang i18n.Lang) message.Message {
	return message.Message{Text: i18n.T(lang, i18n.BonusGranted, NameHTML(name), i18n.Chips(lang, got.Amount), i18n.Chips(lang, got.Balance))}
}

// BonusWait says when the user's next bonus comes, to the minute.
func BonusWait(name string, wait time.Duration, lang i18n.Lang) message.Message {
	return message.Message{Text: i18n.T(lang, i18n.BonusWait, NameHTML(name), i18n.Duration(lang, wait.Round(time.Minute)))}
}

// BonusNotNeeded says the bonus is for balances below the entry limit,
// counting the chips the user has on the chat's tables, if any.
func BonusNotNeeded(name string, entryLimit int64, got Bonus, lang i18n.Lang) message.Message {
	if got.OnTables > 0 {
		return message.Message{Text: i18n.T(lang, i18n.BonusNotNeededOnTable, NameHTML(name), i18n.Chips(lang, entryLimit),
			i18n.Chips(lang, got.Balance), i18n.Chips(lang, got.OnTables))}
	}
	return message.Message{Text: i18n.T(lang, i18n.BonusNotNeeded, NameHTML(name), i18n.Chips(lang, entryLimit), i18n.Chips(lang, got.Balance))}
}

// Top is the answer to /top: the chat's leaderboard of players, best
// first, and the house (when it has an account) apart, unranked: its
// chips are no player's.
func Top(rows []Standing, houseRow *Standing, lang i18n.Lang) message.Message {
	if len(rows) == 0 && houseRow == nil {
		return message.Message{Text: i18n.T(lang, i18n.TopEmpty)}
	}
	lines := []string{i18n.T(lang, i18n.TopTitle)}
	for i, r := range rows {
		lines = append(lines, i18n.T(lang, i18n.TopLine, strconv.Itoa(i+1), NameHTML(r.Name),
			i18n.Chips(lang, r.Balance), i18n.Signed(r.Net), i18n.Number(int64(r.Games))))
	}
	if houseRow != nil {
		lines = append(lines, "", i18n.T(lang, i18n.TopHouse, escape(i18n.T(lang, i18n.HouseName)),
			i18n.Chips(lang, houseRow.Balance), i18n.Signed(houseRow.Net), i18n.Number(int64(houseRow.Games))))
	}
	return message.Message{Text: strings.Join(lines, "\n")}
}

// Stats is the answer to /stats: a user's results and balance, and the
// achievements they earned.
func Stats(name string, st award.Stats, balance int64, lang i18n.Lang) message.Message {
	rate := "—"
	if duels := st.DuelsWon + st.DuelsLost; duels > 0 {
		rate = strconv.Itoa((200*st.DuelsWon+duels)/(2*duels)) + "%" // rounded half up
	}
	text := i18n.T(lang, i18n.StatsText, NameHTML(name), i18n.Number(int64(st.Games)), i18n.Number(int64(st.GamesAsBanker)),
		i18n.Number(int64(st.DuelsWon)), i18n.Number(int64(st.DuelsLost)), rate,
		i18n.Chips(lang, st.BiggestWin), i18n.Signed(st.Net),
		i18n.Number(int64(st.Golden21s)), i18n.Number(int64(st.FivePictures)), i18n.Chips(lang, balance))
	all := int64(len(award.All()))
	if st.Achievements.Len() == 0 {
		return message.Message{Text: text + "\n" + i18n.T(lang, i18n.StatsNoAchievements, i18n.Number(all))}
	}
	return message.Message{Text: text + "\n" + i18n.T(lang, i18n.StatsAchievements, i18n.Number(int64(st.Achievements.Len())),
		i18n.Number(all), achievementList(lang, st.Achievements.List()))}
}

// StatsNone says a user has no results in the chat.
func StatsNone(name string, lang i18n.Lang) message.Message {
	return message.Message{Text: i18n.T(lang, i18n.StatsNone, NameHTML(name))}
}

// ledgerWords say what caused a movement.
var ledgerWords = map[EntryKind]i18n.Key{
	EntryStart:  i18n.LedgerStart,
	EntryBonus:  i18n.LedgerBonus,
	EntryOwner:  i18n.LedgerOwner,
	EntryStake:  i18n.LedgerStake,
	EntryBet:    i18n.LedgerBet,
	EntryWin:    i18n.LedgerWin,
	EntryRefund: i18n.LedgerRefund,
	EntryBank:   i18n.LedgerBank,
}

// History is the answer to /history: a user's chip movements, newest
// first as the ledger gives them, at most max lines, with their times in UTC
// (dated so that no reader takes the month for the day: i18n.DateTime).
// A won duel is one line with what it won, as its toast and the record
// say it ("+40 · won"), not the payout of twice the bet: its bet and its
// payout, one after the other in the ledger, are shown together, and the
// balance after them stays the ledger's. Give it more entries than max, so
// that the oldest payout shown has its bet at hand.
func History(name string, entries []Entry, max int, lang i18n.Lang) message.Message {
	if len(entries) == 0 {
		return message.Message{Text: i18n.T(lang, i18n.HistoryEmpty, NameHTML(name))}
	}
	lines := []string{i18n.T(lang, i18n.HistoryTitle, NameHTML(name))}
	for i := 0; i < len(entries) && len(lines) <= max; i++ {
		e := entries[i]
		amount, why := e.Amount, ""
		gameNo := strconv.FormatUint(e.Game, 10)
		switch {
		case e.Kind.grant():
			why = i18n.T(lang, ledgerWords[e.Kind])
		case e.Kind == EntryWin && i+1 < len(entries) && betOf(entries[i+1], e):
			// The duel's bet, just before its payout: one line.
			amount += entries[i+1].Amount
			why = i18n.T(lang, i18n.LedgerWin, gameNo)
			i++
		case e.Kind == EntryWin:
			won := i18n.Number(e.Amount / 2)
			why = i18n.T(lang, i18n.LedgerWinBack, won, won, gameNo)
		default:
			why = i18n.T(lang, ledgerWords[e.Kind], gameNo)
		}
		lines = append(lines, i18n.T(lang, i18n.HistoryLine, i18n.DateTime(lang, e.Time.UTC()),
			i18n.Signed(amount), why, i18n.Number(e.Balance)))
	}
	return message.Message{Text: strings.Join(lines, "\n")}
}

// betOf reports whether bet is the bet that win paid out: the entry just
// before it in the user's ledger, a bet of half the payout at the same
// table's same game.
func betOf(bet, win Entry) bool {
	return bet.Kind == EntryBet && bet.Game == win.Game && bet.Thread == win.Thread &&
		bet.Chat == win.Chat && -2*bet.Amount == win.Amount
}

// Audit is the answer to /audit: whether the chat's chips add up, and if
// not, how many problems were found.
func Audit(a Tally, lang i18n.Lang) message.Message {
	if !a.OK {
		return message.Message{Text: i18n.T(lang, i18n.AuditBad, i18n.Number(a.Balances), i18n.Number(a.OnTables), i18n.Number(a.Granted),
			i18n.Number(a.Ledgered), i18n.Number(int64(a.Problems)))}
	}
	return message.Message{Text: i18n.T(lang, i18n.AuditOK, i18n.Number(a.Balances), i18n.Number(a.OnTables), i18n.Number(a.Granted))}
}

// KickDone says a player will be stood up.
func KickDone(name string, lang i18n.Lang) message.Message {
	return message.Message{Text: i18n.T(lang, i18n.KickDone, NameHTML(name))}
}

// KickNotSeated says a user is not at the table.
func KickNotSeated(name string, lang i18n.Lang) message.Message {
	return message.Message{Text: i18n.T(lang, i18n.KickNotSeated, NameHTML(name))}
}

// GrantDone says a user was granted an amount, and their balance after.
func GrantDone(name string, amount, balance int64, lang i18n.Lang) message.Message {
	return message.Message{Text: i18n.T(lang, i18n.GrantDone, NameHTML(name), i18n.Chips(lang, amount), i18n.Chips(lang, balance))}
}
