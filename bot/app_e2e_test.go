package bot_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
	"github.com/twentyone-bot/twentyone/bot/webapp/tableref"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// The Mini App of the tests, as BotFather's /newapp would register it.
const (
	appName  = "table"
	appPage  = "https://app.example/twentyone/"
	appLabel = "🃏 Open the table"
)

// withApp gives the bot the Mini App (bot.Config.AppName, AppURL: page,
// "" for none) and registers it with our Bot API server.
func withApp(page string) func(*harnessOptions) {
	return func(o *harnessOptions) { o.appName, o.appURL = appName, page }
}

// registerApp registers the app with our Bot API server, as its owner
// does with BotFather's /newapp.
func (h *harness) registerApp() {
	h.t.Helper()
	require.NoError(h.t, h.srv.RegisterApp(appName, appPage))
}

// refs is the key the app's links are made with: the store's.
func (h *harness) refs() tableref.Key {
	h.t.Helper()
	raw, err := h.store.AppKey(h.ctx())
	require.NoError(h.t, err)
	k, err := tableref.KeyFrom(raw)
	require.NoError(h.t, err)
	return k
}

// appButton returns the message's app button, if it shows one.
func appButton(m telegramtest.ChatMessage) (telegramtest.InlineKeyboardButton, bool) {
	for _, b := range m.Buttons() {
		if b.Text == appLabel {
			return b, true
		}
	}
	return telegramtest.InlineKeyboardButton{}, false
}

// hasApp: the message shows the app button.
func hasApp(m telegramtest.ChatMessage) bool { _, ok := appButton(m); return ok }

// noApp: the message shows no app button, nor any other link.
func noApp(m telegramtest.ChatMessage) bool {
	for _, b := range m.Buttons() {
		if b.URL != "" || b.WebApp != nil {
			return false
		}
	}
	return true
}

// openedAt opens the app as name from the button of message id in chat,
// and returns the table its launch names: from initData's start_param,
// checked as the app's server checks it (the bot's token, then the
// store's key).
func (h *harness) openedAt(chat int64, id int, name string) storage.TableKey {
	h.t.Helper()
	l, err := h.srv.OpenApp(telegramtest.Press{ChatID: chat, From: h.user(name).ID, MessageID: id, Label: appLabel})
	require.NoError(h.t, err)
	d, err := initdata.NewSecret(h.srv.Token()).Validate(l.InitData, time.Now(), time.Hour)
	require.NoError(h.t, err, "initData signed with the bot's token")
	assert.Equal(h.t, h.user(name).ID, d.User.ID)
	key, err := h.refs().Parse(d.StartParam)
	require.NoError(h.t, err, "start_param is a reference of the store's key")
	return key
}

// TestAppButtonOpensTheTable: with a Mini App, a group's table message
// shows a URL button to the app's direct link, in the lobby and in a game,
// which opens the app with a start_param naming that table (a forum
// topic's too); a closed table shows none.
func TestAppButtonOpensTheTable(t *testing.T) {
	h := newHarness(t, withApp(appPage))
	h.registerApp()
	h.decks("Th Ah")
	h.lobby("Bob")
	m := h.tableMessage(hasApp)
	b, _ := appButton(m)
	assert.Nil(t, b.WebApp, "no web_app button in a group: Telegram refuses one there")
	assert.Equal(t, "https://t.me/telegramtest_bot/table?startapp="+h.refs().Ref(h.key()), b.URL)
	assert.Equal(t, appLabel, m.Labels()[len(m.Labels())-1], "at the bottom")
	assert.Equal(t, h.key(), h.openedAt(h.group.ID, m.MessageID, "Carol"), "a member who sits nowhere opens it too")

	h.startGame("Alice")
	h.pressData("Bob", func(d callback.Data) bool { return d.Action == callback.Bet })
	m = h.tableMessage(func(m telegramtest.ChatMessage) bool {
		v := h.view()
		return v.Table.Phase() == game.Drawing && hasApp(m)
	})
	assert.Equal(t, h.key(), h.openedAt(h.group.ID, m.MessageID, "Bob"), "in a game")

	h.command("Alice", "cancel")
	m = h.tableMessage(func(m telegramtest.ChatMessage) bool {
		v := h.view()
		return v.Table.Phase() == game.Closed && strings.Contains(m.Text, "table closed")
	})
	assert.True(t, noApp(m), "a closed table has no app to open: %v", m.Labels())
	_, err := h.srv.OpenApp(telegramtest.Press{ChatID: h.group.ID, From: h.user("Bob").ID, MessageID: m.MessageID, Label: appLabel})
	assert.ErrorIs(t, err, telegramtest.ErrButtonNotFound)

	t.Run("a forum topic", func(t *testing.T) {
		h := newHarness(t, withApp(appPage), func(o *harnessOptions) {
			o.chat = func(s *telegramtest.Server, users ...telegramtest.User) telegramtest.Chat {
				return s.NewForum("Casino", users...)
			}
		})
		h.registerApp()
		topic, err := h.srv.CreateTopic(h.group.ID, h.user("Alice").ID, "Table A")
		require.NoError(t, err)
		_, err = h.srv.Post(telegramtest.Post{ChatID: h.group.ID, From: h.user("Alice").ID, ThreadID: topic, Text: "/newgame"})
		require.NoError(t, err)
		key := storage.TableKey{Chat: h.group.ID, Thread: int64(topic)}
		m := h.tableAt(key, hasApp)
		assert.Equal(t, key, h.openedAt(h.group.ID, m.MessageID, "Bob"), "the topic's table, not the chat's")
	})
}

