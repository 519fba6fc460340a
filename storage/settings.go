package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/twentyone-bot/twentyone/game"
)

// validSettings returns an error wrapping ErrInvalidSettings and
// game.ErrInvalidSettings that says what is wrong with c
// (game.ChatSettings.Validate), or nil.
func validSettings(c ChatSettings) error {
	if err := c.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidSettings, err)
	}
	return nil
}

// Settings returns the chat's settings: Options.Defaults for a chat nobody
// configured.
func (s *Store) Settings(ctx context.Context, chat int64) (ChatSettings, error) {
	var cs ChatSettings
	err := s.read(ctx, func(t *txn) error {
		c, _, _, err := t.resolve(chat)
		if err != nil {
			return err
		}
		cs, _, err = t.chatSettings(c)
		return err
	})
	return cs, err
}

// UpdateSettings changes the chat's settings with fn, validates them and
// stores them. An error from fn, or invalid settings, stores nothing. fn
// runs inside the write transaction that other writes wait for: it must be
// quick and must not call the Store. It may be called more than once (when
// a write it is batched with fails), so it must only change the settings it
// is given. A game in progress keeps the settings it started with.
func (s *Store) UpdateSettings(ctx context.Context, chat int64, fn func(*ChatSettings) error) (ChatSettings, error) {
	var out ChatSettings
	rejected, err := s.write(ctx, func(t *txn) error {
		out = ChatSettings{}
		c, crec, known, err := t.resolve(chat)
		if err != nil {
			return reject(err)
		}
		cs, rec, err := t.chatSettings(c)
		if err != nil {
			return reject(err)
		}
		before, forbidden := cs.Game.Clone(), cs.HouseForbidden
		if err := fn(&cs); err != nil {
			return reject(err)
		}
		if err := validSettings(cs); err != nil {
			return reject(err)
		}
		// A chat keeps following the defaults until its game settings change.
		if rec.Game != nil || !cs.Game.Equal(before) {
			g := cs.Game.Clone()
			rec.Game = &g
		}
		rec.Language = cs.Language
		if rec.NoHouse != nil || cs.HouseForbidden != forbidden {
			no := cs.HouseForbidden
			rec.NoHouse = &no
		}
		if err := t.putSettings(c, &rec); err != nil {
			return err
		}
		if !known {
			crec.created = timeMs(time.Now())
			if err := t.putChat(c, &crec); err != nil {
				return err
			}
		}
		out, _, err = t.chatSettings(c)
		return err
	})
	if err := firstErr(err, rejected); err != nil {
		return ChatSettings{}, err
	}
	return out, nil
}

// settingsCache holds valid settings records decoded, by their encoding.
// Most chats share one of a few (only a language chosen), and decoding
// their JSON costs more than the game's part of a command. Keyed by the
// encoding, an entry is never stale.
type settingsCache struct {
	mu sync.RWMutex
	m  map[string]settingsRec
	// defaults are what a setting a record does not hold is: the
	// store's Options.Defaults, fixed while it is open.
	defaults game.Settings
}

// maxCachedSettings bounds the cache: past it, it starts over.
const maxCachedSettings = 1024

// decode returns the record v encodes, checked; its Game is the caller's
// own copy.
func (c *settingsCache) decode(v []byte) (settingsRec, error) {
	c.mu.RLock()
	rec, ok := c.m[string(v)]
	c.mu.RUnlock()
	if !ok {
		var err error
		if rec, err = decodeSettings(v, c.defaults); err != nil {
			return rec, err
		}
		if rec.Game != nil {
			if err := rec.Game.Validate(); err != nil {
				return rec, err
			}
		}
		c.mu.Lock()
		if c.m == nil || len(c.m) >= maxCachedSettings {
			c.m = make(map[string]settingsRec)
		}
		c.m[string(v)] = rec
		c.mu.Unlock()
	}
	if rec.Game != nil {
		g := rec.Game.Clone()
		rec.Game = &g
	}
	if rec.NoHouse != nil {
		no := *rec.NoHouse
		rec.NoHouse = &no
	}
	return rec, nil
}

// settingsRec is the stored form of ChatSettings. Game is nil while nobody
// configured the chat: it then plays by Options.Defaults.
type settingsRec struct {
	Game     *game.Settings `json:"game,omitempty"`
	Language string         `json:"language,omitempty"`
	// NoHouse is ChatSettings.HouseForbidden; nil while nobody set it
	// (Options.Defaults then decide).
	NoHouse *bool `json:"no_house,omitempty"`
}

// decodeSettings decodes a settings record. Its game settings are
// decoded over defaults: a setting the record does not hold, one added
// since it was written, is the default (the JSON holds every field of
// game.Settings by its Go name, a new one too).
func decodeSettings(v []byte, defaults game.Settings) (settingsRec, error) {
	if len(v) == 0 || v[0] != recordFormat {
		return settingsRec{}, fmt.Errorf("%w: settings format", errRecord)
	}
	var s settingsRec
	if err := json.Unmarshal(v[1:], &s); err != nil {
		return settingsRec{}, fmt.Errorf("%w: settings: %v", errRecord, err)
	}
	if s.Game != nil {
		g := defaults.Clone()
		over := struct {
			Game *game.Settings `json:"game"`
		}{&g}
		if err := json.Unmarshal(v[1:], &over); err != nil {
			return settingsRec{}, fmt.Errorf("%w: settings: %v", errRecord, err)
		}
		s.Game = over.Game
	}
	return s, nil
}

func (s *settingsRec) encode() ([]byte, error) {
	j, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	return append([]byte{recordFormat}, j...), nil
}

// encodeInline returns a stored Inline record: the format, the message id,
// then the settings as the settings bucket stores a chat's game settings
// (a settingsRec with Game alone: its own format byte, then JSON).
func encodeInline(in *Inline) ([]byte, error) {
	g := in.Settings
	rec := settingsRec{Game: &g}
	v, err := rec.encode()
	if err != nil {
		return nil, err
	}
	b := appendStr(append(make([]byte, 0, 1+1+len(in.MessageID)+len(v)), recordFormat), in.MessageID)
	return append(b, v...), nil
}
