package telegramtest_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

const tooOld = "Bad Request: query is too old and response timeout expired or query ID is invalid"

// inlineWorld is a server in inline mode with chats of every kind the
// bot meets inline: its private chat with Alice, Alice's chat with Bob, a
// group with the bot and one without.
type inlineWorld struct {
	srv                         *telegramtest.Server
	api                         *tgbotapi.BotAPI
	alice, bob                  telegramtest.User
	sender, duo, group, botless telegramtest.Chat
	supergroup                  telegramtest.Chat
	clock                       *telegramtest.ManualClock
}

func newInlineWorld(t *testing.T, opts ...telegramtest.Option) inlineWorld {
	t.Helper()
	clock := telegramtest.NewManualClock(time.Date(2026, 5, 8, 12, 0, 0, 0, time.UTC))
	srv, api := start(t, append([]telegramtest.Option{telegramtest.WithClock(clock)}, opts...)...)
	w := inlineWorld{srv: srv, api: api, clock: clock}
	w.alice = srv.AddUser(telegramtest.User{FirstName: "Alice", Username: "alice"})
	w.bob = srv.AddUser(telegramtest.User{FirstName: "Bob"})
	w.sender = srv.PrivateChat(w.alice)
	var err error
	w.duo, err = srv.NewUserChat(w.alice, w.bob)
	require.NoError(t, err)
	w.group = srv.NewGroup("With the bot", w.alice, w.bob)
	w.supergroup = srv.NewSupergroup("Super", w.alice, w.bob)
	w.botless, err = srv.AddChat(telegramtest.ChatSpec{Title: "Without the bot", Members: []int64{w.alice.ID, w.bob.ID},
		BotStatus: telegramtest.StatusLeft})
	require.NoError(t, err)
	return w
}

// article is an InlineQueryResultArticle posting an HTML text, with a
// keyboard of callback buttons when pairs are given.
func article(id, title, html string, pairs ...string) tgbotapi.InlineQueryResultArticle {
	a := tgbotapi.NewInlineQueryResultArticleHTML(id, title, html)
	if len(pairs) > 0 {
		kb := keyboard(pairs...)
		a.ReplyMarkup = &kb
	}
	return a
}

// answer answers an inline query through tgbotapi.
func (w inlineWorld) answer(t *testing.T, queryID string, results ...any) error {
	t.Helper()
	_, err := w.api.Request(tgbotapi.InlineConfig{InlineQueryID: queryID, Results: results, CacheTime: 0})
	return err
}

// chosen sends Alice's query in a chat, answers it with one article and
// chooses it: the inline message.
func (w inlineWorld) chosen(t *testing.T, chatID int64, pairs ...string) telegramtest.InlineMessage {
	t.Helper()
	q, err := w.srv.SendInlineQuery(chatID, w.alice.ID, "table")
	require.NoError(t, err)
	require.NoError(t, w.answer(t, q.ID(), article("t1", "New table", "<b>Table</b> open", pairs...)))
	im, err := w.srv.ChooseInlineResult(q.ID(), "t1")
	require.NoError(t, err)
	return im
}

func TestInlineQueryReachesTheBot(t *testing.T) {
	w := newInlineWorld(t, telegramtest.WithInlineMode())
	tests := []struct {
		name     string
		chat     telegramtest.Chat
		wantType string
	}{
		{"the user's chat with the bot", w.sender, "sender"},
		{"a chat with another user", w.duo, "private"},
		{"a group with the bot", w.group, "group"},
		{"a group without the bot", w.botless, "group"},
		{"a supergroup", w.supergroup, "supergroup"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := w.srv.SendInlineQuery(tt.chat.ID, w.alice.ID, "blackjack 10")
			require.NoError(t, err)
			assert.Equal(t, tt.wantType, q.ChatType())
			updates, err := w.api.GetUpdates(tgbotapi.UpdateConfig{})
			require.NoError(t, err)
			require.Len(t, updates, 1)
			iq := updates[0].InlineQuery
			require.NotNil(t, iq)
			assert.Equal(t, q.ID(), iq.ID)
			assert.Equal(t, w.alice.ID, iq.From.ID)
			assert.Equal(t, "blackjack 10", iq.Query)
			assert.Equal(t, tt.wantType, iq.ChatType)
			assert.Empty(t, iq.Offset)
			drain(t, w.api)

			again, ok := w.srv.InlineQuery(q.ID())
			require.True(t, ok, "the server remembers the query")
			assert.Equal(t, q.ID(), again.ID())
			assert.Equal(t, w.alice.ID, again.From())
			assert.Equal(t, tt.chat.ID, again.ChatID())
			assert.Equal(t, "blackjack 10", again.Query())
			assert.True(t, again.Deadline().After(w.clock.Now()), "a query may be answered for a while")
		})
	}

	t.Run("unknown", func(t *testing.T) {
		_, ok := w.srv.InlineQuery("42")
		assert.False(t, ok)
	})

	t.Run("refused", func(t *testing.T) {
		carol := w.srv.AddUser(telegramtest.User{FirstName: "Carol"})
		_, err := w.srv.SendInlineQuery(w.duo.ID, carol.ID, "q")
		assert.True(t, errors.Is(err, telegramtest.ErrNotMember), "an outsider of the chat: %v", err)
		_, err = w.srv.SendInlineQuery(w.group.ID, w.alice.ID, strings.Repeat("ы", 257))
		assert.True(t, errors.Is(err, telegramtest.ErrInvalid), "a query over 256 characters: %v", err)
		_, err = w.srv.SendInlineQuery(w.group.ID, w.alice.ID, strings.Repeat("ы", 256))
		assert.NoError(t, err, "256 characters fit")
	})

	t.Run("getMe tells the modes", func(t *testing.T) {
		me := getMe(t, w.srv)
		assert.Equal(t, true, me["supports_inline_queries"])
		assert.Equal(t, false, me["supports_guest_queries"])
	})
}

