//go:build unix

package main

import (
	"net"
	"os"
	"syscall"
)

// listenPrivateUnix listens on a new Unix socket at path that only this
// process's user (and root) may connect to: its file has mode 0600 before
// the socket listens, so that no connection is ever made while the mode
// still follows the umask. The listener does not remove the file when
// closed.
func listenPrivateUnix(path string) (net.Listener, error) {
	opErr := func(op string, err error) error {
		return &net.OpError{Op: "listen", Net: "unix", Addr: &net.UnixAddr{Name: path, Net: "unix"}, Err: os.NewSyscallError(op, err)}
	}
	// As the net package does: no fork may inherit the descriptor before it
	// is marked close-on-exec.
	syscall.ForkLock.RLock()
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, opErr("socket", err)
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close() // net.FileListener holds a duplicate
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: path}); err != nil {
		return nil, opErr("bind", err)
	}
	ln, err := func() (net.Listener, error) {
		if err := os.Chmod(path, 0o600); err != nil {
			return nil, err
		}
		if err := syscall.Listen(fd, syscall.SOMAXCONN); err != nil {
			return nil, opErr("listen", err)
		}
		return net.FileListener(f)
	}()
	if err != nil {
		_ = os.Remove(path)
		return nil, err
	}
	return ln, nil
}
