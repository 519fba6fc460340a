package main

// What a newcomer sees, on the path a self-hoster takes: `twentyone run`
// with a config file and an environment override, and the same table of
// checks against the playground's wiring (`twentyone playground` with the
// same config), so that the two cannot drift.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/config"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/playground"
	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
)

// The newcomer's users: Alice, an owner of the bot whose Telegram speaks
// English, and Bob, whose speaks Ukrainian. Their ids are fixed, for the
// config file names Alice.
const (
	newcomerAlice = 880000001
	newcomerBob   = 880000002
)

// newcomerYAML changes every default a newcomer meets; the environment
// (newcomerEnv) overrides one of them.
var newcomerYAML = fmt.Sprintf(`# what a self-hoster writes
owners: [%d]
table:
  stake: 25
  entry_limit: 800
  starting_chips: 700
  daily_bonus: 50
  language: ru
`, newcomerAlice)

// newcomerEnv overrides the file's daily bonus, as a variable wins over
// the file.
var newcomerEnv = []string{"TWENTYONE_TABLE_DAILY_BONUS=150"}

// What the config above makes of the defaults.
const (
	newcomerChips = 700
	newcomerBonus = 150
	newcomerStake = 25
	newcomerEntry = 800
	newcomerLang  = i18n.RU
	newcomerGrant = 500
)

// newcomerConfig writes the config file and returns its path and the
// config it loads to, with the environment override.
func newcomerConfig(t *testing.T) (string, *config.Config) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	require.NoError(t, os.WriteFile(path, []byte(newcomerYAML), 0o600))
	cfg, err := config.Load(path, true, newcomerEnv)
	require.NoError(t, err)
	require.EqualValues(t, newcomerBonus, cfg.Table.DailyBonus, "the variable wins over the file")
	require.EqualValues(t, newcomerStake, cfg.Table.Settings.Game.Stake)
	return path, cfg
}

// newcomer is a group that has never seen the bot, on srv, whose bot runs
// on the newcomer's config.
type newcomer struct {
	t          *testing.T
	srv        *telegramtest.Server
	cfg        *config.Config
	group      telegramtest.Chat
	alice, bob telegramtest.User
}

func newNewcomer(t *testing.T, srv *telegramtest.Server, cfg *config.Config) *newcomer {
	t.Helper()
	n := &newcomer{t: t, srv: srv, cfg: cfg}
	n.alice = srv.AddUser(telegramtest.User{ID: newcomerAlice, FirstName: "Alice", LanguageCode: "en"})
	n.bob = srv.AddUser(telegramtest.User{ID: newcomerBob, FirstName: "Bob", LanguageCode: "uk"})
	var err error
	n.group, err = srv.AddChat(telegramtest.ChatSpec{Title: "Newcomers", Creator: n.alice.ID, Members: []int64{n.bob.ID},
		BotStatus: telegramtest.StatusLeft})
	require.NoError(t, err)
	return n
}

// post sends text to the group as u.
func (n *newcomer) post(u telegramtest.User, text string, replyTo int) telegramtest.ChatMessage {
	n.t.Helper()
	sent, err := n.srv.Post(telegramtest.Post{ChatID: n.group.ID, From: u.ID, Text: text, ReplyTo: replyTo})
	require.NoError(n.t, err)
	return sent
}

// say sends text to the group as u and returns the bot's reply to it.
func (n *newcomer) say(u telegramtest.User, text string, replyTo int) telegramtest.ChatMessage {
	n.t.Helper()
	return n.replyTo(n.post(u, text, replyTo))
}

// replyTo waits for the bot's reply to sent.
func (n *newcomer) replyTo(sent telegramtest.ChatMessage) telegramtest.ChatMessage {
	n.t.Helper()
	return n.botSays(func(m telegramtest.ChatMessage) bool {
		return m.ReplyToMessage != nil && m.ReplyToMessage.MessageID == sent.MessageID
	})
}

