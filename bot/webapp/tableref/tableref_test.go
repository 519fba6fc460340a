package tableref_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
	"github.com/twentyone-bot/twentyone/bot/webapp/tableref"
	"github.com/twentyone-bot/twentyone/storage"
)

// fixedKey is the key of bytes 0, 1, ..., 31.
func fixedKey(t testing.TB) tableref.Key {
	b := make([]byte, tableref.KeySize)
	for i := range b {
		b[i] = byte(i)
	}
	k, err := tableref.KeyFrom(b)
	require.NoError(t, err)
	return k
}

// TestRefVectors: references computed independently of this package, once,
// by this Python 3.11 (key bytes 0..31):
//
//	import hmac, hashlib, struct, base64
//	key = bytes(range(32))
//	def ref(chat, thread):
//	    body = bytes([1]) + struct.pack(">qq", chat, thread)
//	    tag = hmac.new(key, b"twentyone table ref\x00" + body, hashlib.sha256).digest()[:16]
//	    return base64.urlsafe_b64encode(body + tag).decode().rstrip("=")
//	print(ref(-1001234567890, 7)); print(ref(-5, 0))
func TestRefVectors(t *testing.T) {
	k := fixedKey(t)
	tests := []struct {
		table storage.TableKey
		ref   string
	}{
		{storage.TableKey{Chat: -1001234567890, Thread: 7}, "Af___xbhxO0uAAAAAAAAAAdZbgeqXWWJiUjHnukzLtRj"},
		{storage.TableKey{Chat: -5}, "Af_________7AAAAAAAAAADVlILs10KMuIKsXpjpTnfc"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.ref, k.Ref(tt.table), "%v", tt.table)
		got, err := k.Parse(tt.ref)
		require.NoError(t, err)
		assert.Equal(t, tt.table, got)
	}
}

func TestRefRoundTrip(t *testing.T) {
	k := tableref.NewKey()
	other := tableref.NewKey()
	tables := []storage.TableKey{
		{Chat: -1001234567890},
		{Chat: -1001234567890, Thread: 42},
		{Chat: 123456789},
		{Chat: storage.InlineChatID("-8428209589180549439"), Thread: storage.InlineThreadID("AgAAAKz0AQBd7wIA")},
		{Chat: math.MinInt64, Thread: math.MaxInt64},
		{Chat: math.MaxInt64, Thread: -1},
		{},
	}
	seen := map[string]bool{}
	for _, table := range tables {
		t.Run(table.String(), func(t *testing.T) {
			ref := k.Ref(table)
			assert.Len(t, ref, tableref.Len)
			assert.LessOrEqual(t, len(ref), 64)
			assert.True(t, initdata.ValidStartParam(ref), "a valid startapp: %q", ref)
			assert.Equal(t, ref, k.Ref(table), "the same every time")
			assert.False(t, seen[ref], "one reference per table")
			seen[ref] = true

			got, err := k.Parse(ref)
			require.NoError(t, err)
			assert.Equal(t, table, got)

			_, err = other.Parse(ref)
			assert.ErrorIs(t, err, tableref.ErrInvalid, "another key refuses it")
			assert.NotEqual(t, ref, other.Ref(table))
		})
	}
}

// TestParseRefusesForgeries changes a valid reference every way a forger
// could without the key: every character, the table with another's tag,
// and strings that are no reference at all.
func TestParseRefusesForgeries(t *testing.T) {
	k := fixedKey(t)
	ref := k.Ref(storage.TableKey{Chat: -1001234567890, Thread: 7})
	neighbour := k.Ref(storage.TableKey{Chat: -1001234567891, Thread: 7})

	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	for i := 0; i < len(ref); i++ {
		for _, c := range []byte{alphabet[(strings.IndexByte(alphabet, ref[i])+1)%64], alphabet[(strings.IndexByte(alphabet, ref[i])+32)%64]} {
			forged := ref[:i] + string(c) + ref[i+1:]
			_, err := k.Parse(forged)
			assert.ErrorIs(t, err, tableref.ErrInvalid, "character %d changed: %q", i, forged)
		}
	}

	tests := []struct {
		name string
		ref  string
	}{
		{"empty", ""},
		{"one character short", ref[:tableref.Len-1]},
		{"one character more", ref + "A"},
		{"padded", ref[:tableref.Len-1] + "="},
		{"the standard alphabet", strings.NewReplacer("-", "+", "_", "/").Replace(ref)},
		{"a space", " " + ref[1:]},
		{"a line feed", ref[:20] + "\n" + ref[21:]},
		{"a neighbour's table with this tag", neighbour[:23] + ref[23:]},
		{"this table with a neighbour's tag", ref[:23] + neighbour[23:]},
		{"version 2", "Av" + ref[2:]},
		{"all A", strings.Repeat("A", tableref.Len)},
		{"64 characters", strings.Repeat("A", 64)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NotEqual(t, ref, tt.ref)
			got, err := k.Parse(tt.ref)
			assert.ErrorIs(t, err, tableref.ErrInvalid)
			assert.Equal(t, storage.TableKey{}, got)
			if len(tt.ref) > 8 {
				assert.NotContains(t, err.Error(), tt.ref[:8], "quotes nothing of the reference")
			}
		})
	}
}

func TestKeyFrom(t *testing.T) {
	k := tableref.NewKey()
	b := k.Bytes()
	require.Len(t, b, tableref.KeySize)
	back, err := tableref.KeyFrom(b)
	require.NoError(t, err)
	table := storage.TableKey{Chat: -100, Thread: 3}
	assert.Equal(t, k.Ref(table), back.Ref(table), "the key kept is the key")

	b[0] ^= 0xff
	assert.Equal(t, back.Ref(table), k.Ref(table), "Bytes is a copy")
	assert.NotEqual(t, tableref.NewKey().Bytes(), k.Bytes(), "NewKey draws anew")

	for _, bad := range [][]byte{nil, make([]byte, tableref.KeySize-1), make([]byte, tableref.KeySize+1), make([]byte, tableref.KeySize)} {
		_, err := tableref.KeyFrom(bad)
		assert.Error(t, err, "%d bytes", len(bad))
	}
}

// TestZeroKeyParsesNothing: a Key left zero would make references anyone
// can forge; Parse refuses every one with it, even its own.
func TestZeroKeyParsesNothing(t *testing.T) {
	var zero tableref.Key
	ref := zero.Ref(storage.TableKey{Chat: -100})
	_, err := zero.Parse(ref)
	assert.ErrorIs(t, err, tableref.ErrInvalid)
	_, err = zero.Parse(fixedKey(t).Ref(storage.TableKey{Chat: -100}))
	assert.ErrorIs(t, err, tableref.ErrInvalid)
}

func TestKeyNeverPrinted(t *testing.T) {
	k := fixedKey(t)
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x", "%d", "%q"} {
		assert.Equal(t, "tableref.Key(redacted)", fmt.Sprintf(verb, k), verb)
	}
}

// FuzzParse: Parse never panics, and accepts only what Ref makes.
func FuzzParse(f *testing.F) {
	k := fixedKey(f)
	f.Add(k.Ref(storage.TableKey{Chat: -1001234567890, Thread: 7}))
	f.Add(strings.Repeat("A", tableref.Len))
	f.Add("")
	f.Fuzz(func(t *testing.T, ref string) {
		table, err := k.Parse(ref)
		if err != nil {
			require.ErrorIs(t, err, tableref.ErrInvalid)
			return
		}
		require.Equal(t, ref, k.Ref(table))
	})
}
