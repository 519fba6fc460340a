package main

import (
	"regexp"
	"strings"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// phase is what a table message shows, as a player reads it.
type phase int

const (
	phaseUnknown phase = iota
	phaseLobby
	phaseBetting
	phaseDrawing
	phaseClosed
	// phaseHouse: the house is to move; the message has no button, and so
	// does not say its version.
	phaseHouse
	// phaseOpen: an inline message as its result posted it, whose one
	// button (callback.InlineOpen) opens the table and seats the presser;
	// no table yet, version 0.
	phaseOpen
	// phaseCutting: a new deck waits for its cut; the player asked is
	// the turn (any seated player may cut, the load tool's asked one does).
	phaseCutting
)

func (p phase) String() string {
	return [...]string{"unknown", "lobby", "betting", "drawing", "closed", "house", "open", "cutting"}[p]
}

// button is a table button and what its callback data says.
type button struct {
	data string
	cb   callback.Data
}

// tableView is a table message as a player reads it: the buttons, the
// version they were drawn for, who sits and whose turn it is.
type tableView struct {
	messageID int
	version   uint64
	phase     phase
	buttons   []button
	seated    []string // first names, lobby only
	turn      string   // first name of the player to act, in a game
	// house: the message names the house (it sits, or played the game
	// shown).
	house bool
}

var seatLine = regexp.MustCompile(`^\d+\. (.+?) — `)

// cutMark begins the line of a table waiting for its cut that names the
// player asked (i18n.TableCutAsk).
const cutMark = "✂️ "

// readTable reads a bot message or an inline message; ok is false when it
// shows no table buttons (a summary, a reply) and is no table waiting for
// the house.
func readTable(m *telegramtest.ChatMessage) (tableView, bool) {
	v := tableView{messageID: m.MessageID, house: strings.Contains(m.Text, houseName)}
	for _, b := range m.Buttons() {
		d, err := callback.Parse(b.CallbackData)
		if err == nil && d.Action == callback.InlineOpen {
			v.buttons = append(v.buttons, button{data: b.CallbackData, cb: d})
			v.phase = phaseOpen
			continue
		}
		if err != nil || !d.Action.TableAction() {
			continue
		}
		v.buttons = append(v.buttons, button{data: b.CallbackData, cb: d})
		v.version = max(v.version, d.Version)
		switch d.Action {
		case callback.Join, callback.Leave, callback.Start, callback.SeatHouse, callback.UnseatHouse:
			v.phase = phaseLobby
		case callback.Bet:
			v.phase = phaseBetting
		case callback.Hit, callback.Stand:
			v.phase = phaseDrawing
		case callback.NewTable:
			v.phase = phaseClosed
		case callback.Cut:
			v.phase = phaseCutting
		}
	}
	if len(v.buttons) == 0 {
		v.phase = phaseHouse
		return v, strings.Contains(m.Text, houseThinks)
	}
	for _, line := range strings.Split(m.Text, "\n") {
		if s := seatLine.FindStringSubmatch(line); s != nil && v.phase == phaseLobby {
			v.seated = append(v.seated, s[1])
		}
		if v.phase == phaseCutting {
			// "✂️ Bob, cut the deck: …" names the player asked.
			if rest, ok := strings.CutPrefix(line, cutMark); ok {
				if name, _, ok := strings.Cut(rest, ", "); ok {
					v.turn = strings.TrimSpace(name)
				}
			}
			continue
		}
		if strings.Contains(line, "←") {
			if name, _, ok := strings.Cut(line, " — "); ok {
				v.turn = strings.TrimSpace(name)
			}
		}
	}
	return v, true
}

// find returns the table's button for an action.
func (v *tableView) find(a callback.Action) (button, bool) {
	for _, b := range v.buttons {
		if b.cb.Action == a {
			return b, true
		}
	}
	return button{}, false
}

// settled reports whether no game is in progress: the drain is done.
func (v *tableView) settled() bool {
	return v.phase == phaseLobby || v.phase == phaseClosed || v.phase == phaseOpen
}

// The answers to accepted presses (English: the players speak it).
var (
	answerJoined   = i18n.T(i18n.EN, i18n.PopJoined)
	answerLeft     = i18n.T(i18n.EN, i18n.PopLeft)
	answerBet      = i18n.T(i18n.EN, i18n.PopBet, "")
	answerStand    = strings.Split(i18n.T(i18n.EN, i18n.PopStand, "\x00"), "\x00")[0]
	answerOutdated = i18n.T(i18n.EN, i18n.PopOutdated)
	answerSeated   = i18n.T(i18n.EN, i18n.PopHouseSeated)
	answerUnseated = i18n.T(i18n.EN, i18n.PopHouseUnseated)
	// A cut that counted, and a start whose deck waits for a cut (the
	// presser's, or another's: up to the name).
	answerCut         = i18n.T(i18n.EN, i18n.PopCut)
	answerStartCutYou = i18n.T(i18n.EN, i18n.PopStartCutYou)
	answerStartCut    = strings.Split(i18n.T(i18n.EN, i18n.PopStartCutOther, "\x00"), "\x00")[0]
	// A stale cut button's refusals.
	answerCutAlready = i18n.T(i18n.EN, i18n.PopCutAlready)
	answerCutTooLate = i18n.T(i18n.EN, i18n.PopCutTooLate)
	// houseName is the house's name, and houseThinks what a table shows
	// while the house is to move.
	houseName   = i18n.T(i18n.EN, i18n.HouseName)
	houseThinks = i18n.T(i18n.EN, i18n.TableSeatHouse, houseName)
)

// outdated reports whether an answer refuses a press of b as outdated:
// a cut button's says why the cut it offered is gone (the deck cut
// already, or dealt not cut), any other's that the table moved on.
func outdated(b button, text string) bool {
	if b.cb.Action == callback.Cut && (text == answerCutAlready || text == answerCutTooLate) {
		return true
	}
	return text == answerOutdated
}

// rejected reports whether an answer says the press was refused. An empty
// answer is an accepted Start or New table, or a redelivered update.
func rejected(text string) bool {
	switch {
	case text == "", text == answerJoined, text == answerLeft, text == answerSeated, text == answerUnseated:
		return false
	case text == answerCut, text == answerStartCutYou, strings.HasPrefix(text, answerStartCut):
		return false
	case strings.HasPrefix(text, answerBet), strings.HasPrefix(text, answerStand):
		return false
	case strings.Contains(text, " · "): // a card drawn
		return false
	}
	return true
}
