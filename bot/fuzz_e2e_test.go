package bot_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/storage"
)

// FuzzUpdates feeds the bot, over getUpdates, updates shaped like
// Telegram's with fields missing, null, of the wrong type, huge, or
// forged: a seed builds one from what the chat holds (its users, its table
// message and buttons), or raw, when it is a JSON object, is sent as it is.
// After each, the update must have been confirmed, no handling may have
// panicked (even recovered), and the chips of every chat it named must add
// up. `go test` runs the seeds (a few hundred updates); `go test -fuzz
// FuzzUpdates ./bot/` searches further.
func FuzzUpdates(f *testing.F) {
	logs := &logBuffer{}
	h := newHarness(f, func(o *harnessOptions) {
		o.owners = []string{"Dave"}
		o.logs = logs
	})
	// Something to press: a game with Bob to bet.
	h.betting("Kh Tc 9d Ts Qs 7c 8d 9h")
	for seed := range uint64(500) {
		f.Add(seed, []byte(nil))
	}
	for _, raw := range []string{
		`{"message":{"message_id":1,"date":1,"text":"/newgame","entities":[{"type":"bot_command","offset":0,"length":8}]}}`,
		`{"message":null}`,
		`{"message":{"chat":{"id":"x"}}}`,
		`{"callback_query":{"id":"1","data":"h:1","from":{"id":1e300}}}`,
		`{"my_chat_member":{"chat":{"id":-1},"new_chat_member":{"status":"left","user":{"id":0}}}}`,
	} {
		f.Add(uint64(0), []byte(raw))
	}
	chats := map[int64]bool{h.group.ID: true}
	f.Fuzz(func(t *testing.T, seed uint64, raw []byte) {
		kind, body := fuzzedUpdate(h, seed, raw)
		if kind == "" {
			t.Skip("not an update")
		}
		named(body, chats)
		id, err := h.srv.PushRawUpdate(kind, body)
		if errors.Is(err, telegramtest.ErrInvalid) {
			t.Skip("not an update our server can send")
		}
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		require.NoError(t, h.srv.WaitFor(ctx, func(v *telegramtest.View) bool { return v.PendingUpdates() == 0 }),
			"update %d is confirmed: %s", id, body)
		assert.Empty(t, logs.lines("handling failed"), "no panic, even a recovered one: %s", body)
		for chat := range chats {
			a, err := h.store.Audit(ctx, chat)
			if errors.Is(err, storage.ErrNotFound) {
				continue
			}
			require.NoError(t, err)
			require.True(t, a.OK, "the chips of chat %d add up after %s: %+v", chat, body, a)
		}
	})
}

// fuzzedUpdate returns the update to send: raw as it is when it is a JSON
// object naming one kind of update, else one built from seed.
func fuzzedUpdate(h *harness, seed uint64, raw []byte) (string, json.RawMessage) {
	if len(raw) > 0 {
		var fields map[string]json.RawMessage
		if json.Unmarshal(raw, &fields) != nil {
			return "", nil
		}
		for _, k := range []string{"message", "callback_query", "my_chat_member", "edited_message"} {
			if _, ok := fields[k]; ok {
				return k, raw
			}
		}
		return "", nil
	}
	g := &updateGen{r: rand.New(rand.NewPCG(seed, 0x5eed)), h: h}
	kind, body := g.update()
	out, err := json.Marshal(obj{kind: body})
	if err != nil {
		return "", nil
	}
	return kind, out
}

