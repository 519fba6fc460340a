package game_test

import (
	"testing"
	"time"

	"github.com/twentyone-bot/twentyone/game"
)

// benchLobby returns a lobby of four rich players and an env drawing from r.
func benchLobby(b *testing.B, r game.Rand) (game.Table, game.BalanceMap, game.Env) {
	bal := game.BalanceMap{1: 1 << 40, 2: 1 << 40, 3: 1 << 40, 4: 1 << 40}
	env := game.Env{Now: time.Unix(1_700_000_000, 0), Rand: r, Settings: game.DefaultSettings(), Balances: bal}
	var tb game.Table
	var err error
	for u := game.UserID(1); u <= 4; u++ {
		kind := game.Join
		if u == 1 {
			kind = game.Open
		}
		tb, _, err = game.Apply(tb, game.Command{Kind: kind, User: u, Name: "player"}, env)
		if err != nil {
			b.Fatal(err)
		}
	}
	return tb, bal, env
}

// playGame plays one game from the lobby to the bank settled, the way
// players do: each bets the middle of the offered amounts (after reading
// them, as the bot does to draw the buttons) and draws to 16.
func playGame(b *testing.B, tb game.Table, bal game.BalanceMap, env game.Env) game.Table {
	cur, out, err := game.Apply(tb, game.Command{Kind: game.Start, User: tb.Seat(0).User}, env)
	if err != nil {
		b.Fatal(err)
	}
	for {
		for _, tr := range out.Transfers {
			bal[tr.User] += tr.Amount
		}
		if !cur.Phase().InGame() {
			return cur
		}
		i, _ := cur.Turn()
		s := cur.Seat(i)
		cmd := game.Command{User: s.User, Version: cur.Version()}
		switch {
		case cur.Phase() == game.Betting:
			offers := cur.Offers(bal[s.User])
			cmd.Kind, cmd.Amount = game.Bet, offers[len(offers)/2].Amount
		case s.Hand.Score() < 17:
			cmd.Kind = game.Hit
		default:
			cmd.Kind = game.Stand
		}
		cur, out, err = game.Apply(cur, cmd, env)
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFullGame plays a game of four from Start to the bank settled.
func BenchmarkFullGame(b *testing.B) {
	tb, bal, env := benchLobby(b, game.NewRand(pcg(1)))
	b.ReportAllocs()
	for b.Loop() {
		tb = playGame(b, tb, bal, env)
	}
}

// BenchmarkFullGameCryptoRand is BenchmarkFullGame with the Rand the bot
// uses.
func BenchmarkFullGameCryptoRand(b *testing.B) {
	tb, bal, env := benchLobby(b, game.CryptoRand())
	b.ReportAllocs()
	for b.Loop() {
		tb = playGame(b, tb, bal, env)
	}
}

// BenchmarkApply applies one command to a mid-game table of four.
func BenchmarkApply(b *testing.B) {
	f := goldenFixture(b) // Carol drawing with Ts 9s, a bet of 10 against a bank of 20
	drawing := f.tb
	env := f.env()
	env.Rand = game.NewRand(pcg(1))
	f.stand(carol) // Frank to bet
	betting := f.tb
	for _, bc := range []struct {
		name string
		tb   game.Table
		cmd  game.Command
	}{
		{"hit", drawing, game.Command{Kind: game.Hit, User: carol, Version: drawing.Version()}},
		{"stand", drawing, game.Command{Kind: game.Stand, User: carol, Version: drawing.Version()}},
		{"bet", betting, game.Command{Kind: game.Bet, User: frank, Amount: 10, Version: betting.Version()}},
		{"rejected", betting, game.Command{Kind: game.Bet, User: frank, Amount: 11, Version: betting.Version()}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _, _ = game.Apply(bc.tb, bc.cmd, env)
			}
		})
	}
}

// BenchmarkEncode encodes a mid-game table of four.
func BenchmarkEncode(b *testing.B) {
	tb := goldenFixture(b).tb
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tb.MarshalBinary(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecode decodes a mid-game table of four.
func BenchmarkDecode(b *testing.B) {
	tb := goldenFixture(b).tb
	enc, err := tb.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := game.Decode(enc); err != nil {
			b.Fatal(err)
		}
	}
}
