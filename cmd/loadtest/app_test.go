package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/clock/clocktest"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/bot/webapp/live"
	"github.com/twentyone-bot/twentyone/bot/webapp/view"
	"github.com/twentyone-bot/twentyone/storage"
)

func TestSSEReader(t *testing.T) {
	tests := []struct {
		name   string
		stream string
		want   []sseEvent
		end    error
		retry  time.Duration
	}{
		{"one event", "id: 3\ndata: {\"a\":1}\n\n", []sseEvent{{ID: "3", Data: []byte(`{"a":1}`), Size: len("id: 3\ndata: {\"a\":1}\n\n")}}, io.EOF, 0},
		{"retry, comments and heartbeats are no events", "retry: 1000\n\n: heartbeat\n\nid: 4\ndata: x\n\n: heartbeat\n\n",
			[]sseEvent{{ID: "4", Data: []byte("x"), Size: len("id: 4\ndata: x\n\n")}}, io.EOF, time.Second},
		{"data lines joined by LF, CR LF ends a line", "id: 5\r\ndata: a\r\ndata: b\r\n\r\n",
			[]sseEvent{{ID: "5", Data: []byte("a\nb"), Size: len("id: 5\r\ndata: a\r\ndata: b\r\n\r\n")}}, io.EOF, 0},
		{"the id carries over; a field without a space", "id:7\ndata:one\n\ndata: two\n\n",
			[]sseEvent{{ID: "7", Data: []byte("one"), Size: len("id:7\ndata:one\n\n")}, {ID: "7", Data: []byte("two"), Size: len("data: two\n\n")}}, io.EOF, 0},
		{"an event's type", "event: replaced\ndata: {}\n\n", []sseEvent{{Event: "replaced", Data: []byte("{}"), Size: len("event: replaced\ndata: {}\n\n")}}, io.EOF, 0},
		{"an event cut off is dropped", "id: 8\ndata: half", nil, io.ErrUnexpectedEOF, 0},
		{"an event without its blank line is dropped", "id: 8\ndata: whole\n", nil, io.ErrUnexpectedEOF, 0},
		{"a bad retry is ignored", "retry: 1s\n\n", nil, io.EOF, 0},
		{"an id with NUL is ignored", "id: 1\x002\ndata: x\n\n", []sseEvent{{Data: []byte("x"), Size: len("id: 1\x002\ndata: x\n\n")}}, io.EOF, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newSSEReader(strings.NewReader(tt.stream))
			var got []sseEvent
			var err error
			for {
				var ev sseEvent
				if ev, err = r.next(); err != nil {
					break
				}
				got = append(got, ev)
			}
			assert.Equal(t, tt.want, got)
			assert.ErrorIs(t, err, tt.end)
			assert.Equal(t, tt.retry, r.retry)
			assert.Equal(t, int64(len(tt.stream)), r.read, "every byte is counted")
		})
	}
}

func TestSSEReaderLongLine(t *testing.T) {
	long := strings.Repeat("x", 200<<10) // past the reader's buffer
	r := newSSEReader(strings.NewReader("id: 1\ndata: " + long + "\n\n"))
	ev, err := r.next()
	require.NoError(t, err)
	assert.Equal(t, long, string(ev.Data))
	r = newSSEReader(strings.NewReader("data: " + strings.Repeat("x", maxSSELine) + "\n\n"))
	_, err = r.next()
	assert.ErrorContains(t, err, "passes")
}

