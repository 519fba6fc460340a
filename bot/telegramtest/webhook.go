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
	"sync"
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

	// Delivery, guarded by Server.mu: the queues with a request in flight,
	// how many requests are in flight, the tries of the updates being
	// delivered, and when an update was last accepted (wall clock).
	busy        map[string]bool
	inFlight    int
	tries       map[int]*hookTry
	lastSuccess time.Time
	// finished wakes the dispatcher when a request ends.
	finished chan struct{}
}

// hookTry is the delivery of one update: how many times it was posted and
// refused, and when it may be posted again.
type hookTry struct {
	attempts int
	failures int
	next     time.Time
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

// setWebhook follows the official server's order (Client.cpp,
// process_set_webhook_query and do_set_webhook): an unchanged webhook is
// "already set"; otherwise a long poll is ended and the old webhook closed
// first, so a URL refused after that leaves no webhook at all.
func (s *Server) setWebhook(ctx context.Context, p params) (any, *apiError) {
	rawURL := strings.TrimSpace(p.str("url"))
	if rawURL == "" {
		return s.deleteWebhook(ctx, p)
	}
	secret := p.str("secret_token")
	maxConn := int(p.clamped("max_connections", 40, 1, 100))
	drop := p.boolean("drop_pending_updates")
	arg, present := p.jsonArg("allowed_updates")
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.isClosed() {
		return nil, errInternal
	}
	if h := s.hook; h != nil && h.url == rawURL && h.secret == secret && h.maxConnections == maxConn && !drop {
		s.queue.setAllowed(arg, present)
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
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, badRequest("invalid webhook URL specified")
	}
	if len(secret) > 256 {
		return nil, badRequest("secret token is too long")
	}
	if !validSecret(secret) {
		return nil, badRequest("secret token contains unallowed characters")
	}
	s.queue.setAllowed(arg, present)
	if msg := s.refusedWebhook(u); msg != "" {
		return nil, badRequest("bad webhook: " + msg)
	}
	h := &webhookState{url: rawURL, secret: secret, maxConnections: maxConn, stop: make(chan struct{}),
		busy: map[string]bool{}, tries: map[int]*hookTry{}, finished: make(chan struct{}, 1)}
	s.hook = h
	s.workers.Add(1)
	go s.deliverWebhook(h)
	return described{value: true, description: "Webhook was set"}, nil
}

// webhookPorts are the ports api.telegram.org posts to.
var webhookPorts = map[string]bool{"443": true, "80": true, "88": true, "8443": true}

// refusedWebhook returns why Telegram refuses to post to u ("" when it
// does not), in the words of the official server outside --local mode
// (WebhookActor::start_up): plain http is refused, https only on ports 443,
// 80, 88 and 8443. With WithLoopbackWebhooks a loopback host is exempt, as
// a Bot API server in --local mode exempts every URL.
func (s *Server) refusedWebhook(u *url.URL) string {
	if s.cfg.loopbackWebhooks && isLoopbackHost(u.Hostname()) {
		return ""
	}
	if u.Scheme != "https" {
		return "An HTTPS URL must be provided for webhook"
	}
	port := u.Port()
	if port == "" {
		port = "443"
	}
	if !webhookPorts[port] {
		return "Webhook can be set up only on ports 80, 88, 443 or 8443"
	}
	return ""
}

// isLoopbackHost reports whether host names this machine: localhost, or
// an address in 127.0.0.0/8 or ::1.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
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

// stopWebhookLocked ends the current webhook's delivery.
func (s *Server) stopWebhookLocked() {
	if s.hook != nil {
		close(s.hook.stop)
		s.hook = nil
	}
}

// WebhookInfo returns what getWebhookInfo would answer (the method itself
// is not served: the bot does not call it).
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

// Delivery as the official server's WebhookActor does it: every update
// has a queue (webhookQueue); a queue has at most one request in flight,
// and its next update is posted only once the one before was accepted; up
// to max_connections queues are posted to at once, the oldest ready first,
// from the updates of at most 2*max_connections queues
// (max_loaded_updates_). Until an update was accepted in the last 10 s,
// one request at a time (create_new_connections' pending mode: no
// success in 10 s).
const (
	hookLoadedQueues = 2
	hookPendingAfter = 10 * time.Second
)

// deliverWebhook dispatches pending updates to the webhook until it changes.
func (s *Server) deliverWebhook(h *webhookState) {
	defer s.workers.Done()
	tr := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		MaxConnsPerHost:     h.maxConnections,
		MaxIdleConnsPerHost: h.maxConnections,
		IdleConnTimeout:     time.Minute,
	}
	client := &http.Client{Timeout: s.cfg.webhookTimeout, Transport: tr}
	var posts sync.WaitGroup
	defer tr.CloseIdleConnections()
	defer posts.Wait()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-h.stop:
		case <-s.closed:
		case <-ctx.Done():
		}
		cancel()
	}()
	for {
		s.mu.Lock()
		if s.hook != h {
			s.mu.Unlock()
			return
		}
		next := s.startPostsLocked(ctx, h, client, &posts)
		wake := s.queue.sig.wait()
		s.mu.Unlock()
		var retry <-chan time.Time
		var timer *time.Timer
		if !next.IsZero() {
			timer = time.NewTimer(time.Until(next))
			retry = timer.C
		}
		select {
		case <-wake:
		case <-h.finished:
		case <-retry:
		case <-ctx.Done():
		}
		if timer != nil {
			timer.Stop()
		}
		if ctx.Err() != nil {
			return
		}
	}
}

