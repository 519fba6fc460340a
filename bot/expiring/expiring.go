// Package expiring is the bot's one bounded, expiring cache: what the bot
// remembers for a while of many chats or users (the admins it asked
// Telegram about, the last press of each table, the replies given to each
// user, ...) never grows past a bound, and reads as absent once too old.
//
// It is an LRU of hashicorp/golang-lru/v2 (simplelru) with expiry by the
// bot's clock. golang-lru's own expirable LRU does not fit: it reads
// time.Now, so a test's clock cannot move it, and each cache runs a
// goroutine that never ends.
package expiring

import (
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/twentyone-bot/twentyone/bot/clock"
)

// Cache maps keys to values, holding at most its size of them (the least
// recently used dropped first) and each for its time to live by its
// clock: an older entry reads as absent, and is dropped when next looked
// at or when room is needed. Its methods are safe for concurrent use.
type Cache[K comparable, V any] struct {
	ttl   time.Duration
	clock clock.Clock

	mu  sync.Mutex
	lru *simplelru.LRU[K, entry[V]]
}

type entry[V any] struct {
	value   V
	expires time.Time
}

// New returns a cache of at most size entries (at least 1), each kept for
// ttl from when it was last written.
func New[K comparable, V any](size int, ttl time.Duration, c clock.Clock) *Cache[K, V] {
	l, err := simplelru.NewLRU[K, entry[V]](max(size, 1), nil)
	if err != nil {
		panic(err) // only for a size below 1
	}
	return &Cache[K, V]{ttl: ttl, clock: c, lru: l}
}

// Get returns the value of key, if it is there and not expired.
func (c *Cache[K, V]) Get(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.get(key, c.clock.Now())
}

// get is Get with c.mu held.
func (c *Cache[K, V]) get(key K, now time.Time) (V, bool) {
	e, ok := c.lru.Get(key)
	if ok && now.Before(e.expires) {
		return e.value, true
	}
	if ok {
		c.lru.Remove(key)
	}
	var zero V
	return zero, false
}

// Add sets the value of key, to expire after the cache's time to live.
func (c *Cache[K, V]) Add(key K, value V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Add(key, entry[V]{value: value, expires: c.clock.Now().Add(c.ttl)})
}

// Update sets the value of key to what fn makes of its value now (ok:
// there and not expired), to expire after the cache's time to live, unless
// fn reports false: then key is dropped. fn runs with the cache locked: it
// must not call the cache.
func (c *Cache[K, V]) Update(key K, fn func(value V, ok bool) (V, bool)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.clock.Now()
	old, ok := c.get(key, now)
	next, keep := fn(old, ok)
	if !keep {
		c.lru.Remove(key)
		return
	}
	c.lru.Add(key, entry[V]{value: next, expires: now.Add(c.ttl)})
}

// Remove drops key.
func (c *Cache[K, V]) Remove(key K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Remove(key)
}

// RemoveIf drops every key that drop reports true of.
func (c *Cache[K, V]) RemoveIf(drop func(K) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range c.lru.Keys() {
		if drop(k) {
			c.lru.Remove(k)
		}
	}
}

// Len returns how many entries the cache holds, expired ones not yet
// dropped included.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}
