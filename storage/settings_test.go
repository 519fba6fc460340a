package storage

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

func TestChatSettingsValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(*ChatSettings)
		game   bool   // a setting's limit, so game.ErrInvalidSettings too
		reason string // part of the message
	}{
		{"stake zero", func(c *ChatSettings) { c.Game.Stake = 0 }, true, "stake"},
		{"stake too large", func(c *ChatSettings) { c.Game.Stake = game.MaxStake + 1; c.Game.EntryLimit = game.MaxStake + 1 }, true, "stake"},
		{"entry below stake", func(c *ChatSettings) { c.Game.EntryLimit = 5 }, true, "entry limit"},
		{"no bet options", func(c *ChatSettings) { c.Game.BetOptions = nil }, true, "bet options"},
		{"bad bet option", func(c *ChatSettings) { c.Game.BetOptions = []game.BetOption{{Kind: game.BankShare, N: 99}} }, true, "divisor"},
		{"bet option twice", func(c *ChatSettings) {
			c.Game.BetOptions = []game.BetOption{{Kind: game.StakeTimes, N: 2}, {Kind: game.StakeTimes, N: 2}}
		}, true, "twice"},
		{"turn timeout", func(c *ChatSettings) { c.Game.TurnTimeout = time.Second }, true, "turn timeout"},
		{"lobby timeout", func(c *ChatSettings) { c.Game.LobbyTimeout = 48 * time.Hour }, true, "lobby timeout"},
		{"knocks", func(c *ChatSettings) { c.Game.MaxKnocks = -1 }, true, "knocks"},
		{"language upper case", func(c *ChatSettings) { c.Language = "RU" }, true, "language"},
		{"language with a region", func(c *ChatSettings) { c.Language = "en-US" }, true, "language"},
		{"language one letter", func(c *ChatSettings) { c.Language = "e" }, true, "language"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs := ChatSettings{Game: game.DefaultSettings(), Language: "en"}
			tc.change(&cs)
			err := validSettings(cs)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalidSettings)
			assert.Equal(t, tc.game, errors.Is(err, game.ErrInvalidSettings))
			assert.Contains(t, err.Error(), tc.reason)

			s := newStore(t, Options{})
			before := fileBytes(t, s)
			_, err = s.UpdateSettings(ctx, group, func(c *ChatSettings) error { tc.change(c); return nil })
			assert.ErrorIs(t, err, ErrInvalidSettings)
			assert.Equal(t, before, fileBytes(t, s), "invalid settings are not stored")

			_, err = Open(s.Path()+"-other", Options{Defaults: cs, NoSync: true})
			assert.ErrorIs(t, err, ErrInvalidSettings, "invalid defaults are refused")
		})
	}
	// Storage keeps a language as given: which languages there are is the
	// bot's business.
	for _, lang := range []string{"", "ru", "en", "de", "abcdefgh"} {
		assert.NoError(t, validSettings(ChatSettings{Game: game.DefaultSettings(), Language: lang}))
	}
}