// botSays waits for the bot's message that match accepts.
func (n *newcomer) botSays(match func(telegramtest.ChatMessage) bool) telegramtest.ChatMessage {
	n.t.Helper()
	m, err := n.srv.WaitForBotMessage(waitCtx(n.t), n.group.ID, match)
	require.NoError(n.t, err)
	return m
}

// withButton waits for the bot's newest message with a button of action a.
func (n *newcomer) withButton(a callback.Action) telegramtest.ChatMessage {
	n.t.Helper()
	return n.botSays(func(m telegramtest.ChatMessage) bool {
		_, ok := button(m, a)
		return ok
	})
}

// press presses m's button of action a as u and returns the answer.
func (n *newcomer) press(u telegramtest.User, m telegramtest.ChatMessage, a callback.Action) telegramtest.CallbackAnswer {
	n.t.Helper()
	data, ok := button(m, a)
	require.True(n.t, ok, "no %s button on %q", a, m.Text)
	cb, err := n.srv.Press(telegramtest.Press{ChatID: n.group.ID, From: u.ID, MessageID: m.MessageID, Data: data})
	require.NoError(n.t, err)
	answer, err := cb.Wait(waitCtx(n.t))
	require.NoError(n.t, err)
	return answer
}

// checkNewcomer runs the table of what a newcomer sees: each step builds
// on the one before, in the order a group meets the bot. It returns the
// group's id.
func checkNewcomer(t *testing.T, srv *telegramtest.Server, cfg *config.Config) int64 {
	n := newNewcomer(t, srv, cfg)
	chips := func(l i18n.Lang, v int64) string { return i18n.Chips(l, v) }
	ru, uk := newcomerLang, i18n.UK
	var bobsBonus telegramtest.ChatMessage
	steps := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"the menus are registered in every language", func(t *testing.T) {
			require.NoError(t, srv.WaitFor(waitCtx(t), func(*telegramtest.View) bool {
				return len(srv.Commands(telegramtest.CommandScope{}, "uk")) > 0 && len(srv.Commands(telegramtest.CommandScope{}, "ru")) > 0
			}))
			byDefault := srv.Commands(telegramtest.CommandScope{}, "")
			require.NotEmpty(t, byDefault)
			for _, l := range []i18n.Lang{i18n.EN, i18n.RU, i18n.UK} {
				code := string(l)
				if l == i18n.EN {
					code = "" // English is the menu of every language without its own
				}
				menu := srv.Commands(telegramtest.CommandScope{}, code)
				require.Len(t, menu, len(byDefault), "%s: the same commands", l)
				assert.Equal(t, i18n.T(l, i18n.DescNewGame), menu[0].Description, "%s: /%s", l, menu[0].Command)
			}
		}},
		{"the welcome names the configured chips, in the configured language", func(t *testing.T) {
			require.NoError(t, srv.AddBot(n.group.ID, n.alice.ID))
			m := n.botSays(func(m telegramtest.ChatMessage) bool { return strings.HasPrefix(m.Text, "🃏") })
			assert.Equal(t, i18n.T(ru, i18n.Welcome, chips(ru, newcomerChips)), m.Text)
		}},
		{"a broke player's alert names the configured bonus, in their language", func(t *testing.T) {
			n.post(n.alice, "/newgame", 0)
			lobby := n.withButton(callback.Join)
			answer := n.press(n.bob, lobby, callback.Join)
			assert.True(t, answer.ShowAlert, "an alert, not a toast")
			assert.Equal(t, i18n.T(uk, i18n.PopNeedChips, chips(uk, newcomerEntry), chips(uk, newcomerChips), chips(uk, newcomerBonus)), answer.Text)
		}},
		{"/bonus grants the configured bonus", func(t *testing.T) {
			bobsBonus = n.post(n.bob, "/bonus", 0)
			assert.Equal(t, i18n.T(ru, i18n.BonusGranted, "Bob", chips(ru, newcomerBonus), chips(ru, newcomerChips+newcomerBonus)), n.replyTo(bobsBonus).Text)
			answer := n.press(n.bob, n.withButton(callback.Join), callback.Join)
			assert.Equal(t, i18n.T(uk, i18n.PopJoined), answer.Text, "seated once the bonus is in")
		}},
		{"/settings shows the configured defaults", func(t *testing.T) {
			n.post(n.alice, "/settings", 0)
			panel := n.withButton(callback.SettingOpen)
			want := render.Settings(game.ChatSettings{Game: cfg.Table.Game(), Language: string(ru)})
			var labels []string
			for _, row := range want.Keyboard {
				for _, b := range row {
					labels = append(labels, b.Text)
				}
			}
			assert.Equal(t, labels, panel.Labels())
			assert.Contains(t, strings.Join(panel.Labels(), " "), i18n.Number(newcomerStake))
			assert.Contains(t, strings.Join(panel.Labels(), " "), i18n.Number(newcomerEntry))
		}},
		{"the configured owner may grant, nobody else", func(t *testing.T) {
			m := n.say(n.bob, fmt.Sprintf("/grant %d", newcomerGrant), bobsBonus.MessageID)
			assert.Equal(t, i18n.T(ru, i18n.GrantOwnerOnly), m.Text)
			m = n.say(n.alice, fmt.Sprintf("/grant %d", newcomerGrant), bobsBonus.MessageID)
			assert.Contains(t, m.Text, chips(ru, newcomerGrant))
			assert.Contains(t, m.Text, chips(ru, newcomerChips+newcomerBonus+newcomerGrant), "Bob's balance")
		}},
	}
	for _, s := range steps {
		if !t.Run(s.name, func(t *testing.T) { n.t = t; s.run(t) }) {
			t.FailNow() // each step builds on the one before
		}
	}
	return n.group.ID
}

