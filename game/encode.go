package game

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"time"
	"unicode/utf8"
)

// EncodingVersion is the version of the table encoding this code writes.
// It keeps the game's whole record (LogSize lines, sit-outs included),
// each line naming its player by the index among the game's players, the
// table's settings as rows (see appendSettings), so that a new setting
// needs no new version, and the deck of either scheme with the cut it
// waits for (see appendShoe). A new layout gets a new version, and Decode
// then reads the old ones too, for as long as a stored table may hold
// them: version 3 wrote the decks of SchemeSalt alone, version 2 also the
// six settings of its day in a fixed layout. (Version 1 was a
// pre-release's, which no release reads.)
const EncodingVersion = 4

// v2Fields is how many settings version 2 wrote: the first rows of
// tableFields, each as a row writes it, without a count.
const v2Fields = 6

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// MarshalBinary encodes the table: a version byte, the fields, and a CRC-32C
// of all that comes before it.
func (t *Table) MarshalBinary() ([]byte, error) {
	return t.AppendBinary(make([]byte, 0, 512))
}

// AppendBinary appends the table's encoding to b.
func (t *Table) AppendBinary(b []byte) ([]byte, error) {
	start := len(b)
	b = append(b, EncodingVersion)
	b = binary.AppendUvarint(b, t.version)
	b = binary.AppendUvarint(b, t.game)
	b = append(b, byte(t.phase))
	b = appendSettings(b, &t.settings)
	b = append(b, t.nseats)
	for i := range t.seats[:t.nseats] {
		s := &t.seats[i]
		b = binary.AppendVarint(b, int64(s.User))
		b = appendString(b, s.Name)
		b = appendHand(b, &s.Hand)
		b = binary.AppendVarint(b, s.Bet)
		b = append(b, byte(s.State), boolByte(s.Leaving))
	}
	// Out of a game there is no banker nor turn, also in the zero Table.
	banker, turn := t.banker, t.turn
	if !t.phase.InGame() {
		banker, turn = -1, -1
	}
	b = append(b, byte(banker), byte(turn))
	b = binary.AppendVarint(b, t.deadline)
	b = binary.AppendVarint(b, t.bank)
	b = binary.AppendVarint(b, t.circleBank)
	b = append(b, t.circle, t.knocks)
	b = binary.AppendVarint(b, int64(t.lastBanker))
	b = append(b, byte(t.lastBankerSeat))
	b = t.appendShoe(b)
	b = append(b, t.ndiscard)
	b = appendCards(b, t.discard[:t.ndiscard])
	b = append(b, t.nplayers)
	for i := range t.players[:t.nplayers] {
		p := &t.players[i]
		b = binary.AppendVarint(b, int64(p.User))
		b = appendString(b, p.Name)
		b = append(b, boolByte(p.Banker))
		b = binary.AppendVarint(b, p.Net)
	}
	b = append(b, boolByte(t.logCut), t.nlog)
	for i := range t.log[:t.nlog] {
		e := &t.log[i]
		b = append(b, e.circle, e.player, byte(e.result), byte(e.why))
		b = appendHand(b, &e.hand)
		b = appendHand(b, &e.banker)
		b = binary.AppendVarint(b, e.bet)
	}
	b = append(b, boolByte(t.hasRevealed))
	if t.hasRevealed {
		b = append(b, t.revealed[:]...)
	}
	b = append(b, byte(t.closedBy))
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:], crcTable)), nil
}

// The schemes of a deck as appendShoe writes them.
const (
	shoeNone byte = iota // no deck in play nor awaited
	shoeSalt             // SchemeSalt: order, salt and hash
	shoeCut              // SchemeCut: link, seed, head, cut and order
)

