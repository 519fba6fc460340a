package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// httpServer is an http.Server listening on its own listener, serving in a
// goroutine.
type httpServer struct {
	name string
	srv  *http.Server
	ln   net.Listener
	done chan error // Serve's error, once
}

// startServer listens on the TCP address addr and serves h (see serve).
func startServer(name, addr string, h http.Handler, log *slog.Logger, fatal chan<- error) (*httpServer, error) {
	ln, err := listen(name, addr)
	if err != nil {
		return nil, err
	}
	return serve(name, ln, h, log, fatal), nil
}

// listen listens on the TCP address addr for the server name.
func listen(name, addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s server: %w", name, err)
	}
	return ln, nil
}

// serve serves h on ln, which it closes at Shutdown. A failure of Serve
// after the start is sent to fatal (if not nil). opts change the
// http.Server before it serves.
func serve(name string, ln net.Listener, h http.Handler, log *slog.Logger, fatal chan<- error, opts ...func(*http.Server)) *httpServer {
	s := &httpServer{
		name: name,
		ln:   ln,
		done: make(chan error, 1),
		srv: &http.Server{
			Handler:           h,
			ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout:       30 * time.Second,
			IdleTimeout:       2 * time.Minute,
			ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		},
	}
	for _, o := range opts {
		o(s.srv)
	}
	go func() {
		err := s.srv.Serve(ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		if err != nil {
			err = fmt.Errorf("%s server: %w", name, err)
			if fatal != nil {
				select {
				case fatal <- err:
				default:
				}
			}
		}
		s.done <- err
		close(s.done)
	}()
	log.Info(name+" server listening", "addr", ln.Addr().String())
	return s
}

// Addr returns the address the server listens on.
func (s *httpServer) Addr() string { return s.ln.Addr().String() }

// Shutdown stops accepting connections and waits for the requests in
// flight until ctx is done; then it closes the connections left.
func (s *httpServer) Shutdown(ctx context.Context) error {
	err := s.srv.Shutdown(ctx)
	if err != nil {
		_ = s.srv.Close()
		err = fmt.Errorf("%s server: requests still in flight at the deadline: %w", s.name, err)
	}
	<-s.done
	return err
}
