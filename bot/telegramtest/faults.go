package telegramtest

import (
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"
)

// FaultKind is what an injected fault does to a request.
type FaultKind int

// Fault kinds.
const (
	// FaultInternalError answers 500 {"ok":false,"error_code":500,"description":"Internal Server Error"}.
	FaultInternalError FaultKind = iota + 1
	// FaultBadGateway answers 502 with an HTML body, as Telegram's front end
	// does; clients fail to decode it.
	FaultBadGateway
	// FaultDelay holds the request for Fault.Delay (or until Fault.Hold is
	// closed), then handles it normally; with Fault.AfterHandling it
	// handles the request first and holds its answer.
	FaultDelay
	// FaultDropConnection closes the connection without answering.
	FaultDropConnection
	// FaultTooManyRequests answers 429 with Fault.RetryAfter (default 1).
	FaultTooManyRequests
	// FaultAnswer answers 200 with Fault.Body as the JSON answer, for
	// answers the Bot API never gives (a broken proxy, a bug of ours).
	FaultAnswer
)

// String names the fault kind.
func (k FaultKind) String() string {
	switch k {
	case FaultInternalError:
		return "internal error"
	case FaultBadGateway:
		return "bad gateway"
	case FaultDelay:
		return "delay"
	case FaultDropConnection:
		return "drop connection"
	case FaultTooManyRequests:
		return "too many requests"
	case FaultAnswer:
		return "answer"
	}
	return "unknown fault"
}

// Fault describes requests to disturb. A request is matched against the
// faults in the order they were injected: every matching delay that fires
// adds its delay, and the first other matching fault that fires decides the
// answer.
type Fault struct {
	// Kind is what the fault does.
	Kind FaultKind
	// Methods limits the fault to these methods (case-insensitive); empty
	// means every method.
	Methods []string
	// Rate is the probability (0..1] that a matching request is hit; 0 means
	// every matching request. Decisions come from a seeded source (see
	// WithFaultSeed and SeedFaults), so a run is reproducible.
	Rate float64
	// Count stops the fault after it fired this many times; 0 means never.
	Count int
	// Delay is the hold time of FaultDelay.
	Delay time.Duration
	// Hold, when not nil, holds a FaultDelay's request until it is closed
	// (or the server closes), whatever Delay says: the test decides when
	// the request goes on.
	Hold <-chan struct{}
	// RetryAfter is the retry_after of FaultTooManyRequests (default 1).
	RetryAfter int
	// Body is the answer of FaultAnswer.
	Body string
	// AfterHandling makes an error or dropped-connection fault happen after
	// the method ran: the change is made (the message is sent) but the
	// client sees a failure, as when Telegram's answer gets lost. A delay
	// holds the answer after the method ran: the chat shows the change
	// before the client learns of it, as on a slow network.
	AfterHandling bool
}

// FaultHandle controls an injected fault.
type FaultHandle struct {
	inj   *faultInjector
	fault *activeFault
}

// Fired returns how many requests the fault has hit.
func (h *FaultHandle) Fired() int {
	h.inj.mu.Lock()
	defer h.inj.mu.Unlock()
	return h.fault.fired
}

// Remove stops the fault.
func (h *FaultHandle) Remove() {
	h.inj.mu.Lock()
	defer h.inj.mu.Unlock()
	for i, f := range h.inj.faults {
		if f == h.fault {
			h.inj.faults = append(h.inj.faults[:i], h.inj.faults[i+1:]...)
			return
		}
	}
}

type activeFault struct {
	Fault
	methods map[string]bool
	fired   int
}

type faultInjector struct {
	mu     sync.Mutex
	rng    *rand.Rand
	faults []*activeFault
}

