package storage

import (
	"bufio"
	"cmp"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/twentyone-bot/twentyone/game"
)

// The crash test: a child process (this test binary, re-executed) plays
// random valid and invalid commands on many chats from concurrent
// goroutines, with real fsync, and the parent SIGKILLs it at a random
// moment, reopens the file and checks it, many times over the same file.
const (
	envCrashChild   = "TWENTYONE_CRASH_CHILD"
	envCrashDB      = "TWENTYONE_CRASH_DB"
	envCrashJournal = "TWENTYONE_CRASH_JOURNAL"
	// envCrashSeed fixes the seed of a run (logged by each run; default
	// the time) to run the same children with the same kill delays again.
	// The goroutines' interleaving and the kill's moment in it still vary.
	envCrashSeed = "TWENTYONE_CRASH_SEED"
	// envCrashChildSeed is the seed of one child, drawn from the run's.
	envCrashChildSeed = "TWENTYONE_CRASH_CHILD_SEED"
	// envCrashKills sets how many times the parent kills the child;
	// default 30.
	envCrashKills = "TWENTYONE_CRASH_KILLS"
)

// crashKeys are the tables the child plays: 16 chats, four of them forums
// with a second topic.
func crashKeys() []TableKey {
	var keys []TableKey
	for i := int64(1); i <= 16; i++ {
		keys = append(keys, TableKey{Chat: -i})
		if i%4 == 0 {
			keys = append(keys, TableKey{Chat: -i, Thread: 3})
		}
	}
	return keys
}

// journalLine is one update the child sent: it is written and fsynced
// before the update is applied, like an update Telegram holds until the bot
// confirms it.
type journalLine struct {
	key  TableKey
	upd  int64
	user game.UserID
	cmd  game.Command
}

func (j journalLine) String() string {
	text := "-" // a cut's text, in hex
	if j.cmd.Text != "" {
		text = hex.EncodeToString([]byte(j.cmd.Text))
	}
	return fmt.Sprintf("%d %d %d %d %d %d %d %d %s\n", j.key.Chat, j.key.Thread, j.upd, j.user, j.cmd.Kind, j.cmd.Amount, j.cmd.Version, j.cmd.Target, text)
}

func readJournal(path string) ([]journalLine, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []journalLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var n [8]int64
		fields := strings.Fields(sc.Text())
		if len(fields) != len(n)+1 {
			continue // the torn last line of a killed child: never sent
		}
		text, err := hex.DecodeString(fields[len(n)])
		ok := err == nil || fields[len(n)] == "-"
		for i, fl := range fields[:len(n)] {
			v, err := strconv.ParseInt(fl, 10, 64)
			ok = ok && err == nil
			n[i] = v
		}
		if !ok {
			continue
		}
		out = append(out, journalLine{key: TableKey{Chat: n[0], Thread: n[1]}, upd: n[2], user: game.UserID(n[3]),
			cmd: game.Command{Kind: game.CommandKind(n[4]), User: game.UserID(n[3]), Amount: n[5], Version: uint64(n[6]), Target: game.UserID(n[7]),
				Text: string(text)}})
	}
	return out, sc.Err()
}

// lastSent returns the last update sent to each table, in the order of
// their ids: those a child redelivers when it starts, as Telegram
// redelivers the updates a killed bot did not confirm (it may have handled
// them: a polling bot confirms an update with the next getUpdates).
func lastSent(lines []journalLine) []journalLine {
	last := map[TableKey]journalLine{}
	for _, l := range lines { // a table's updates are journalled in order
		last[l.key] = l
	}
	out := slices.Collect(maps.Values(last))
	slices.SortFunc(out, func(x, y journalLine) int { return cmp.Compare(x.upd, y.upd) })
	return out
}

