package expiring_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/clock/clocktest"
	"github.com/twentyone-bot/twentyone/bot/expiring"
)

func TestExpiry(t *testing.T) {
	clock := clocktest.NewClock(time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC))
	c := expiring.New[string, int](10, time.Minute, clock)
	c.Add("a", 1)
	clock.Advance(30 * time.Second)
	c.Add("b", 2)

	got, ok := c.Get("a")
	require.True(t, ok, "a is 30 s old of a minute")
	assert.Equal(t, 1, got)

	clock.Advance(30 * time.Second)
	_, ok = c.Get("a")
	assert.False(t, ok, "a is a minute old: expired")
	assert.Equal(t, 1, c.Len(), "the expired entry was dropped once looked at")
	got, ok = c.Get("b")
	require.True(t, ok)
	assert.Equal(t, 2, got)
}

func TestSizeBound(t *testing.T) {
	clock := clocktest.NewClock(time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC))
	c := expiring.New[int, int](3, time.Hour, clock)
	for i := range 3 {
		c.Add(i, i)
	}
	_, ok := c.Get(0) // 0 is now the most recently used
	require.True(t, ok)
	c.Add(3, 3)

	assert.Equal(t, 3, c.Len())
	_, ok = c.Get(1)
	assert.False(t, ok, "the least recently used went")
	for _, k := range []int{0, 2, 3} {
		_, ok := c.Get(k)
		assert.True(t, ok, "%d kept", k)
	}
}

func TestUpdate(t *testing.T) {
	clock := clocktest.NewClock(time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC))
	c := expiring.New[string, int](10, time.Minute, clock)
	inc := func(v int, ok bool) (int, bool) { return v + 1, true }

	c.Update("n", inc)
	clock.Advance(50 * time.Second)
	c.Update("n", inc) // a write: it lives a minute from now
	clock.Advance(50 * time.Second)
	got, ok := c.Get("n")
	require.True(t, ok, "an update renews the time to live")
	assert.Equal(t, 2, got)

	clock.Advance(time.Minute)
	var sawOld bool
	c.Update("n", func(v int, ok bool) (int, bool) { sawOld = ok; return v, true })
	assert.False(t, sawOld, "an expired value reads as absent to Update")

	c.Update("n", func(int, bool) (int, bool) { return 0, false })
	_, ok = c.Get("n")
	assert.False(t, ok, "Update reporting false drops the key")
}

func TestRemoveIf(t *testing.T) {
	clock := clocktest.NewClock(time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC))
	c := expiring.New[int, string](10, time.Minute, clock)
	for i := range 6 {
		c.Add(i, "x")
	}
	c.RemoveIf(func(k int) bool { return k%2 == 0 })
	c.Remove(1)
	assert.Equal(t, 2, c.Len())
	for k, want := range map[int]bool{0: false, 1: false, 2: false, 3: true, 4: false, 5: true} {
		_, ok := c.Get(k)
		assert.Equal(t, want, ok, "key %d", k)
	}
}
