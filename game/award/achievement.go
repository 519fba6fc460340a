package award

import (
	"math/bits"

	"github.com/twentyone-bot/twentyone/game"
)

// Achievement is something a user did in a chat that earns a 🏅, once per
// user per chat. Count decides each from one command's events and the
// user's record; docs/RULES.md states the conditions for players. The
// values are stored: a new achievement takes the next number, and none is
// ever renumbered.
type Achievement uint8

// The achievements.
const (
	// FirstWin: a game ended with more chips than the user began it with,
	// as player or banker.
	FirstWin Achievement = iota + 1
	// Golden21: two aces in a duel, as player or banker.
	Golden21
	// FivePictures: five pictures in a duel, as player or banker.
	FivePictures
	// BrokeBank: as a player, won a duel whose bet was the whole bank,
	// leaving it empty.
	BrokeBank
	// Knock: knocked as the banker.
	Knock
	// ThreeKnocks: knocked ThreeKnocksCount times in one game as the
	// banker.
	ThreeKnocks
	// FatBank: as the banker, took a bank of at least FatBankStakes stakes
	// at the end of a game played out.
	FatBank
	// CleanSweep: as the banker, won every duel of a game played out,
	// and it had at least SweepDuels.
	CleanSweep
	// SteelNerves: stood by choice at SteelNervesScore or less and won
	// because the banker went bust.
	SteelNerves
	// OneTooMany: went bust at exactly 22.
	OneTooMany
	// Comeback: after a game left the user's balance below its entry
	// limit, won back by play (grants not counted) what they then lacked
	// of the starting chips (see Mark).
	Comeback
	// Regular: played RegularGames games.
	Regular
	// Veteran: played VeteranGames games.
	Veteran

	numAchievements = iota + 1
)

// The numbers in the achievements' conditions.
const (
	// FatBankStakes is the bank, in stakes, that FatBank takes.
	FatBankStakes = 10
	// SweepDuels is the fewest duels of a CleanSweep.
	SweepDuels = 3
	// SteelNervesScore is the highest score SteelNerves stands at.
	SteelNervesScore = 12
	// RegularGames and VeteranGames are the games Regular and Veteran
	// take.
	RegularGames = 10
	VeteranGames = 100
	// ThreeKnocksCount is how many knocks ThreeKnocks takes.
	ThreeKnocksCount = 3
)

var achievementNames = [...]string{"", "first_win", "golden21", "five_pictures", "broke_bank", "knock",
	"three_knocks", "fat_bank", "clean_sweep", "steel_nerves", "one_too_many", "comeback", "regular", "veteran"}

// String returns the achievement's name, as logs and tests print it.
func (a Achievement) String() string {
	if a.Valid() {
		return achievementNames[a]
	}
	return "unknown"
}

// Valid reports whether a is one of the achievements.
func (a Achievement) Valid() bool { return a >= 1 && a < numAchievements }

// All returns every achievement, in the order they are listed.
func All() []Achievement {
	all := make([]Achievement, 0, numAchievements-1)
	for a := Achievement(1); a < numAchievements; a++ {
		all = append(all, a)
	}
	return all
}

// Set is a set of achievements: bit a holds achievement a, so that
// 1<<Knock | 1<<Veteran holds those two. Storage keeps it as that number.
type Set uint64

// Has reports whether the set holds a.
func (s Set) Has(a Achievement) bool { return a.Valid() && s&(1<<a) != 0 }

// Len returns how many achievements the set holds.
func (s Set) Len() int { return bits.OnesCount64(uint64(s)) }

// List returns the set's achievements in the order All lists them.
func (s Set) List() []Achievement {
	var out []Achievement
	for _, a := range All() {
		if s.Has(a) {
			out = append(out, a)
		}
	}
	return out
}

// Valid reports whether every bit of the set names an achievement.
func (s Set) Valid() bool { return s&^(1<<numAchievements-2) == 0 }

func (s *Set) add(a Achievement) { *s |= 1 << a }

// Award is an achievement a user earned in a game.
type Award struct {
	User        game.UserID
	Achievement Achievement
}
