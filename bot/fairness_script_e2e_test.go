package bot_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
	"github.com/twentyone-bot/twentyone/game/house"
	"github.com/twentyone-bot/twentyone/storage"
)

// The check a player makes (issue 35, point 4): games played through the
// bot at a group's table, a solo table, an inline table and a table with
// the house seated, their decks cut by a tap, by /cut and words, by a
// reply to the table (an inline table's by a tap only), or not cut; each
// deck's record taken from /verify, checked by the script of
// docs/FAIRNESS.md and by `twentyone verify`, both of which must say OK,
// and then with one input changed, which both must refuse.

// derived orders the decks of the harness's cut by the rules
// (game.DeriveOrder), not by the harness's deck: records that verify.
func derived(o *harnessOptions) { o.derived = true }

// fairTable is a table the check plays at: its key, and how a user
// presses a button of its message.
type fairTable struct {
	key   storage.TableKey
	press func(name string, match func(callback.Data) bool) telegramtest.CallbackAnswer
}

// groupTable is the harness's chat's table (a group's, or a private
// chat's with inPrivate).
func (h *harness) groupTable() fairTable {
	return fairTable{key: h.key(), press: h.pressData}
}

// inlineFair is the table of an inline message.
func (h *harness) inlineFair(it inlineTable) fairTable {
	return fairTable{key: it.key, press: func(name string, match func(callback.Data) bool) telegramtest.CallbackAnswer {
		return h.pressOnInline(it, name, match)
	}}
}

// tableView returns the stored table at key.
func (h *harness) tableView(key storage.TableKey) storage.View {
	h.t.Helper()
	v, err := h.store.View(context.Background(), key)
	require.NoError(h.t, err)
	return v
}

// playCut plays the game the table is in to its end. Each deck that waits
// for its cut takes the next of cuts: "tap:N", the player asked taps
// button N; "", nobody cuts and the wait passes. With no cut left, the
// wait passes. The rest of
// the game is played by the clock: the turns time out, the house moves.
// "reply:WORDS", the player asked replies WORDS to the table's message;
// else the player asked sends /cut and those words. It returns the cut of
// each deck that waited, in turn ("" not cut).
func (h *harness) playCut(tb fairTable, cuts ...string) (applied []string) {
	h.t.Helper()
	for step := 0; ; step++ {
		require.Less(h.t, step, 400, "the game ends")
		v := h.tableView(tb.key)
		if !v.Table.Phase().InGame() {
			return applied
		}
		before := v.Table.Version()
		c, ok := v.Table.Cut()
		waits := ok && c.Waiting
		plan := ""
		if waits && len(cuts) > 0 {
			plan, cuts = cuts[0], cuts[1:]
		}
		if waits {
			applied = append(applied, plan)
		}
		switch {
		case plan != "":
			require.NotZero(h.t, c.Asked, "a player is asked to cut")
			name := h.called(c.Asked)
			if tap, isTap := strings.CutPrefix(plan, "tap:"); isTap {
				n := int(tap[0] - '0')
				a := tb.press(name, func(d callback.Data) bool { return d.Action == callback.Cut && d.Tap == n })
				assert.False(h.t, a.ShowAlert, "the tap is taken: %q", a.Text)
			} else if words, isReply := strings.CutPrefix(plan, "reply:"); isReply {
				applied[len(applied)-1] = words
				// The table's message as it shows the wait: a game may
				// have moved the table to a new message, and until the
				// bot has stored its id the store names the last game's,
				// which shows no button (a reply to it cuts nothing).
				m := h.tableAt(tb.key, func(m telegramtest.ChatMessage) bool {
					return slices.ContainsFunc(m.Buttons(), func(b telegramtest.InlineKeyboardButton) bool {
						d, err := callback.Parse(b.CallbackData)
						return err == nil && d.Action == callback.Cut && d.Version == before
					})
				})
				h.reply(name, m.MessageID, words)
			} else {
				h.command(name, "cut", plan)
			}
		case v.Table.Phase() == game.Betting && h.playerToMove(&v.Table):
			// A bet, so that the circle is played and draws cards.
			name := h.called(v.Table.Seats()[mustTurn(h.t, &v.Table)].User)
			tb.press(name, func(d callback.Data) bool { return d.Action == callback.Bet })
		default:
			h.passTo(v.Table.Deadline())
		}
		require.NoError(h.t, h.srv.WaitFor(h.ctx(), func(*telegramtest.View) bool {
			v := h.tableView(tb.key)
			return v.Table.Version() != before
		}), "the table moves on from version %d", before)
	}
}

