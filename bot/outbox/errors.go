package outbox

import (
	"errors"
	"fmt"
	"time"
)

// What an op's call reports (Op.Do), and what Enqueue refuses with.

// RetryAfterError is what Do returns when Telegram answered 429.
type RetryAfterError struct {
	After time.Duration
}

func (e *RetryAfterError) Error() string {
	return fmt.Sprintf("too many requests: retry after %s", e.After)
}

// temporaryError marks an error worth retrying.
type temporaryError struct{ err error }

func (e temporaryError) Error() string { return e.err.Error() }
func (e temporaryError) Unwrap() error { return e.err }

// Temporary marks err as worth retrying (a 5xx answer, a dropped connection).
func Temporary(err error) error {
	if err == nil {
		return nil
	}
	return temporaryError{err}
}

// IsTemporary reports whether err was marked by Temporary.
func IsTemporary(err error) bool {
	var t temporaryError
	return errors.As(err, &t)
}

// ErrClosed is returned by Enqueue after Close.
var ErrClosed = errors.New("outbox closed")

// ErrFull is returned by Enqueue when the op's chat holds as many ops (or,
// for a Say, as many replies) as it may, or when a Notice finds
// Options.MaxNotices waiting: the op is dropped.
var ErrFull = errors.New("outbox: the chat's queue is full")