// appendShoe writes the deck in play or awaited: its scheme, then for
// SchemeSalt its count, drawn, order, salt and hash; for SchemeCut its
// link, seed, head, cutter, cut, count, drawn and order (the hash is the
// seed's). Then the deck's number in the circle and, while the table
// waits for the cut, the wait: who is asked, what the cut resumes, why
// the banker plays, the banker's hand and the wait's length in
// milliseconds.
func (t *Table) appendShoe(b []byte) []byte {
	s := &t.shoe
	switch {
	case s.cutScheme:
		b = append(b, shoeCut)
		b = binary.AppendUvarint(b, uint64(s.link))
		b = append(b, s.seed[:]...)
		b = append(b, s.head[:]...)
		b = binary.AppendVarint(b, int64(s.cutBy))
		b = binary.AppendUvarint(b, uint64(len(s.cut)))
		b = append(b, s.cut...)
		b = append(b, s.n, s.drawn)
		b = appendCards(b, s.order[:s.n])
	case s.n > 0:
		b = append(b, shoeSalt, s.n, s.drawn)
		b = appendCards(b, s.order[:s.n])
		b = append(b, s.salt[:]...)
		b = append(b, s.hash[:]...)
	default:
		b = append(b, shoeNone)
	}
	b = append(b, t.deckNo)
	if t.phase != Cutting {
		return b
	}
	w := &t.wait
	b = binary.AppendVarint(b, int64(w.asked))
	b = append(b, byte(w.then), byte(w.why))
	b = appendHand(b, &w.banker)
	return binary.AppendUvarint(b, uint64(w.length.Milliseconds()))
}

