package bot_test

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// bobWins plays a game of Alice (banker) against Bob, who draws 21 on his
// bet of 10. It returns the deck commitment the table showed during it.
func (h *harness) bobWins() string {
	h.t.Helper()
	h.lobby("Bob")
	return h.wins("Bob")
}

// wins plays the next game of the lobby, Alice starting it, and player (the
// one who is to bet) wins it at once with 21; it returns the commitment of
// the deck as the table showed it: its first sixteen hex digits and "…".
func (h *harness) wins(player string) string {
	h.t.Helper()
	h.decks("Th Ah")
	h.startGame("Alice")
	during := h.tableMessage(contains("Deck sha256"))
	h.bet(player, 10)
	h.hit(player)
	h.tableMessage(contains("Game over"))
	assert.NotRegexp(h.t, wholeHashRE, during.Text, "the whole hash takes two lines on a phone: /verify shows it")
	shown := regexp.MustCompile(`[0-9a-f]{16}…`).FindString(during.Text)
	require.NotEmpty(h.t, shown, "the table shows the deck's commitment: %q", during.Text)
	return shown
}

// wholeHashRE matches a whole SHA-256 in hex.
var wholeHashRE = regexp.MustCompile(`[0-9a-f]{64}`)

// hashShown returns the whole hash in text that starts with the digits of
// shown, the short form a table showed, and whether there is one.
func hashShown(text, shown string) (string, bool) {
	for _, h := range wholeHashRE.FindAllString(text, -1) {
		if strings.HasPrefix(h, strings.TrimSuffix(shown, "…")) {
			return h, true
		}
	}
	return "", false
}

func TestTopStatsHistory(t *testing.T) {
	h := newHarness(t)
	h.bobWins()

	h.command("Carol", "top")
	top := h.botSays("Top players")
	lines := strings.Split(top.Text, "\n")
	require.Len(t, lines, 3, "Bob and Alice, who played (Carol has not)")
	assert.Contains(t, lines[1], "1. Bob — 1\u202f010\u00a0chips · net +10 · games: 1")
	assert.Contains(t, lines[2], "2. Alice — 990\u00a0chips · net −10 · games: 1")

	// Reply-less /stats: the sender's own.
	h.command("Bob", "stats")
	st := h.botSays("📊 Bob")
	assert.Contains(t, st.Text, "Duels: 1 won, 0 lost (100%)")
	assert.Contains(t, st.Text, "Balance: 1\u202f010\u00a0chips")

	// /stats in reply to Alice: hers.
	aliceMsg := h.command("Alice", "balance")
	h.reply("Bob", aliceMsg.MessageID, "/stats")
	st = h.botSays("📊 Alice")
	assert.Contains(t, st.Text, "Games: 1 (as banker: 1)")
	assert.Contains(t, st.Text, "Net result: −10")

	h.command("Dave", "stats")
	h.botSays("Dave hasn't played here yet.")

	h.command("Bob", "history")
	hist := h.botSays("Bob, your last chip movements")
	lines = strings.Split(hist.Text, "\n")
	require.Len(t, lines, 3, "the duel's bet and payout make one line")
	assert.Contains(t, lines[1], "+10 · won, game 1 → 1\u202f010", "what the duel won, as its toast said")
	assert.Contains(t, lines[2], "+1\u202f000 · starting chips → 1\u202f000")
}