func TestNoInlineModeNoQueries(t *testing.T) {
	srv, _ := start(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	_, err := srv.SendInlineQuery(alice.ID, alice.ID, "q")
	assert.True(t, errors.Is(err, telegramtest.ErrInvalid), "%v", err)
	assert.Zero(t, srv.PendingUpdates())
}

// resultJSON is an article result as raw JSON, for what tgbotapi cannot send.
func resultJSON(id, text string) map[string]any {
	return map[string]any{"type": "article", "id": id, "title": "T",
		"input_message_content": map[string]any{"message_text": text}}
}

func TestAnswerInlineQueryValidation(t *testing.T) {
	w := newInlineWorld(t, telegramtest.WithInlineMode())
	many := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = resultJSON(fmt.Sprintf("r%d", i), "text")
		}
		return out
	}
	with := func(edit func(map[string]any)) []any {
		r := resultJSON("r1", "text")
		edit(r)
		return []any{r}
	}
	const parse = "Bad Request: can't parse inline query result: "
	tests := []struct {
		name     string
		results  any // encoded as JSON; a string as it is
		wantDesc string
	}{
		{"one result", many(1), ""},
		{"no result", []any{}, ""},
		{"50 results", many(50), ""},
		{"51 results", many(51), "Bad Request: too many inline query results specified"},
		{"id of 64 bytes", with(func(r map[string]any) { r["id"] = strings.Repeat("я", 32) }), ""},
		{"id of 65 bytes", with(func(r map[string]any) { r["id"] = strings.Repeat("я", 32) + "x" }), "Bad Request: RESULT_ID_INVALID"},
		{"empty id", with(func(r map[string]any) { r["id"] = "" }), "Bad Request: RESULT_ID_INVALID"},
		{"no id", with(func(r map[string]any) { delete(r, "id") }), parse + `Can't find field "id"`},
		{"duplicate ids", []any{resultJSON("a", "x"), resultJSON("a", "y")}, "Bad Request: RESULT_ID_DUPLICATE"},
		{"empty title", with(func(r map[string]any) { r["title"] = "" }), "Bad Request: ARTICLE_TITLE_EMPTY"},
		{"no title", with(func(r map[string]any) { delete(r, "title") }), parse + `Can't find field "title"`},
		{"unknown parse_mode", with(func(r map[string]any) {
			r["input_message_content"] = map[string]any{"message_text": "x", "parse_mode": "XML"}
		}), parse + "Unsupported parse_mode"},
		{"broken HTML", with(func(r map[string]any) {
			r["input_message_content"] = map[string]any{"message_text": "<b>x", "parse_mode": "HTML"}
		}), parse + "Can't parse entities: Can't find end tag corresponding to start tag b"},
		{"HTML", with(func(r map[string]any) {
			r["input_message_content"] = map[string]any{"message_text": "<b>x</b>", "parse_mode": "HTML"}
		}), ""},
		{"entities without parse_mode", with(func(r map[string]any) {
			r["input_message_content"] = map[string]any{"message_text": "x",
				"entities": []any{map[string]any{"type": "bold", "offset": 0, "length": 1}}}
		}), parse + "The entities parameter is not modelled by telegramtest"},
		{"entities beside parse_mode are ignored", with(func(r map[string]any) {
			r["input_message_content"] = map[string]any{"message_text": "x", "parse_mode": "HTML",
				"entities": []any{map[string]any{"type": "bold", "offset": 0, "length": 1}}}
		}), ""},
		{"empty message content", with(func(r map[string]any) { r["input_message_content"] = map[string]any{} }),
			parse + "Input message content is not specified"},
		{"message content not an object", with(func(r map[string]any) { r["input_message_content"] = "x" }),
			parse + `Field "input_message_content" must be of type Object`},
		{"legacy text", with(func(r map[string]any) { delete(r, "input_message_content"); r["message_text"] = "x" }), ""},
		{"no text at all", with(func(r map[string]any) { delete(r, "input_message_content") }),
			parse + `Can't find field "message_text"`},
		{"blank text", with(func(r map[string]any) {
			r["input_message_content"] = map[string]any{"message_text": " <b> </b> ", "parse_mode": "HTML"}
		}), "Bad Request: text must be non-empty"},
		{"text of 4097 characters", with(func(r map[string]any) {
			r["input_message_content"] = map[string]any{"message_text": strings.Repeat("a", 4097)}
		}), "Bad Request: MESSAGE_TOO_LONG"},
		{"callback data over 64 bytes", with(func(r map[string]any) {
			r["reply_markup"] = map[string]any{"inline_keyboard": []any{[]any{
				map[string]any{"text": "Join", "callback_data": strings.Repeat("d", 65)}}}}
		}), "Bad Request: BUTTON_DATA_INVALID"},
		{"a web_app button (an inline message is in no private chat of the bot's)", with(func(r map[string]any) {
			r["reply_markup"] = map[string]any{"inline_keyboard": []any{[]any{
				map[string]any{"text": "Play", "web_app": map[string]any{"url": "https://app.example/"}}}}}
		}), "Bad Request: BUTTON_TYPE_INVALID"},
		{"text button", with(func(r map[string]any) {
			r["reply_markup"] = map[string]any{"inline_keyboard": []any{[]any{map[string]any{"text": "Join"}}}}
		}), parse + "Can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"},
		{"a photo", with(func(r map[string]any) { r["type"] = "photo" }),
			parse + "inline query result of type photo is not modelled by telegramtest"},
		{"an unknown type", with(func(r map[string]any) { r["type"] = "hologram" }),
			parse + `type "hologram" is unsupported for the inline query result`},
		{"not an object", []any{"x"}, parse + "Inline query result must be an object"},
		{"not an array", map[string]any{}, "Bad Request: expected an Array of inline query results"},
		{"not JSON", "[", "Bad Request: can't parse JSON encoded inline query results"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := w.srv.SendInlineQuery(w.group.ID, w.alice.ID, "q")
			require.NoError(t, err)
			raw, ok := tt.results.(string)
			if !ok {
				b, err := json.Marshal(tt.results)
				require.NoError(t, err)
				raw = string(b)
			}
			resp := call(t, w.srv, "answerInlineQuery", url.Values{"inline_query_id": {q.ID()}, "results": {raw}})
			_, answered := q.Answer()
			if tt.wantDesc == "" {
				require.True(t, resp.OK, resp.Description)
				assert.JSONEq(t, "true", string(resp.Result))
				assert.True(t, answered)
				return
			}
			assert.Equal(t, 400, resp.ErrorCode)
			assert.Equal(t, tt.wantDesc, resp.Description)
			assert.False(t, answered, "a refused answer is no answer")
		})
	}
}

