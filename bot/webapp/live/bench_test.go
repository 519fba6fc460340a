package live_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twentyone-bot/twentyone/bot/clock"
	"github.com/twentyone-bot/twentyone/bot/webapp/live"
	"github.com/twentyone-bot/twentyone/storage"
)

// BenchmarkFanOut: 1,000 tables with 4 viewers each, every viewer a real
// SSE client over real HTTP (loopback); one op is one change of every
// table, until each of the 4,000 viewers has read its event (a view of
// about 1 KiB). Beside it, the floor measured in the same run: the same
// bytes written to a bytes.Buffer per viewer; x-buffer is how many times
// the floor an op costs, ns/viewer the op's cost per viewer.
func BenchmarkFanOut(b *testing.B) {
	const tables, perTable = 1000, 4
	const viewers = tables * perTable
	body := []byte(`{"view":"` + strings.Repeat("x", 1000) + `"}`)
	var version atomic.Uint64 // every table's
	version.Store(1)
	hub := live.New(live.ViewFunc(func(context.Context, storage.TableKey, live.Viewer) (uint64, []byte, error) {
		return version.Load(), body, nil
	}), clock.System{}, nil, live.Limits{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chat, _ := strconv.ParseInt(r.URL.Query().Get("chat"), 10, 64)
		user, _ := strconv.ParseInt(r.URL.Query().Get("user"), 10, 64)
		hub.Serve(w, r, key(chat), live.Viewer{User: user})
	}))
	b.Cleanup(srv.Close)
	b.Cleanup(hub.Close)

	// Every viewer counts itself once when it reads the version awaited.
	var got atomic.Int64
	all := make(chan struct{}, 1)
	read := func(resp *http.Response) {
		defer resp.Body.Close()
		br := bufio.NewReader(resp.Body)
		var id uint64
		for {
			line, err := br.ReadSlice('\n')
			if err != nil {
				return
			}
			switch {
			case bytes.HasPrefix(line, []byte("id: ")):
				id, _ = strconv.ParseUint(string(line[4:len(line)-1]), 10, 64)
			case len(line) == 1 && id != 0: // the end of a view's event
				if id == version.Load() && got.Add(1) == viewers {
					all <- struct{}{}
				}
				id = 0
			}
		}
	}
	awaitAll := func() {
		select {
		case <-all:
			got.Store(0)
		case <-time.After(time.Minute):
			b.Fatalf("%d of %d viewers got version %d", got.Load(), viewers, version.Load())
		}
	}
	for chat := range int64(tables) {
		for user := range int64(perTable) {
			resp, err := srv.Client().Get(fmt.Sprintf("%s/?chat=%d&user=%d", srv.URL, chat, user))
			if err != nil || resp.StatusCode != http.StatusOK {
				b.Fatalf("viewer %d of table %d: %v %v", user, chat, resp.Status, err)
			}
			go read(resp)
		}
	}
	awaitAll()

	floor := measureFloor(body, viewers)
	for b.Loop() {
		v := version.Add(1)
		for chat := range int64(tables) {
			hub.Changed(key(chat), v)
		}
		awaitAll()
	}
	op := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(float64(op)/float64(floor), "x-buffer")
	b.ReportMetric(float64(op)/viewers, "ns/viewer")
}

// measureFloor returns what writing one version's event to a buffer per
// viewer takes: the cheapest fan-out there could be.
func measureFloor(body []byte, viewers int) time.Duration {
	const rounds = 200
	bufs := make([]bytes.Buffer, viewers)
	start := time.Now()
	for round := range uint64(rounds) {
		for i := range bufs {
			w := &bufs[i]
			w.Reset()
			w.WriteString("id: ")
			w.WriteString(strconv.FormatUint(round, 10))
			w.WriteString("\ndata: ")
			w.Write(body)
			w.WriteString("\n\n")
		}
	}
	return time.Since(start) / rounds
}
