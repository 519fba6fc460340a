package storage

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/twentyone-bot/twentyone/game"
)

// Achievement is something a user did in a chat that earns a 🏅, once per
// user per chat. Each is decided from one command's events and the user's
// record, in the transaction of that command (see countAchievements);
// docs/RULES.md states the conditions for players. The values are stored:
// a new achievement takes the next number, and none is ever renumbered.
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
	// ThreeKnocks: knocked three times in one game as the banker.
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
	// of the starting chips.
	Comeback
	// Regular: played RegularGames games.
	Regular
	// Veteran: played VeteranGames games.
	Veteran

	numAchievements = iota + 1
)

// The numbers in the achievements' conditions.
const (
	FatBankStakes    = 10
	SweepDuels       = 3
	SteelNervesScore = 12
	RegularGames     = 10
	VeteranGames     = 100
	// ThreeKnocksCount is how many knocks ThreeKnocks takes.
	ThreeKnocksCount = 3
)

var achievementNames = [...]string{"", "first_win", "golden21", "five_pictures", "broke_bank", "knock",
	"three_knocks", "fat_bank", "clean_sweep", "steel_nerves", "one_too_many", "comeback", "regular", "veteran"}

// String returns the achievement's name, as logs and tests print it.
func (a Achievement) String() string {
	if a.valid() {
		return achievementNames[a]
	}
	return "unknown"
}

func (a Achievement) valid() bool { return a >= 1 && a < numAchievements }

// AllAchievements returns every achievement, in the order they are listed.
func AllAchievements() []Achievement {
	all := make([]Achievement, 0, numAchievements-1)
	for a := Achievement(1); a < numAchievements; a++ {
		all = append(all, a)
	}
	return all
}

// Achievements is a set of achievements.
type Achievements uint64

// Has reports whether the set holds a.
func (s Achievements) Has(a Achievement) bool { return a.valid() && s&(1<<a) != 0 }

// Len returns how many achievements the set holds.
func (s Achievements) Len() int { return bits.OnesCount64(uint64(s)) }

// List returns the set's achievements in the order AllAchievements lists
// them.
func (s Achievements) List() []Achievement {
	var out []Achievement
	for _, a := range AllAchievements() {
		if s.Has(a) {
			out = append(out, a)
		}
	}
	return out
}

func (s *Achievements) add(a Achievement) { *s |= 1 << a }

// valid reports whether every bit of the set names an achievement.
func (s Achievements) valid() bool { return s&^(1<<numAchievements-2) == 0 }

// Award is an achievement a user earned in a game.
type Award struct {
	User        game.UserID
	Achievement Achievement
}

// comebackMark is what a user's record keeps towards Comeback while the
// user is broke: the stats' Net at which they will have won back, by
// play, what they lacked of the starting chips when a game left them
// below the entry limit.
type comebackMark struct {
	broke bool
	need  int64
}

// awardRules are what the achievements depend on besides the game.
type awardRules struct {
	// startingChips are the chips Comeback wins back to.
	startingChips int64
	// none reports the users who earn nothing; nil: everyone earns.
	none func(game.UserID) bool
}

// awarder decides a command's achievements; see countAchievements.
type awarder struct {
	rules  awardRules
	get    func(game.UserID) (*change, error)
	awards []Award
}

// give gives user u achievement a unless they have it or earn nothing.
func (w *awarder) give(u game.UserID, a Achievement) error {
	if u == 0 || w.rules.none != nil && w.rules.none(u) {
		return nil
	}
	c, err := w.get(u)
	if err != nil {
		return err
	}
	if c.rec.stats.Achievements.Has(a) {
		return nil
	}
	c.rec.stats.Achievements.add(a)
	w.awards = append(w.awards, Award{User: u, Achievement: a})
	return nil
}

// countAchievements gives the users the achievements a command earned
// them, from the command's events (old and nt are the table before and
// after it) and their records, which get returns after the command's
// transfers and stats (planChips, countStats). It returns the awards in
// the order they were earned; a user earns each achievement once.
func countAchievements(old, nt *game.Table, out game.Outcome, rules awardRules, get func(game.UserID) (*change, error)) ([]Award, error) {
	w := awarder{rules: rules, get: get}
	var banker game.UserID
	bank, knocks, stake := old.Bank(), 0, old.Settings().Stake
	if i, ok := old.Banker(); ok {
		banker, knocks = old.Seat(i).User, old.Knocks()
	}
	for i := range out.Events {
		ev := &out.Events[i]
		var err error
		switch ev.Kind {
		case game.EventStarted:
			banker, bank, knocks, stake = ev.User, ev.Amount, 0, ev.Amount
		case game.EventDuelEnded:
			bank += ev.Duel.Delta()
			err = w.duel(&ev.Duel, banker, bank)
		case game.EventKnocked:
			knocks++
			err = w.give(banker, Knock)
			if err == nil && knocks >= ThreeKnocksCount {
				err = w.give(banker, ThreeKnocks)
			}
		case game.EventGameEnded:
			err = w.gameEnded(ev, nt, stake)
		}
		if err != nil {
			return nil, err
		}
	}
	return w.awards, nil
}

