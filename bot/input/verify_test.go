package input

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/storage"
)

func TestVerifyLink(t *testing.T) {
	keys := []storage.TableKey{{Chat: -(1 << 60) - 12345, Thread: 1<<62 + 7}, {Chat: -1001234567890}, {Chat: 5}}
	for _, key := range keys {
		link := VerifyLink("twentyone_bot", key, 17)
		param, ok := cutLink(link)
		require.True(t, ok, link)
		assert.LessOrEqual(t, len(param), 64, "a start parameter's limit")
		assert.Regexp(t, `^[A-Za-z0-9_-]+$`, param, "a start parameter's alphabet")
		got, gameNo, ok := verifyParam(param)
		require.True(t, ok)
		assert.Equal(t, key, got)
		assert.EqualValues(t, 17, gameNo)
	}
	for _, bad := range []string{"verify_", "verify_AAAA", "notify_123", "verify_" + "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!",
		"verify_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", // game 0, chat 0
	} {
		_, _, ok := verifyParam(bad)
		assert.False(t, ok, bad)
	}
}

// cutLink returns the start parameter of a deep link.
func cutLink(link string) (string, bool) {
	const prefix = "https://t.me/twentyone_bot?start="
	if len(link) <= len(prefix) || link[:len(prefix)] != prefix {
		return "", false
	}
	return link[len(prefix):], true
}
