package game_test

import (
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
	path := filepath.Join("testdata", "midgame-v2.bin")
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