// playerToMove reports whether a player who is not the house is to move.
func (h *harness) playerToMove(t *game.Table) bool {
	i, ok := t.Turn()
	return ok && t.Seats()[i].User != game.UserID(house.ID)
}

func mustTurn(t testing.TB, tb *game.Table) int {
	i, ok := tb.Turn()
	require.True(t, ok)
	return i
}

// passTo moves the clock to t, when the table's deadline passes (the
// house's moves come before it), and lets the bot act on it.
func (h *harness) passTo(t time.Time) {
	h.t.Helper()
	h.settle()
	if d := t.Sub(h.clock.Now()); d > 0 {
		h.clock.Advance(d)
	}
	h.settle()
}

// called returns the harness's name of the user id.
func (h *harness) called(id game.UserID) string {
	h.t.Helper()
	for n, u := range h.users {
		if game.UserID(u.ID) == id {
			return n
		}
	}
	h.t.Fatalf("no user %d", id)
	return ""
}

// cutRecords returns the records of ochko-cut-v1 a deck check's text
// holds, one a line.
func cutRecords(text string) []string {
	return regexp.MustCompile(`(?m)^`+game.SchemeCut+` [^\n]*$`).FindAllString(text, -1)
}

// storedRecords returns the records of the decks game gameNo of the table
// at key revealed, as the store keeps them.
func (h *harness) storedRecords(key storage.TableKey, gameNo uint64) (records []string, cutters []string) {
	h.t.Helper()
	revs, err := h.store.TableReveals(context.Background(), key, gameNo)
	require.NoError(h.t, err)
	for _, r := range revs {
		records = append(records, r.Record)
		cutters = append(cutters, r.CutByName)
	}
	return records, cutters
}