func TestAnswerInlineQueryDeadline(t *testing.T) {
	w := newInlineWorld(t, telegramtest.WithInlineMode())
	result := article("r", "Table", "Table")
	tests := []struct {
		name     string
		prepare  func(t *testing.T, q *telegramtest.InlineRequest) string // returns the id to answer
		wantDesc string
	}{
		{"answered at once", func(*testing.T, *telegramtest.InlineRequest) string { return "" }, ""},
		{"answered just within 10 s", func(_ *testing.T, q *telegramtest.InlineRequest) string {
			w.clock.Advance(10 * time.Second)
			return ""
		}, ""},
		{"answered after 10 s", func(_ *testing.T, q *telegramtest.InlineRequest) string {
			w.clock.Advance(10*time.Second + time.Millisecond)
			return ""
		}, tooOld},
		{"answered twice", func(t *testing.T, q *telegramtest.InlineRequest) string {
			require.NoError(t, w.answer(t, q.ID(), result))
			return ""
		}, tooOld},
		{"an unknown query", func(*testing.T, *telegramtest.InlineRequest) string { return "12345" }, tooOld},
		{"a parse error goes first", func(*testing.T, *telegramtest.InlineRequest) string { return "12345" },
			"Bad Request: too many inline query results specified"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := w.srv.SendInlineQuery(w.group.ID, w.alice.ID, "q")
			require.NoError(t, err)
			id := tt.prepare(t, q)
			if id == "" {
				id = q.ID()
			}
			results := []any{result}
			if strings.HasPrefix(tt.name, "a parse error") {
				results = make([]any, 51)
				for i := range results {
					results[i] = article(fmt.Sprint(i), "T", "x")
				}
			}
			err = w.answer(t, id, results...)
			if tt.wantDesc == "" {
				require.NoError(t, err)
				a, err := q.Wait(deadline(t))
				require.NoError(t, err)
				require.Len(t, a.Results, 1)
				assert.Equal(t, "Table", a.Results[0].Title)
				return
			}
			assert.Equal(t, tt.wantDesc, asAPIError(t, err).Message)
		})
	}
}

