//go:build !unix

package storage

import (
	"os"
	"time"
)

// lockFile does nothing here: bbolt's own lock then reports a file in use.
func lockFile(*os.File, bool, time.Duration) error { return nil }

func unlockFile(*os.File) error { return nil }