// TestAppButtonOnAnInlineTable: an inline table opened shows the app's
// URL button, which opens the app at that table; the message no press
// opened yet shows only its opening.
func TestAppButtonOnAnInlineTable(t *testing.T) {
	h := newHarness(t, inlineMode, withApp(appPage))
	h.registerApp()
	club := h.withoutBot("Book club", "Alice", "Bob", "Carol")
	it := h.postInline(club, "Alice")
	m, ok := h.srv.Message(club.ID, it.im.MessageID)
	require.True(t, ok)
	assert.True(t, noApp(m), "no table yet: %v", m.Labels())
	h.pressOnInline(it, "Alice", is(callback.InlineOpen))
	m = h.shows(it, hasApp)
	b, _ := appButton(m)
	assert.Nil(t, b.WebApp, "no web_app button on an inline message")
	assert.Equal(t, it.key, h.openedAt(club.ID, m.MessageID, "Carol"))
}

// TestAppButtonInPrivate: a solo table, in the bot's private chat, shows
// a web_app button to the app's page with the table's reference in its
// query (a web_app button's initData has no start_param: the page sends
// the reference itself); without the page's URL it shows none (a group's
// table still would: TestAppLink in bot/table).
func TestAppButtonInPrivate(t *testing.T) {
	h := newHarness(t, inPrivate, withApp(appPage))
	h.command("Alice", "newgame")
	m := h.tableMessage(hasApp)
	b, _ := appButton(m)
	require.NotNil(t, b.WebApp, "a web_app button")
	assert.Empty(t, b.URL)
	l, err := h.srv.OpenApp(telegramtest.Press{ChatID: h.group.ID, From: h.user("Alice").ID, MessageID: m.MessageID, Label: appLabel})
	require.NoError(t, err)
	page, err := url.Parse(l.URL)
	require.NoError(t, err)
	assert.Equal(t, "https://app.example/twentyone/", page.Scheme+"://"+page.Host+page.Path, "the app's page")
	key, err := h.refs().Parse(page.Query().Get("startapp"))
	require.NoError(t, err, "the page's startapp is a reference of the store's key")
	assert.Equal(t, h.key(), key)
	assert.Empty(t, l.Data.StartParam, "Telegram gives a web_app button's launch none")
	assert.NotEmpty(t, l.Data.QueryID)

	t.Run("no page URL", func(t *testing.T) {
		h := newHarness(t, inPrivate, withApp(""))
		h.command("Alice", "newgame")
		m := h.tableMessage(contains("Alice"))
		assert.True(t, noApp(m), "%v", m.Labels())
	})
}

// TestNoAppNoButton: without a Mini App, no table message shows a link.
func TestNoAppNoButton(t *testing.T) {
	h := newHarness(t)
	h.lobby("Bob")
	m := h.tableMessage(contains("Bob"))
	assert.True(t, noApp(m), "%v", m.Labels())
}