// named adds to chats every chat id the update names, to audit them after.
func named(raw json.RawMessage, chats map[int64]bool) {
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if n, ok := e.(float64); ok && (k == "migrate_to_chat_id" || k == "migrate_from_chat_id") && n == math.Trunc(n) && math.Abs(n) < 1<<53 {
					chats[int64(n)] = true
				}
				if c, ok := e.(map[string]any); ok && k == "chat" {
					if n, ok := c["id"].(float64); ok && n == math.Trunc(n) && math.Abs(n) < 1<<53 {
						chats[int64(n)] = true
					}
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	var v any
	if json.Unmarshal(raw, &v) == nil {
		walk(v)
	}
}

// updateGen builds updates like Telegram's from what the harness's chat
// holds, and spoils them at random.
type updateGen struct {
	r *rand.Rand
	h *harness
}

func (g *updateGen) chance(p float64) bool { return g.r.Float64() < p }

func (g *updateGen) pick(xs ...any) any { return xs[g.r.IntN(len(xs))] }

// spoil returns v, or now and then in its place null (which decodes as
// missing), an extreme of its own type (0, negative, huge, empty, long,
// markup), or, more rarely, a value of another type (which makes the whole
// update undecodable).
func (g *updateGen) spoil(v any) any {
	switch x := g.r.Float64(); {
	case x < 0.08:
		return nil
	case x < 0.11:
		return g.pick("x", 1e300, 0.5, true, []any{}, obj{}, obj{"id": v})
	case x < 0.16:
		switch v.(type) {
		case int, int64, uint64:
			return g.pick(0, -1, math.MaxInt32, math.MaxInt64, math.MinInt64, 1<<53+1, 1087968824, 777000)
		case string:
			return g.pick("", strings.Repeat("ж", 5000), "<b>x</b>", "\u202e\u200bx", "\x00")
		case bool:
			return !v.(bool)
		}
	}
	return v
}

// fill sets each field of m, spoiled, or leaves it out now and then.
func (g *updateGen) fill(fields obj) obj {
	m := obj{}
	for k, v := range fields {
		if g.chance(0.1) {
			continue
		}
		m[k] = g.spoil(v)
	}
	return m
}

func (g *updateGen) user() any {
	h := g.h
	switch g.r.IntN(8) {
	case 0:
		return g.fill(obj{"id": 1087968824, "is_bot": true, "first_name": "Group"}) // GroupAnonymousBot
	case 1:
		return g.fill(obj{"id": 136817688, "is_bot": true, "first_name": "Channel"}) // Channel_Bot
	case 2:
		return g.fill(obj{"id": h.srv.Bot().ID, "is_bot": true, "first_name": "Bot"})
	case 3:
		return g.fill(obj{"id": g.r.Int64N(1 << 40), "is_bot": false, "first_name": "\u202eevilname\u200b", "language_code": "ru"})
	}
	names := []string{"Alice", "Bob", "Carol", "Dave"}
	u := h.users[names[g.r.IntN(len(names))]]
	return g.fill(obj{"id": u.ID, "is_bot": false, "first_name": u.FirstName, "username": u.Username, "language_code": u.LanguageCode})
}

func (g *updateGen) chat() any {
	h := g.h
	switch g.r.IntN(8) {
	case 0:
		return g.fill(obj{"id": h.users["Bob"].ID, "type": "private", "first_name": "Bob"})
	case 1:
		return g.fill(obj{"id": -1001234567, "type": "channel", "title": "News"})
	case 2:
		return g.fill(obj{"id": g.pick(4242, -4242, 0), "type": g.pick("supergroup", "group", "private", "sender"), "title": "Odd", "is_forum": true})
	}
	return g.fill(obj{"id": h.group.ID, "type": h.group.Type, "title": h.group.Title})
}

var fuzzCommands = []string{"newgame", "leave", "balance", "bonus", "rules", "help", "start", "settings", "cancel",
	"lang", "verify", "top", "stats", "history", "audit", "kick", "grant", "verify_1", "newgame@telegramtest_bot", "newgame@other_bot",
	"house", "notify"}

var fuzzArgs = []string{"", "stake 25", "stake 99999999999999999999", "entry -5", "bets x1, bank", "bets ,,,", "turn 10s", "lobby 1h",
	"knocks 11", "lang ru", "lang xx", "en", "ru", "1", "0", "18446744073709551616", "-3", "1000000000", "1e9", "<b>", strings.Repeat("9", 300),
	"house off", "off", "notify_4000000001", "notify_0", "notify_-5", "notify_" + strings.Repeat("9", 20)}

func (g *updateGen) message(depth int) obj {
	text := "/" + fuzzCommands[g.r.IntN(len(fuzzCommands))]
	if a := fuzzArgs[g.r.IntN(len(fuzzArgs))]; a != "" {
		text += " " + a
	}
	if g.chance(0.1) {
		text = "hello"
	}
	name, _, _ := strings.Cut(text, " ")
	entity := g.fill(obj{"type": g.pick("bot_command", "bot_command", "mention"), "offset": g.pick(0, 0, 1, -1, 400),
		"length": g.pick(len(name), len(name), 0, 1000, -2)})
	m := g.fill(obj{
		"message_id": g.pick(1, 900001, g.r.IntN(1<<31)), "date": 1, "chat": g.chat(), "from": g.user(), "text": text,
		"entities": []any{entity},
	})
	if g.chance(0.2) {
		m["sender_chat"] = g.chat()
	}
	if g.chance(0.2) {
		m["message_thread_id"] = g.spoil(g.pick(1, 5, 900001))
		m["is_topic_message"] = g.spoil(true)
	}
	if g.chance(0.2) && depth < 2 {
		m["reply_to_message"] = g.spoil(g.message(depth + 1))
	}
	if g.chance(0.03) {
		m["migrate_to_chat_id"] = g.spoil(g.pick(-1009999999, 0, g.h.group.ID))
	}
	if g.chance(0.03) {
		m["migrate_from_chat_id"] = g.spoil(g.pick(-9999999, 0, g.h.group.ID))
	}
	if g.chance(0.05) {
		m["forum_topic_created"] = obj{"name": "t", "icon_color": 1}
	}
	return m
}

// data is callback data: a button of the table as it is now, one spoiled,
// or anything.
func (g *updateGen) data() any {
	var buttons []string
	if m, ok := g.h.srv.LastBotMessage(g.h.group.ID); ok {
		for _, b := range m.Buttons() {
			buttons = append(buttons, b.CallbackData)
		}
	}
	if len(buttons) > 0 && g.chance(0.5) {
		d := buttons[g.r.IntN(len(buttons))]
		if g.chance(0.3) {
			if p, err := callback.Parse(d); err == nil {
				p.Version = []uint64{0, 1, p.Version + 1, 1 << 53}[g.r.IntN(4)]
				d = p.String()
			}
		}
		return d
	}
	return g.spoil(g.pick("j:0", "h:0", "b:1:10", "b:1:-10", "b:1:99999999999999999999", "n:1", "c:0:stake:25",
		"c:1:lang:ru", "i:stake", "v:1", "v:18446744073709551615", "", ":", "h:1:2:3", strings.Repeat("h", 65),
		"a:1", "r:1", "a:0", "u:4000000001", "u:0", "u:-5", "c:0:house:off"))
}

func (g *updateGen) update() (string, obj) {
	switch g.r.IntN(10) {
	case 0, 1, 2, 3:
		return "message", g.message(0)
	case 4:
		return "edited_message", g.message(0)
	case 5:
		member := func(status any) obj {
			return g.fill(obj{"status": status, "user": g.user()})
		}
		return "my_chat_member", g.fill(obj{"chat": g.chat(), "from": g.user(), "date": 1,
			"old_chat_member": member(g.pick("member", "left", "kicked", "administrator", "")),
			"new_chat_member": member(g.pick("member", "left", "kicked", "administrator", "restricted", ""))})
	}
	var msg any = g.fill(obj{"message_id": g.pick(1, 2, 900001), "date": g.pick(1, 0), "chat": g.chat(), "text": "table"})
	if m, ok := g.h.srv.LastBotMessage(g.h.group.ID); ok && g.chance(0.6) {
		msg = g.fill(obj{"message_id": m.MessageID, "date": g.pick(1, 0), "chat": g.chat(), "text": m.Text})
	}
	return "callback_query", g.fill(obj{"id": "q" + itoa(g.r.Uint64()), "chat_instance": "1", "from": g.user(),
		"message": msg, "data": g.data(), "inline_message_id": g.spoil(nil)})
}
