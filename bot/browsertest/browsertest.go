// Package browsertest drives Debian's chromium for the browser tests of
// the pages we serve (the playground's, the Mini App's): it finds the
// browser, starts a headless tab with the flags this project's machines
// need, fails the test on any error the page or the browser logs, and
// runs each step within a deadline. Only tests import it.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// StepWait is how long one step may take before the test fails.
const StepWait = 15 * time.Second

// Chromium returns the browser to drive. Without one the test fails in CI
// (.ci/run installs it) and is skipped elsewhere.
func Chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium not found and CI is set: the browser test must run in CI (.ci/run installs Debian's chromium with apt-get)")
	}
	t.Skip("chromium not found: install Debian's chromium to run the browser test")
	return ""
}

// Start starts a headless chromium with a window of width×height, for at
// most life, and returns its first tab's context, the browser running.
// Everything ends with the test.
func Start(t *testing.T, width, height int, life time.Duration) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(Chromium(t)),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
		// Without these, this machine's closed network makes chromium hang
		// on connections nobody answers.
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("lang", "en-US"),
	}
	ctx, cancel := context.WithTimeout(context.Background(), life)
	t.Cleanup(cancel)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	tabCtx, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithLogf(t.Logf))
	t.Cleanup(cancelTab)
	// The first action starts the browser.
	if err := chromedp.Do(tabCtx); err != nil {
		t.Fatalf("chromium did not start: %v", err)
	}
	return tabCtx
}

// Errors collects what goes wrong in a tab: the page threw, logged an
// error on the console, or the browser logged one (a Content Security
// Policy violation, a failed request). The test fails at its end if any
// came that no step allowed.
type Errors struct {
	mu       sync.Mutex
	allowed  []string
	problems []string
}

// WatchErrors starts collecting the tab's errors.
func WatchErrors(ctx context.Context, t *testing.T) *Errors {
	t.Helper()
	e := &Errors{}
	require.NoError(t, chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			text := ev.ExceptionDetails.Text
			if ex := ev.ExceptionDetails.Exception; ex != nil && ex.Description != "" {
				text += " " + ex.Description
			}
			e.add("exception: " + text)
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				e.add("console.error")
			}
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.EntryLevelError {
				e.add(fmt.Sprintf("%s: %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
			}
		}
	}))
	require.NoError(t, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdplog.Enable, cdp.Empty{})
		return err
	})))
	t.Cleanup(func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		assert.Empty(t, e.problems, "errors in the page (a CSP violation is one)")
	})
	return e
}

// Allow lets the browser log an error containing s (a refusal a step
// expects, as "status of 401").
func (e *Errors) Allow(s string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.allowed = append(e.allowed, s)
}

func (e *Errors) add(s string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, a := range e.allowed {
		if strings.Contains(s, a) {
			return
		}
	}
	e.problems = append(e.problems, s)
}

// Run runs the actions in order, within StepWait.
func Run(ctx context.Context, t testing.TB, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	step, cancel := context.WithTimeout(ctx, StepWait)
	defer cancel()
	require.NoError(t, chromedp.Do(step, actions...), what)
}

// Get runs one action within StepWait and returns its value.
func Get[T any](ctx context.Context, t testing.TB, what string, action chromedp.Action[T]) T {
	t.Helper()
	step, cancel := context.WithTimeout(ctx, StepWait)
	defer cancel()
	v, err := chromedp.Run(step, action)
	require.NoError(t, err, what)
	return v
}

// Poll waits, within StepWait, until the JavaScript expression is truthy
// in the page, and returns its value.
func Poll[T any](ctx context.Context, t testing.TB, what, expr string) T {
	t.Helper()
	return Get(ctx, t, "waiting for "+what, chromedp.Poll[T](expr,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(StepWait)))
}

// Eval evaluates a JavaScript expression and returns its value.
func Eval[T any](ctx context.Context, t testing.TB, expr string) T {
	t.Helper()
	return Get(ctx, t, "evaluating "+expr, chromedp.Evaluate[T](expr))
}