func newFaultInjector(seed uint64) *faultInjector {
	return &faultInjector{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// faultPlan is what to do to one request.
type faultPlan struct {
	before, after hold
	fault         *Fault
}

// hold is how long a request is held: for delay, and until each of chans
// is closed.
type hold struct {
	delay time.Duration
	chans []<-chan struct{}
}

func (h *hold) add(f *Fault) {
	if f.Hold != nil {
		h.chans = append(h.chans, f.Hold)
		return
	}
	h.delay += f.Delay
}

func (inj *faultInjector) plan(method string) faultPlan {
	inj.mu.Lock()
	defer inj.mu.Unlock()
	var p faultPlan
	if len(inj.faults) == 0 {
		return p
	}
	lower := strings.ToLower(method)
	for _, f := range inj.faults {
		if len(f.methods) > 0 && !f.methods[lower] {
			continue
		}
		if f.Count > 0 && f.fired >= f.Count {
			continue
		}
		if f.Kind != FaultDelay && p.fault != nil {
			continue
		}
		if f.Rate > 0 && f.Rate < 1 && inj.rng.Float64() >= f.Rate {
			continue
		}
		f.fired++
		if f.Kind == FaultDelay {
			if f.AfterHandling {
				p.after.add(&f.Fault)
			} else {
				p.before.add(&f.Fault)
			}
			continue
		}
		cp := f.Fault
		p.fault = &cp
	}
	return p
}

// InjectFault starts disturbing requests as described until the handle is
// removed or ClearFaults is called.
func (s *Server) InjectFault(f Fault) *FaultHandle {
	af := &activeFault{Fault: f, methods: map[string]bool{}}
	for _, m := range f.Methods {
		af.methods[strings.ToLower(m)] = true
	}
	s.faults.mu.Lock()
	s.faults.faults = append(s.faults.faults, af)
	s.faults.mu.Unlock()
	return &FaultHandle{inj: s.faults, fault: af}
}

// ClearFaults removes every injected fault.
func (s *Server) ClearFaults() {
	s.faults.mu.Lock()
	s.faults.faults = nil
	s.faults.mu.Unlock()
}

// SeedFaults reseeds the source that decides fractional faults.
func (s *Server) SeedFaults(seed uint64) {
	s.faults.mu.Lock()
	s.faults.rng = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	s.faults.mu.Unlock()
}

const badGatewayBody = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"

// applyFault answers (or does not answer) a request as the fault says.
func (s *Server) applyFault(w http.ResponseWriter, method string, started time.Time, f *Fault) {
	switch f.Kind {
	case FaultBadGateway:
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte(badGatewayBody))
		s.calls.record(method, http.StatusBadGateway, "Bad Gateway (injected)", time.Since(started))
	case FaultDropConnection:
		s.calls.record(method, 0, "connection dropped (injected)", time.Since(started))
		s.change.broadcast()
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return
			}
		}
		panic(http.ErrAbortHandler)
	case FaultTooManyRequests:
		retry := f.RetryAfter
		if retry <= 0 {
			retry = 1
		}
		e := tooManyRequests(retry)
		writeAPIError(w, e)
		s.calls.record(method, e.code, e.description+" (injected)", time.Since(started))
	case FaultAnswer:
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(f.Body))
		s.calls.record(method, http.StatusOK, "answer (injected)", time.Since(started))
	default:
		writeAPIError(w, errInternal)
		s.calls.record(method, errInternal.code, errInternal.description+" (injected)", time.Since(started))
	}
	s.change.broadcast()
}

// wait holds a request as h says, until its delay has passed and each of
// its chans is closed; false when the client went away meanwhile (the
// call is then recorded as such). The server's closing ends the wait.
func (s *Server) wait(r *http.Request, method string, started time.Time, h hold) bool {
	events := h.chans
	if h.delay > 0 {
		t := time.NewTimer(h.delay)
		defer t.Stop()
		passed := make(chan struct{})
		go func() {
			select {
			case <-t.C:
				close(passed)
			case <-r.Context().Done():
			case <-s.closed:
			}
		}()
		events = append([]<-chan struct{}{passed}, events...)
	}
	for _, e := range events { // the wait ends when the last has come
		select {
		case <-e:
		case <-r.Context().Done():
			s.calls.record(method, 0, "client went away during injected delay", time.Since(started))
			return false
		case <-s.closed:
			return true
		}
	}
	return true
}
