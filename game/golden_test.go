package game_test

import (
	"encoding/binary"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGoldenEncoding fixes the encoding storage writes: a change to it must
// be deliberate (a new EncodingVersion, and go test -run TestGolden -update).
func TestGoldenEncoding(t *testing.T) {
	f := goldenFixture(t)
	got := f.encode(f.tb)
	path := filepath.Join("testdata", "midgame-v4.bin")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -run TestGoldenEncoding -update ./game/ to create it")
	assert.Equal(t, want, got, "the encoding changed: bump EncodingVersion and migrate, or rerun with -update")

	// This build still reads what it wrote.
	tb, err := game.Decode(want)
	require.NoError(t, err)
	assert.Equal(t, want, f.encode(tb))
	assert.Equal(t, byte(game.EncodingVersion), want[0])
	assert.Equal(t, game.Drawing, tb.Phase())
	assert.Equal(t, uint64(10), tb.Version())
	assert.Equal(t, int64(20), tb.Bank())
	assert.Equal(t, int64(30), tb.Chips())
	b, _ := tb.Banker()
	assert.Equal(t, alice, tb.Seat(b).User)
	i, _ := tb.Turn()
	assert.Equal(t, carol, tb.Seat(i).User)
	assert.Equal(t, "Ts 9s", codes(tb.Seat(i).Hand.Cards()))
	assert.Equal(t, "Франк ♠ <b>&amp;", tb.Seat(3).Name)
	assert.Equal(t, f.now.Add(time.Minute).UnixMilli(), tb.Deadline().UnixMilli())
	require.Len(t, tb.Log(), 1)
	assert.Equal(t, game.PlayerBust, tb.Log()[0].Result)
}

// TestDecodeVersion3 reads the bytes the encoder of version 3 wrote
// (testdata/midgame-v3.bin, the table of TestGoldenEncoding before the
// cut, its deck of SchemeSalt): the same table, written again as version
// 4, its deck still of SchemeSalt and checked against its commitment.
func TestDecodeVersion3(t *testing.T) {
	old, err := os.ReadFile(filepath.Join("testdata", "midgame-v3.bin"))
	require.NoError(t, err)
	require.Equal(t, byte(3), old[0])
	tb, err := game.Decode(old)
	require.NoError(t, err)
	f := goldenFixture(t)
	assert.Equal(t, f.encode(f.tb), f.encode(tb))
	_, isCut := tb.Cut()
	assert.False(t, isCut, "a deck of before the cut has no cut")
	c, ok := tb.Commitment()
	require.True(t, ok)
	want, _ := f.tb.Commitment()
	assert.Equal(t, want, c)
}

// TestDecodeVersion2 reads the bytes the encoder of version 2 wrote
// (testdata/midgame-v2.bin, the table of TestGoldenEncoding, its six
// settings in the fixed layout of their day): the same table, every
// setting as it was and the rest at their defaults, written again as
// the current version.
func TestDecodeVersion2(t *testing.T) {
	old, err := os.ReadFile(filepath.Join("testdata", "midgame-v2.bin"))
	require.NoError(t, err)
	require.Equal(t, byte(2), old[0])
	tb, err := game.Decode(old)
	require.NoError(t, err)
	f := goldenFixture(t)
	assert.Equal(t, f.encode(f.tb), f.encode(tb))
	assert.True(t, game.DefaultSettings().Equal(tb.Settings()))
	assert.Equal(t, f.tb.Seats(), tb.Seats())
	assert.Equal(t, f.tb.Log(), tb.Log())

	// A version 2 table whose settings are not the defaults: the bytes
	// its encoder wrote for them, spelled out.
	custom := game.DefaultSettings()
	custom.Stake, custom.EntryLimit, custom.MaxKnocks = 25, 300, 0
	custom.BetOptions = []game.BetOption{{Kind: game.StakeTimes, N: 3}, {Kind: game.BankShare, N: 1}}
	custom.TurnTimeout, custom.LobbyTimeout = 90*time.Second, time.Hour
	v2 := []byte{2, 1, 0, byte(game.Closed)}
	v2 = binary.AppendVarint(v2, 25)
	v2 = binary.AppendVarint(v2, 300)
	v2 = append(v2, 2, byte(game.StakeTimes))
	v2 = binary.AppendVarint(v2, 3)
	v2 = append(v2, byte(game.BankShare))
	v2 = binary.AppendVarint(v2, 1)
	v2 = binary.AppendVarint(v2, 90_000)
	v2 = binary.AppendVarint(v2, 3_600_000)
	v2 = binary.AppendVarint(v2, 0)
	// No seats, no banker nor turn, no deadline, bank or circle, no last
	// banker, no deck, no discards, no players, no record, no reveal, not
	// closed for a reason.
	v2 = append(v2, 0, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	closed, err := game.Decode(withCRC(v2))
	require.NoError(t, err)
	assert.True(t, custom.Equal(closed.Settings()), "got %+v", closed.Settings())
	assert.Equal(t, game.Closed, closed.Phase())
	again, err := game.Decode(f.encode(closed))
	require.NoError(t, err)
	assert.True(t, custom.Equal(again.Settings()), "written again as the current version")
}

// TestEncodedSettings: a table writes its settings as rows, the ones at
// their default left out from the last that is not, and reads back what
// it wrote; rows this build does not know are another version.
func TestEncodedSettings(t *testing.T) {
	f := newFixture(t)
	f.open(alice)
	enc := f.encode(f.tb)
	for _, knocks := range []int{0, 3, 10} {
		f.settings.MaxKnocks = knocks
		f.cancel()
		f.open(alice)
		got, err := game.Decode(f.encode(f.tb))
		require.NoError(t, err)
		assert.Equal(t, knocks, got.Settings().MaxKnocks)
		if knocks == 3 {
			assert.Equal(t, len(enc), len(f.encode(f.tb)), "the defaults take no room")
		} else {
			assert.Greater(t, len(f.encode(f.tb)), len(enc), "a setting not at its default is written")
		}
	}

	// The count of rows sits after the version, table version, game and
	// phase: one more than this build knows is another version's.
	body := enc[:len(enc)-4]
	at := 1 + uvarintLen(f.tb.Version()) + uvarintLen(0) + 1
	require.Equal(t, byte(0), body[at], "the defaults: no row written")
	more := append([]byte(nil), body...)
	more[at] = byte(len(game.Fields()) + 1)
	_, err := game.Decode(withCRC(more))
	assert.ErrorIs(t, err, game.ErrUnknownVersion)
}

func uvarintLen(v uint64) int { return len(binary.AppendUvarint(nil, v)) }

func TestDecodeRejectsDamage(t *testing.T) {
	f := goldenFixture(t)
	enc := f.encode(f.tb)
	for i := range enc {
		b := append([]byte(nil), enc...)
		b[i] ^= 0x10
		_, err := game.Decode(b)
		assert.ErrorIs(t, err, game.ErrCorrupt, "byte %d flipped", i)
	}
	for n := 0; n < len(enc); n++ {
		_, err := game.Decode(enc[:n])
		assert.ErrorIs(t, err, game.ErrCorrupt, "cut to %d bytes", n)
	}
	_, err := game.Decode(withCRC(append(enc[:len(enc)-4:len(enc)-4], 0)))
	assert.ErrorIs(t, err, game.ErrCorrupt, "a trailing byte")

	// Another version, newer or a pre-release's (1), is not read.
	var tb game.Table
	for _, v := range []byte{game.EncodingVersion + 1, 1} {
		other := append([]byte{v}, enc[1:len(enc)-4]...)
		_, err = game.Decode(withCRC(other))
		assert.ErrorIs(t, err, game.ErrUnknownVersion, "version %d", v)
		assert.ErrorIs(t, tb.UnmarshalBinary(withCRC(other)), game.ErrUnknownVersion, "version %d", v)
	}
	require.NoError(t, tb.UnmarshalBinary(enc))
	assert.Equal(t, enc, f.encode(tb))

	b, err := f.tb.AppendBinary([]byte("prefix"))
	require.NoError(t, err)
	assert.Equal(t, append([]byte("prefix"), enc...), b)
}

func TestSampleTablesRoundTrip(t *testing.T) {
	for i, tb := range sampleTables(t) {
		enc := marshal(t, tb)
		dec, err := game.Decode(enc)
		require.NoError(t, err, "sample %d", i)
		assert.Equal(t, enc, marshal(t, dec))
		assert.Equal(t, tb.Phase(), dec.Phase())
		assert.Equal(t, tb.Seats(), dec.Seats())
		assert.Equal(t, tb.Log(), dec.Log())
		assert.Equal(t, tb.Players(), dec.Players())
		assert.True(t, tb.Settings().Equal(dec.Settings()))
	}
}