func TestChosenResultIsPostedViaTheBot(t *testing.T) {
	tests := []struct {
		name         string
		feedback     bool
		keyboard     bool
		chat         func(w inlineWorld) telegramtest.Chat
		botGetsIt    bool // the message itself reaches the bot
		wantChosen   bool
		wantInlineID bool
	}{
		{"keyboard, feedback, group with the bot", true, true, func(w inlineWorld) telegramtest.Chat { return w.group }, true, true, true},
		{"no keyboard, feedback", true, false, func(w inlineWorld) telegramtest.Chat { return w.botless }, false, true, false},
		{"keyboard, no feedback", false, true, func(w inlineWorld) telegramtest.Chat { return w.duo }, false, false, false},
		{"the user's chat with the bot", true, true, func(w inlineWorld) telegramtest.Chat { return w.sender }, true, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := telegramtest.WithInlineMode()
			if tt.feedback {
				opt = telegramtest.WithInlineFeedback()
			}
			w := newInlineWorld(t, opt)
			chat := tt.chat(w)
			var pairs []string
			if tt.keyboard {
				pairs = []string{"Join", "join:1"}
			}
			im := w.chosen(t, chat.ID, pairs...)
			assert.Equal(t, chat.ID, im.ChatID)
			assert.Len(t, im.ID, 32, "an InputBotInlineMessageID64 in base64url")

			m, ok := w.srv.Message(chat.ID, im.MessageID)
			require.True(t, ok)
			require.NotNil(t, m.From)
			assert.Equal(t, w.alice.ID, m.From.ID, "the user posts it")
			require.NotNil(t, m.ViaBot)
			assert.Equal(t, w.srv.Bot().ID, m.ViaBot.ID)
			assert.False(t, m.FromBot)
			assert.Equal(t, "Table open", m.Text)
			require.Len(t, m.Entities, 1)
			assert.Equal(t, "bold", m.Entities[0].Type)
			assert.Equal(t, im.ID, m.InlineMessageID)
			assert.Equal(t, tt.keyboard, m.ReplyMarkup != nil)
			same, ok := w.srv.InlineMessage(im.ID)
			require.True(t, ok)
			assert.Equal(t, m.MessageID, same.MessageID)

			updates, err := w.api.GetUpdates(tgbotapi.UpdateConfig{})
			require.NoError(t, err)
			var chosen *tgbotapi.ChosenInlineResult
			var posted *tgbotapi.Message
			for _, u := range updates {
				if u.ChosenInlineResult != nil {
					chosen = u.ChosenInlineResult
				}
				if u.Message != nil {
					posted = u.Message
				}
			}
			assert.Equal(t, tt.botGetsIt, posted != nil)
			if posted != nil {
				require.NotNil(t, posted.ViaBot)
				assert.Equal(t, w.srv.Bot().ID, posted.ViaBot.ID)
			}
			require.Equal(t, tt.wantChosen, chosen != nil)
			if chosen != nil {
				assert.Equal(t, "t1", chosen.ResultID)
				assert.Equal(t, "table", chosen.Query)
				assert.Equal(t, w.alice.ID, chosen.From.ID)
				if tt.wantInlineID {
					assert.Equal(t, im.ID, chosen.InlineMessageID)
				} else {
					assert.Empty(t, chosen.InlineMessageID, "only a result with a keyboard names its message")
				}
			}
		})
	}
}

func TestChooseInlineResultRefusals(t *testing.T) {
	w := newInlineWorld(t, telegramtest.WithInlineMode())
	q, err := w.srv.SendInlineQuery(w.duo.ID, w.alice.ID, "q")
	require.NoError(t, err)
	_, err = w.srv.ChooseInlineResult(q.ID(), "t1")
	assert.True(t, errors.Is(err, telegramtest.ErrInvalid), "no answer yet: %v", err)
	require.NoError(t, w.answer(t, q.ID(), article("t1", "T", "x")))
	_, err = w.srv.ChooseInlineResult(q.ID(), "t2")
	assert.True(t, errors.Is(err, telegramtest.ErrInvalid), "no such result: %v", err)
	_, err = w.srv.ChooseInlineResult("404", "t1")
	assert.True(t, errors.Is(err, telegramtest.ErrInvalid), "no such query: %v", err)
	w.clock.Advance(time.Hour)
	_, err = w.srv.ChooseInlineResult(q.ID(), "t1")
	assert.NoError(t, err, "an answered result stays choosable after the answer's deadline")
}
