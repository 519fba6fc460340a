package game_test

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strings"
	"testing"
	"time"

	"github.com/twentyone-bot/twentyone/game"
)

// sampleTables returns tables in every phase and shape play reaches, for
// seed corpora and the golden test.
func sampleTables(t testing.TB) []game.Table {
	t.Helper()
	var out []game.Table
	keep := func(f *fixture) { out = append(out, f.tb) }

	out = append(out, game.Table{})
	f := newFixture(t, "Th Ts 7s 9h 6h 9s 6c", "6d 7d 8d")
	f.open(alice)
	keep(f)
	f.join(bob)
	f.join(carol)
	f.join(dave)
	keep(f)
	f.start(alice)
	keep(f) // betting
	f.bet(bob, 10)
	keep(f) // drawing
	f.hit(bob)
	f.hit(bob)
	f.bet(carol, 10)
	f.hit(carol)
	keep(f)
	f.hit(carol)
	f.timeout()
	keep(f) // knocked: circle 2
	f.leave(carol)
	f.kick(dave)
	keep(f)
	endByTimeouts(f)
	keep(f) // the lobby after a game
	f.cancel()
	keep(f) // closed, with the last game's players and log

	f = goldenFixture(t)
	keep(f)
	f = newFixture(t, "Th 6s 7s", "9h")
	f.game()
	f.bet(bob, 5)
	game.ExhaustDeck(&f.tb, 0)
	f.hit(bob)
	keep(f) // a reshuffled deck of 33 cards

	f = newCutFixture(t, "Th 6s 7s", "9h")
	f.game()
	keep(f) // a deck waiting for its cut, before the first card
	f.leave(carol)
	keep(f) // ... and a player sat out before it
	f.cut(bob, "tap:1 \x00\xff")
	f.bet(bob, 5)
	keep(f) // a deck of SchemeCut in play
	game.ExhaustDeck(&f.tb, 0)
	f.hit(bob)
	keep(f) // the player's card waits for the new deck's cut
	f = newCutFixture(t, "Th 6s 7s", "9h")
	f.game()
	f.timeout()
	f.bet(bob, 5)
	keep(f) // a deck not cut
	game.ExhaustDeck(&f.tb, 1)
	f.stand(bob)
	keep(f) // the banker's hand waits for the new deck's cut
	return out
}

// goldenFixture plays to a fixed mid-game table of four: Bob bust, Carol
// drawing with a bet of 10 on the table, the bank at 20.
func goldenFixture(t testing.TB) *fixture {
	t.Helper()
	f := newFixture(t, "Th Ts 7s 9h 6h 9s 6c")
	f.lobby(alice, bob, carol)
	f.apply(game.Command{Kind: game.Join, User: frank, Name: "Франк ♠ <b>&amp;"})
	f.now = f.now.Add(3 * time.Second)
	f.start(bob)
	f.bet(bob, 10)
	f.hit(bob)
	f.hit(bob)
	f.now = f.now.Add(17 * time.Second)
	f.bet(carol, 10)
	f.hit(carol)
	return f
}

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// withCRC appends the checksum the encoding ends with, so that the fuzzer
// reaches the decoder behind it.
func withCRC(body []byte) []byte {
	return binary.LittleEndian.AppendUint32(append([]byte(nil), body...), crc32.Checksum(body, crcTable))
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1})
	f.Add([]byte{2, 0, 0, 0, 0})
	seedTables(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, in := range [][]byte{data, withCRC(data)} {
			tb, err := game.Decode(in)
			if err != nil {
				if !errors.Is(err, game.ErrCorrupt) && !errors.Is(err, game.ErrUnknownVersion) {
					t.Fatalf("decode error of no kind: %v", err)
				}
				var into game.Table
				if into.UnmarshalBinary(in) == nil {
					t.Fatal("UnmarshalBinary accepts what Decode rejects")
				}
				continue
			}
			enc, err := tb.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			again, err := game.Decode(enc)
			if err != nil {
				t.Fatalf("a decoded table re-encodes to bytes that do not decode: %v", err)
			}
			if enc2, _ := again.MarshalBinary(); string(enc2) != string(enc) {
				t.Fatal("the re-encoding does not round-trip")
			}
			exerciseApply(t, tb)
		}
	})
}

// seedTables adds the encodings of sampleTables, and their bodies without
// the checksum, to the corpus.
func seedTables(f *testing.F) {
	for _, tb := range sampleTables(f) {
		enc, err := tb.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(enc)
		f.Add(enc[:len(enc)-4])
	}
}

