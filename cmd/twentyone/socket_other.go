//go:build !unix

package main

import (
	"net"
)

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
