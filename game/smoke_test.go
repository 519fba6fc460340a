package game

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestSmokeRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for seed := 0; seed < 300; seed++ {
		bal := BalanceMap{1: 1000, 2: 1000, 3: 1000, 4: 1000, 5: 50}
		env := Env{Now: time.Unix(1000, 0), Rand: NewRand(rand.NewPCG(uint64(seed), 7)), Settings: DefaultSettings(), Balances: bal}
		var tb Table
		total := int64(4050)
		for step := 0; step < 400; step++ {
			cmd := Command{Kind: CommandKind(1 + r.IntN(10)), User: UserID(1 + r.IntN(5)), Name: "n"}
			if cmd.Kind == Bet {
				opts := tb.Offers(bal[cmd.User])
				if len(opts) > 0 && r.IntN(4) > 0 {
					cmd.Amount = opts[r.IntN(len(opts))].Amount
				} else {
					cmd.Amount = int64(r.IntN(100))
				}
			}
			if cmd.Kind == Kick {
				cmd.Target = UserID(1 + r.IntN(5))
			}
			if r.IntN(5) == 0 {
				env.Now = env.Now.Add(2 * time.Minute)
			}
			if cmd.Kind == Cancel && r.IntN(5) > 0 {
				continue
			}
			before, _ := tb.MarshalBinary()
			nt, out, err := Apply(tb, cmd, env)
			if err != nil {
				after, _ := tb.MarshalBinary()
				if string(before) != string(after) {
					t.Fatal("changed on reject")
				}
				continue
			}
			if nt.version != tb.version+1 {
				t.Fatal("version")
			}
			for _, tr := range out.Transfers {
				bal[tr.User] += tr.Amount
				if bal[tr.User] < 0 {
					t.Fatalf("negative balance %v", tr)
				}
			}
			tb = nt
			sum := tb.Chips()
			for _, v := range bal {
				sum += v
			}
			if sum != total {
				t.Fatalf("seed %d step %d: chips %d want %d; cmd %+v out %+v", seed, step, sum, total, cmd, out)
			}
			enc, _ := tb.MarshalBinary()
			dec, err := Decode(enc)
			if err != nil {
				t.Fatalf("seed %d step %d: decode: %v (cmd %+v)", seed, step, err, cmd)
			}
			enc2, _ := dec.MarshalBinary()
			if string(enc) != string(enc2) {
				t.Fatal("roundtrip")
			}
		}
	}
}