// startPostsLocked starts as many posts as the webhook takes now and
// returns when the next refused update may be posted again (zero: none
// waits). The caller holds s.mu.
func (s *Server) startPostsLocked(ctx context.Context, h *webhookState, client *http.Client, posts *sync.WaitGroup) time.Time {
	limit := h.maxConnections
	if time.Since(h.lastSuccess) > hookPendingAfter {
		limit = 1
	}
	now := time.Now()
	var next time.Time
	seen := map[string]bool{}
	items := s.queue.pending()
	for i := range items {
		if h.inFlight >= limit || len(seen) >= hookLoadedQueues*h.maxConnections {
			break
		}
		it := &items[i]
		if it.hookQueue == "" {
			it.hookQueue = webhookQueue(*it)
		}
		if seen[it.hookQueue] {
			continue // not the first of its queue
		}
		seen[it.hookQueue] = true
		if h.busy[it.hookQueue] {
			continue
		}
		try := h.tries[it.id]
		if try == nil {
			try = &hookTry{}
			h.tries[it.id] = try
		}
		if now.Before(try.next) {
			if next.IsZero() || try.next.Before(next) {
				next = try.next
			}
			continue
		}
		try.attempts++
		h.busy[it.hookQueue] = true
		h.inFlight++
		posts.Add(1)
		go s.post(ctx, h, client, *it, try.attempts, posts)
	}
	return next
}

// post delivers one update and records how it went.
func (s *Server) post(ctx context.Context, h *webhookState, client *http.Client, it queuedUpdate, attempt int, posts *sync.WaitGroup) {
	defer posts.Done()
	started := time.Now()
	status, postErr := postUpdate(ctx, client, h, it.raw)
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(h.busy, it.hookQueue)
	h.inFlight--
	select {
	case h.finished <- struct{}{}:
	default:
	}
	if errors.Is(postErr, errHookChanged) || s.hook != h {
		return
	}
	a := WebhookAttempt{UpdateID: it.id, Attempt: attempt, StatusCode: status, At: s.now(), Duration: time.Since(started)}
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
		s.queue.remove(it.id)
		delete(h.tries, it.id)
		h.lastSuccess = time.Now()
	} else {
		h.lastErrorDate = a.At.Unix()
		h.lastErrorMsg = a.Error
		if try := h.tries[it.id]; try != nil {
			try.failures++
			try.next = time.Now().Add(s.retryDelay(try.failures))
		}
	}
	s.emitLocked(Event{Kind: EventWebhookDelivery, Webhook: &a, Time: a.At})
}

// retryDelay is how long an update refused failures times waits before it
// is posted again. As on Telegram (WebhookActor::on_update_error) an update
// refused once is posted again at once; refused again it waits first, then
// twice as long each time (Telegram: 2 s, 4 s, ... up to 60-120 s; here
// 50 ms, 100 ms, ... up to 1 s). Only the refused update's queue waits: the
// others go on.
func (s *Server) retryDelay(failures int) time.Duration {
	if failures <= 1 {
		return 0
	}
	d := s.cfg.webhookBackoff
	for i := 2; i < failures && d < s.cfg.webhookMaxWait; i++ {
		d *= 2
	}
	return min(d, s.cfg.webhookMaxWait)
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