// duel gives what a duel earned its player and banker; bank is the bank
// after it.
func (w *awarder) duel(d *game.Duel, banker game.UserID, bank int64) error {
	var earned [4]Achievement
	n := 0
	hands := func(h game.Hand) {
		switch {
		case h.Golden():
			earned[n], n = Golden21, n+1
		case h.FivePictures():
			earned[n], n = FivePictures, n+1
		}
	}
	hands(d.Hand)
	switch {
	case d.Result.PlayerWon() && bank == 0:
		earned[n], n = BrokeBank, n+1
	case d.Result == game.PlayerBust && d.Hand.Score() == 22:
		earned[n], n = OneTooMany, n+1
	}
	if d.Result == game.BankerBust && d.Reason == game.ReasonNone && d.Hand.Score() <= SteelNervesScore {
		earned[n], n = SteelNerves, n+1
	}
	for _, a := range earned[:n] {
		if err := w.give(d.User, a); err != nil {
			return err
		}
	}
	switch {
	case d.Banker.Golden():
		return w.give(banker, Golden21)
	case d.Banker.FivePictures():
		return w.give(banker, FivePictures)
	}
	return nil
}

// gameEnded gives what the end of a game earned: the banker's, then each
// player's, whose stats count the game already.
func (w *awarder) gameEnded(ev *game.Event, nt *game.Table, stake int64) error {
	if ev.Reason == game.ReasonFinished {
		if ev.Amount >= FatBankStakes*stake {
			if err := w.give(ev.User, FatBank); err != nil {
				return err
			}
		}
		if sweep(nt) {
			if err := w.give(ev.User, CleanSweep); err != nil {
				return err
			}
		}
	}
	entry := nt.Settings().EntryLimit
	for _, p := range nt.Players() {
		if w.rules.none != nil && w.rules.none(p.User) {
			continue
		}
		if p.Net > 0 {
			if err := w.give(p.User, FirstWin); err != nil {
				return err
			}
		}
		c, err := w.get(p.User)
		if err != nil {
			return err
		}
		st := &c.rec.stats
		if st.Games >= RegularGames {
			if err := w.give(p.User, Regular); err != nil {
				return err
			}
		}
		if st.Games >= VeteranGames {
			if err := w.give(p.User, Veteran); err != nil {
				return err
			}
		}
		if err := w.comeback(c, p.User, entry); err != nil {
			return err
		}
	}
	return nil
}

// comeback gives Comeback to a broke user who won back enough, and marks
// a user the game left below the entry limit as broke.
func (w *awarder) comeback(c *change, u game.UserID, entry int64) error {
	rec := &c.rec
	if rec.stats.Achievements.Has(Comeback) {
		rec.mark = comebackMark{}
		return nil
	}
	if rec.mark.broke && rec.stats.Net >= rec.mark.need {
		rec.mark = comebackMark{}
		return w.give(u, Comeback)
	}
	if !rec.mark.broke && rec.balance < entry {
		rec.mark = comebackMark{broke: true, need: rec.stats.Net + w.rules.startingChips - rec.balance}
	}
	return nil
}

// sweep reports whether the banker of a game played out won every duel of
// its whole record, and it had at least SweepDuels.
func sweep(nt *game.Table) bool {
	if !nt.LogComplete() {
		return false
	}
	duels := 0
	for _, d := range nt.Log() {
		switch {
		case d.Result == game.NoDuel:
		case d.Result.PlayerWon():
			return false
		default:
			duels++
		}
	}
	return duels >= SweepDuels
}

// awardsKey is chat|thread|game: the awards of one game of a table.
func awardsKey(k TableKey, gameNo uint64) []byte {
	b := make([]byte, 24)
	putInt(b, k.Chat)
	putInt(b[8:], k.Thread)
	putUint(b[16:], gameNo)
	return b
}

func appendAwards(b []byte, awards []Award) []byte {
	for _, a := range awards {
		b = binary.AppendVarint(b, int64(a.User))
		b = append(b, byte(a.Achievement))
	}
	return b
}

func decodeAwards(v []byte) ([]Award, error) {
	r := newRecReader(v)
	var out []Award
	for r.err == nil && len(r.b) > 0 {
		a := Award{User: game.UserID(r.varint()), Achievement: Achievement(r.byte())}
		if r.err == nil && !a.Achievement.valid() {
			r.err = fmt.Errorf("%w: achievement %d", errRecord, a.Achievement)
		}
		out = append(out, a)
	}
	return out, r.done()
}

// addAwards appends awards to those of the game gameNo of the table at key.
func (t *txn) addAwards(key TableKey, gameNo uint64, awards []Award) error {
	k := awardsKey(key, gameNo)
	v := t.awards.Get(k)
	if v == nil {
		v = []byte{recordFormat}
	}
	return t.awards.Put(k, appendAwards(append([]byte(nil), v...), awards))
}

// gameAwards returns the awards of the game a table shows as finished (in
// the lobby or closed after it), in the order earned; none while a game is
// played, so that a command in the middle of a game reads nothing more.
func (t *txn) gameAwards(key TableKey, tb *game.Table) ([]Award, error) {
	if !tb.Finished() {
		return nil, nil
	}
	v := t.awards.Get(awardsKey(key, tb.Game()))
	if v == nil {
		return nil, nil
	}
	out, err := decodeAwards(v)
	if err != nil {
		return nil, t.corruptAt(fmt.Sprintf("awards of chat %d thread %d game %d", key.Chat, key.Thread, tb.Game()), err)
	}
	return out, nil
}