// TestFairnessScript plays games at each kind of table, a deck of each
// cut as its plan says, and checks every deck as a player would
// (deckChecker.game).
func TestFairnessScript(t *testing.T) {
	check := newDeckChecker(t)
	// games plays a game for each cut, each started by starter, and
	// checks its decks with the deck check verify(n) shows for game n.
	games := func(h *harness, tb fairTable, start func(), verify func(n uint64) string, plans ...string) {
		for _, plan := range plans {
			v := h.tableView(tb.key)
			n := v.Table.Game() + 1
			start()
			v = h.tableView(tb.key)
			require.Equal(t, n, v.Table.Game())
			cuts := h.playCut(tb, plan)
			check.game(h, tb.key, n, cuts, func() string { return verify(n) })
		}
	}
	words := "Carol's own words, ✂️ & <b>not markup</b>"

	t.Run("group", func(t *testing.T) {
		check.last = map[storage.TableKey]game.Link{} // each harness has chats of its own
		h := newHarness(t, derived)
		h.lobby("Bob", "Carol")
		games(h, h.groupTable(), func() { h.pressData("Alice", action(callback.Start)) }, func(n uint64) string {
			h.command("Dave", "verify", strconv.FormatUint(n, 10))
			return h.botSays(fmt.Sprintf("Game %d", n)).Text
		}, "tap:2", words, "", "reply:"+words+" (a reply)", "tap:1")
		// A restart retires the chain: the next deck takes link 1 of a
		// new one (deckChecker.game checks it).
		h.restart()
		games(h, h.groupTable(), func() { h.pressData("Alice", action(callback.Start)) }, func(n uint64) string {
			h.command("Dave", "verify", strconv.FormatUint(n, 10))
			return h.botSays(fmt.Sprintf("Game %d", n)).Text
		}, "tap:3")
		h.audit()
	})

	t.Run("solo", func(t *testing.T) {
		check.last = map[storage.TableKey]game.Link{} // each harness has chats of its own
		h := newHarness(t, inPrivate, derived)
		h.command("Alice", "newgame")
		h.tableMessage(contains("2. 🤖 House"))
		games(h, h.groupTable(), func() { h.pressData("Alice", action(callback.Start)) }, func(n uint64) string {
			h.command("Alice", "verify_"+strconv.FormatUint(n, 10))
			return h.botSays(fmt.Sprintf("Game %d", n)).Text
		}, "solo words", "tap:3", "")
		h.audit()
	})

	t.Run("inline", func(t *testing.T) {
		check.last = map[storage.TableKey]game.Link{} // each harness has chats of its own
		h := newHarness(t, inlineMode, derived)
		club := h.withoutBot("Book club", "Alice", "Bob", "Carol")
		it := h.postInline(club, "Alice")
		h.pressOnInline(it, "Alice", is(callback.InlineOpen))
		for _, n := range []string{"Bob", "Carol"} {
			h.pressOnInline(it, n, is(callback.Join))
		}
		tb := h.inlineFair(it)
		games(h, tb, func() { h.pressOnInline(it, "Alice", is(callback.Start)) }, func(n uint64) string {
			// The deck check of an inline table opens the private chat.
			link := h.pressOnInline(it, "Carol", is(callback.Verify))
			start, err := h.srv.OpenLink(h.user("Carol").ID, link.URL)
			require.NoError(t, err)
			return h.privately("Carol", start.MessageID, fmt.Sprintf("Game %d", n)).Text
		}, "tap:1", "", "tap:3") // an inline table's deck is cut by a tap only
	})

	t.Run("house seated", func(t *testing.T) {
		check.last = map[storage.TableKey]game.Link{} // each harness has chats of its own
		h := newHarness(t, derived)
		h.lobby("Bob")
		h.seatHouse("Alice")
		h.tableMessage(contains("🤖 House"))
		games(h, h.groupTable(), func() { h.pressData("Alice", action(callback.Start)) }, func(n uint64) string {
			h.command("Bob", "verify_"+strconv.FormatUint(n, 10))
			return h.botSays(fmt.Sprintf("Game %d", n)).Text
		}, "", words, "tap:2", "reply:"+words)
		h.audit()
	})
}

// deckChecker checks decks' records with the script of docs/FAIRNESS.md
// and with the twentyone binary.
type deckChecker struct {
	t              *testing.T
	python, script string
	binary         string
	// last is the link each table's last deck checked took.
	last map[storage.TableKey]game.Link
}

func newDeckChecker(t *testing.T) *deckChecker {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 is not installed: CI must run the check script of docs/FAIRNESS.md (.ci/run installs it)")
		}
		t.Skip("python3 is not installed: the check script of docs/FAIRNESS.md cannot run here (.ci/run installs it)")
	}
	doc, err := os.ReadFile(filepath.Join("..", "docs", "FAIRNESS.md"))
	require.NoError(t, err)
	_, rest, ok := strings.Cut(string(doc), "<!-- check_deck.py begins -->\n```python\n")
	require.True(t, ok, "the script's start marker")
	body, _, ok := strings.Cut(rest, "```\n<!-- check_deck.py ends -->")
	require.True(t, ok, "the script's end marker")
	dir := t.TempDir()
	script := filepath.Join(dir, "check_deck.py")
	require.NoError(t, os.WriteFile(script, []byte(body), 0o600))
	return &deckChecker{t: t, python: python, script: script, binary: twentyoneBinary(t), last: map[storage.TableKey]game.Link{}}
}

// twentyoneBinary builds cmd/twentyone into the test's temporary
// directory (the build cache keeps a second build short).
func twentyoneBinary(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "twentyone")
	out, err := exec.Command("go", "build", "-o", path, "../cmd/twentyone").CombinedOutput()
	require.NoError(t, err, "go build ../cmd/twentyone: %s", out)
	return path
}

// run runs a checker on record and returns its output and exit code.
func (c *deckChecker) run(name string, args ...string) (stdout, stderr string, code int) {
	c.t.Helper()
	cmd := exec.Command(name, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return out.String(), errOut.String(), exit.ExitCode()
	}
	require.NoError(c.t, err)
	return out.String(), errOut.String(), 0
}