// TestKickDuringAGame: a kick takes nothing at stake: the player in their
// duel finishes it, a player waiting for theirs sits it out, and both
// stand up when the game is over.
func TestKickDuringAGame(t *testing.T) {
	h := newHarness(t)
	h.betting("Kh Tc 9d Ts")
	h.bet("Bob", 10)
	bobMsg := h.command("Bob", "balance")
	carolMsg := h.command("Carol", "balance")

	h.reply("Alice", bobMsg.MessageID, "/kick")
	h.botSays("Bob will be stood up at the next safe moment.")
	v := h.view()
	assert.Equal(t, game.Drawing, v.Table.Phase(), "Bob's duel goes on")
	_, seated := v.Table.SeatOf(game.UserID(h.user("Bob").ID))
	assert.True(t, seated)
	h.reply("Alice", carolMsg.MessageID, "/kick")
	h.botSays("Carol will be stood up at the next safe moment.")
	h.reply("Alice", carolMsg.MessageID, "/kick")
	h.botSays("Carol is not at the table.")

	// Bob stands at 4; the banker draws 9♦ 10♠ = 19 and wins his bet.
	h.stand("Bob")
	h.tableMessage(contains("Game over"))
	v = h.view()
	assert.Equal(t, game.Lobby, v.Table.Phase())
	for _, name := range []string{"Bob", "Carol"} {
		_, seated := v.Table.SeatOf(game.UserID(h.user(name).ID))
		assert.False(t, seated, "%s stood up after the game", name)
	}
	assert.EqualValues(t, 990, h.balance("Bob"), "Bob's duel was played out")
	assert.EqualValues(t, 1000, h.balance("Carol"), "Carol sat out: nothing at stake")
	h.audit()
}

// TestAuditFindsTampering: a database changed behind the bot's back (a
// ledger entry removed) makes /audit say, in the chat's language, that the
// chips do not add up.
func TestAuditFindsTampering(t *testing.T) {
	h := newHarness(t)
	h.bobWins()
	h.stop()
	h.stop = nil
	db, err := bolt.Open(h.dbPath, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		k, _ := tx.Bucket([]byte("log")).Cursor().First()
		require.NotNil(t, k)
		return tx.Bucket([]byte("log")).Delete(k)
	}))
	require.NoError(t, db.Close())
	h.start()

	h.command("Alice", "audit")
	h.botSays("❌ The chips do not add up: balances 2\u202f000 + on tables 0, granted 2\u202f000, in the ledger 1\u202f000; problems found: ")
	h.command("Alice", "lang", "ru")
	h.botSays("Язык: русский.")
	h.command("Alice", "audit")
	h.botSays("❌ Фишки не сходятся")
}

func TestAuditAndKick(t *testing.T) {
	h := newHarness(t)
	h.command("Bob", "audit")
	h.botSays("Only chat admins can do that.")
	h.command("Alice", "audit")
	h.botSays("✅ The chips add up")

	h.lobby("Bob", "Carol")
	carolMsg := h.command("Carol", "balance")
	h.reply("Bob", carolMsg.MessageID, "/kick")
	h.botSays("Only chat admins can do that.")
	h.command("Alice", "kick")
	h.botSays("Reply to a player's message with /kick")
	h.reply("Alice", carolMsg.MessageID, "/kick")
	h.botSays("Carol will be stood up")
	v := h.view()
	_, seated := v.Table.SeatOf(game.UserID(h.user("Carol").ID))
	assert.False(t, seated, "in the lobby a kick stands the player up at once")
	h.reply("Alice", carolMsg.MessageID, "/kick")
	h.botSays("Carol is not at the table.")
}

func TestGrantIsForOwnersOnly(t *testing.T) {
	h := newHarness(t, func(o *harnessOptions) { o.owners = []string{"Dave"} })
	bobMsg := h.command("Bob", "balance")
	h.botSays("Bob, your balance")
	h.reply("Alice", bobMsg.MessageID, "/grant 500") // the group's creator, but no owner
	h.botSays("Only the bot's owners can grant chips.")
	assert.EqualValues(t, 1000, h.balance("Bob"))
	h.reply("Dave", bobMsg.MessageID, "/grant -5")
	h.botSays("The amount must be a whole number")
	// The most storage grants at once.
	h.reply("Dave", bobMsg.MessageID, "/grant "+strconv.FormatInt(storage.MaxGrant+1, 10))
	h.botSays(i18n.T(i18n.EN, i18n.GrantBad, i18n.Number(storage.MaxGrant)))
	h.reply("Dave", bobMsg.MessageID, "/grant 500")
	h.botSays("Bob got 500\u00a0chips. Balance: 1\u202f500\u00a0chips.")
	assert.EqualValues(t, 1500, h.balance("Bob"))
	entries, err := h.store.History(h.ctx(), h.group.ID, game.UserID(h.user("Bob").ID), 1)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Equal(t, storage.LedgerOwner, entries[0].Kind)
	h.audit()
}

