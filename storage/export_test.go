package storage

import (
	"context"
	"os"
)

// The package's tests' own ways into the store, not product API.

// BackupFile writes a backup to path atomically: into a temporary file in
// the same directory, fsynced, then renamed over path.
func (s *Store) BackupFile(ctx context.Context, path string) error {
	return writeAtomic(path, func(f *os.File) error {
		_, err := s.Backup(ctx, f)
		return err
	})
}

// Reveals returns the decks revealed in game number gameNo of the chat's
// tables, in the order they were revealed. Game numbers count per table,
// so in a forum chat the same number may name a game of each topic.
// ErrNotFound when there are none.
func (s *Store) Reveals(ctx context.Context, chat int64, gameNo uint64) ([]Reveal, error) {
	return s.reveals(ctx, chat, gameNo, nil)
}