func TestCrash(t *testing.T) {
	if os.Getenv(envCrashChild) != "" {
		t.Skip("in the child")
	}
	kills := 30
	if v := os.Getenv(envCrashKills); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(t, err, envCrashKills)
		kills = n
	}
	if testing.Short() {
		kills = min(kills, 5)
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "crash.db")
	journal := filepath.Join(dir, "journal")
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv(envCrashSeed); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		require.NoError(t, err, envCrashSeed)
		seed = n
	}
	t.Logf("seed %d (%s=%d runs it again)", seed, envCrashSeed, seed)
	r := rand.New(rand.NewPCG(seed, 1))
	versions := map[TableKey]uint64{}
	redelivered := map[int64]bool{}
	start := time.Now()
	decks := 0 // of the cut, revealed in the file after the last kill
	for i := range kills {
		lines, err := readJournal(journal)
		require.NoError(t, err)
		for _, l := range lastSent(lines) { // what the child redelivers first
			redelivered[l.upd] = true
		}
		runChild(t, db, journal, i, r.Uint64(), time.Duration(20+r.IntN(250))*time.Millisecond)
		decks = checkCrashedFile(t, db, journal, versions, redelivered, i)
		if t.Failed() {
			return
		}
	}
	lines, err := readJournal(journal)
	require.NoError(t, err)
	t.Logf("%d kills, %d updates sent, %s", kills, len(lines), time.Since(start).Round(time.Millisecond))
	assert.Greater(t, len(lines), kills*5, "the child made progress")
	// Over all the kills, not by a given one: each start draws every
	// table a new chain, which under the race detector and a loaded
	// machine may take a child's whole short life.
	assert.Positive(t, decks, "the children played decks of the cut")

	// Play continues on the same file.
	s := openAt(t, db, Options{})
	key := crashKeys()[0]
	v, err := s.CancelAll(ctx, key.Chat, time.Now())
	require.NoError(t, err)
	_ = v
	_, err = s.Grant(ctx, key.Chat, alice, 1000, 0, time.Now())
	require.NoError(t, err)
	_, err = s.Grant(ctx, key.Chat, bob, 1000, 0, time.Now())
	require.NoError(t, err)
	var last int64 // the highest update sent; workers journal theirs in any order
	for _, l := range lines {
		last = max(last, l.upd)
	}
	apply(t, s, key, last+1, alice, game.Command{Kind: game.Open}, time.Now())
	apply(t, s, key, last+2, bob, game.Command{Kind: game.Join}, time.Now())
	a := apply(t, s, key, last+3, alice, game.Command{Kind: game.Start}, time.Now())
	assert.True(t, a.Table.Phase().InGame())
	audits, err := s.AuditAll(ctx)
	require.NoError(t, err)
	for _, au := range audits {
		assert.True(t, au.OK, "chat %d: %v", au.Chat, au.Problems)
	}
}

// runChild starts the child, lets it play for d after it is ready, and
// kills it.
func runChild(t *testing.T, db, journal string, i int, seed uint64, d time.Duration) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), envCrashChild+"=1", envCrashDB+"="+db, envCrashJournal+"="+journal,
		envCrashChildSeed+"="+strconv.FormatUint(seed, 10))
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	ready := make(chan bool, 1)
	var out strings.Builder
	go func() {
		sc := bufio.NewScanner(stdout)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			out.WriteString(line + "\n")
			if line == "ready" && !sent {
				ready <- true
				sent = true
			}
		}
		if !sent {
			ready <- false
		}
	}()
	select {
	case ok := <-ready:
		if !ok {
			_ = cmd.Wait()
			t.Fatalf("kill %d: the child exited before it was ready:\n%s%s", i, out.String(), stderr.String())
		}
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("kill %d: the child is not ready after a minute", i)
	}
	// The kill comes at a random moment of the child's work.
	time.Sleep(d)
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("kill %d: the child ended on its own (%v):\n%s%s", i, err, out.String(), stderr.String())
	}
}

