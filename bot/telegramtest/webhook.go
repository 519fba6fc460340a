package telegramtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"time"
)

// webhookAttemptsKept bounds the remembered delivery attempts.
const webhookAttemptsKept = 1000

// WebhookAttempt is one POST of an update to the webhook.
type WebhookAttempt struct {
	// UpdateID is the update that was posted.
	UpdateID int `json:"update_id"`
	// Attempt counts the tries of this update, from 1.
	Attempt int `json:"attempt"`
	// StatusCode is the webhook's HTTP status, 0 when the request failed.
	StatusCode int `json:"status_code"`
	// Error is Telegram's description of a failure ("" on success).
	Error string `json:"error,omitempty"`
	// At is the server clock's time of the attempt's end.
	At time.Time `json:"at"`
	// Duration is how long the POST took.
	Duration time.Duration `json:"duration"`
}

// OK reports whether the webhook accepted the update (2xx).
func (a WebhookAttempt) OK() bool { return a.Error == "" && a.StatusCode/100 == 2 }

type webhookState struct {
	url            string
	secret         string
	maxConnections int
	lastErrorDate  int64
	lastErrorMsg   string
	stop           chan struct{}
}

// webhookLog keeps delivery attempts across webhook changes; guarded by Server.mu.
type webhookLog struct {
	attempts []WebhookAttempt
}

var errHookChanged = errors.New("webhook changed")

func validSecret(secret string) bool {
	for i := 0; i < len(secret); i++ {
		c := secret[i]
		if !isASCIIAlnum(c) && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

func (s *Server) setWebhook(ctx context.Context, p params) (any, *apiError) {
	rawURL := strings.TrimSpace(p.str("url"))
	if rawURL == "" {
		return s.deleteWebhook(ctx, p)
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, badRequest("invalid webhook URL specified")
	}
	secret := p.str("secret_token")
	if len(secret) > 256 {
		return nil, badRequest("secret token is too long")
	}
	if !validSecret(secret) {
		return nil, badRequest("secret token contains unallowed characters")
	}
	maxConn := int(p.clamped("max_connections", 40, 1, 100))
	drop := p.boolean("drop_pending_updates")
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.isClosed() {
		return nil, errInternal
	}
	arg, present := p.jsonArg("allowed_updates")
	s.queue.setAllowed(arg, present)
	if h := s.hook; h != nil && h.url == rawURL && h.secret == secret && h.maxConnections == maxConn && !drop {
		return described{value: true, description: "Webhook is already set"}, nil
	}
	if s.poll != nil {
		s.poll.kick(errPollBySetWebhook)
		s.poll = nil
	}
	s.stopWebhookLocked()
	if drop {
		s.queue.clear()
	}
	h := &webhookState{url: rawURL, secret: secret, maxConnections: maxConn, stop: make(chan struct{})}
	s.hook = h
	s.workers.Add(1)
	go s.deliverWebhook(h)
	return described{value: true, description: "Webhook was set"}, nil
}

func (s *Server) deleteWebhook(_ context.Context, p params) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.boolean("drop_pending_updates") {
		s.queue.clear()
	}
	if s.hook == nil {
		return described{value: true, description: "Webhook is already deleted"}, nil
	}
	s.stopWebhookLocked()
	return described{value: true, description: "Webhook was deleted"}, nil
}

func (s *Server) getWebhookInfo(context.Context, params) (any, *apiError) {
	return s.WebhookInfo(), nil
}

// stopWebhookLocked ends the current webhook's delivery.
func (s *Server) stopWebhookLocked() {
	if s.hook != nil {
		close(s.hook.stop)
		s.hook = nil
	}
}

// WebhookInfo returns what getWebhookInfo would answer.
func (s *Server) WebhookInfo() WebhookInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	info := WebhookInfo{PendingUpdateCount: s.queue.len()}
	if h := s.hook; h != nil {
		info.URL = h.url
		info.MaxConnections = h.maxConnections
		info.LastErrorDate = h.lastErrorDate
		info.LastErrorMessage = h.lastErrorMsg
		info.AllowedUpdates = s.queue.allowedList()
	}
	return info
}

// WebhookAttempts returns the last delivery attempts (up to 1000), oldest first.
func (s *Server) WebhookAttempts() []WebhookAttempt {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]WebhookAttempt(nil), s.hookLog.attempts...)
}

// deliverWebhook POSTs pending updates to the webhook one at a time, in
// order: the next only after the previous got a 2xx answer. Failures are
// retried after a doubling back-off.
func (s *Server) deliverWebhook(h *webhookState) {
	defer s.workers.Done()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-h.stop:
		case <-s.closed:
		}
		cancel()
	}()
	client := &http.Client{Timeout: s.cfg.webhookTimeout}
	backoff := s.cfg.webhookBackoff
	lastID, attempt := -1, 0
	for {
		s.mu.Lock()
		if s.hook != h {
			s.mu.Unlock()
			return
		}
		if s.queue.len() == 0 {
			wake := s.queue.sig.wait()
			s.mu.Unlock()
			select {
			case <-wake:
				continue
			case <-ctx.Done():
				return
			}
		}
		item := s.queue.pending()[0]
		s.mu.Unlock()
		if item.id != lastID {
			lastID, attempt = item.id, 0
		}
		attempt++
		started := time.Now()
		status, postErr := postUpdate(ctx, client, h, item.raw)
		if errors.Is(postErr, errHookChanged) {
			return
		}
		s.mu.Lock()
		if s.hook != h {
			s.mu.Unlock()
			return
		}
		a := WebhookAttempt{UpdateID: item.id, Attempt: attempt, StatusCode: status, At: s.now(), Duration: time.Since(started)}
		switch {
		case postErr != nil:
			a.Error = describeWebhookError(postErr)
		case status/100 != 2:
			a.Error = fmt.Sprintf("Wrong response from the webhook: %d %s", status, http.StatusText(status))
		}
		s.hookLog.attempts = append(s.hookLog.attempts, a)
		if n := len(s.hookLog.attempts); n > webhookAttemptsKept {
			s.hookLog.attempts = append(s.hookLog.attempts[:0:0], s.hookLog.attempts[n-webhookAttemptsKept:]...)
		}
		if a.OK() {
			s.queue.dropFirst(item.id)
			backoff = s.cfg.webhookBackoff
		} else {
			h.lastErrorDate = a.At.Unix()
			h.lastErrorMsg = a.Error
		}
		s.emitLocked(Event{Kind: EventWebhookDelivery, Webhook: &a, Time: a.At})
		s.mu.Unlock()
		if a.OK() {
			continue
		}
		t := time.NewTimer(backoff)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return
		}
		backoff = min(2*backoff, s.cfg.webhookMaxWait)
	}
}

func postUpdate(ctx context.Context, client *http.Client, h *webhookState, body []byte) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if h.secret != "" {
		req.Header.Set("X-Telegram-Bot-Api-Secret-Token", h.secret)
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return 0, errHookChanged
		}
		return 0, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

// describeWebhookError words a delivery failure the way getWebhookInfo does.
func describeWebhookError(err error) string {
	var netErr net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "Connection refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "Connection reset by peer"
	case errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return "Read timeout expired"
	}
	return err.Error()
}
