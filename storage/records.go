package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/award"
)

// Values are small versioned binary records: a format byte, then varints and
// length-prefixed strings. Settings are JSON, so that a field added to
// game.Settings is stored without a new format.

const recordFormat = 1

var errRecord = errors.New("malformed record")

// chatRec is what storage keeps about a chat besides its settings.
type chatRec struct {
	// lastUpdate is the last Telegram update applied in the chat, and
	// lastUpdateAt when, in Unix milliseconds (0 with no update).
	lastUpdate   int64
	lastUpdateAt int64
	// floor and recent are the updates the chat handled (see handled):
	// every id up to floor, and the ids in recent, above floor, ascending,
	// at most recentUpdates.
	floor  int64
	recent []int64
	// granted is the running total of grants.
	granted int64
	// seq is the last ledger sequence number used.
	seq uint64
	// movedTo is the chat this one migrated to; 0 when it did not.
	movedTo int64
	// created is when the chat first appeared, in Unix milliseconds.
	created int64
	// answer is what the command of the last update did to its user: the
	// events of its outcome about them, without decks (see answerOf), to
	// answer that update the same when Telegram delivers it again; none
	// when the update was no command.
	answer []game.Event
}

// encode encodes the record. The answer and the updates handled above
// lastUpdate are left out when there are none, the answer's count too when
// the updates handled are every one up to lastUpdate.
func (c *chatRec) encode() []byte {
	b := make([]byte, 0, 40)
	b = append(b, recordFormat)
	b = binary.AppendVarint(b, c.lastUpdate)
	b = binary.AppendVarint(b, c.granted)
	b = binary.AppendUvarint(b, c.seq)
	b = binary.AppendVarint(b, c.movedTo)
	b = binary.AppendVarint(b, c.created)
	b = binary.AppendVarint(b, c.lastUpdateAt)
	handledAsBefore := len(c.recent) == 0 && c.floor == c.lastUpdate
	if len(c.answer) == 0 && handledAsBefore {
		return b
	}
	b = binary.AppendUvarint(b, uint64(len(c.answer)))
	for i := range c.answer {
		b = appendEvent(b, &c.answer[i])
	}
	if handledAsBefore {
		return b
	}
	b = binary.AppendVarint(b, c.floor)
	b = binary.AppendUvarint(b, uint64(len(c.recent)))
	for _, id := range c.recent {
		b = binary.AppendUvarint(b, uint64(id-c.floor))
	}
	return b
}

func decodeChat(v []byte) (chatRec, error) {
	r := newRecReader(v)
	var c chatRec
	c.lastUpdate = r.varint()
	c.granted = r.varint()
	c.seq = r.uvarint()
	c.movedTo = r.varint()
	c.created = r.varint()
	c.lastUpdateAt = r.varint()
	if len(r.b) > 0 { // absent when there is none
		n := r.uvarint()
		if n > uint64(len(r.b)) {
			r.fail()
			n = 0
		}
		c.answer = make([]game.Event, n)
		for i := range c.answer {
			r.event(&c.answer[i])
		}
	}
	c.floor = c.lastUpdate
	if len(r.b) > 0 { // absent when all up to lastUpdate were handled
		c.floor = r.varint()
		n := r.uvarint()
		if n > recentUpdates {
			r.fail()
			n = 0
		}
		c.recent = make([]int64, n)
		for i := range c.recent {
			c.recent[i] = c.floor + int64(r.uvarint())
		}
	}
	return c, r.done()
}

// answerOf returns what a command's outcome did to the command's user, to
// be kept as the chat's answer: the events about them (their draws, the
// end of their duel, their cut, ...), without the decks, records and
// commitments a few carry; a deck revealed is no event about its cutter.
func answerOf(user game.UserID, out *game.Outcome) []game.Event {
	var evs []game.Event
	for _, e := range out.Events {
		if user == 0 || e.User != user && e.Duel.User != user || e.Kind == game.EventRevealed {
			continue
		}
		e.Commitment, e.Deck, e.Record = game.Commitment{}, game.Deck{}, nil
		evs = append(evs, e)
	}
	return evs
}

