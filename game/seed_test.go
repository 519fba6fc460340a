package game_test

import "math/rand/v2"

func pcg(seed uint64) *rand.PCG { return rand.NewPCG(seed, seed^0x5eed) }
