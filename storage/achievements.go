package storage

import (
	"encoding/binary"
	"fmt"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/award"
)

// The achievements and the stats are game rules: package game/award
// decides them (award.Count), and storage keeps what it returns: the
// awards of each game, and each user's award.Stats in its user record.

// awardsKey is chat|thread|game: the awards of one game of a table.
func awardsKey(k TableKey, gameNo uint64) []byte {
	b := make([]byte, 24)
	putInt(b, k.Chat)
	putInt(b[8:], k.Thread)
	putUint(b[16:], gameNo)
	return b
}

func appendAwards(b []byte, awards []award.Award) []byte {
	for _, a := range awards {
		b = binary.AppendVarint(b, int64(a.User))
		b = append(b, byte(a.Achievement))
	}
	return b
}

func decodeAwards(v []byte) ([]award.Award, error) {
	r := newRecReader(v)
	var out []award.Award
	for r.err == nil && len(r.b) > 0 {
		a := award.Award{User: game.UserID(r.varint()), Achievement: award.Achievement(r.byte())}
		if r.err == nil && !a.Achievement.Valid() {
			r.err = fmt.Errorf("%w: achievement %d", errRecord, a.Achievement)
		}
		out = append(out, a)
	}
	return out, r.done()
}

// addAwards appends awards to those of the game gameNo of the table at key.
func (t *txn) addAwards(key TableKey, gameNo uint64, awards []award.Award) error {
	k := awardsKey(key, gameNo)
	v := t.awards.Get(k)
	if v == nil {
		v = []byte{recordFormat}
	}
	return t.awards.Put(k, appendAwards(append([]byte(nil), v...), awards))
}

// gameAwards returns the awards of the game a table shows as finished (in
// the lobby or closed after it), in the order earned; none while a game is
// played, so that a command in the middle of a game reads nothing more.
func (t *txn) gameAwards(key TableKey, tb *game.Table) ([]award.Award, error) {
	if !tb.Finished() {
		return nil, nil
	}
	v := t.awards.Get(awardsKey(key, tb.Game()))
	if v == nil {
		return nil, nil
	}
	out, err := decodeAwards(v)
	if err != nil {
		return nil, t.corruptAt(fmt.Sprintf("awards of chat %d thread %d game %d", key.Chat, key.Thread, tb.Game()), err)
	}
	return out, nil
}