// newcomerGranted is what the steps grant in the group: two starting
// chips, Bob's bonus and the owner's grant.
const newcomerGranted = 2*newcomerChips + newcomerBonus + newcomerGrant

// TestRunAsShipped: `twentyone run -config config.yaml`, with a variable
// over the file, shows a newcomer what the config says; its admin server
// answers; SIGTERM stops it within 10 s, the database intact.
func TestRunAsShipped(t *testing.T) {
	t.Parallel()
	file, cfg := newcomerConfig(t)
	srv := telegramtest.StartTest(t)
	db := filepath.Join(t.TempDir(), "twentyone.db")
	p := startBinary(t, append(botEnv(srv, db), newcomerEnv...), "run", "-config", file)
	admin := p.waitReady()

	checkNewcomer(t, srv, cfg)

	for _, path := range []string{"/healthz", "/readyz", "/metrics"} {
		code, _ := httpGet(t, admin+path)
		assert.Equal(t, 200, code, path)
	}
	m := scrapeURL(t, admin+"/metrics")
	assert.Equal(t, 1.0, m.value("twentyone_open_tables", nil), "the newcomers' table")
	assert.Zero(t, m.value("twentyone_updates_failed_total", nil))

	start := time.Now()
	p.signal(syscall.SIGTERM)
	require.Equal(t, exitOK, p.waitExit(stopLimit))
	t.Logf("stopped in %s", time.Since(start).Round(time.Millisecond))
	audits := auditDatabase(t, db)
	require.Len(t, audits, 1, "one chat")
	assert.EqualValues(t, newcomerGranted, audits[0].Granted)
}

// TestPlaygroundAsConfigured: the playground's wiring, given the same
// config as `twentyone playground -config` gives it, shows a newcomer the
// same.
func TestPlaygroundAsConfigured(t *testing.T) {
	t.Parallel()
	_, cfg := newcomerConfig(t)
	pg, err := playground.Start(context.Background(), playground.Options{Addr: "127.0.0.1:0", Config: cfg, NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		assert.NoError(t, pg.Close(ctx))
	})
	group := checkNewcomer(t, pg.Server(), cfg)
	audit, err := pg.Store().Audit(context.Background(), group)
	require.NoError(t, err)
	assert.True(t, audit.OK, "%v", audit.Problems)
	assert.EqualValues(t, newcomerGranted, audit.Granted)
}
