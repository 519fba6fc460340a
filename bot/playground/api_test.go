package playground_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/playground"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

func startPlayground(t *testing.T, opts playground.Options) *playground.Playground {
	t.Helper()
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	opts.NoSync = true
	pg, err := playground.Start(context.Background(), opts)
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		assert.NoError(t, pg.Close(ctx))
	})
	return pg
}

// call makes a request to the page's API and decodes the JSON answer.
func call(t *testing.T, method, url string, body any, out any) int {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(t, err)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, r)
	require.NoError(t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	if out != nil {
		require.NoError(t, json.NewDecoder(resp.Body).Decode(out))
	}
	return resp.StatusCode
}

type apiError struct {
	Error string `json:"error"`
}

type apiState struct {
	Bot   telegramtest.User   `json:"bot"`
	Users []telegramtest.User `json:"users"`
	Chats []struct {
		ID      int64   `json:"id"`
		Title   string  `json:"title"`
		Members []int64 `json:"members"`
		Admins  []int64 `json:"admins"`
	} `json:"chats"`
	Commands map[string][]telegramtest.BotCommand `json:"commands"`
}

func TestStateAndMessages(t *testing.T) {
	pg := startPlayground(t, playground.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	night := pg.Groups()[0]
	// The bot greets each group once it polls.
	_, err := pg.Server().WaitForBotMessage(ctx, night.ID, telegramtest.TextContains("I host Twenty One"))
	require.NoError(t, err)
	require.NoError(t, pg.Server().WaitFor(ctx, func(v *telegramtest.View) bool {
		return len(pg.Server().AllCommands()) > 0
	}))

	var st apiState
	require.Equal(t, http.StatusOK, call(t, "GET", pg.URL()+"/api/state", nil, &st))
	assert.Equal(t, playground.Bot.ID, st.Bot.ID)
	var names []string
	for _, u := range st.Users {
		names = append(names, u.FirstName)
	}
	assert.Equal(t, []string{"Alice", "Bob", "Carol", "Dave", "Иван"}, names)
	require.Len(t, st.Chats, 4, "the groups with the bot, Book club, Alice and Bob's chat (TestSeededChatsWithoutTheBot)")
	assert.Equal(t, "Game night", st.Chats[0].Title)
	assert.Len(t, st.Chats[0].Members, 4)
	assert.Equal(t, []int64{st.Users[0].ID}, st.Chats[0].Admins, "Alice created Game night")
	assert.Equal(t, "Office", st.Chats[1].Title)
	assert.Len(t, st.Chats[1].Members, 3)
	assert.NotEmpty(t, st.Commands[""], "the default command menu")
	assert.NotEmpty(t, st.Commands["ru"], "the Russian command menu")

	var msgs struct {
		Chat     telegramtest.Chat          `json:"chat"`
		Messages []telegramtest.ChatMessage `json:"messages"`
	}
	require.Equal(t, http.StatusOK, call(t, "GET", pg.URL()+"/api/chats/"+itoa(night.ID)+"/messages", nil, &msgs))
	assert.Equal(t, "Game night", msgs.Chat.Title)
	require.Len(t, msgs.Messages, 2, "the bot added, and its welcome")
	assert.Equal(t, playground.Bot.ID, msgs.Messages[0].NewChatMembers[0].ID)
	assert.True(t, msgs.Messages[1].FromBot)
}

// nightFixture is a playground for a test in "Game night".
type nightFixture struct {
	pg         *playground.Playground
	ctx        context.Context // for waiting on the bot, until the test ends
	night      telegramtest.Chat
	alice, bob telegramtest.User
	base       string // the group's API, /api/chats/{night}
}

// gameNight starts a playground for a test in "Game night", as Alice and
// Bob.
func gameNight(t *testing.T) nightFixture {
	t.Helper()
	pg := startPlayground(t, playground.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	night := pg.Groups()[0]
	users := pg.Server().Users()
	return nightFixture{pg: pg, ctx: ctx, night: night, alice: users[0], bob: users[1], base: pg.URL() + "/api/chats/" + itoa(night.ID)}
}

func TestSendAndPress(t *testing.T) {
	f := gameNight(t)
	pg, ctx, night, alice, bob, base := f.pg, f.ctx, f.night, f.alice, f.bob, f.base

	var sent telegramtest.ChatMessage
	require.Equal(t, http.StatusOK, call(t, "POST", base+"/messages", map[string]any{"from": alice.ID, "text": "/newgame"}, &sent))
	assert.Equal(t, "/newgame", sent.Text)
	assert.Equal(t, "bot_command", sent.Entities[0].Type)
	lobby, err := pg.Server().WaitForBotMessage(ctx, night.ID, telegramtest.HasButton("Join"))
	require.NoError(t, err)
	join, _ := lobby.Button("Join")

	var pressed struct {
		CallbackID string                       `json:"callback_id"`
		Answered   bool                         `json:"answered"`
		Answer     *telegramtest.CallbackAnswer `json:"answer"`
	}
	require.Equal(t, http.StatusOK, call(t, "POST", base+"/press", map[string]any{"from": bob.ID, "message_id": lobby.MessageID, "data": join.CallbackData}, &pressed))
	require.True(t, pressed.Answered)
	assert.Equal(t, "You're in.", pressed.Answer.Text)
	assert.False(t, pressed.Answer.ShowAlert)
	assert.NotEmpty(t, pressed.CallbackID)

	// The same button again: the bot never trusts the data, the press is
	// answered all the same; a double tap, as the first tap was.
	require.Equal(t, http.StatusOK, call(t, "POST", base+"/press", map[string]any{"from": bob.ID, "message_id": lobby.MessageID, "data": join.CallbackData}, &pressed))
	require.True(t, pressed.Answered)
	assert.Equal(t, "You're in.", pressed.Answer.Text)
}

func TestAPIValidation(t *testing.T) {
	pg := startPlayground(t, playground.Options{})
	night, office := pg.Groups()[0], pg.Groups()[1]
	alice := pg.Server().Users()[0]
	msg, err := pg.Server().SendText(night.ID, alice.ID, "hello")
	require.NoError(t, err)

	tests := []struct {
		name   string
		method string
		path   string
		body   any
		status int
		want   string
	}{
		{"unknown chat", "GET", "/api/chats/-42/messages", nil, 400, "there is no chat -42"},
		{"chat not a number", "GET", "/api/chats/night/messages", nil, 400, `the chat id must be a number, not "night"`},
		{"send as nobody", "POST", "/api/chats/" + itoa(night.ID) + "/messages", map[string]any{"from": 7, "text": "hi"}, 400, "there is no user 7"},
		{"send as the bot", "POST", "/api/chats/" + itoa(night.ID) + "/messages", map[string]any{"from": playground.Bot.ID, "text": "hi"}, 400, "there is no user"},
		{"send without from", "POST", "/api/chats/" + itoa(night.ID) + "/messages", map[string]any{"text": "hi"}, 400, `"from" is required`},
		{"send to an unknown chat", "POST", "/api/chats/-42/messages", map[string]any{"from": alice.ID, "text": "hi"}, 400, "there is no chat -42"},
		{"send where not a member", "POST", "/api/chats/" + itoa(office.ID) + "/messages", map[string]any{"from": alice.ID, "text": "hi"}, 400, "not a member"},
		{"send nothing", "POST", "/api/chats/" + itoa(night.ID) + "/messages", map[string]any{"from": alice.ID, "text": "  "}, 400, "the text is empty"},
		{"send too much", "POST", "/api/chats/" + itoa(night.ID) + "/messages", map[string]any{"from": alice.ID, "text": strings.Repeat("a", 4097)}, 400, "over 4096"},
		{"unknown field", "POST", "/api/chats/" + itoa(night.ID) + "/messages", map[string]any{"from": alice.ID, "txt": "hi"}, 400, `unknown field "txt"`},
		{"press an unknown message", "POST", "/api/chats/" + itoa(night.ID) + "/press", map[string]any{"from": alice.ID, "message_id": 999, "data": "j:1"}, 400, "has no message 999"},
		{"press without data", "POST", "/api/chats/" + itoa(night.ID) + "/press", map[string]any{"from": alice.ID, "message_id": msg.MessageID}, 400, "callback data must be 1 to 64 bytes"},
		{"press as nobody", "POST", "/api/chats/" + itoa(night.ID) + "/press", map[string]any{"from": 7, "message_id": msg.MessageID, "data": "x"}, 400, "there is no user 7"},
		{"add nobody", "POST", "/api/users", map[string]any{"first_name": " "}, 400, "first_name is required"},
		{"reply to an unknown message", "POST", "/api/chats/" + itoa(night.ID) + "/messages", map[string]any{"from": alice.ID, "text": "hi", "reply_to_message_id": 999}, 400, "has no message 999 to reply to"},
		{"reply to no message", "POST", "/api/chats/" + itoa(night.ID) + "/messages", map[string]any{"from": alice.ID, "text": "hi", "reply_to_message_id": -1}, 400, "has no message -1 to reply to"},
		{"add in klingon", "POST", "/api/users", map[string]any{"first_name": "Worf", "language_code": "tlh"}, 400, `language_code must be en, ru or uk, not "tlh"`},
		{"add to an unknown chat", "POST", "/api/users", map[string]any{"first_name": "Eve", "chats": []int64{-42}}, 400, "there is no chat -42"},
		{"add a long name", "POST", "/api/users", map[string]any{"first_name": strings.Repeat("e", 65)}, 400, "longer than 64"},
		{"unknown call", "GET", "/api/nope", nil, 404, "no such API call"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e apiError
			assert.Equal(t, tt.status, call(t, tt.method, pg.URL()+tt.path, tt.body, &e))
			assert.Contains(t, e.Error, tt.want)
		})
	}
	assert.Len(t, pg.Server().Users(), 5, "no user was added by a refused request")
}

func TestGuard(t *testing.T) {
	pg := startPlayground(t, playground.Options{})
	night := pg.Groups()[0]
	alice := pg.Server().Users()[0]
	body := `{"from":` + itoa(alice.ID) + `,"text":"hi"}`
	post := func(contentType, origin, host string) (int, string) {
		req, err := http.NewRequest("POST", pg.URL()+"/api/chats/"+itoa(night.ID)+"/messages", strings.NewReader(body))
		require.NoError(t, err)
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var e apiError
		_ = json.NewDecoder(resp.Body).Decode(&e)
		return resp.StatusCode, e.Error
	}
	code, msg := post("text/plain", "", "")
	assert.Equal(t, http.StatusUnsupportedMediaType, code, "a form post from another site is not JSON")
	assert.Contains(t, msg, "Content-Type: application/json")
	code, _ = post("application/json", "https://evil.example", "")
	assert.Equal(t, http.StatusForbidden, code, "another origin")
	code, msg = post("application/json", "", "evil.example:8021")
	assert.Equal(t, http.StatusForbidden, code, "DNS rebinding: a name that is not loopback")
	assert.Contains(t, msg, "loopback")
	code, _ = post("application/json; charset=utf-8", pg.URL(), "")
	assert.Equal(t, http.StatusOK, code, "the page itself")
	code, _ = post("application/json", "", "localhost")
	assert.Equal(t, http.StatusOK, code, "localhost is loopback")
}

func TestAddUser(t *testing.T) {
	pg := startPlayground(t, playground.Options{})
	night, office := pg.Groups()[0], pg.Groups()[1]
	var eve telegramtest.User
	require.Equal(t, http.StatusOK, call(t, "POST", pg.URL()+"/api/users", map[string]any{"first_name": "Eve", "last_name": "Evans"}, &eve))
	assert.Equal(t, "en", eve.LanguageCode)
	for _, chat := range []int64{night.ID, office.ID} {
		m, err := pg.Server().Member(chat, eve.ID)
		require.NoError(t, err)
		assert.Equal(t, telegramtest.StatusMember, m.Status)
		// The join shows in the chat (not necessarily last: the bot may
		// still be greeting the group).
		joined := 0
		for _, m := range pg.Server().Messages(chat) {
			if len(m.NewChatMembers) == 1 && m.NewChatMembers[0].ID == eve.ID {
				joined++
			}
		}
		assert.Equal(t, 1, joined, "the join shows in the chat once")
	}

	var oleg telegramtest.User
	require.Equal(t, http.StatusOK, call(t, "POST", pg.URL()+"/api/users", map[string]any{"first_name": "Олег", "language_code": "ru", "chats": []int64{office.ID}}, &oleg))
	m, err := pg.Server().Member(night.ID, oleg.ID)
	require.NoError(t, err)
	assert.Equal(t, telegramtest.StatusLeft, m.Status, "only the groups asked for")
	m, err = pg.Server().Member(office.ID, oleg.ID)
	require.NoError(t, err)
	assert.Equal(t, telegramtest.StatusMember, m.Status)

	// Ukrainian, the bot's third language.
	var oksana telegramtest.User
	require.Equal(t, http.StatusOK, call(t, "POST", pg.URL()+"/api/users", map[string]any{"first_name": "Оксана", "language_code": "uk"}, &oksana))
	assert.Equal(t, "uk", oksana.LanguageCode)
	stored, ok := pg.Server().User(oksana.ID)
	require.True(t, ok)
	assert.Equal(t, "uk", stored.LanguageCode, "the bot sees her language in her updates")
}

// TestReply: a message sent through the API in reply to another carries
// reply_to_message, the replied message with its sender, as Telegram
// sends it to the bot; and the bot reads it: /stats in reply to Bob's
// message is about Bob, not about Alice who sent it.
func TestReply(t *testing.T) {
	f := gameNight(t)
	pg, ctx, night, alice, bob, base := f.pg, f.ctx, f.night, f.alice, f.bob, f.base

	var said telegramtest.ChatMessage
	require.Equal(t, http.StatusOK, call(t, "POST", base+"/messages", map[string]any{"from": bob.ID, "text": "Deal me in!"}, &said))
	var sent telegramtest.ChatMessage
	require.Equal(t, http.StatusOK, call(t, "POST", base+"/messages",
		map[string]any{"from": alice.ID, "text": "/stats", "reply_to_message_id": said.MessageID}, &sent))
	require.NotNil(t, sent.ReplyToMessage, "the answer carries the replied message")
	assert.Equal(t, said.MessageID, sent.ReplyToMessage.MessageID)
	require.NotNil(t, sent.ReplyToMessage.From)
	assert.Equal(t, bob.ID, sent.ReplyToMessage.From.ID, "with its sender")
	assert.Equal(t, "Deal me in!", sent.ReplyToMessage.Text)
	stored, ok := pg.Server().Message(night.ID, sent.MessageID)
	require.True(t, ok)
	require.NotNil(t, stored.ReplyToMessage, "the chat keeps the reply")
	assert.Equal(t, said.MessageID, stored.ReplyToMessage.MessageID)

	answer, err := pg.Server().WaitForBotMessage(ctx, night.ID, func(m telegramtest.ChatMessage) bool {
		return m.ReplyToMessage != nil && m.ReplyToMessage.MessageID == sent.MessageID
	})
	require.NoError(t, err, "the bot answers the command")
	assert.Equal(t, "Bob hasn't played here yet.", answer.Text, "about the user replied to")
}

// event is an event of the stream as the page reads it.
type event struct {
	name string
	data string
}

func readEvent(t *testing.T, r *bufio.Reader) event {
	t.Helper()
	var e event
	for {
		line, err := r.ReadString('\n')
		require.NoError(t, err)
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "":
			if e.name != "" || e.data != "" {
				return e
			}
		case strings.HasPrefix(line, "event: "):
			e.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			e.data = strings.TrimPrefix(line, "data: ")
		}
	}
}