// checkCrashedFile reopens the file after a kill and checks it; it
// returns how many decks of the cut the file's chains revealed.
func checkCrashedFile(t *testing.T, db, journal string, versions map[TableKey]uint64, redelivered map[int64]bool, kill int) (decks int) {
	t.Helper()
	chains := chainsAsLeft(t, db, kill)
	s, err := Open(db, Options{LockTimeout: 10 * time.Second})
	require.NoError(t, err, "kill %d: the file opens", kill)
	defer s.Close()

	audits, err := s.AuditAll(ctx)
	require.NoError(t, err)
	for _, a := range audits {
		assert.True(t, a.OK, "kill %d: chat %d: %v", kill, a.Chat, a.Problems)
	}
	for _, key := range crashKeys() {
		v, err := s.View(ctx, key)
		require.NoError(t, err, "kill %d: table %v decodes", kill, key)
		assert.GreaterOrEqual(t, v.Table.Version(), versions[key], "kill %d: table %v went back", kill, key)
		versions[key] = v.Table.Version()
		decks += checkChain(t, s, key, &v.Table, chains[key], kill)
	}

	lines, err := readJournal(journal)
	require.NoError(t, err)
	sent := map[int64]map[int64]bool{}
	for _, l := range lines {
		if sent[l.key.Chat] == nil {
			sent[l.key.Chat] = map[int64]bool{}
		}
		sent[l.key.Chat][l.upd] = true
	}
	// The contract checked: every update in the ledger was sent, is
	// handled for the chat, and was applied once (its entries are
	// consecutive); a chat applies its updates in the order they were sent
	// (each chat's are sent in order, one at a time), except one
	// redelivered after a kill. That one may apply after later updates of
	// its chat: if the game rejected it when it was first sent, storage
	// wrote nothing, so it is new when it comes again, and it may apply to
	// the table as later updates left it (the other topic of a forum went
	// on meanwhile). Telegram redelivers so too (a polling bot confirms an
	// update with its next getUpdates), and a webhook may bring a chat's
	// updates out of order anyway (docs/TELEGRAM.md).
	for _, a := range audits {
		var entries []LedgerEntry
		var crec chatRec
		require.NoError(t, s.db.View(func(tx *bolt.Tx) error {
			err := tx.Bucket(bucketLedger).ForEach(func(_, v []byte) error {
				e, _, err := decodeLedger(v)
				if err == nil && e.Chat == a.Chat {
					entries = append(entries, e)
				}
				return err
			})
			if err != nil {
				return err
			}
			crec, _, err = s.newTxn(tx).chat(a.Chat)
			if err != nil {
				return err
			}
			if crec.lastUpdate != 0 {
				assert.True(t, sent[a.Chat][crec.lastUpdate], "kill %d: chat %d is at update %d, never sent", kill, a.Chat, crec.lastUpdate)
			}
			return nil
		}))
		slices.SortFunc(entries, func(x, y LedgerEntry) int { return cmp.Compare(x.Seq, y.Seq) })
		var prev, high int64
		seen := map[int64]bool{}
		for _, e := range entries {
			if e.Update == 0 || e.Update == prev {
				continue
			}
			assert.False(t, seen[e.Update], "kill %d: chat %d: update %d applied twice (entry %d)", kill, a.Chat, e.Update, e.Seq)
			if !redelivered[e.Update] {
				assert.Greater(t, e.Update, high, "kill %d: chat %d: update %d applied after %d, and never redelivered", kill, a.Chat, e.Update, high)
			}
			assert.True(t, sent[a.Chat][e.Update], "kill %d: chat %d: update %d was never sent", kill, a.Chat, e.Update)
			assert.True(t, crec.handled(e.Update, time.Now()), "kill %d: chat %d: update %d applied but not handled", kill, a.Chat, e.Update)
			seen[e.Update], prev, high = true, e.Update, max(high, e.Update)
		}
	}
	return decks
}

// chainsAsLeft reads the tables' chains as the kill left them, before an
// Open retires them.
func chainsAsLeft(t *testing.T, path string, kill int) map[TableKey]*Chain {
	t.Helper()
	db, err := openBolt(path, 10*time.Second, true, false)
	require.NoError(t, err, "kill %d: the file opens read-only", kill)
	defer db.Close()
	out := map[TableKey]*Chain{}
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		for _, key := range crashKeys() {
			if v := tx.Bucket(bucketChains).Get(tableKeyBytes(key)); v != nil {
				c, err := decodeChain(v)
				if err != nil {
					return err
				}
				out[key] = &Chain{Head: c.head, Length: c.length, Next: c.next}
			}
		}
		return nil
	}))
	return out
}