// appendEvent appends an event of a chat's answer: every field but the
// deck and commitment, the duel only for EventDuelEnded.
func appendEvent(b []byte, e *game.Event) []byte {
	b = append(b, byte(e.Kind))
	b = binary.AppendVarint(b, int64(e.User))
	b = append(b, byte(e.Card))
	b = binary.AppendVarint(b, int64(e.Score))
	b = binary.AppendVarint(b, e.Amount)
	b = binary.AppendVarint(b, e.From)
	b = append(b, byte(e.Reason))
	if e.Kind != game.EventDuelEnded {
		return b
	}
	d := &e.Duel
	b = binary.AppendUvarint(b, uint64(d.Circle))
	b = binary.AppendVarint(b, int64(d.User))
	b = appendStr(b, d.Name)
	b = appendHand(b, d.Hand)
	b = appendHand(b, d.Banker)
	b = binary.AppendVarint(b, d.Bet)
	return append(b, byte(d.Result))
}

func appendHand(b []byte, h game.Hand) []byte {
	b = append(b, byte(h.Len()))
	for _, c := range h.Cards() {
		b = append(b, byte(c))
	}
	return b
}

// event reads what appendEvent wrote.
func (r *recReader) event(e *game.Event) {
	e.Kind = game.EventKind(r.byte())
	e.User = game.UserID(r.varint())
	e.Card = game.Card(r.byte())
	e.Score = int(r.varint())
	e.Amount = r.varint()
	e.From = r.varint()
	e.Reason = game.Reason(r.byte())
	if e.Kind != game.EventDuelEnded {
		return
	}
	d := &e.Duel
	d.Circle = int(r.uvarint())
	d.User = game.UserID(r.varint())
	d.Name = r.str()
	d.Hand = r.hand()
	d.Banker = r.hand()
	d.Bet = r.varint()
	d.Result = game.DuelResult(r.byte())
}

func (r *recReader) hand() game.Hand {
	n := int(r.byte())
	if n > len(r.b) {
		r.fail()
		return game.Hand{}
	}
	cards := make([]game.Card, n)
	for i := range cards {
		cards[i] = game.Card(r.byte())
	}
	return game.NewHand(cards...)
}

// RedeliveryWindow is how long Telegram keeps an update it may deliver
// again (24 hours). An update the chat handled is a redelivery only within
// that time of the last: later, it is a new update of a restarted sequence
// (after a week without updates Telegram picks the next id at random,
// possibly lower), and a chat that refused those would never answer again.
const RedeliveryWindow = 24 * time.Hour

// recentUpdates is how many handled update ids above its floor a chat
// remembers. A webhook gets a chat's messages and each member's presses in
// queues of their own, in parallel (tdlib/telegram-bot-api,
// WebhookActor.cpp), so an update may come after later ones of its chat:
// it is new if its id is above the floor and not among those handled. The
// ids that no longer fit raise the floor: an update later than that many
// handled after it counts as handled.
const recentUpdates = 32

// handled reports whether the update was handled in the chat already.
func (c *chatRec) handled(update int64, now time.Time) bool {
	if update == 0 {
		return false
	}
	if _, seen := slices.BinarySearch(c.recent, update); update > c.floor && !seen {
		return false
	}
	return c.lastUpdateAt == 0 || timeMs(now)-c.lastUpdateAt < RedeliveryWindow.Milliseconds()
}

