//go:build !unix

package main

import (
	"net"
	"syscall"
)

// maxSocketPath is the longest path a Unix socket may have here: the
// kernel's sun_path, less its terminating NUL.
const maxSocketPath = len(syscall.RawSockaddrUnix{}.Path) - 1

// listenPrivateUnix listens on a new Unix socket at path. Where there are
// no Unix file modes (Windows), who may connect is what the directory's
// access list allows. The listener does not remove the file when closed.
func listenPrivateUnix(path string) (net.Listener, error) {
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, err
	}
	ln.SetUnlinkOnClose(false)
	return ln, nil
}