func TestUpdateSettings(t *testing.T) {
	s := newStore(t, stacked())
	key := TableKey{Chat: group}
	apply(t, s, key, 1, alice, game.Command{Kind: game.Open}, t0)
	apply(t, s, key, 2, bob, game.Command{Kind: game.Join}, t0)
	apply(t, s, key, 3, alice, game.Command{Kind: game.Start}, t0)

	// An error from fn stores nothing.
	oops := errors.New("oops")
	before := fileBytes(t, s)
	_, err := s.UpdateSettings(ctx, group, func(c *ChatSettings) error { c.Game.Stake = 20; return oops })
	assert.ErrorIs(t, err, oops)
	assert.Equal(t, before, fileBytes(t, s))

	cs, err := s.UpdateSettings(ctx, group, func(c *ChatSettings) error {
		c.Game.Stake, c.Game.EntryLimit, c.Language = 20, 200, "en"
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, int64(20), cs.Game.Stake)
	assert.Equal(t, "en", cs.Language, "an admin may change the language Alice's Open chose")
	got, err := s.Settings(ctx, group)
	require.NoError(t, err)
	assert.Equal(t, cs, got)

	// The game in progress keeps its settings; the view shows the chat's.
	v, err := s.View(ctx, key)
	require.NoError(t, err)
	assert.Equal(t, int64(10), v.Table.Settings().Stake)
	assert.Equal(t, int64(20), v.Settings.Game.Stake)
	assert.Equal(t, int64(10), v.Table.Bank())

	// Another chat still plays by the defaults.
	other, err := s.Settings(ctx, 777)
	require.NoError(t, err)
	assert.Equal(t, game.DefaultSettings(), other.Game)
}

func TestSettingsFollowDefaults(t *testing.T) {
	// A chat whose admin changed only the language keeps following the
	// configured defaults of the game.
	dir := t.TempDir() + "/db"
	s, err := Open(dir, Options{NoSync: true})
	require.NoError(t, err)
	_, err = s.UpdateSettings(ctx, group, func(c *ChatSettings) error { c.Language = "ru"; return nil })
	require.NoError(t, err)
	require.NoError(t, s.Close())

	def := game.DefaultSettings()
	def.Stake, def.EntryLimit = 50, 500
	s = openAt(t, dir, Options{NoSync: true, Defaults: ChatSettings{Game: def}})
	cs, err := s.Settings(ctx, group)
	require.NoError(t, err)
	assert.Equal(t, ChatSettings{Game: def, Language: "ru"}, cs)
}

// TestSettingsCacheHandsOutCopies: chats with the same settings share one
// decoded record, and changing the settings one chat got changes no
// other's.
func TestSettingsCacheHandsOutCopies(t *testing.T) {
	var c settingsCache
	g := game.DefaultSettings()
	rec := settingsRec{Game: &g, Language: "ru"}
	enc, err := rec.encode()
	require.NoError(t, err)
	first, err := c.decode(enc)
	require.NoError(t, err)
	first.Game.BetOptions[0].N = 99
	first.Game.Stake = 1
	second, err := c.decode(enc)
	require.NoError(t, err)
	assert.Equal(t, rec, second)

	_, err = c.decode([]byte{recordFormat, '{'})
	require.Error(t, err)
	bad := game.DefaultSettings()
	bad.Stake = -1
	enc, err = (&settingsRec{Game: &bad}).encode()
	require.NoError(t, err)
	_, err = c.decode(enc)
	assert.Error(t, err, "invalid settings are not cached as valid")
	_, err = c.decode(enc)
	assert.Error(t, err)
}

// TestSettingsRecordOfBefore: a settings record as the releases before
// wrote it decodes as it always did, and a setting it does not hold (one
// added since) is the store's default.
func TestSettingsRecordOfBefore(t *testing.T) {
	before := []byte(`{"game":{"Stake":25,"EntryLimit":300,"BetOptions":[{"Kind":1,"N":1},{"Kind":2,"N":1}],` +
		`"TurnTimeout":90000000000,"LobbyTimeout":3600000000000,"MaxKnocks":0},"language":"uk","no_house":true}`)
	want := game.Settings{Stake: 25, EntryLimit: 300,
		BetOptions:  []game.BetOption{{Kind: game.StakeTimes, N: 1}, {Kind: game.BankShare, N: 1}},
		TurnTimeout: 90 * time.Second, LobbyTimeout: time.Hour, MaxKnocks: 0}
	c := settingsCache{defaults: game.DefaultSettings()}
	rec, err := c.decode(append([]byte{recordFormat}, before...))
	require.NoError(t, err)
	require.NotNil(t, rec.Game)
	assert.True(t, want.Equal(*rec.Game), "%+v", *rec.Game)
	assert.Equal(t, "uk", rec.Language)
	require.NotNil(t, rec.NoHouse)
	assert.True(t, *rec.NoHouse)

	// A record without the knocks, as one written before they were a
	// setting would be: the store's default fills them in.
	def := game.DefaultSettings()
	def.MaxKnocks = 7
	c = settingsCache{defaults: def}
	rec, err = c.decode(append([]byte{recordFormat}, `{"game":{"Stake":25,"EntryLimit":300,"BetOptions":[{"Kind":1,"N":1}],`+
		`"TurnTimeout":90000000000,"LobbyTimeout":3600000000000}}`...))
	require.NoError(t, err)
	assert.Equal(t, 7, rec.Game.MaxKnocks)
	assert.Equal(t, []game.BetOption{{Kind: game.StakeTimes, N: 1}}, rec.Game.BetOptions, "the record's own bets, not the default's")
	assert.Equal(t, int64(25), rec.Game.Stake)
}

// TestAutoStartIsStored: a chat's autostart is stored and read back; a
// record written before the setting existed has the store's default.
func TestAutoStartIsStored(t *testing.T) {
	dir := t.TempDir() + "/db"
	s, err := Open(dir, Options{NoSync: true})
	require.NoError(t, err)
	_, err = s.UpdateSettings(ctx, group, func(c *ChatSettings) error { c.Game.AutoStart = true; return nil })
	require.NoError(t, err)
	require.NoError(t, s.Close())
	s = openAt(t, dir, Options{NoSync: true})
	cs, err := s.Settings(ctx, group)
	require.NoError(t, err)
	assert.True(t, cs.Game.AutoStart)

	def := game.DefaultSettings()
	def.AutoStart = true
	c := settingsCache{defaults: def}
	rec, err := c.decode(append([]byte{recordFormat}, `{"game":{"Stake":25,"EntryLimit":300,"BetOptions":[{"Kind":1,"N":1}],`+
		`"TurnTimeout":90000000000,"LobbyTimeout":3600000000000,"MaxKnocks":0}}`...))
	require.NoError(t, err)
	assert.True(t, rec.Game.AutoStart, "the store's default")
}