// markHandled records the update as handled, and as the chat's last one,
// with the answer its command had (none when it was no command). What the
// chat handled more than RedeliveryWindow ago is forgotten: none of it can
// come again.
func (c *chatRec) markHandled(update int64, now time.Time, answer []game.Event) {
	if update == 0 {
		return
	}
	at := timeMs(now)
	if c.lastUpdateAt != 0 && at-c.lastUpdateAt >= RedeliveryWindow.Milliseconds() {
		c.floor, c.recent = 0, nil
	}
	if i, seen := slices.BinarySearch(c.recent, update); update > c.floor && !seen {
		c.recent = slices.Insert(c.recent, i, update)
		if len(c.recent) > recentUpdates {
			c.floor = c.recent[0]
			c.recent = slices.Delete(c.recent, 0, 1)
		}
	}
	c.lastUpdate, c.lastUpdateAt, c.answer = update, at, answer
}

// mergeHandled adds the updates src handled to those c handled.
func (c *chatRec) mergeHandled(src *chatRec) {
	floor := max(c.floor, src.floor)
	var recent []int64
	for _, id := range slices.Concat(c.recent, src.recent) {
		if id > floor {
			recent = append(recent, id)
		}
	}
	slices.Sort(recent)
	recent = slices.Compact(recent)
	if n := len(recent) - recentUpdates; n > 0 {
		floor, recent = recent[n-1], recent[n:]
	}
	c.floor, c.recent = floor, recent
}

// userRec is a user in a chat: balance, profile, and what the rules keep
// of them (award.Record: their stats and their way to Comeback).
type userRec struct {
	balance   int64
	created   int64 // Unix ms
	lastBonus int64 // Unix ms, 0 when never
	name      string
	username  string
	language  string
	// lastEntry is the key number of the user's last ledger entry in the
	// chat, 0 before the first.
	lastEntry uint64
	award.Record
}

func (u *userRec) encode() []byte {
	b := make([]byte, 0, 64+len(u.name)+len(u.username)+len(u.language))
	b = append(b, recordFormat)
	b = binary.AppendVarint(b, u.balance)
	b = binary.AppendVarint(b, u.created)
	b = binary.AppendVarint(b, u.lastBonus)
	b = appendStr(b, u.name)
	b = appendStr(b, u.username)
	b = appendStr(b, u.language)
	s := &u.Stats
	for _, n := range [...]int{s.Games, s.GamesAsBanker, s.DuelsWon, s.DuelsLost, s.Golden21s, s.FivePictures} {
		b = binary.AppendVarint(b, int64(n))
	}
	b = binary.AppendVarint(b, s.Net)
	b = binary.AppendVarint(b, s.BiggestWin)
	b = binary.AppendUvarint(b, u.lastEntry)
	// A user with no achievement and no mark ends at their last entry.
	if s.Achievements == 0 && !u.Mark.Broke {
		return b
	}
	b = binary.AppendUvarint(b, uint64(s.Achievements))
	if !u.Mark.Broke {
		return b
	}
	return binary.AppendVarint(b, u.Mark.Need)
}

func decodeUser(v []byte) (userRec, error) {
	r := newRecReader(v)
	var u userRec
	u.balance = r.varint()
	u.created = r.varint()
	u.lastBonus = r.varint()
	u.name = r.str()
	u.username = r.str()
	u.language = r.str()
	s := &u.Stats
	for _, p := range [...]*int{&s.Games, &s.GamesAsBanker, &s.DuelsWon, &s.DuelsLost, &s.Golden21s, &s.FivePictures} {
		*p = int(r.varint())
	}
	s.Net = r.varint()
	s.BiggestWin = r.varint()
	u.lastEntry = r.uvarint()
	if len(r.b) > 0 { // absent when there is none
		s.Achievements = award.Set(r.uvarint())
	}
	if len(r.b) > 0 { // absent when the user is not broke
		u.Mark = award.Mark{Broke: true, Need: r.varint()}
	}
	if r.err == nil && !s.Achievements.Valid() {
		r.err = fmt.Errorf("%w: achievements %#x", errRecord, uint64(s.Achievements))
	}
	if r.err == nil && u.balance < 0 {
		r.err = fmt.Errorf("%w: negative balance %d", errRecord, u.balance)
	}
	return u, r.done()
}