// TestFairnessVerify checks a game's deck the way docs/FAIRNESS.md tells
// players to: the revealed preimage hashes (with sha256sum) to the hash the
// table showed before the first card, and changing one card breaks it.
// The decks of the games before the cut (sha256-salt-v0): /verify still
// shows theirs so.
func TestFairnessVerify(t *testing.T) {
	h := newHarness(t, saltDecks)
	short := h.bobWins()

	h.command("Carol", "verify", "99")
	h.botSays("This table has had no game 99: its latest is game 1.")
	h.command("Carol", "verify")
	msg := h.botSays("Game 1")
	// The hash /verify shows starts as the table's did.
	shown, ok := hashShown(msg.Text, short)
	require.True(t, ok, "/verify shows the whole hash of %s: %q", short, msg.Text)
	m := regexp.MustCompile(`(?m)^([2-9TJQKA][shdc])+:[0-9a-f]{32}$`).FindString(msg.Text)
	require.NotEmpty(t, m, "the preimage is in the message: %q", msg.Text)
	sum := sha256.Sum256([]byte(m))
	assert.Equal(t, shown, hex.EncodeToString(sum[:]))
	require.NoError(t, game.VerifyDeck(m, shown))
	// Its record, the line `twentyone verify` and docs/FAIRNESS.md's
	// script take, on a line of its own.
	line := regexp.MustCompile(`(?m)^sha256-salt-v0 .*$`).FindString(msg.Text)
	assert.Equal(t, "sha256-salt-v0 commitment="+shown+" preimage="+m, line)
	rec, err := game.ParseRecord(line)
	require.NoError(t, err)
	_, err = rec.Verify()
	require.NoError(t, err)

	if _, err := exec.LookPath("sha256sum"); err == nil {
		out, err := exec.Command("sh", "-c", `printf '%s' "$1" | sha256sum`, "sh", m).Output()
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(string(out), shown), "the documented command prints the commitment")
	}

	// Change one character of the salt (still a well-formed deck): the
	// documented hash no longer matches.
	last := m[len(m)-1:]
	other := "0"
	if last == other {
		other = "1"
	}
	changed := m[:len(m)-1] + other
	assert.ErrorIs(t, game.VerifyDeck(changed, shown), game.ErrCommitmentMismatch)
	// Swap the first two cards (still a whole deck): no match either.
	forged := m[2:4] + m[0:2] + m[4:]
	require.NotEqual(t, m, forged)
	assert.ErrorIs(t, game.VerifyDeck(forged, shown), game.ErrCommitmentMismatch)

	// The button on the finished game shows the same. Forged buttons
	// naming games that revealed no deck are refused, and do not hold the
	// real one up.
	v := h.view()
	tm, ok := h.srv.Message(h.group.ID, v.MessageID)
	require.True(t, ok)
	for _, forged := range []string{"v:2", "v:99", "v:123456"} {
		a := h.pressRaw("Dave", tm.MessageID, forged)
		assert.Equal(t, "This button doesn't work here.", a.Text, forged)
	}
	b, ok := tm.Button("🔐 Check the deck")
	require.True(t, ok)
	a := h.pressRaw("Dave", tm.MessageID, b.CallbackData)
	assert.Empty(t, a.Text)
	// checks counts the deck checks of game 1 each member sees, the
	// group's and their own.
	checks := func() map[string]int {
		n := map[string]int{}
		for name, u := range h.users {
			for _, m := range h.srv.MessagesSeenBy(h.group.ID, u.ID) {
				if m.FromBot && strings.Contains(m.Text, shown) && strings.Contains(m.Text, "Game 1") {
					n[name]++
				}
			}
		}
		return n
	}
	want := map[string]int{"Alice": 1, "Bob": 1, "Carol": 1, "Dave": 2, "Eve": 1}
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool { return maps.Equal(checks(), want) }),
		"/verify's to the group, the button's to Dave alone")

	// Pressed again soon after by the same member, it points to the check
	// instead of sending it again; another member gets theirs; after the
	// cooldown it sends it again.
	for _, p := range []struct{ who, says string }{
		{"Dave", "The deck check is in the chat, just above."},
		{"Carol", ""},
		{"Carol", "The deck check is in the chat, just above."},
		{"Dave", "The deck check is in the chat, just above."},
	} {
		a = h.pressRaw(p.who, tm.MessageID, b.CallbackData)
		assert.Equal(t, p.says, a.Text, p.who)
	}
	h.clock.Advance(2 * time.Minute)
	a = h.pressRaw("Dave", tm.MessageID, b.CallbackData)
	assert.Empty(t, a.Text)
	want["Carol"], want["Dave"] = 2, 3
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool { return maps.Equal(checks(), want) }),
		"one check per press that was due, to its presser")
	h.settle()
	assert.Equal(t, want, checks())
}