// checkChain checks the decks of a table's hash chain after a kill: every
// deck revealed verifies, the links come in turn (1, 2, … of each chain,
// none twice, none skipped; every open starts a new chain), the deck in
// play or waiting for its cut holds the link the chain, as the kill left
// it, gave last (a kill lost neither a cut nor a commitment), and the
// open retired the chain.
func checkChain(t *testing.T, s *Store, key TableKey, tb *game.Table, left *Chain, kill int) (cuts int) {
	t.Helper()
	var head game.Seed
	var link uint32
	for g := uint64(1); g <= tb.Game(); g++ {
		revs, err := s.TableReveals(ctx, key, g)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		require.NoError(t, err)
		for _, r := range revs {
			if r.Scheme != game.SchemeCut {
				continue
			}
			rec, err := game.ParseRecord(r.Record)
			require.NoError(t, err, "kill %d: %v game %d", kill, key, g)
			_, err = rec.Verify()
			assert.NoError(t, err, "kill %d: %v game %d: the deck verifies", kill, key, g)
			cr := rec.(*game.CutRecord)
			if cr.Head != head {
				head, link = cr.Head, 0
			}
			assert.Equal(t, link+1, cr.Link, "kill %d: %v game %d: the links come in turn", kill, key, g)
			assert.Equal(t, r.Commitment, cr.Seed.Hash().String(), "kill %d: %v: the commitment is the link before", kill, key)
			link = cr.Link
			cuts++
		}
	}
	_, ok, err := s.TableChain(ctx, key)
	require.NoError(t, err)
	assert.False(t, ok, "kill %d: %v: the open retired the chain", kill, key)
	c, inPlay := tb.Cut()
	if !inPlay {
		if left != nil && left.Head == head {
			assert.Equal(t, link+1, left.Next, "kill %d: %v: the chain's next link follows the last revealed", kill, key)
		}
		return cuts
	}
	// A deck whose chain an earlier open retired holds its link alone;
	// else it holds the link its chain gave last.
	if left != nil {
		assert.Equal(t, left.Head, c.Head, "kill %d: %v", kill, key)
		assert.Equal(t, left.Next, c.Link+1, "kill %d: %v: the deck holds the link taken last", kill, key)
	}
	if c.Head == head {
		assert.Equal(t, link+1, c.Link, "kill %d: %v: the deck in play follows the last revealed", kill, key)
	} else {
		assert.Equal(t, uint32(1), c.Link, "kill %d: %v: a new chain starts at its first link", kill, key)
	}
	return cuts
}