// checkers are the two ways docs/FAIRNESS.md gives to check a record.
func (c *deckChecker) checkers(record string) map[string][]string {
	return map[string][]string{
		"check_deck.py":    {c.python, c.script, record},
		"twentyone verify": {c.binary, "verify", record},
	}
}

// game checks the decks game gameNo of the table at key revealed: one a
// deck that waited for its cut, cut as cuts says ("" not cut); the deck
// check (verify returns its text) shows each deck's record, the store's,
// in order, and its cutter; both checkers say OK to each, and print the
// commitment it holds; and both refuse each record with one input
// changed (the seed, the head, the link, the cut, the game, the circle,
// the deck, a card of the cards, a card dealt): exit 1, or 2 for cards
// that are no deck any more.
func (c *deckChecker) game(h *harness, key storage.TableKey, gameNo uint64, cuts []string, verify func() string) {
	t := c.t
	stored, cutters := h.storedRecords(key, gameNo)
	require.NotEmpty(t, stored)
	var got []string
	for _, line := range stored {
		rec, err := game.ParseRecord(line)
		require.NoError(t, err)
		got = append(got, string(rec.(*game.CutRecord).Cut))
	}
	require.Equal(t, cuts, got, "each deck is cut as it was: %q", stored)
	t.Logf("%v: game %d: %d decks, cut %q", key, gameNo, len(stored), cuts)
	text := verify()
	assert.Equal(t, stored, cutRecords(text), "the deck check shows every deck's record, as kept: %q", text)
	for i, line := range stored {
		rec, err := game.ParseRecord(line)
		require.NoError(t, err)
		cr := rec.(*game.CutRecord)
		require.NotEmpty(t, cr.Dealt, "a deck is revealed once dealt from")
		// The table's links in turn: the next of its chain, or the first
		// of a new one (a restart retires the chains).
		if prev, ok := c.last[key]; ok && prev.Head == cr.Head {
			assert.Equal(t, prev.Index+1, cr.Link, "the next link of the chain")
			assert.Equal(t, prev.Seed, cr.Seed.Hash(), "committed to by the seed revealed before")
		} else {
			assert.Equal(t, uint32(1), cr.Link, "a new chain starts at its first link")
		}
		c.last[key] = game.Link{Seed: cr.Seed, Index: cr.Link, Head: cr.Head}
		if len(cr.Cut) > 0 {
			assert.NotEmpty(t, cutters[i], "a cut deck names its cutter")
			assert.Contains(t, text, cutters[i])
			assert.Contains(t, text, string(cr.Cut), "the cut's text, as given")
		}
		for name, argv := range c.checkers(line) {
			out, errOut, code := c.run(argv[0], argv[1:]...)
			require.Equal(t, 0, code, "%s on %s: %s%s", name, line, out, errOut)
			assert.True(t, strings.HasSuffix(out, "OK\n"), "%s: %s", name, out)
			assert.Contains(t, out, cr.Seed.Hash().String(), "%s prints the commitment", name)
		}
		for field, changed := range recordChanges(line) {
			require.NotEqual(t, line, changed, field)
			for name, argv := range c.checkers(changed) {
				out, errOut, code := c.run(argv[0], argv[1:]...)
				if field == "cards" {
					assert.Contains(t, []int{1, 2}, code, "%s with its %s changed: %s", name, field, changed)
				} else {
					assert.Equal(t, 1, code, "%s with its %s changed: %s: %s%s", name, field, changed, out, errOut)
				}
				assert.NotEmpty(t, errOut, "%s with its %s changed says why", name, field)
				assert.NotContains(t, out, "OK", "%s with its %s changed", name, field)
			}
		}
	}
}

// recordChanges are the record with one input changed
// (gametest.RecordChanges) and a card of its cards changed: its last
// card's suit, to another (a card twice in a full deck, which is no
// record; another card in a deck reshuffled, which is another deck).
func recordChanges(line string) map[string]string {
	out := gametest.RecordChanges(line)
	j := strings.Index(line, " dealt=")
	suit := line[j-1]
	other := map[byte]byte{'s': 'h', 'h': 'd', 'd': 'c', 'c': 's'}[suit]
	out["cards"] = line[:j-1] + string(other) + line[j:]
	return out
}
