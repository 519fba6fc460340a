//go:build unix

package storage

import (
	"errors"
	"os"
	"syscall"
	"time"
)

var errWouldBlock = errors.New("file is locked")

// lockFile takes an advisory lock on f, exclusive or shared, the same kind
// bbolt takes, waiting up to timeout.
func lockFile(f *os.File, exclusive bool, timeout time.Duration) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR):
			return err
		case time.Now().After(deadline):
			return errWouldBlock
		}
		time.Sleep(min(20*time.Millisecond, time.Until(deadline)+time.Millisecond))
	}
}

func unlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
