package config

import (
	"os"
	"path/filepath"
	"syscall"
)

// MaxSocketPath is the longest path a Unix socket may have here: the
// kernel's sun_path, less its terminating NUL (107 bytes on Linux, 103 on
// macOS). http.backup_socket, given or made from storage.path, must fit.
const MaxSocketPath = len(syscall.RawSockaddrUnix{}.Path) - 1

// SameFile reports whether paths a and b name the same file: the same file
// on disk when both exist, else the same absolute path.
func SameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}