// shoe reads the deck as appendShoe writes it (version 4 on), or as
// versions 2 and 3 did: count, drawn, and for a deck its order, salt and
// hash; such a deck counts as the circle's first (the record of a deck of
// SchemeSalt does not name its number).
func (r *reader) shoe(t *Table, version byte) {
	s := &t.shoe
	if version < 4 {
		s.n, s.drawn = r.count(DeckSize), r.byte()
		if s.n > 0 {
			r.cards(s.order[:s.n])
			r.bytes(s.salt[:])
			r.bytes(s.hash[:])
			t.deckNo = 1
		}
		return
	}
	switch r.byte() {
	case shoeNone:
	case shoeSalt:
		s.n, s.drawn = r.count(DeckSize), r.byte()
		r.cards(s.order[:s.n])
		r.bytes(s.salt[:])
		r.bytes(s.hash[:])
	case shoeCut:
		link := r.uvarint()
		if link == 0 || link > math.MaxUint32 {
			r.fail("link %d", link)
		}
		s.cutScheme, s.link = true, uint32(link)
		r.bytes(s.seed[:])
		r.bytes(s.head[:])
		s.hash = Commitment(s.seed.Hash())
		s.cutBy = UserID(r.varint())
		n := r.uvarint()
		if n > MaxCutLen || n > uint64(len(r.b)) {
			r.fail("cut of %d bytes", n)
		} else {
			s.cut, r.b = string(r.b[:n]), r.b[n:]
		}
		s.n, s.drawn = r.count(DeckSize), r.byte()
		r.cards(s.order[:s.n])
	default:
		r.fail("deck scheme")
	}
	t.deckNo = r.byte()
	if t.phase != Cutting {
		return
	}
	w := &t.wait
	w.asked = UserID(r.varint())
	w.then, w.why = resume(r.byte()), Reason(r.byte())
	r.hand(&w.banker)
	if ms := r.uvarint(); ms > uint64(MaxTurnTimeout.Milliseconds()) {
		r.fail("cut wait of %d ms", ms)
	} else {
		w.length = time.Duration(ms) * time.Millisecond
	}
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendCards(b []byte, cs []Card) []byte {
	for _, c := range cs {
		b = append(b, byte(c))
	}
	return b
}

func appendHand(b []byte, h *Hand) []byte {
	b = append(b, h.n)
	return appendCards(b, h.cards[:h.n])
}

// appendSettings writes the table's settings: how many of the table's
// rows follow (tableFields: every one up to the last whose value is not its
// Default), then each row's value by its kind. A row not written holds its
// Default: a setting added after a table was written, or one left alone.
func appendSettings(b []byte, s *Settings) []byte {
	c := ChatSettings{Game: *s}
	n := 0
	for i := range tableFields {
		if !tableFields[i].IsDefault(c) {
			n = i + 1
		}
	}
	b = append(b, byte(n))
	for i := range tableFields[:n] {
		b = appendValue(b, &tableFields[i], tableFields[i].get(c))
	}
	return b
}

// appendValue writes a setting's value: a number as a varint, a duration
// in milliseconds, bet options as their count and each option's kind and
// number, a toggle as a boolean, a language as a string.
func appendValue(b []byte, f *Field, v Value) []byte {
	switch f.Kind {
	case FieldDuration:
		return binary.AppendVarint(b, time.Duration(v.N).Milliseconds())
	case FieldBets:
		b = append(b, byte(len(v.Bets)))
		for _, o := range v.Bets {
			b = append(b, byte(o.Kind))
			b = binary.AppendVarint(b, o.N)
		}
		return b
	case FieldToggle:
		return append(b, boolByte(v.On))
	case FieldLanguage:
		return appendString(b, v.Text)
	}
	return binary.AppendVarint(b, v.N)
}

// UnmarshalBinary decodes a table written by MarshalBinary into t.
func (t *Table) UnmarshalBinary(data []byte) error {
	d, err := Decode(data)
	if err != nil {
		return err
	}
	*t = d
	return nil
}

// Decode decodes a table written by MarshalBinary. Bytes that are damaged,
// truncated, or describe an impossible table return an error wrapping
// ErrCorrupt; an encoding of another version, ErrUnknownVersion.
func Decode(data []byte) (Table, error) {
	if len(data) < 5 {
		return Table{}, fmt.Errorf("%w: %d bytes is too short", ErrCorrupt, len(data))
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, crcTable) != sum {
		return Table{}, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	if body[0] < 2 || body[0] > EncodingVersion {
		return Table{}, fmt.Errorf("%w: %d (this build reads 2 to %d)", ErrUnknownVersion, body[0], EncodingVersion)
	}
	r := reader{b: body[1:]}
	var t Table
	t.version = r.uvarint()
	t.game = r.uvarint()
	t.phase = Phase(r.byte())
	n := byte(v2Fields)
	if body[0] != 2 {
		n = r.byte()
	}
	t.settings = r.settings(n)
	t.nseats = r.count(MaxSeats)
	for i := range t.seats[:t.nseats] {
		s := &t.seats[i]
		s.User = UserID(r.varint())
		s.Name = r.string()
		r.hand(&s.Hand)
		s.Bet = r.varint()
		s.State = SeatState(r.byte())
		s.Leaving = r.bool()
	}
	t.banker, t.turn = int8(r.byte()), int8(r.byte())
	t.deadline = r.varint()
	t.bank = r.varint()
	t.circleBank = r.varint()
	t.circle, t.knocks = r.byte(), r.byte()
	t.lastBanker = UserID(r.varint())
	t.lastBankerSeat = int8(r.byte())
	r.shoe(&t, body[0])
	t.ndiscard = r.count(DeckSize)
	r.cards(t.discard[:t.ndiscard])
	r.players(&t)
	r.log(&t)
	t.hasRevealed = r.bool()
	if t.hasRevealed {
		r.bytes(t.revealed[:])
	}
	t.closedBy = Reason(r.byte())
	if r.err == nil && len(r.b) != 0 {
		r.fail("%d trailing bytes", len(r.b))
	}
	if r.err != nil {
		return Table{}, r.err
	}
	if err := t.check(); err != nil {
		return Table{}, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return t, nil
}

// players reads the players of the current or last game.
func (r *reader) players(t *Table) {
	t.nplayers = r.count(MaxSeats)
	for i := range t.players[:t.nplayers] {
		p := &t.players[i]
		p.User = UserID(r.varint())
		p.Name = r.string()
		p.Banker = r.bool()
		p.Net = r.varint()
	}
}

// log reads the game's record, after the players it points into.
func (r *reader) log(t *Table) {
	t.logCut = r.bool()
	t.nlog = r.count(LogSize)
	for i := range t.log[:t.nlog] {
		e := &t.log[i]
		e.circle, e.player, e.result, e.why = r.byte(), r.byte(), DuelResult(r.byte()), Reason(r.byte())
		r.hand(&e.hand)
		r.hand(&e.banker)
		e.bet = r.varint()
		r.entry(t, e)
	}
}

// entry checks a line of the record: a player of the game, a known result,
// no bet on a circle sat out.
func (r *reader) entry(t *Table, e *entry) {
	switch {
	case r.err != nil:
	case e.player >= t.nplayers:
		r.fail("record line of player %d of %d", e.player, t.nplayers)
	case e.result < TwentyOne || e.result > NoDuel || e.why > ReasonBankerLeft:
		r.fail("record line with result %d, reason %d", e.result, e.why)
	case e.bet < 0 || e.result == NoDuel && e.bet != 0:
		r.fail("record line with bet %d", e.bet)
	}
}

// reader reads the encoding; the first failure sticks and later reads return
// zero values.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
	}
	r.b = nil
}

func (r *reader) byte() byte {
	if len(r.b) < 1 {
		r.fail("truncated")
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *reader) bool() bool {
	switch r.byte() {
	case 0:
		return false
	case 1:
		return true
	}
	r.fail("bad boolean")
	return false
}

func (r *reader) count(limit int) uint8 {
	n := r.byte()
	if int(n) > limit {
		r.fail("count %d over %d", n, limit)
		return 0
	}
	return n
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail("bad number")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail("bad number")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) bytes(dst []byte) {
	if len(r.b) < len(dst) {
		r.fail("truncated")
		return
	}
	copy(dst, r.b)
	r.b = r.b[len(dst):]
}

func (r *reader) string() string {
	n := r.uvarint()
	if n > MaxNameLen || n > uint64(len(r.b)) {
		r.fail("string of %d bytes", n)
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	if !utf8.ValidString(s) {
		r.fail("invalid UTF-8")
		return ""
	}
	return s
}

func (r *reader) cards(dst []Card) {
	for i := range dst {
		c := Card(r.byte())
		if !c.Valid() && r.err == nil {
			r.fail("bad card %d", c)
		}
		dst[i] = c
	}
}

func (r *reader) hand(h *Hand) {
	h.n = r.count(MaxHand)
	r.cards(h.cards[:h.n])
}

// settings reads the first n rows of the table's settings, as
// appendSettings writes them; the others hold their Default.
func (r *reader) settings(n byte) Settings {
	if int(n) > len(tableFields) {
		if r.err == nil {
			r.err = fmt.Errorf("%w: %d settings, this build knows %d", ErrUnknownVersion, n, len(tableFields))
		}
		r.b = nil
		return Settings{}
	}
	var c ChatSettings
	for i := range tableFields {
		f := &tableFields[i]
		v := f.Default.clone()
		if i < int(n) {
			v = r.value(f)
		}
		c = f.set(c, v)
	}
	return c.Game
}

// value reads a setting's value as appendValue writes it.
func (r *reader) value(f *Field) Value {
	switch f.Kind {
	case FieldDuration:
		return Value{N: int64(r.millis())}
	case FieldBets:
		var v Value
		if n := r.count(MaxBetOptions); n > 0 {
			v.Bets = make([]BetOption, n)
		}
		for i := range v.Bets {
			v.Bets[i] = BetOption{Kind: BetKind(r.byte()), N: r.varint()}
		}
		return v
	case FieldToggle:
		return Value{On: r.bool()}
	case FieldLanguage:
		return Value{Text: r.string()}
	}
	return Value{N: r.varint()}
}

// millis reads a duration written in milliseconds; one that does not fit a
// time.Duration is corrupt.
func (r *reader) millis() time.Duration {
	v := r.varint()
	if v < 0 || v > math.MaxInt64/int64(time.Millisecond) {
		r.fail("bad duration %d ms", v)
		return 0
	}
	return time.Duration(v) * time.Millisecond
}
