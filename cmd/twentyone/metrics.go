package main

import (
	"net/http"
	"runtime"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics collects what the process does, in its own Prometheus registry,
// and serves it in the Prometheus exposition format. It is the bot's
// bot.Metrics. Its methods are safe for concurrent use.
type Metrics struct {
	reg *prometheus.Registry

	updates       *prometheus.CounterVec
	failed        *prometheus.CounterVec
	actionSeconds *prometheus.HistogramVec
	apiCalls      *prometheus.CounterVec
	apiSeconds    *prometheus.HistogramVec
	rateLimited   *prometheus.CounterVec
	commitSeconds prometheus.Histogram
	renderWait    prometheus.Histogram
	coalesced     prometheus.Counter
}

// NewMetrics returns Metrics with the Go runtime and process collectors and
// the build info registered.
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		updates: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "twentyone_updates_handled_total",
			Help: "Updates and timeouts handled, by kind (message, callback_query, my_chat_member, timeout, ...).",
		}, []string{"kind"}),
		failed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "twentyone_updates_failed_total",
			Help: "Updates and timeouts whose handling panicked, and updates that did not decode, by kind; each was confirmed and skipped.",
		}, []string{"kind"}),
		actionSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "twentyone_action_duration_seconds",
			Help:    "How long an update or timeout took to handle, its commit included, by kind.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"kind"}),
		apiCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "twentyone_bot_api_calls_total",
			Help: "Bot API calls, by method and result (ok, an HTTP-like error code such as 400 or 429, or error).",
		}, []string{"method", "result"}),
		apiSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "twentyone_bot_api_call_duration_seconds",
			Help:    "How long Bot API calls took, by method (getUpdates includes its long poll).",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, []string{"method"}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "twentyone_bot_api_rate_limited_total",
			Help: "Bot API calls Telegram answered with 429 Too Many Requests, by method.",
		}, []string{"method"}),
		commitSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "twentyone_storage_commit_duration_seconds",
			Help:    "How long a BoltDB write transaction took to commit, fsync included.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
		}),
		renderWait: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "twentyone_outbox_render_wait_seconds",
			Help:    "How long a render of a live message (a table, a settings panel) waited in the outbox, from its enqueue to the start of its call: Telegram's pacing, when it binds.",
			Buckets: []float64{.01, .1, .25, .5, 1, 2, 3, 4, 5, 7.5, 10, 15, 20, 30, 45, 60},
		}),
		coalesced: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "twentyone_outbox_renders_coalesced_total",
			Help: "Renders replaced by a newer render of the same message while they waited in the outbox: states nobody saw.",
		}),
	}
	buildInfo := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "twentyone_build_info",
		Help:        "The running binary's version; always 1.",
		ConstLabels: prometheus.Labels{"version": buildVersion().Version, "commit": buildVersion().Commit, "goversion": runtime.Version()},
	})
	buildInfo.Set(1)
	m.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.updates, m.failed, m.actionSeconds, m.apiCalls, m.apiSeconds, m.rateLimited, m.commitSeconds,
		m.renderWait, m.coalesced, buildInfo,
	)
	return m
}

// UpdateHandled counts an update by kind.
func (m *Metrics) UpdateHandled(kind string) { m.updates.WithLabelValues(kind).Inc() }

// UpdateFailed counts an update that could not be handled, by kind.
func (m *Metrics) UpdateFailed(kind string) { m.failed.WithLabelValues(kind).Inc() }

// ActionDone observes how long an update took to handle.
func (m *Metrics) ActionDone(kind string, d time.Duration) {
	m.actionSeconds.WithLabelValues(kind).Observe(d.Seconds())
}

// APICall counts a Bot API call by method and result and observes its
// duration; a result of "429" also counts as rate limited.
func (m *Metrics) APICall(method, result string, d time.Duration) {
	m.apiCalls.WithLabelValues(method, result).Inc()
	m.apiSeconds.WithLabelValues(method).Observe(d.Seconds())
	if result == "429" {
		m.rateLimited.WithLabelValues(method).Inc()
	}
}

// RenderWaited observes how long a render waited in the outbox.
func (m *Metrics) RenderWaited(d time.Duration) { m.renderWait.Observe(d.Seconds()) }

// RenderCoalesced counts a render replaced while it waited.
func (m *Metrics) RenderCoalesced() { m.coalesced.Inc() }

// ObserveCommit observes how long a storage commit took.
func (m *Metrics) ObserveCommit(d time.Duration) { m.commitSeconds.Observe(d.Seconds()) }

// RegisterOpenTables exports the number of open tables, asked of fn at each
// scrape. Call it once.
func (m *Metrics) RegisterOpenTables(fn func() float64) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "twentyone_open_tables",
		Help: "Tables open (in the lobby or playing).",
	}, fn))
}

// Handler serves the metrics in the Prometheus exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}
