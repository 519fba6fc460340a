package storage

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/house"
)

// The records of a table: the stored table with its header, its value in
// the timer index, an owed message's, and a revealed deck's.

// tableHeader is what storage keeps beside a table's encoding: the message
// it is rendered into, and its deadline and version, so that Timers reads
// them without decoding the table.
type tableHeader struct {
	messageID int
	deadline  int64 // Unix ms, 0 when none
	version   uint64
}

// encodeTable returns a stored table: format, header, then
// game.Table.MarshalBinary.
func encodeTable(t *game.Table, messageID int) ([]byte, error) {
	h := tableHeader{messageID: messageID, deadline: timeMs(t.Deadline()), version: t.Version()}
	return t.AppendBinary(h.append(make([]byte, 0, 640)))
}

func (h *tableHeader) append(b []byte) []byte {
	b = append(b, recordFormat)
	b = binary.AppendUvarint(b, uint64(h.messageID))
	b = binary.AppendVarint(b, h.deadline)
	return binary.AppendUvarint(b, h.version)
}

// splitTable returns the header and the game encoding of a stored table.
func splitTable(v []byte) (tableHeader, []byte, error) {
	r := newRecReader(v)
	id := r.uvarint()
	h := tableHeader{messageID: int(id), deadline: r.varint(), version: r.uvarint()}
	if r.err != nil || id > 1<<53 {
		return tableHeader{}, nil, fmt.Errorf("%w: table header", errRecord)
	}
	return h, r.b, nil
}

func decodeTable(v []byte) (game.Table, int, error) {
	h, enc, err := splitTable(v)
	if err != nil {
		return game.Table{}, 0, err
	}
	t, err := game.Decode(enc)
	if err != nil {
		return game.Table{}, 0, err
	}
	if t.Version() != h.version || timeMs(t.Deadline()) != h.deadline {
		return game.Table{}, 0, fmt.Errorf("%w: table header does not match the table", errRecord)
	}
	return t, h.messageID, nil
}

// timerValue is a table's value in the timer index: empty, or, while the
// house is to move there, the time it moves (house.MoveAt), Unix
// milliseconds in 8 bytes.
func timerValue(tb *game.Table) []byte {
	at := house.MoveAt(tb)
	if at.IsZero() {
		return present
	}
	b := make([]byte, 8)
	putInt(b, at.UnixMilli())
	return b
}

// parseTimerValue reads a value of the timer index: the time the house
// moves, zero when it does not.
func parseTimerValue(v []byte) (time.Time, error) {
	switch len(v) {
	case 0:
		return time.Time{}, nil
	case 8:
		return msTime(getInt(v)), nil
	}
	return time.Time{}, fmt.Errorf("%w: a timer of %d bytes", errRecord, len(v))
}

// encodeRetirement returns the value of an owed message: the format, then
// the finished table it is to become the record of
// (game.Table.MarshalBinary), or nothing when it is to be deleted.
func encodeRetirement(record *game.Table) ([]byte, error) {
	b := []byte{recordFormat}
	if record == nil {
		return b, nil
	}
	return record.AppendBinary(b)
}

// decodeRetirement decodes an owed message's value; record is false when
// the message is to be deleted.
func decodeRetirement(v []byte) (tb game.Table, record bool, err error) {
	if len(v) == 0 || v[0] != recordFormat {
		return game.Table{}, false, fmt.Errorf("%w: retirement format", errRecord)
	}
	if len(v) == 1 {
		return game.Table{}, false, nil
	}
	tb, err = game.Decode(v[1:])
	return tb, err == nil, err
}

// revealCutFormat is the format byte of the reveal of a deck of
// game.SchemeCut (schema 3); recordFormat's are of game.SchemeSalt.
const revealCutFormat = 2

// encode encodes the reveal: the format, the time and the commitment,
// then the preimage (SchemeSalt), or the record and the cutter
// (SchemeCut).
func (r *Reveal) encode() []byte {
	b := make([]byte, 0, 128+len(r.Record))
	f := byte(recordFormat)
	if r.Scheme == game.SchemeCut {
		f = revealCutFormat
	}
	b = append(b, f)
	b = binary.AppendVarint(b, timeMs(r.Time))
	b = appendStr(b, r.Commitment)
	if f == recordFormat {
		return appendStr(b, r.Preimage)
	}
	b = appendStr(b, r.Record)
	return binary.AppendVarint(b, int64(r.CutBy))
}

func decodeReveal(k, v []byte) (Reveal, error) {
	if len(k) != 34 || len(v) == 0 {
		return Reveal{}, fmt.Errorf("%w: reveal key", errRecord)
	}
	rv := Reveal{Key: TableKey{Chat: getInt(k), Thread: getInt(k[16:])}, Game: getUint(k[8:]), Version: getUint(k[24:])}
	r := &recReader{b: v[1:]}
	rv.Time = msTime(r.varint())
	rv.Commitment = r.str()
	switch v[0] {
	case recordFormat:
		rv.Scheme, rv.Preimage = game.SchemeSalt, r.str()
	case revealCutFormat:
		rv.Scheme, rv.Record = game.SchemeCut, r.str()
		rv.CutBy = game.UserID(r.varint())
	default:
		return Reveal{}, fmt.Errorf("%w: reveal format %d", errRecord, v[0])
	}
	if err := r.done(); err != nil {
		return Reveal{}, err
	}
	if rv.Scheme == game.SchemeSalt {
		// The record of a deck of before the cut, from what was kept.
		c, err := game.ParseCommitment(rv.Commitment)
		if err != nil {
			return Reveal{}, fmt.Errorf("%w: %w", errRecord, err)
		}
		d, err := game.ParseDeck(rv.Preimage)
		if err != nil {
			return Reveal{}, fmt.Errorf("%w: %w", errRecord, err)
		}
		rv.Record = (&game.SaltRecord{Commitment: c, Deck: d}).String()
	}
	return rv, nil
}
