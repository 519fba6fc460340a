package input

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCommandTable: each command once, by its lower-case name, and every
// command some may not use says what the others are told.
func TestCommandTable(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range commands {
		assert.False(t, seen[c.name], "%s twice", c.name)
		seen[c.name] = true
		assert.Regexp(t, `^[a-z]+$`, c.name)
		require.NotNil(t, c.run, c.name)
		if c.who != byAnyone {
			assert.NotEmpty(t, c.refusal, "%s: what a sender who may not use it is told", c.name)
		}
	}
}

// TestShowsOnly pins which uses of a command only show something: a
// repeat of those within the reply quota's window is not answered again.
func TestShowsOnly(t *testing.T) {
	tests := []struct {
		name, args string
		shows      bool
	}{
		{"start", "", true}, {"help", "", true}, {"rules", "", true}, {"balance", "", true},
		{"top", "", true}, {"stats", "", true}, {"history", "", true}, {"verify", "3", true}, {"audit", "", true},
		{"settings", "", true}, {"settings", "stake 20", false}, {"lang", "", true}, {"lang", "ru", false}, {"lang", "xx", false},
		{"newgame", "", false}, {"leave", "", false}, {"bonus", "", false}, {"cancel", "", false},
		{"kick", "", false}, {"grant", "100", false},
	}
	for _, tt := range tests {
		c := command{name: tt.name, args: tt.args, spec: commandsByName[tt.name]}
		require.NotNil(t, c.spec, tt.name)
		assert.Equal(t, tt.shows, c.showsOnly(), "/%s %s", tt.name, tt.args)
	}
}