// profile returns the user's profile.
func (u *userRec) profile(id game.UserID) User {
	return User{ID: id, Name: u.name, Username: u.username, Language: u.language}
}

// refresh copies a profile in and reports whether anything changed. Empty
// fields of p keep what is stored.
func (u *userRec) refresh(p User) bool {
	changed := false
	set := func(dst *string, v string) {
		v = cleanString(v)
		if v != "" && *dst != v {
			*dst = v
			changed = true
		}
	}
	set(&u.name, p.Name)
	set(&u.username, p.Username)
	set(&u.language, p.Language)
	return changed
}

// maxProfileLen bounds the profile strings storage keeps.
const maxProfileLen = 256

// cleanString makes s valid UTF-8 of at most maxProfileLen bytes.
func cleanString(s string) string {
	if !utf8.ValidString(s) {
		s = string([]rune(s))
	}
	if len(s) > maxProfileLen {
		s = s[:maxProfileLen]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return s
}

// entryFormat is the format byte of a ledger entry. (Format 1, without the
// entry's chat, number and link, was a pre-release's.)
const entryFormat = 2

// encode encodes the entry, linked to prev, the key number of the user's
// previous entry in the chat (0 for their first).
func (e *LedgerEntry) encode(prev uint64) []byte {
	b := make([]byte, 0, 64)
	b = append(b, entryFormat)
	b = binary.AppendVarint(b, e.Chat)
	b = binary.AppendUvarint(b, e.Seq)
	b = binary.AppendUvarint(b, prev)
	b = binary.AppendVarint(b, timeMs(e.Time))
	b = binary.AppendVarint(b, e.Thread)
	b = binary.AppendVarint(b, int64(e.User))
	b = append(b, byte(e.Kind))
	b = binary.AppendVarint(b, e.Amount)
	b = binary.AppendVarint(b, e.Balance)
	b = binary.AppendUvarint(b, e.Game)
	return binary.AppendVarint(b, e.Update)
}

// decodeLedger decodes an entry and the key number of the user's previous
// one.
func decodeLedger(v []byte) (e LedgerEntry, prev uint64, err error) {
	r := &recReader{b: v}
	if f := r.byte(); r.err == nil && f != entryFormat {
		r.err = fmt.Errorf("%w: ledger entry format %d", errRecord, f)
	}
	e.Chat = r.varint()
	e.Seq = r.uvarint()
	prev = r.uvarint()
	e.Time = msTime(r.varint())
	e.Thread = r.varint()
	e.User = game.UserID(r.varint())
	e.Kind = LedgerKind(r.byte())
	e.Amount = r.varint()
	e.Balance = r.varint()
	e.Game = r.uvarint()
	e.Update = r.varint()
	if r.err == nil && !e.Kind.valid() {
		r.err = fmt.Errorf("%w: ledger kind %d", errRecord, e.Kind)
	}
	return e, prev, r.done()
}

func timeMs(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func msTime(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

func appendStr(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// recReader reads a record; the first failure sticks.
type recReader struct {
	b   []byte
	err error
}

func newRecReader(v []byte) *recReader {
	if len(v) == 0 || v[0] != recordFormat {
		return &recReader{err: fmt.Errorf("%w: unknown format", errRecord)}
	}
	return &recReader{b: v[1:]}
}

func (r *recReader) fail() {
	if r.err == nil {
		r.err = fmt.Errorf("%w: truncated or bad number", errRecord)
	}
	r.b = nil
}

func (r *recReader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *recReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *recReader) byte() byte {
	if len(r.b) == 0 {
		r.fail()
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *recReader) str() string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.fail()
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// done returns the first failure, or an error when bytes are left over.
func (r *recReader) done() error {
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("%w: %d trailing bytes", errRecord, len(r.b))
	}
	return r.err
}
