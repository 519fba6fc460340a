package storage

import (
	"errors"
	"fmt"
)

// The errors of this package, wrapped with detail. Compare them with
// errors.Is. A game rejection returned by [Store.Apply] wraps the game's own
// error (game.ErrNotYourTurn and the like) instead.
var (
	// ErrInUse: another process holds the database file.
	ErrInUse = errors.New("database is in use by another process")
	// ErrCorrupt: the file is not a BoltDB database, is damaged, or holds a
	// value that does not decode. The message names the file or the chat.
	ErrCorrupt = errors.New("database is damaged")
	// ErrNewerSchema: the file was written by a newer version of this program.
	ErrNewerSchema = errors.New("database schema is newer than this program")
	// ErrPreRelease: the file was written by a pre-release of this program
	// (before 1.0), whose schemas it does not read.
	ErrPreRelease = errors.New("database written by a pre-release twentyone (before 1.0)")
	// ErrDuplicate: the update was handled already.
	ErrDuplicate = errors.New("update already handled")
	// ErrBonusTooSoon: the daily bonus was claimed less than a bonus
	// interval ago.
	ErrBonusTooSoon = errors.New("bonus claimed too recently")
	// ErrBonusNotNeeded: the balance reaches the entry limit; the bonus is
	// only for players who cannot sit down.
	ErrBonusNotNeeded = errors.New("bonus not needed")
	// ErrInvalidSettings: chat settings that break a limit.
	ErrInvalidSettings = errors.New("invalid chat settings")
	// ErrNotFound: an unknown chat, user, table or game.
	ErrNotFound = errors.New("not found")
	// ErrInternal: a broken invariant, such as a transfer that would make a
	// balance negative. Nothing is written.
	ErrInternal = errors.New("internal storage error")
	// ErrClosed: the store is closed.
	ErrClosed = errors.New("store is closed")
)

// duplicate is ErrDuplicate for an update the chat handled already. (The
// chat's last update tells nothing of it: updates may be handled out of
// order, so a duplicate may be above the last handled.)
func duplicate(update, chat int64) error {
	return fmt.Errorf("%w: update %d in chat %d", ErrDuplicate, update, chat)
}
