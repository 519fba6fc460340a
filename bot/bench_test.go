package bot_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// BenchmarkPress measures one button press from our Bot API server through
// the bot (real HTTP, a real BoltDB file with fsync) to the edited table
// message: a player joining or leaving a lobby, over and over. It reports
// presses per second and Bot API calls per press (the callback answer and
// one edit: 2).
func BenchmarkPress(b *testing.B) {
	for _, chats := range []int{1, 64} {
		b.Run(fmt.Sprintf("chats=%d", chats), func(b *testing.B) { benchmarkPress(b, chats) })
	}
}

func benchmarkPress(b *testing.B, chats int) {
	h := newHarness(b, func(o *harnessOptions) { o.sync = true })
	groups := []telegramtest.Chat{h.group}
	for len(groups) < chats {
		groups = append(groups, h.srv.NewGroup(fmt.Sprintf("Bench %d", len(groups)), h.user("Alice"), h.user("Bob")))
	}
	// Open a table in every chat, Alice seated.
	for _, g := range groups {
		_, err := h.srv.SendCommand(g.ID, h.user("Alice").ID, "newgame")
		require.NoError(b, err)
		_, err = h.srv.WaitForBotMessage(h.ctx(), g.ID, telegramtest.HasButton("Join"))
		require.NoError(b, err)
	}
	edits := h.srv.Subscribe(4096)
	defer edits.Close()
	// Each chat's worker waits for the edit of its own presses.
	waiters := make([]chan telegramtest.Event, len(groups))
	index := map[int64]int{}
	for i, g := range groups {
		waiters[i] = make(chan telegramtest.Event, 16)
		index[g.ID] = i
	}
	go func() {
		for e := range edits.C {
			if e.Kind == telegramtest.EventMessageEdited {
				if i, ok := index[e.ChatID]; ok {
					waiters[i] <- e
				}
			}
		}
	}()
	before := h.srv.Calls()
	b.ResetTimer()
	var wg sync.WaitGroup
	per := (b.N + len(groups) - 1) / len(groups)
	for i, g := range groups {
		wg.Add(1)
		go func(i int, g telegramtest.Chat) {
			defer wg.Done()
			bob := h.user("Bob").ID
			msg, _ := h.srv.LastBotMessage(g.ID)
			for n := 0; n < per; n++ {
				// The lobby's first button is Join or Leave: press whichever
				// toggles Bob, at the version shown.
				var data string
				for _, btn := range msg.Buttons() {
					d, err := callback.Parse(btn.CallbackData)
					if err == nil && (d.Action == callback.Join && n%2 == 0 || d.Action == callback.Leave && n%2 == 1) {
						data = btn.CallbackData
					}
				}
				cb, err := h.srv.Press(telegramtest.Press{ChatID: g.ID, From: bob, MessageID: msg.MessageID, Data: data})
				if err != nil {
					b.Error(err)
					return
				}
				if _, err := cb.Wait(h.ctx()); err != nil {
					b.Error(err)
					return
				}
				select {
				case e := <-waiters[i]:
					msg = *e.Message
				case <-h.ctx().Done():
					b.Error("no edit")
					return
				}
			}
		}(i, g)
	}
	wg.Wait()
	b.StopTimer()
	calls := h.srv.Calls().Sub(before)
	presses := float64(per * len(groups))
	b.ReportMetric(presses/b.Elapsed().Seconds(), "presses/s")
	b.ReportMetric(float64(calls.Total("getUpdates"))/presses, "calls/press")
}
