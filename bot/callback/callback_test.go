package callback

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		data Data
		want string
	}{
		{Data{Action: Join, Version: 3}, "j:3"},
		{Data{Action: Leave, Version: 1}, "l:1"},
		{Data{Action: Setting, Version: 0, Field: "stake", Value: "25"}, "c:0:stake:25"},
		{Data{Action: Start, Version: 17}, "s:17"},
		{Data{Action: Bet, Version: 42, Amount: 10}, "b:42:10"},
		{Data{Action: Hit, Version: 43}, "h:43"},
		{Data{Action: Stand, Version: 44}, "d:44"},
		{Data{Action: NewTable, Version: 99}, "n:99"},
		{Data{Action: Setting, Version: 123, Field: "stake", Value: "25"}, "c:123:stake:25"},
		{Data{Action: Setting, Version: 1, Field: "entry", Value: "1000000000000"}, "c:1:entry:1000000000000"},
		{Data{Action: Setting, Version: 1, Field: "bets", Value: "x2"}, "c:1:bets:x2"},
		{Data{Action: Setting, Version: 1, Field: "bets", Value: "b10"}, "c:1:bets:b10"},
		{Data{Action: Setting, Version: 1, Field: "bets", Value: "x1000"}, "c:1:bets:x1000"},
		{Data{Action: Setting, Version: 1, Field: "turn", Value: "10"}, "c:1:turn:10"},
		{Data{Action: Setting, Version: 1, Field: "turn", Value: "3600"}, "c:1:turn:3600"},
		{Data{Action: Setting, Version: 1, Field: "lobby", Value: "86400"}, "c:1:lobby:86400"},
		{Data{Action: Setting, Version: 1, Field: "knocks", Value: "0"}, "c:1:knocks:0"},
		{Data{Action: Setting, Version: 1, Field: "lang", Value: "ru"}, "c:1:lang:ru"},
		// A language code of the right shape: which languages there are is
		// for the settings editor to check.
		{Data{Action: Setting, Version: 1, Field: "lang", Value: "de"}, "c:1:lang:de"},
		{Data{Action: SettingInfo, Field: "knocks"}, "i:knocks"},
		{Data{Action: SettingOpen, Version: 123, Field: "stake"}, "o:123:stake"},
		{Data{Action: SettingOpen, Version: 0, Field: "house"}, "o:0:house"},
		{Data{Action: SettingBack, Version: 123}, "k:123"},
		{Data{Action: SettingBack, Version: 0}, "k:0"},
		{Data{Action: Verify, Game: 17}, "v:17"},
		{Data{Action: Unfollow, Chat: -1001234567890}, "u:1001234567890"},
		{Data{Action: Unfollow, Chat: -4000000001}, "u:4000000001"},
		{Data{Action: SeatHouse, Version: 5}, "a:5"},
		{Data{Action: UnseatHouse, Version: 6}, "r:6"},
		{Data{Action: Setting, Version: 1, Field: "house", Value: "off"}, "c:1:house:off"},
		{Data{Action: InlineOpen, Amount: 10, Entry: 100, Lang: "en"}, "p:10:100:en"},
		{Data{Action: InlineOpen, Amount: 100, Entry: 1000, Lang: "uk"}, "p:100:1000:uk"},
		{Data{Action: Top, Version: 7}, "t:7"},
		{Data{Action: Cut, Version: 8, Tap: 1}, "x:8:1"},
		{Data{Action: Cut, Version: 8, Tap: 2}, "x:8:2"},
		{Data{Action: Cut, Version: MaxVersion, Tap: MaxTap}, "x:9007199254740991:3"},
		{Data{Action: InlineOpen, Amount: MaxAmount, Entry: MaxAmount, Lang: "ru"}, "p:1000000000000000:1000000000000000:ru"},
		// The largest values.
		{Data{Action: Bet, Version: MaxVersion, Amount: MaxAmount}, "b:9007199254740991:1000000000000000"},
		{Data{Action: Join, Version: MaxVersion}, "j:9007199254740991"},
		{Data{Action: Setting, Version: MaxVersion, Field: "entry", Value: "1000000000000"}, "c:9007199254740991:entry:1000000000000"},
		{Data{Action: Verify, Game: MaxVersion}, "v:9007199254740991"},
		{Data{Action: Unfollow, Chat: -MaxVersion}, "u:9007199254740991"},
		{Data{Action: SettingOpen, Version: MaxVersion, Field: "knocks"}, "o:9007199254740991:knocks"},
		{Data{Action: SettingBack, Version: MaxVersion}, "k:9007199254740991"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			s := tt.data.String()
			assert.Equal(t, tt.want, s)
			assert.True(t, len(s) >= 1 && len(s) <= MaxLen, "%d bytes", len(s))
			got, err := Parse(s)
			require.NoError(t, err)
			assert.Equal(t, tt.data, got)
		})
	}
}