// TestSSEReaderReadsTheHub reads what bot/webapp/live writes, over real
// HTTP: a view with several lines, a newer one, and the replacement.
func TestSSEReaderReadsTheHub(t *testing.T) {
	key := storage.TableKey{Chat: -5}
	var mu sync.Mutex
	version, body := uint64(1), "{\"version\":1}\r\n{\"more\":true}"
	views := live.ViewFunc(func(context.Context, storage.TableKey, live.Viewer) (uint64, []byte, error) {
		mu.Lock()
		defer mu.Unlock()
		return version, []byte(body), nil
	})
	hub := live.New(views, clocktest.NewClock(time.Unix(1_700_000_000, 0)), slog.New(slog.DiscardHandler), live.Limits{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hub.Serve(w, r, key, live.Viewer{User: 7})
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(hub.Close) // first: it ends the streams, which srv.Close waits for
	open := func() *sseReader {
		resp, err := http.Get(srv.URL)
		require.NoError(t, err)
		t.Cleanup(func() { resp.Body.Close() })
		require.Equal(t, http.StatusOK, resp.StatusCode)
		return newSSEReader(resp.Body)
	}
	r := open()
	ev, err := r.next()
	require.NoError(t, err)
	assert.Equal(t, "1", ev.ID)
	assert.Equal(t, "{\"version\":1}\n{\"more\":true}", string(ev.Data))
	assert.Equal(t, time.Second, r.retry, "the hub's reconnection time")

	mu.Lock()
	version, body = 2, `{"version":2}`
	mu.Unlock()
	hub.Changed(key, 2)
	ev, err = r.next()
	require.NoError(t, err)
	assert.Equal(t, sseEvent{ID: "2", Data: []byte(`{"version":2}`), Size: len("id: 2\ndata: {\"version\":2}\n\n")}, ev)

	open() // the same viewer again: the first stream is replaced
	ev, err = r.next()
	require.NoError(t, err)
	assert.Equal(t, "replaced", ev.Event)
}

func TestTableLatency(t *testing.T) {
	at := time.Unix(1_700_000_000, 0)
	ms := func(n int) time.Time { return at.Add(time.Duration(n) * time.Millisecond) }
	l := newAppLatency()
	tl := l.table(3)

	// An app action at version 4 makes 5: every viewer holds it at +30 ms
	// (the last one), the chat shows it at +900 ms.
	a := tl.start(4, at, srcApp, true)
	tl.viewerSaw(0, 5, ms(10))
	tl.viewerSaw(1, 5, ms(20))
	tl.settle(a, true) // the answer may come before the last viewer
	tl.viewerSaw(2, 6, ms(30))
	assert.Zero(t, l.every[srcApp].count(), "not done before the chat showed it")
	tl.chatShowed(5, ms(900))
	require.Equal(t, uint64(1), l.every[srcApp].count())
	assert.InDelta(t, float64(30*time.Millisecond), float64(l.every[srcApp].quantile(1)), float64(time.Millisecond))
	assert.InDelta(t, float64(900*time.Millisecond), float64(l.chat[srcApp].quantile(1)), float64(20*time.Millisecond))

	// A refused chat press makes nothing: dropped, whatever is seen after.
	b := tl.start(6, ms(1000), srcChat, true)
	tl.settle(b, false)
	for i := range 3 {
		tl.viewerSaw(i, 7, ms(1100))
	}
	tl.chatShowed(7, ms(1100))
	assert.Zero(t, l.every[srcChat].count())

	// A press seen by two viewers of three, and not in the measured part.
	c := tl.start(7, ms(2000), srcChat, true)
	d := tl.start(7, ms(2000), srcChat, false)
	tl.settle(c, true)
	tl.settle(d, true)
	tl.viewerSaw(0, 8, ms(2010))
	tl.viewerSaw(1, 8, ms(2010))
	tl.chatShowed(8, ms(2500))
	tl.finish()
	assert.Equal(t, int64(1), l.missed.Load(), "the measured press never reached the third viewer")
	assert.Zero(t, l.unshown.Load())
	assert.Equal(t, uint64(1), l.chat[srcChat].count(), "its time to the chat counts")
	least, chat := tl.versions()
	assert.Equal(t, uint64(7), least)
	assert.Equal(t, uint64(8), chat)
}

func TestAppLink(t *testing.T) {
	ref := strings.Repeat("A", 44)
	msg := func(urls ...string) *telegramtest.ChatMessage {
		var row []telegramtest.InlineKeyboardButton
		row = append(row, telegramtest.InlineKeyboardButton{Text: "Join", CallbackData: "j:1"})
		for _, u := range urls {
			row = append(row, telegramtest.InlineKeyboardButton{Text: "App", URL: u})
		}
		m := &telegramtest.ChatMessage{}
		m.ReplyMarkup = &telegramtest.InlineKeyboardMarkup{InlineKeyboard: [][]telegramtest.InlineKeyboardButton{row}}
		return m
	}
	got, err := appLink(msg("https://example.com/", "https://t.me/bot/"+appName+"?startapp="+ref), "bot")
	require.NoError(t, err)
	assert.Equal(t, ref, got)
	_, err = appLink(msg(), "bot")
	assert.ErrorContains(t, err, "no button")
	_, err = appLink(msg("https://t.me/other/"+appName+"?startapp="+ref), "bot")
	assert.ErrorContains(t, err, "no button", "another bot's app")
	_, err = appLink(msg("https://t.me/bot/"+appName+"?startapp=a+b"), "bot")
	assert.ErrorContains(t, err, "no table ref")
}

func TestFromView(t *testing.T) {
	bal := int64(5)
	seats := []view.Seat{{Name: "Ann", Balance: &bal}, {Name: "Bob"}, {Name: "House", House: true}}
	tests := []struct {
		name  string
		in    view.View
		phase phase
		turn  string
	}{
		{"lobby", view.View{Version: 3, Phase: "lobby", Seats: seats, Turn: -1}, phaseLobby, ""},
		{"a player's bet", view.View{Version: 4, Phase: "betting", Seats: seats, Turn: 1}, phaseBetting, "Bob"},
		{"the house to move", view.View{Version: 5, Phase: "drawing", Seats: seats, Turn: 2}, phaseHouse, "House"},
		{"the cut asked of Ann", view.View{Version: 6, Phase: "cutting", Seats: seats, Turn: -1,
			Deck: &view.Deck{Cut: &view.Cut{Waiting: true, Asked: "Ann"}}}, phaseCutting, "Ann"},
		{"closed", view.View{Version: 7, Phase: "closed", Turn: -1}, phaseClosed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Through JSON, as the stream brings it.
			data, err := json.Marshal(tt.in)
			require.NoError(t, err)
			var vw view.View
			require.NoError(t, json.Unmarshal(data, &vw))
			got := fromView(&vw)
			assert.Equal(t, tt.in.Version, got.version)
			assert.Equal(t, tt.phase, got.phase)
			assert.Equal(t, tt.turn, got.turn)
			assert.Equal(t, len(tt.in.Seats) > 0, got.house)
			if tt.phase == phaseLobby {
				assert.Equal(t, []string{"Ann", "Bob", "House"}, got.seated)
			}
		})
	}
}
