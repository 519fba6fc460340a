package render

import (
	"strconv"
	"time"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

// lobby draws an open table: the limits, what the last game gave, the seats
// and how long the lobby waits. A solo lobby speaks to its one player.
func (v *view) lobby() []line {
	s := v.in.Settings
	head := limits(s, v.lang)
	if v.in.Solo {
		head = v.tr(i18n.SoloLimits, i18n.Number(s.Stake), i18n.Number(s.EntryLimit))
	}
	lines := []line{text(bold(v.title())), text(head)}
	if v.t.Finished() {
		lines = append(lines, blank)
		lines = append(lines, v.log(false)...)
		lines = append(lines, blank)
		lines = append(lines, v.summary()...)
	}
	lines = append(lines, blank)
	seats := v.t.Seats()
	switch {
	case v.in.Solo:
	case len(seats) == 0:
		lines = append(lines, text(v.tr(i18n.TableNobody)))
	default:
		lines = append(lines, text(v.tr(i18n.TableSeated, i18n.Number(int64(len(seats))), i18n.Number(game.MaxSeats))))
	}
	for i, seat := range seats {
		l := i18n.Number(int64(i+1)) + ". " + v.who(seat.User, seat.Name)
		if b, ok := v.balance(seat.User); ok {
			l += " — " + b
		}
		lines = append(lines, text(l))
	}
	lines = append(lines, blank)
	closes := i18n.TableCloses
	switch {
	case v.in.Solo:
		closes = i18n.SoloCloses
		lines = append(lines, v.soloHint()...)
	case len(seats) >= game.MaxSeats:
		// Nobody can sit down: no invitation to. A full lobby with
		// AutoStart on is one nobody's seat filled (the lobby after a
		// game): it too waits for a seated player.
		lines = append(lines, text(v.tr(i18n.TableFull)))
	case s.AutoStart:
		lines = append(lines, text(v.tr(i18n.TableHintAuto, i18n.Number(s.EntryLimit))))
	default:
		lines = append(lines, text(v.tr(i18n.TableHint, i18n.Number(s.EntryLimit))))
	}
	if d := v.t.Deadline(); !d.IsZero() {
		lines = append(lines, text(v.tr(closes, timeTag(d, closingFormat(d.Sub(v.in.Now)), v.lang))))
	}
	return lines
}

// soloHint says why a solo lobby cannot start when the house is not at
// the table: its player turned it off, or the button seats it.
func (v *view) soloHint() []line {
	if _, ok := v.t.SeatOf(house.ID); ok {
		return nil
	}
	if v.in.HouseForbidden {
		return []line{text(escape(v.tr(i18n.PopHouseOffSolo)))}
	}
	return []line{text(v.tr(i18n.SoloHouseAbsent))}
}

// limits draws a table's stake, entry limit and how many players sit at
// it (i18n.TableLimits).
func limits(s game.Settings, lang i18n.Lang) string {
	return i18n.T(lang, i18n.TableLimits, i18n.Number(s.Stake), i18n.Number(s.EntryLimit),
		i18n.Number(game.MinPlayers), i18n.Count(lang, i18n.NounPlayers, game.MaxSeats))
}

// summary draws how the last game ended: who took the bank, what each
// player won or lost, the achievements they earned, and the deck to check.
func (v *view) summary() []line {
	players := v.t.Players()
	var lines []line
	for _, p := range players {
		if !p.Banker {
			continue
		}
		stake := v.t.Settings().Stake
		take, net := p.Net+stake, netSign(p.Net)
		if take > 0 {
			lines = append(lines, text(v.tr(i18n.GameOverTakes, v.who(p.User, p.Name), i18n.Number(take), i18n.Number(stake), net)))
		} else {
			lines = append(lines, text(v.tr(i18n.GameOverBroken, v.who(p.User, p.Name), i18n.Number(stake), net)))
		}
	}
	lines = append(lines, text(v.nets(players)))
	lines = append(lines, v.awards()...)
	return append(lines, v.deckCheck()...)
}

// netSign writes what a game gave the banker, signed, and ±0 when it gave
// and took nothing: the figure in brackets after the bank taken.
func netSign(n int64) string {
	if n == 0 {
		return "±0"
	}
	return i18n.Signed(n)
}

// nets draws what the game gave each player: "🎩 Alice +25 · Bob −10".
func (v *view) nets(players []game.Participant) string {
	s := ""
	for i, p := range players {
		if i > 0 {
			s += " · "
		}
		if p.Banker {
			s += bankerSign + " "
		}
		s += v.who(p.User, p.Name) + " " + i18n.Signed(p.Net)
	}
	return s
}

// deckCheck draws how to check the game's revealed decks: the short
// commitment of the deck when the game had one (as the table showed it
// while it was played), how many decks when it had several; their whole
// commitments are behind /verify_N, so that the record carries no line of
// hex; and who cut each deck of the cut (Input.Cuts).
func (v *view) deckCheck() []line {
	lines := v.deckChecks()
	if len(lines) > 0 && len(v.in.Cuts) > 0 {
		lines = append(lines, text(v.cuts()))
	}
	return lines
}

func (v *view) deckChecks() []line {
	// Digits only: the number is part of the command /verify_N.
	gameNo := strconv.FormatUint(v.t.Game(), 10)
	if c, ok := v.t.Revealed(); ok && v.in.Inline {
		// No /verify in a chat the bot is not in: the button tells more.
		return []line{text(v.tr(i18n.TableDeckCheckInline, c.Short()))}
	}
	if decks := v.in.Decks; len(decks) > 1 {
		return []line{text(v.tr(i18n.TableDeckChecks, i18n.Count(v.lang, i18n.NounDecks, int64(len(decks))), gameNo))}
	}
	c, ok := v.t.Revealed()
	if !ok {
		return nil
	}
	return []line{text(v.tr(i18n.TableDeckCheck, c.Short(), gameNo))}
}

// cuts draws who cut the game's decks: "✂️ cut by Bob" for one deck,
// "✂️ 1: cut by Bob · 2: not cut" for several, in the order dealt.
func (v *view) cuts() string {
	if len(v.in.Cuts) == 1 {
		return cutSign + v.cutBy(v.in.Cuts[0].By)
	}
	s := cutSign
	for i, c := range v.in.Cuts {
		if i > 0 {
			s += " · "
		}
		s += strconv.Itoa(i+1) + ": " + v.cutBy(c.By)
	}
	return s
}

// closed draws a closed table: why it closed and how the last game ended,
// with the achievements earned in it.
func (v *view) closed() []line {
	lines := []line{text(bold(v.title())), text(v.closedWhy())}
	if players := v.t.Players(); len(players) > 0 {
		lines = append(lines, blank, text(v.tr(i18n.GameOverLast)), text(v.nets(players)))
		lines = append(lines, v.awards()...)
		lines = append(lines, v.deckCheck()...)
	}
	return append(lines, blank, text(v.tr(i18n.ClosedHint)))
}

// closedWhy says why a closed table closed.
func (v *view) closedWhy() string {
	why, ok := closedWords[v.t.ClosedBy()]
	switch {
	case !ok:
		why = i18n.ClosedOther
	case why == i18n.ClosedEmpty && v.in.Solo:
		why = i18n.ClosedSolo
	}
	return v.tr(why)
}

// closedWords say why a table closed, by the reason it gives (any other
// is ClosedOther).
var closedWords = map[game.Reason]i18n.Key{
	game.ReasonTimeout:    i18n.ClosedTimeout,
	game.ReasonCancelled:  i18n.ClosedCancelled,
	game.ReasonEmpty:      i18n.ClosedEmpty,
	game.ReasonEntryLimit: i18n.ClosedEntryLimit,
}

// closingFormat is how the time a lobby closes is shown, by the time left:
// the time of day within 20 hours, and the date with it after that (a
// lobby may wait a day). Never with seconds: a lobby shows when it closes
// to the minute, as a clock does.
func closingFormat(left time.Duration) string {
	if left < 20*time.Hour {
		return clockMinutes
	}
	return dateMinutes
}