func TestStringIsShortASCIIWhateverTheData(t *testing.T) {
	huge := strings.Repeat("é", 100)
	for a := Action(0); a <= OpenApp+1; a++ {
		d := Data{Action: a, Version: ^uint64(0), Amount: -1 << 63, Field: huge, Value: huge, Game: ^uint64(0), Chat: -1 << 63, Tap: -1 << 63}
		s := d.String()
		assert.True(t, len(s) >= 1 && len(s) <= MaxLen, "%s: %d bytes", a, len(s))
		if strings.Contains(s, "é") || len(s) > 0 && s[0] == '?' {
			continue
		}
		_, err := Parse(s)
		assert.ErrorIs(t, err, ErrInvalid, "%s: %q has out-of-bounds values", a, s)
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct{ name, in string }{
		{"empty", ""},
		{"65 bytes", "c:1:stake:" + strings.Repeat("1", 55)},
		{"an inline open without its language", "p:10:100"},
		{"an inline open with a long language", "p:10:100:eng"},
		{"an inline open with an upper-case language", "p:10:100:EN"},
		{"an inline open with a stake of 0", "p:0:100:en"},
		{"an inline open with a negative entry", "p:10:-100:en"},
		{"an inline open with an extra part", "p:10:100:en:1"},
		{"the top at version 0", "t:0"},
		{"the top without a version", "t:"},
		{"64 bytes of junk", strings.Repeat("j", 64)},
		{"action only", "j"},
		{"the house neither on nor off", "c:1:house:yes"},
		{"no version", "j:"},
		{"no colon", "j1"},
		{"unknown action", "z:1"},
		{"upper-case action", "J:1"},
		{"leading zero", "j:01"},
		{"plus sign", "j:+1"},
		{"minus sign", "j:-1"},
		{"space", "j: 1"},
		{"trailing space", "j:1 "},
		{"trailing garbage", "j:1x"},
		{"extra part", "j:1:2"},
		{"trailing colon", "j:1:"},
		{"version 2^53", "j:9007199254740992"},
		{"version overflows uint64", "j:99999999999999999999"},
		{"hex", "j:0x10"},
		{"non-ASCII digit", "j:１"},
		{"non-ASCII", "j:1é"},
		{"NUL", "j:1\x00"},
		{"join version 0", "j:0"},
		{"leave version 0", "l:0"},
		{"start version 0", "s:0"},
		{"hit version 0", "h:0"},
		{"stand version 0", "d:0"},
		{"new table version 0", "n:0"},
		{"bet version 0", "b:0:10"},
		{"bet without amount", "b:1"},
		{"bet empty amount", "b:1:"},
		{"bet zero", "b:1:0"},
		{"bet negative", "b:1:-10"},
		{"bet too large", "b:1:1000000000000001"},
		{"bet huge", "b:1:9223372036854775808"},
		{"bet leading zero", "b:1:010"},
		{"bet extra part", "b:1:10:1"},
		{"setting no value", "c:1:stake"},
		{"setting empty value", "c:1:stake:"},
		{"setting unknown field", "c:1:color:red"},
		{"setting field case", "c:1:Stake:10"},
		{"stake zero", "c:1:stake:0"},
		{"stake too large", "c:1:stake:1000000001"},
		{"entry too large", "c:1:entry:1000000000001"},
		{"turn too short", "c:1:turn:9"},
		{"turn too long", "c:1:turn:3601"},
		{"lobby too short", "c:1:lobby:29"},
		{"lobby too long", "c:1:lobby:86401"},
		{"knocks too many", "c:1:knocks:11"},
		{"knocks leading zero", "c:1:knocks:00"},
		{"bets unknown kind", "c:1:bets:y2"},
		{"bets no number", "c:1:bets:x"},
		{"bets zero", "c:1:bets:x0"},
		{"bets too many times", "c:1:bets:x1001"},
		{"bets divisor too large", "c:1:bets:b11"},
		{"bets upper case", "c:1:bets:X2"},
		{"bets written long", "c:1:bets:bank"},
		{"lang upper case", "c:1:lang:RU"},
		{"lang one letter", "c:1:lang:r"},
		{"lang nine letters", "c:1:lang:abcdefghi"},
		{"lang region", "c:1:lang:pt-br"},
		{"setting stamp too large", "c:9007199254740992:stake:10"},
		{"setting extra part", "c:1:stake:10:1"},
		{"info unknown field", "i:color"},
		{"info empty", "i:"},
		{"info with value", "i:stake:10"},
		{"verify game zero", "v:0"},
		{"verify no game", "v:"},
		{"verify too large", "v:9007199254740992"},
		{"unfollow zero", "u:0"},
		{"unfollow no group", "u:"},
		{"unfollow minus sign", "u:-1001234567890"},
		{"unfollow too large", "u:9007199254740992"},
		{"unfollow extra part", "u:1:2"},
		{"open no stamp", "o:stake"},
		{"open empty stamp", "o::stake"},
		{"open no field", "o:1"},
		{"open empty field", "o:1:"},
		{"open unknown field", "o:1:color"},
		{"open field case", "o:1:Stake"},
		{"open with value", "o:1:stake:10"},
		{"open stamp leading zero", "o:01:stake"},
		{"open stamp minus sign", "o:-1:stake"},
		{"open stamp too large", "o:9007199254740992:stake"},
		{"open field first", "o:stake:1"},
		{"open trailing space", "o:1:stake "},
		{"back empty", "k:"},
		{"back with field", "k:1:stake"},
		{"back leading zero", "k:01"},
		{"back plus sign", "k:+1"},
		{"back stamp too large", "k:9007199254740992"},
		{"back hex", "k:0x1"},
		{"back upper case", "K:1"},
		{"cut tap 0", "x:1:0"},
		{"cut tap 4", "x:1:4"},
		{"cut tap negative", "x:1:-1"},
		{"cut tap leading zero", "x:1:01"},
		{"cut without tap", "x:1"},
		{"cut empty tap", "x:1:"},
		{"cut version 0", "x:0:1"},
		{"cut no version", "x::1"},
		{"cut with words", "x:1:tap:1"},
		{"cut extra part", "x:1:1:1"},
		{"cut upper case", "X:1:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse(tt.in)
			assert.ErrorIs(t, err, ErrInvalid)
			assert.Equal(t, Data{}, d)
		})
	}
}

func TestParseRejectsRandomBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for range 20000 {
		b := make([]byte, 1+r.IntN(70))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		// Random bytes may, rarely, be valid data; then they round-trip.
		d, err := Parse(string(b))
		if err == nil {
			assert.Equal(t, string(b), d.String())
			continue
		}
		assert.ErrorIs(t, err, ErrInvalid)
	}
}

// TestOpenAppHasNoEncoding: the app's link button carries no data, so
// its action encodes to what Parse refuses, and no data parses to it.
func TestOpenAppHasNoEncoding(t *testing.T) {
	assert.Equal(t, "open_app", OpenApp.String())
	assert.False(t, OpenApp.TableAction())
	s := Data{Action: OpenApp, Version: 3}.String()
	assert.Equal(t, "?", s)
	_, err := Parse(s)
	assert.ErrorIs(t, err, ErrInvalid)
	for c := 0; c < 128; c++ {
		d, err := Parse(string(rune(c)) + ":1")
		assert.True(t, err != nil || d.Action != OpenApp, "%q parses to OpenApp", c)
	}
}

func TestActionString(t *testing.T) {
	assert.Equal(t, "join", Join.String())
	assert.Equal(t, "verify", Verify.String())
	assert.Equal(t, "action(0)", Action(0).String())
	assert.Equal(t, "action(200)", Action(200).String())
	assert.True(t, Bet.TableAction())
	assert.True(t, NewTable.TableAction())
	assert.False(t, Setting.TableAction())
	assert.False(t, Verify.TableAction())
	assert.Equal(t, "unfollow", Unfollow.String())
	assert.False(t, Unfollow.TableAction())
	assert.True(t, SeatHouse.TableAction())
	assert.True(t, UnseatHouse.TableAction())
	assert.Equal(t, "seat_house", SeatHouse.String())
	assert.Equal(t, "setting_open", SettingOpen.String())
	assert.Equal(t, "setting_back", SettingBack.String())
	assert.False(t, SettingOpen.TableAction())
	assert.False(t, SettingBack.TableAction())
}

func TestTapText(t *testing.T) {
	// docs/FAIRNESS.md promises the players these texts.
	assert.Equal(t, "tap:1", TapText(1))
	assert.Equal(t, "tap:2", TapText(2))
	assert.Equal(t, "tap:3", TapText(3))
	for _, bad := range []int{0, -1, MaxTap + 1} {
		assert.Empty(t, TapText(bad), "tap %d", bad)
	}
}