// exerciseApply applies every kind of command by everyone to a decoded
// table: none may panic, and every applied one conserves chips and leaves a
// table that decodes.
func exerciseApply(t *testing.T, tb game.Table) {
	users := []game.UserID{0, 99}
	bal := game.BalanceMap{99: 1000}
	for _, s := range tb.Seats() {
		users = append(users, s.User)
		bal[s.User] = 1000
	}
	env := game.Env{Now: tb.Deadline(), Rand: game.NewRand(pcg(1)), Settings: game.DefaultSettings(), Balances: bal,
		CutWait: game.DefaultCutWait}
	for k := game.CommandKind(0); k <= game.Cut+1; k++ {
		for _, u := range users {
			cmd := game.Command{Kind: k, User: u, Target: u, Name: "x", Text: "tap:1"}
			if k == game.Bet {
				if offers := tb.Offers(1000); len(offers) > 0 {
					cmd.Amount = offers[len(offers)-1].Amount
				}
			}
			next, out, err := game.Apply(tb, cmd, env)
			if err != nil {
				if errors.Is(err, game.ErrInternal) {
					t.Fatalf("%s by %d: %v", k, u, err)
				}
				continue
			}
			if next.Version() != tb.Version()+1 {
				t.Fatal("version")
			}
			if got, want := out.Delta(), tb.Chips()-next.Chips(); got != want {
				t.Fatalf("%s by %d: balances change by %d, the table by %d", k, u, got, -want)
			}
			enc, _ := next.MarshalBinary()
			if _, err := game.Decode(enc); err != nil {
				t.Fatalf("%s by %d: the new table does not decode: %v", k, u, err)
			}
		}
	}
}

func FuzzParseBetOptions(f *testing.F) {
	for _, s := range append(betOptionSets, "×2 ½ all half", "x0", "bank/11", "x1 x1", "", "x99999999999999999999") {
		f.Add(s, int64(10), int64(100), int64(1000))
	}
	f.Fuzz(func(t *testing.T, s string, stake, bank, balance int64) {
		opts, err := game.ParseBetOptions(s)
		if err != nil {
			if !errors.Is(err, game.ErrInvalidSettings) || opts != nil {
				t.Fatalf("%q: %v %v", s, opts, err)
			}
			return
		}
		if len(opts) == 0 || len(opts) > game.MaxBetOptions {
			t.Fatalf("%q: %d options", s, len(opts))
		}
		again, err := game.ParseBetOptions(game.FormatBetOptions(opts))
		if err != nil || len(again) != len(opts) {
			t.Fatalf("%q formats to %q: %v", s, game.FormatBetOptions(opts), err)
		}
		for i := range opts {
			if again[i] != opts[i] {
				t.Fatalf("%q: %v != %v", s, again, opts)
			}
		}
		st := game.DefaultSettings()
		st.BetOptions = opts
		if stake >= 1 && stake <= game.MaxStake {
			st.Stake, st.EntryLimit = stake, stake
		}
		if err := st.Validate(); err != nil {
			t.Fatalf("%q parses to invalid settings: %v", s, err)
		}
		offers := st.Offers(bank, balance)
		for i, o := range offers {
			if o.Amount < 1 || o.Amount > bank || o.Amount > balance {
				t.Fatalf("offer %d with bank %d and balance %d", o.Amount, bank, balance)
			}
			if i > 0 && offers[i-1].Amount >= o.Amount {
				t.Fatalf("offers %v not increasing", offers)
			}
		}
	})
}

func FuzzParseDeck(f *testing.F) {
	f.Add("Th6sAc:" + strings.Repeat("0f", game.SaltSize))
	f.Add("th6SaC:" + strings.Repeat("AB", game.SaltSize))
	f.Add(strings.Repeat("Th", 36) + ":")
	full := game.Deck{}
	for c := game.Card(1); c <= game.DeckSize; c++ {
		full.Cards = append(full.Cards, c)
	}
	f.Add(full.Preimage())
	f.Fuzz(func(t *testing.T, s string) {
		d, err := game.ParseDeck(s)
		if err != nil {
			if !errors.Is(err, game.ErrInvalidInput) {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		if len(d.Cards) == 0 || len(d.Cards) > game.DeckSize {
			t.Fatalf("%q: %d cards", s, len(d.Cards))
		}
		seen := map[game.Card]bool{}
		for _, c := range d.Cards {
			if !c.Valid() || seen[c] {
				t.Fatalf("%q: card %d", s, c)
			}
			seen[c] = true
		}
		again, err := game.ParseDeck(d.Preimage())
		if err != nil || again.Salt != d.Salt || codes(again.Cards) != codes(d.Cards) {
			t.Fatalf("%q: the preimage %q does not parse back: %v", s, d.Preimage(), err)
		}
		if err := game.VerifyDeck(s, d.Commitment().String()); err != nil {
			t.Fatalf("%q does not verify against its own commitment: %v", s, err)
		}
	})
}

func FuzzParseCard(f *testing.F) {
	for _, s := range []string{"Th", "10h", "as", "KC", "1", "10", "", "Ah ", "♠A"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := game.ParseCard(s)
		if err != nil {
			if !errors.Is(err, game.ErrInvalidInput) || c != 0 {
				t.Fatalf("%q: %v %v", s, c, err)
			}
			return
		}
		if !c.Valid() {
			t.Fatalf("%q parses to invalid card %d", s, c)
		}
		norm := s
		if len(s) == 3 {
			norm = "T" + s[2:]
		}
		if !strings.EqualFold(norm, c.Code()) {
			t.Fatalf("%q parses to %s", s, c.Code())
		}
		if again, err := game.ParseCard(c.Code()); err != nil || again != c {
			t.Fatalf("%s does not round-trip", c.Code())
		}
	})
}