// eventReader reads the page's event stream.
type eventReader struct {
	r *bufio.Reader
}

// subscribe opens the page's event stream, past its "ready".
func subscribe(t *testing.T, ctx context.Context, pg *playground.Playground) eventReader {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", pg.URL()+"/api/events", nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	r := eventReader{bufio.NewReader(resp.Body)}
	require.Equal(t, "ready", readEvent(t, r.r).name)
	return r
}

// next returns the next event of the stream that match accepts.
func (er eventReader) next(t *testing.T, match func(telegramtest.Event) bool) telegramtest.Event {
	t.Helper()
	for {
		e := readEvent(t, er.r)
		if e.name != "" {
			continue
		}
		var ev telegramtest.Event
		require.NoError(t, json.Unmarshal([]byte(e.data), &ev))
		if match(ev) {
			return ev
		}
	}
}

func TestEventStream(t *testing.T) {
	pg := startPlayground(t, playground.Options{})
	night := pg.Groups()[0]
	bob := pg.Server().Users()[1]
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := pg.Server().WaitForBotMessage(ctx, night.ID, nil) // the welcomes are out
	require.NoError(t, err)

	events := subscribe(t, ctx, pg)
	_, err = pg.Server().SendText(night.ID, bob.ID, "anyone?")
	require.NoError(t, err)
	ev := events.next(t, func(e telegramtest.Event) bool {
		return e.Kind == telegramtest.EventMessageSent && e.Message.Text == "anyone?"
	})
	assert.Equal(t, night.ID, ev.ChatID)
	assert.Equal(t, bob.ID, ev.Message.From.ID)
}