// TestPlayAgainLeavesSummary: a finished game stays in the chat as one
// compact record, and the next game gets a message of its own.
func TestPlayAgainLeavesSummary(t *testing.T) {
	h := newHarness(t)
	h.bobWins()
	first := h.view().MessageID
	h.pressData("Bob", action(callback.Start)) // Play again ▶
	h.tableMessage(contains("circle 1"))
	v := h.view()
	require.NotEqual(t, first, v.MessageID, "the second game has a message of its own")
	// The new message comes first, then the old one becomes the record.
	old := h.messageSays(first, "Twenty One — game 1")
	assert.Contains(t, old.Text, "Bob +10")
	assert.Equal(t, []string{"🔐 Check the deck"}, old.Labels(), "the record keeps only the deck check")
	assert.EqualValues(t, 2, v.Table.Game())
}

// TestRecordAfterRateLimit: when Telegram answers 429 to the edit that
// turns the finished game's message into its record, the edit is made
// again after retry_after: no old message is left with live-looking
// buttons.
func TestRecordAfterRateLimit(t *testing.T) {
	h := newHarness(t)
	h.bobWins()
	first := h.view().MessageID
	limited := h.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultTooManyRequests, Methods: []string{"editMessageText"}, Count: 1})
	h.pressData("Bob", action(callback.Start)) // Play again ▶
	h.tableMessage(contains("circle 1"))
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool { return limited.Fired() == 1 }))
	h.settle()
	h.clock.Advance(time.Second)                       // the 429's retry_after
	old := h.messageSays(first, "Twenty One — game 1") // the record, made after the 429
	assert.Equal(t, 1, limited.Fired())
	assert.Equal(t, []string{"🔐 Check the deck"}, old.Labels())
}

// TestRecordAfterCrash: a crash between Play again's new table message and
// the edit that turns the old message into the finished game's record.
// After the restart the old message becomes the record, and no message but
// the table's current one carries table buttons.
func TestRecordAfterCrash(t *testing.T) {
	h := newHarness(t)
	h.bobWins()
	first := h.view().MessageID
	failing := h.srv.InjectFault(telegramtest.Fault{Kind: telegramtest.FaultInternalError, Methods: []string{"editMessageText"}})
	h.pressData("Bob", action(callback.Start)) // Play again ▶
	m := h.tableMessage(contains("circle 1"))
	require.NotEqual(t, first, m.MessageID, "the new message is sent")
	require.NoError(t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool { return failing.Fired() > 0 }),
		"the old message's edit is tried")
	h.crash(failing.Remove)

	old := h.messageSays(first, "Twenty One — game 1")
	assert.Contains(t, old.Text, "Bob +10")
	assert.Equal(t, []string{"🔐 Check the deck"}, old.Labels(), "the record keeps only the deck check")
	cur := h.tableMessage(contains("circle 1"))
	assert.Equal(t, m.MessageID, cur.MessageID)
	for _, msg := range h.srv.Messages(h.group.ID) {
		if msg.MessageID == cur.MessageID {
			continue
		}
		for _, b := range msg.Buttons() {
			d, err := callback.Parse(b.CallbackData)
			assert.False(t, err == nil && d.Action.TableAction(), "message %d shows the table button %q", msg.MessageID, b.Text)
		}
	}
	assert.Eventually(t, func() bool {
		keys, err := h.store.Retiring(h.ctx())
		return err == nil && len(keys) == 0
	}, wait, 10*time.Millisecond, "the record is reported done: nothing is owed any more")
}

