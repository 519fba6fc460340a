package telegramtest

import (
	"maps"
	"sort"
	"sync"
	"time"
)

// recentCallsKept bounds the ring of recent calls kept for debugging.
const recentCallsKept = 512

// Call is one Bot API request as the server answered it.
type Call struct {
	// Method is the canonical method name ("sendMessage"), or the lower-cased
	// name that was asked for when the method is unknown.
	Method string `json:"method"`
	// Code is the HTTP status answered (200 on success, 0 for a dropped connection).
	Code int `json:"code"`
	// Description is the error description ("" on success).
	Description string `json:"description,omitempty"`
	// Duration is the time the server took to answer.
	Duration time.Duration `json:"duration"`
	// At is the wall-clock time of the answer.
	At time.Time `json:"at"`
	// Legacy names the parameters of the request that the current Bot API
	// docs no longer list, which the official server still reads (see
	// legacyParams): a bot should send their replacements.
	Legacy []string `json:"legacy,omitempty"`
}

// MethodStats counts the calls of one method.
type MethodStats struct {
	// Calls counts all calls, OK the successful and Failed the others.
	Calls  int `json:"calls"`
	OK     int `json:"ok"`
	Failed int `json:"failed"`
	// Codes counts calls by HTTP status answered (0: dropped connection).
	Codes map[int]int `json:"codes"`
}

// CallLog is a snapshot of per-method call counts.
type CallLog struct {
	// Methods maps canonical method names to their counts.
	Methods map[string]MethodStats `json:"methods"`
}

// Count returns the number of calls of a method (canonical name).
func (l CallLog) Count(method string) int { return l.Methods[method].Calls }

// OK returns the number of successful calls of a method.
func (l CallLog) OK(method string) int { return l.Methods[method].OK }

// Failed returns the number of failed calls of a method.
func (l CallLog) Failed(method string) int { return l.Methods[method].Failed }

// Total counts all calls, except those of the methods named in except
// (typically "getUpdates").
func (l CallLog) Total(except ...string) int {
	n := 0
	for m, st := range l.Methods {
		skip := false
		for _, e := range except {
			skip = skip || e == m
		}
		if !skip {
			n += st.Calls
		}
	}
	return n
}

// Sub returns the calls made since an earlier snapshot.
func (l CallLog) Sub(earlier CallLog) CallLog {
	out := CallLog{Methods: map[string]MethodStats{}}
	for m, st := range l.Methods {
		old := earlier.Methods[m]
		d := MethodStats{Calls: st.Calls - old.Calls, OK: st.OK - old.OK, Failed: st.Failed - old.Failed, Codes: map[int]int{}}
		for code, n := range st.Codes {
			if k := n - old.Codes[code]; k != 0 {
				d.Codes[code] = k
			}
		}
		if d.Calls != 0 {
			out.Methods[m] = d
		}
	}
	return out
}

// MethodNames lists the methods called, sorted.
func (l CallLog) MethodNames() []string {
	out := make([]string, 0, len(l.Methods))
	for m := range l.Methods {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

type callLog struct {
	mu      sync.Mutex
	methods map[string]*MethodStats
	recent  []Call
	next    int
}

func newCallLog() *callLog { return &callLog{methods: map[string]*MethodStats{}} }

func (c *callLog) record(method string, code int, description string, took time.Duration) {
	c.recordCall(Call{Method: method, Code: code, Description: description, Duration: took})
}

// recordCall counts a call and keeps it among the recent ones, stamped now.
func (c *callLog) recordCall(call Call) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.methods[call.Method]
	if st == nil {
		st = &MethodStats{Codes: map[int]int{}}
		c.methods[call.Method] = st
	}
	st.Calls++
	st.Codes[call.Code]++
	if call.Code == 200 {
		st.OK++
	} else {
		st.Failed++
	}
	call.At = time.Now()
	if len(c.recent) < recentCallsKept {
		c.recent = append(c.recent, call)
	} else {
		c.recent[c.next] = call
	}
	c.next = (c.next + 1) % recentCallsKept
}

func (c *callLog) snapshot() CallLog {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := CallLog{Methods: make(map[string]MethodStats, len(c.methods))}
	for m, st := range c.methods {
		cp := *st
		cp.Codes = maps.Clone(st.Codes)
		out.Methods[m] = cp
	}
	return out
}

func (c *callLog) recentCalls() []Call {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.recent) < recentCallsKept {
		return append([]Call(nil), c.recent...)
	}
	out := make([]Call, 0, recentCallsKept)
	out = append(out, c.recent[c.next:]...)
	return append(out, c.recent[:c.next]...)
}

func (c *callLog) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.methods = map[string]*MethodStats{}
	c.recent = nil
	c.next = 0
}

// Calls returns a snapshot of the call counts.
func (s *Server) Calls() CallLog { return s.calls.snapshot() }

// RecentCalls returns the last calls answered (up to 512), oldest first.
func (s *Server) RecentCalls() []Call { return s.calls.recentCalls() }

// ResetCalls forgets all recorded calls.
func (s *Server) ResetCalls() { s.calls.reset() }
