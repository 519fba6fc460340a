package main

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func scrape(t *testing.T, h http.Handler) map[string]*dto.MetricFamily {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	assert.Contains(t, rec.Header().Get("Content-Type"), "text/plain")
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(rec.Body)
	require.NoError(t, err, "the exposition parses")
	return families
}

func counterValue(t *testing.T, fams map[string]*dto.MetricFamily, name string, labels map[string]string) float64 {
	t.Helper()
	f, ok := fams[name]
	require.True(t, ok, "no %s", name)
	for _, m := range f.GetMetric() {
		if matches(m, labels) {
			switch {
			case m.Counter != nil:
				return m.Counter.GetValue()
			case m.Gauge != nil:
				return m.Gauge.GetValue()
			case m.Histogram != nil:
				return float64(m.Histogram.GetSampleCount())
			}
		}
	}
	t.Fatalf("no %s%v", name, labels)
	return 0
}

func matches(m *dto.Metric, labels map[string]string) bool {
	n := 0
	for _, l := range m.GetLabel() {
		if v, ok := labels[l.GetName()]; ok {
			if v != l.GetValue() {
				return false
			}
			n++
		}
	}
	return n == len(labels)
}

func TestMetrics(t *testing.T) {
	m := NewMetrics()
	tables := 3.0
	m.RegisterOpenTables(func() float64 { return tables })
	h := newAdminHandler(adminOptions{Metrics: m.Handler(), Ready: func() error { return nil }})

	m.UpdateHandled("message")
	m.UpdateHandled("message")
	m.UpdateHandled("callback_query")
	m.UpdateFailed("message")
	m.ActionDone("message", 3*time.Millisecond)
	m.APICall("sendMessage", "ok", 40*time.Millisecond)
	m.APICall("sendMessage", "429", 10*time.Millisecond)
	m.APICall("editMessageText", "400", 10*time.Millisecond)
	m.ObserveCommit(2 * time.Millisecond)
	m.ObserveCommit(4 * time.Millisecond)
	m.RenderWaited(3 * time.Second)
	m.RenderCoalesced()
	m.RenderCoalesced()

	fams := scrape(t, h)
	assert.Equal(t, 2.0, counterValue(t, fams, "twentyone_updates_handled_total", map[string]string{"kind": "message"}))
	assert.Equal(t, 1.0, counterValue(t, fams, "twentyone_updates_handled_total", map[string]string{"kind": "callback_query"}))
	assert.Equal(t, 1.0, counterValue(t, fams, "twentyone_updates_failed_total", map[string]string{"kind": "message"}))
	assert.Equal(t, 1.0, counterValue(t, fams, "twentyone_action_duration_seconds", map[string]string{"kind": "message"}))
	assert.Equal(t, 1.0, counterValue(t, fams, "twentyone_bot_api_calls_total", map[string]string{"method": "sendMessage", "result": "ok"}))
	assert.Equal(t, 1.0, counterValue(t, fams, "twentyone_bot_api_calls_total", map[string]string{"method": "sendMessage", "result": "429"}))
	assert.Equal(t, 2.0, counterValue(t, fams, "twentyone_bot_api_call_duration_seconds", map[string]string{"method": "sendMessage"}))
	assert.Equal(t, 1.0, counterValue(t, fams, "twentyone_bot_api_rate_limited_total", map[string]string{"method": "sendMessage"}))
	assert.Equal(t, 2.0, counterValue(t, fams, "twentyone_storage_commit_duration_seconds", nil))
	assert.Equal(t, 3.0, counterValue(t, fams, "twentyone_open_tables", nil))
	assert.Equal(t, 1.0, counterValue(t, fams, "twentyone_outbox_render_wait_seconds", nil))
	assert.Equal(t, 2.0, counterValue(t, fams, "twentyone_outbox_renders_coalesced_total", nil))
	assert.Equal(t, 1.0, counterValue(t, fams, "twentyone_build_info", nil))
	assert.Contains(t, fams, "go_goroutines", "the Go runtime collector")
	assert.Contains(t, fams, "process_start_time_seconds", "the process collector")
	_, ratelimited429 := fams["twentyone_bot_api_rate_limited_total"]
	assert.True(t, ratelimited429)

	// Counters move.
	m.UpdateHandled("message")
	tables = 1
	fams = scrape(t, h)
	assert.Equal(t, 3.0, counterValue(t, fams, "twentyone_updates_handled_total", map[string]string{"kind": "message"}))
	assert.Equal(t, 1.0, counterValue(t, fams, "twentyone_open_tables", nil))

	// Lint the metric names and help texts.
	problems, err := testutil.GatherAndLint(m.reg)
	require.NoError(t, err)
	for _, p := range problems {
		if strings.HasPrefix(p.Metric, "twentyone_") {
			t.Errorf("%s: %s", p.Metric, p.Text)
		}
	}
}

func TestHealthAndReadiness(t *testing.T) {
	var readyErr error = errors.New("starting or stopping")
	h := newAdminHandler(adminOptions{Metrics: NewMetrics().Handler(), Ready: func() error { return readyErr }})
	get := func(path string) (int, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec.Code, rec.Body.String()
	}
	code, _ := get("/healthz")
	assert.Equal(t, http.StatusOK, code)
	code, body := get("/readyz")
	assert.Equal(t, http.StatusServiceUnavailable, code)
	assert.Contains(t, body, "starting or stopping")
	readyErr = nil
	code, _ = get("/readyz")
	assert.Equal(t, http.StatusOK, code)
	code, _ = get("/nope")
	assert.Equal(t, http.StatusNotFound, code)

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/backup", nil))
	assert.Equal(t, http.StatusMethodNotAllowed, rec.Code, "backup is POST only")
}

// TestAdminServesNoBackup: the admin server, which may sit behind a
// reverse proxy, no longer hands out the database: POST /backup says where
// backups are.
func TestAdminServesNoBackup(t *testing.T) {
	srv := httptest.NewServer(newAdminHandler(adminOptions{Metrics: NewMetrics().Handler(), Ready: func() error { return nil }}))
	t.Cleanup(srv.Close)
	resp, err := http.Post(srv.URL+"/backup", "", nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusGone, resp.StatusCode)
	assert.Contains(t, string(body), "http.backup_socket")
	assert.Empty(t, resp.Trailer.Get(backupStatusTrailer), "no backup stream")
}

func TestAdminURL(t *testing.T) {
	for listen, want := range map[string]string{
		"127.0.0.1:9121": "http://127.0.0.1:9121",
		"0.0.0.0:9121":   "http://127.0.0.1:9121",
		":9121":          "http://127.0.0.1:9121",
		"[::]:9121":      "http://[::1]:9121",
		"[::1]:9121":     "http://[::1]:9121",
		"localhost:80":   "http://localhost:80",
	} {
		got, err := adminURL(listen)
		require.NoError(t, err)
		assert.Equal(t, want, got, listen)
	}
}