// TestForumTopics: a forum supergroup has one table per topic, each in its
// own topic, and chips per chat.
func TestForumTopics(t *testing.T) {
	h := newHarness(t, func(o *harnessOptions) {
		o.chat = func(s *telegramtest.Server, users ...telegramtest.User) telegramtest.Chat {
			return s.NewForum("Casino", users...)
		}
	})
	alice := h.user("Alice").ID
	topicA, err := h.srv.CreateTopic(h.group.ID, alice, "Table A")
	require.NoError(t, err)
	topicB, err := h.srv.CreateTopic(h.group.ID, alice, "Table B")
	require.NoError(t, err)
	h.decks("Th Ah")
	post := func(name string, topic int, text string) {
		_, err := h.srv.Post(telegramtest.Post{ChatID: h.group.ID, From: h.user(name).ID, ThreadID: topic, Text: text})
		require.NoError(t, err)
	}
	tableIn := func(topic int, cond func(telegramtest.ChatMessage) bool) telegramtest.ChatMessage {
		return h.tableAt(storage.TableKey{Chat: h.group.ID, Thread: int64(topic)}, cond)
	}
	press := func(name string, topic int, act callback.Action, amount int64) {
		var data string
		m := tableIn(topic, func(m telegramtest.ChatMessage) bool {
			for _, b := range m.Buttons() {
				if d, err := callback.Parse(b.CallbackData); err == nil && d.Action == act && (amount == 0 || d.Amount == amount) {
					data = b.CallbackData
					return true
				}
			}
			return false
		})
		h.pressRaw(name, m.MessageID, data)
		if act == callback.Start {
			h.cutAt(storage.TableKey{Chat: h.group.ID, Thread: int64(topic)}, nil)
		}
	}

	post("Alice", topicA, "/newgame")
	post("Carol", topicB, "/newgame")
	a := tableIn(topicA, func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Text, "Alice") })
	b := tableIn(topicB, func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Text, "Carol") })
	assert.NotEqual(t, a.MessageID, b.MessageID)
	assert.Equal(t, topicA, a.MessageThreadID, "table A is in its topic")
	assert.Equal(t, topicB, b.MessageThreadID, "table B is in its topic")

	// Bob plays at table A and wins 10.
	press("Bob", topicA, callback.Join, 0)
	press("Alice", topicA, callback.Start, 0)
	press("Bob", topicA, callback.Bet, 10)
	press("Bob", topicA, callback.Hit, 0)
	tableIn(topicA, func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Text, "Game over") })

	// His chips are the chat's: table B's lobby shows his new balance.
	press("Bob", topicB, callback.Join, 0)
	tableIn(topicB, func(m telegramtest.ChatMessage) bool { return strings.Contains(m.Text, "Bob — 1\u202f010") })
	vb, err := h.store.View(h.ctx(), storage.TableKey{Chat: h.group.ID, Thread: int64(topicB)})
	require.NoError(t, err)
	assert.Equal(t, 2, vb.Table.NumSeats())
	h.audit()

	// The language is the chat's: changed in topic A, both tables show it.
	post("Alice", topicA, "/lang ru")
	for _, topic := range []int{topicA, topicB} {
		tableIn(topic, func(m telegramtest.ChatMessage) bool {
			return strings.Contains(m.Text, "🃏 Очко — стол открыт")
		})
	}
}