func TestCloseRemovesTheTemporaryDatabase(t *testing.T) {
	pg, err := playground.Start(context.Background(), playground.Options{Addr: "127.0.0.1:0"})
	require.NoError(t, err)
	db := pg.DBPath()
	_, err = os.Stat(db)
	require.NoError(t, err)

	// An open event stream does not hold the shutdown up.
	resp, err := http.Get(pg.URL() + "/api/events")
	require.NoError(t, err)
	defer resp.Body.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, pg.Close(ctx))
	_, err = os.Stat(filepath.Dir(db))
	assert.True(t, os.IsNotExist(err), "the temporary directory is gone: %v", err)
	require.NoError(t, pg.Close(ctx), "Close again is harmless")
}

func TestKeptDatabaseAndSeed(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kept.db")
	seed := uint64(7)
	deal := func(db string) string {
		pg, err := playground.Start(context.Background(), playground.Options{Addr: "127.0.0.1:0", DBPath: db, Seed: &seed, NoSync: true})
		require.NoError(t, err)
		defer func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			require.NoError(t, pg.Close(ctx))
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		// Office, where no game was played yet.
		office := pg.Groups()[1]
		bob, carol := pg.Server().Users()[1], pg.Server().Users()[2]
		_, err = pg.Server().SendCommand(office.ID, bob.ID, "newgame")
		require.NoError(t, err)
		_, err = pg.Server().WaitForBotMessage(ctx, office.ID, telegramtest.HasButton("Join"))
		require.NoError(t, err)
		p, err := pg.Server().PressButton(office.ID, carol.ID, "Join")
		require.NoError(t, err)
		_, err = p.Wait(ctx)
		require.NoError(t, err)
		// The answer comes before the edit: press Start on the new version
		// (the second time, in the new lobby's message, not in the last
		// game's).
		_, err = pg.Server().WaitForBotMessage(ctx, office.ID, func(m telegramtest.ChatMessage) bool {
			_, ok := m.Button("Start ▶")
			return ok && strings.Contains(m.Text, "Carol")
		})
		require.NoError(t, err)
		p, err = pg.Server().PressButton(office.ID, bob.ID, "Start ▶")
		require.NoError(t, err)
		_, err = p.Wait(ctx)
		require.NoError(t, err)
		// The deck waits for its cut: Bob, seated, taps ½.
		_, err = pg.Server().WaitForBotMessage(ctx, office.ID, telegramtest.HasButton("✂️ ½"))
		require.NoError(t, err)
		p, err = pg.Server().PressButton(office.ID, bob.ID, "✂️ ½")
		require.NoError(t, err)
		_, err = p.Wait(ctx)
		require.NoError(t, err)
		m, err := pg.Server().WaitForBotMessage(ctx, office.ID, telegramtest.TextContains("✂️ cut by Bob"))
		require.NoError(t, err)
		_, err = pg.Server().SendCommand(office.ID, bob.ID, "cancel")
		require.NoError(t, err)
		_, err = pg.Server().WaitForBotMessage(ctx, office.ID, telegramtest.TextContains("Game cancelled"))
		require.NoError(t, err)
		_, err = os.Stat(db)
		require.NoError(t, err, "the database is where it was asked to be")
		return m.Text
	}
	first := deal(db)
	_, err := os.Stat(db)
	require.NoError(t, err, "a database named with -db is kept")
	deal(db) // reopened: the table's chain goes on, to its next link
	// Same seed, same moves, a new database: the same chain, the same cut,
	// the same cards.
	second := deal(filepath.Join(t.TempDir(), "again.db"))
	// The turn's end is shown as a time of the clock, which moved between
	// the deals: it is left out of the comparison.
	clock := regexp.MustCompile(`\d{1,2}:\d{2}(:\d{2})?`)
	cards := func(s string) string { return clock.ReplaceAllString(strings.Split(s, "🔐")[0], "HH:MM") }
	require.Regexp(t, `[♠♥♦♣]`, first, "the table shows a card")
	assert.Equal(t, cards(first), cards(second))
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestPaced: with Paced, the playground's Bot API server refuses writes
// past Telegram's limits with 429 (21 writes at once into a group: past
// the chat's 3 in any 2 s), and the bot paces
// its writes into groups (it keeps their times, for a restart); without,
// nothing limits the writes.
func TestPaced(t *testing.T) {
	for _, paced := range []bool{false, true} {
		t.Run(fmt.Sprint("paced ", paced), func(t *testing.T) {
			pg := startPlayground(t, playground.Options{Paced: paced})
			night, office := pg.Groups()[0], pg.Groups()[1]
			accepted, refused := 0, 0
			for i := range 21 {
				resp, err := http.PostForm(pg.Server().URL()+"/bot"+pg.Server().Token()+"/sendMessage",
					url.Values{"chat_id": {itoa(night.ID)}, "text": {fmt.Sprint("write ", i)}})
				require.NoError(t, err)
				resp.Body.Close()
				if resp.StatusCode == http.StatusTooManyRequests {
					refused++
				} else {
					accepted++
				}
			}
			if !paced {
				assert.Zero(t, refused, "no limit")
				return
			}
			assert.LessOrEqual(t, accepted, 20, "writes past 20 a minute refused")
			assert.Positive(t, refused)
			assert.Positive(t, pg.Server().RateLimited().Chat, "refused by the chat's limit")
			bob := pg.Server().Users()[1] // in both groups
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, err := pg.Server().SendCommand(office.ID, bob.ID, "newgame")
			require.NoError(t, err)
			_, err = pg.Server().WaitForBotMessage(ctx, office.ID, telegramtest.HasButton("Join"))
			require.NoError(t, err)
			require.NoError(t, pg.Server().WaitFor(ctx, func(*telegramtest.View) bool {
				p, err := pg.Store().LoadPace(ctx)
				return err == nil && len(p.Calls[office.ID]) > 0
			}), "the bot keeps the times of its writes into the group, as it paces them")
		})
	}
}

// TestDeepLink: the bot's deep link, tapped through the API, starts the
// bot in the user's private chat, which the state then lists, titled with
// the bot's name, for that user only; a table opened in the group they
// follow reaches them there. Another link is refused.
func TestDeepLink(t *testing.T) {
	f := gameNight(t)
	pg, ctx, night, alice, bob, base := f.pg, f.ctx, f.night, f.alice, f.bob, f.base
	require.Equal(t, http.StatusOK, call(t, "POST", base+"/messages", map[string]any{"from": bob.ID, "text": "/notify"}, nil))
	answer, err := pg.Server().WaitForBotMessage(ctx, night.ID, telegramtest.TextContains("started me in a private chat"))
	require.NoError(t, err)
	require.Len(t, answer.Buttons(), 1)
	link := answer.Buttons()[0].URL

	var e apiError
	assert.Equal(t, http.StatusBadRequest, call(t, "POST", pg.URL()+"/api/links", map[string]any{"from": bob.ID, "url": "https://example.com"}, &e))
	assert.Contains(t, e.Error, "not the bot's deep link")
	var started telegramtest.ChatMessage
	require.Equal(t, http.StatusOK, call(t, "POST", pg.URL()+"/api/links", map[string]any{"from": bob.ID, "url": link}, &started))
	assert.Equal(t, "/start notify_"+itoa(-night.ID), started.Text)
	_, err = pg.Server().WaitForBotMessage(ctx, bob.ID, telegramtest.TextContains("Done: I'll write to you here"))
	require.NoError(t, err)

	var st apiState
	require.Equal(t, http.StatusOK, call(t, "GET", pg.URL()+"/api/state", nil, &st))
	last := st.Chats[len(st.Chats)-1]
	assert.Equal(t, bob.ID, last.ID, "the private chat comes after the groups")
	assert.Equal(t, playground.Bot.FirstName, last.Title)
	assert.Equal(t, []int64{bob.ID}, last.Members)

	require.Equal(t, http.StatusOK, call(t, "POST", base+"/messages", map[string]any{"from": alice.ID, "text": "/newgame"}, nil))
	_, err = pg.Server().WaitForBotMessage(ctx, bob.ID, telegramtest.TextContains("Game night: Alice opened a table."))
	require.NoError(t, err)
	var msgs struct {
		Messages []telegramtest.ChatMessage `json:"messages"`
	}
	require.Equal(t, http.StatusOK, call(t, "GET", pg.URL()+"/api/chats/"+itoa(bob.ID)+"/messages", nil, &msgs))
	assert.Len(t, msgs.Messages, 3, "the start, the answer, the notice")
}