// TestCrashChild is the child's body; it runs only when the parent sets
// the environment.
func TestCrashChild(t *testing.T) {
	if os.Getenv(envCrashChild) == "" {
		t.Skip("run by TestCrash")
	}
	fail := func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "FAIL: "+format+"\n", args...)
		os.Exit(3)
	}
	// Every deck waits for its cut: a kill may come between a start and
	// its cut, or in the cut's transaction.
	s, err := Open(os.Getenv(envCrashDB), Options{LockTimeout: 10 * time.Second, CutWait: game.DefaultCutWait})
	if err != nil {
		fail("open: %v", err)
	}
	jpath := os.Getenv(envCrashJournal)
	lines, err := readJournal(jpath)
	if err != nil {
		fail("journal: %v", err)
	}
	jf, err := os.OpenFile(jpath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		fail("journal: %v", err)
	}
	var next atomic.Int64
	for _, l := range lines {
		next.Store(max(next.Load(), l.upd))
	}
	var jmu sync.Mutex
	send := func(l journalLine) {
		jmu.Lock()
		defer jmu.Unlock()
		if _, err := jf.WriteString(l.String()); err != nil {
			fail("journal: %v", err)
		}
		if err := jf.Sync(); err != nil {
			fail("journal: %v", err)
		}
	}
	users := func(key TableKey) []User {
		us := players(game.UserID(-key.Chat*100+key.Thread*10), 4)
		if key.Chat%2 == 0 {
			us[3] = theHouse // the house plays in half the chats
		}
		return us
	}

	// Telegram redelivers the updates the killed bot did not confirm.
	for _, l := range lastSent(lines) {
		_, err := s.Apply(ctx, ApplyRequest{Key: l.key, UpdateID: l.upd, User: User{ID: l.user, Name: "P"}, Command: l.cmd, Now: time.Now()})
		if err != nil && !errors.Is(err, ErrDuplicate) && game.Kind(err) == game.KindInternal {
			fail("redelivery of %d: %v", l.upd, err)
		}
	}
	fmt.Println("ready")

	seed, _ := strconv.ParseUint(os.Getenv(envCrashChildSeed), 10, 64)
	keys := crashKeys()
	const workers = 8
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(seed, uint64(w)))
			var mine []TableKey
			for _, k := range keys { // a chat's tables belong to one goroutine, as in the bot
				if int(-k.Chat)%workers == w {
					mine = append(mine, k)
				}
			}
			views := map[TableKey]View{}
			accepted := map[int64]int64{} // chat → an update id known to be applied
			for _, k := range mine {
				v, err := s.View(ctx, k)
				if err != nil {
					fail("view %v: %v", k, err)
				}
				views[k] = v
			}
			for {
				key := mine[r.IntN(len(mine))]
				v := views[key]
				us := users(key)
				switch n := r.IntN(100); {
				case n < 3: // replay an applied update: must be a duplicate
					if id := accepted[key.Chat]; id != 0 {
						_, err := s.Apply(ctx, ApplyRequest{Key: key, UpdateID: id, User: us[0], Command: game.Command{Kind: game.Leave}, Now: time.Now()})
						if !errors.Is(err, ErrDuplicate) {
							fail("replayed update %d in chat %d: %v", id, key.Chat, err)
						}
					}
					continue
				case n < 6: // chips for whoever runs low
					for _, u := range us {
						if b, ok := v.Balances[u.ID]; ok && b < 200 {
							if _, err := s.Grant(ctx, key.Chat, u, 1000, 0, time.Now()); err != nil {
								fail("grant: %v", err)
							}
						}
					}
					if _, err := s.ClaimBonus(ctx, key.Chat, us[r.IntN(len(us))], time.Now()); err != nil &&
						!errors.Is(err, ErrBonusNotNeeded) && !errors.Is(err, ErrBonusTooSoon) {
						fail("bonus: %v", err)
					}
					continue
				case n < 10: // a timer fires
					if d := v.Table.Deadline(); !d.IsZero() {
						a, err := s.Apply(ctx, ApplyRequest{Key: key, Command: game.Command{Kind: game.Timeout, Version: v.Table.Version()}, Now: d.Add(time.Millisecond)})
						if err != nil && game.Kind(err) == game.KindInternal {
							fail("timeout: %v", err)
						}
						if a.Table.Version() != 0 || err == nil {
							views[key] = a.View
						}
					}
					continue
				case n == 10 && r.IntN(4) == 0: // the bot is removed from the chat
					res, err := s.CancelAll(ctx, key.Chat, time.Now())
					if err != nil {
						fail("cancel all: %v", err)
					}
					for _, a := range res {
						views[a.Key] = a.View
					}
					continue
				}
				u, cmd := pickCommand(&v, us, r)
				if r.IntN(4) == 0 {
					u, cmd = randomCommand(&v, us, r)
				}
				l := journalLine{key: key, upd: next.Add(1), user: u.ID, cmd: cmd}
				send(l)
				a, err := s.Apply(ctx, ApplyRequest{Key: key, UpdateID: l.upd, User: u, Command: cmd, Now: time.Now()})
				switch {
				case err == nil:
					accepted[key.Chat] = l.upd
				case errors.Is(err, ErrDuplicate), game.Kind(err) == game.KindInternal:
					fail("update %d in %v: %v", l.upd, key, err)
				}
				views[key] = a.View
			}
		}()
	}
	wg.Wait()
}
