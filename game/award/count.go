// Package award holds the rules that read a game as it is played: the
// stats each command counts for its users, and the achievements it earns
// them. Like package game it is pure: no I/O, no clock, no randomness.
// [Count] takes one command's outcome and its users' records before it,
// and returns their records after it with the achievements earned, which
// storage writes in the command's transaction; [Merge] joins a user's
// records of two chats.
package award

import "github.com/twentyone-bot/twentyone/game"

// Stats are a user's results in a chat.
type Stats struct {
	// Games counts the games played to the end (or cancelled).
	Games int
	// GamesAsBanker counts those the user was the banker in.
	GamesAsBanker int
	// DuelsWon and DuelsLost count duels, as player and as banker.
	DuelsWon  int
	DuelsLost int
	// Net is the sum of the user's chip movements in play (grants excluded).
	Net int64
	// BiggestWin is the largest net result of one game.
	BiggestWin int64
	// Golden21s and FivePictures count the hands the user drew, as player
	// or banker, that were Golden 21 or Five pictures.
	Golden21s    int
	FivePictures int
	// Achievements are those the user earned in the chat.
	Achievements Set
}

// hand counts a hand of a duel.
func (s *Stats) hand(h game.Hand) {
	if h.Golden() {
		s.Golden21s++
	}
	if h.FivePictures() {
		s.FivePictures++
	}
}

// Mark is what a user's record keeps towards Comeback; the zero Mark while
// the user is not broke.
type Mark struct {
	// Broke: a game left the user below its entry limit, and they have not
	// won back since what they then lacked of the starting chips.
	Broke bool
	// Need is, while Broke, the Stats.Net at which they will have won it
	// back by play.
	Need int64
}

// Record is what the rules keep of a user in a chat.
type Record struct {
	Stats Stats
	Mark  Mark
}

// Player is a user's Record as Count reads and returns it, with their
// balance.
type Player struct {
	User game.UserID
	// Balance is the user's balance after the command's transfers. Count
	// reads it (a game that leaves it below the entry limit marks the user
	// broke) and returns it as it was.
	Balance int64
	Record
}

// Rules are what the achievements depend on besides the game.
type Rules struct {
	// StartingChips are the chips Comeback wins back to.
	StartingChips int64
	// NoAchievements reports the users who earn none, whose stats count
	// all the same; nil: everyone earns. It must be a pure function of the
	// user.
	NoAchievements func(game.UserID) bool
}

// none reports whether user u earns nothing.
func (r *Rules) none(u game.UserID) bool {
	return u == 0 || r.NoAchievements != nil && r.NoAchievements(u)
}

// Count applies the rules that read one command. before is the table the
// command was applied to, after the table it left, and out what it caused
// (game.Apply's Outcome; a chained command's events and transfers
// appended to it). lookup returns the Player of each user Count reads, as
// they were before the command, with their Balance after its transfers;
// Count reads each user once and returns lookup's error.
//
// Count counts into the stats, in this order: the transfers into Net;
// each duel won or lost, as player and as banker, and its Golden 21 and
// Five pictures hands; at the end of a game, each of its players' games,
// games as banker and biggest win. Then it decides the achievements on the
// stats so counted. It returns every user it read, as the command left
// them, in the order it read them, and the awards, in the order earned: a
// user earns each achievement once.
func Count(before, after *game.Table, out game.Outcome, rules Rules, lookup func(game.UserID) (Player, error)) ([]Player, []Award, error) {
	c := counter{rules: rules, lookup: lookup}
	if err := c.stats(before, after, &out); err != nil {
		return nil, nil, err
	}
	if err := c.achievements(before, after, &out); err != nil {
		return nil, nil, err
	}
	players := make([]Player, len(c.players))
	for i, p := range c.players {
		players[i] = *p
	}
	return players, c.awards, nil
}

// counter is a command being counted: the users read so far, and the
// awards earned.
type counter struct {
	rules   Rules
	lookup  func(game.UserID) (Player, error)
	players []*Player
	awards  []Award
}

// get returns user u's Player, read the first time.
func (c *counter) get(u game.UserID) (*Player, error) {
	for _, p := range c.players {
		if p.User == u {
			return p, nil
		}
	}
	p, err := c.lookup(u)
	if err != nil {
		return nil, err
	}
	p.User = u
	c.players = append(c.players, &p)
	return &p, nil
}

// stats counts the command into the users' stats.
func (c *counter) stats(before, after *game.Table, out *game.Outcome) error {
	for _, tr := range out.Transfers {
		p, err := c.get(tr.User)
		if err != nil {
			return err
		}
		p.Stats.Net += tr.Amount
	}
	var banker game.UserID
	if i, ok := before.Banker(); ok {
		banker = before.Seat(i).User
	}
	for i := range out.Events {
		ev := &out.Events[i]
		switch ev.Kind {
		case game.EventStarted:
			banker = ev.User
		case game.EventDuelEnded:
			if err := c.duelStats(&ev.Duel, banker); err != nil {
				return err
			}
		case game.EventGameEnded:
			for _, pt := range after.Players() {
				p, err := c.get(pt.User)
				if err != nil {
					return err
				}
				st := &p.Stats
				st.Games++
				if pt.Banker {
					st.GamesAsBanker++
				}
				st.BiggestWin = max(st.BiggestWin, pt.Net)
			}
		}
	}
	return nil
}

// duelStats counts a duel into the stats of its player and its banker
// (none for a duel without one).
func (c *counter) duelStats(d *game.Duel, banker game.UserID) error {
	p, err := c.get(d.User)
	if err != nil {
		return err
	}
	won := d.Result.PlayerWon()
	if won {
		p.Stats.DuelsWon++
	} else {
		p.Stats.DuelsLost++
	}
	p.Stats.hand(d.Hand)
	if banker == 0 {
		return nil
	}
	b, err := c.get(banker)
	if err != nil {
		return err
	}
	if won {
		b.Stats.DuelsLost++
	} else {
		b.Stats.DuelsWon++
	}
	b.Stats.hand(d.Banker)
	return nil
}

// give gives user u achievement a unless they have it or earn nothing.
func (c *counter) give(u game.UserID, a Achievement) error {
	if c.rules.none(u) {
		return nil
	}
	p, err := c.get(u)
	if err != nil {
		return err
	}
	if p.Stats.Achievements.Has(a) {
		return nil
	}
	p.Stats.Achievements.add(a)
	c.awards = append(c.awards, Award{User: u, Achievement: a})
	return nil
}

// achievements gives the users what the command earned them, on their
// stats after it.
func (c *counter) achievements(before, after *game.Table, out *game.Outcome) error {
	var banker game.UserID
	bank, knocks, stake := before.Bank(), 0, before.Settings().Stake
	if i, ok := before.Banker(); ok {
		banker, knocks = before.Seat(i).User, before.Knocks()
	}
	for i := range out.Events {
		ev := &out.Events[i]
		var err error
		switch ev.Kind {
		case game.EventStarted:
			banker, bank, knocks, stake = ev.User, ev.Amount, 0, ev.Amount
		case game.EventDuelEnded:
			bank += ev.Duel.Delta()
			err = c.duel(&ev.Duel, banker, bank)
		case game.EventKnocked:
			knocks++
			err = c.give(banker, Knock)
			if err == nil && knocks >= ThreeKnocksCount {
				err = c.give(banker, ThreeKnocks)
			}
		case game.EventGameEnded:
			err = c.gameEnded(ev, after, stake)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// duel gives what a duel earned its player and banker; bank is the bank
// after it.
func (c *counter) duel(d *game.Duel, banker game.UserID, bank int64) error {
	var earned [4]Achievement
	n := 0
	switch {
	case d.Hand.Golden():
		earned[n], n = Golden21, n+1
	case d.Hand.FivePictures():
		earned[n], n = FivePictures, n+1
	}
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
		if err := c.give(d.User, a); err != nil {
			return err
		}
	}
	switch {
	case d.Banker.Golden():
		return c.give(banker, Golden21)
	case d.Banker.FivePictures():
		return c.give(banker, FivePictures)
	}
	return nil
}

// gameEnded gives what the end of a game earned: the banker's, then each
// player's, whose stats count the game already.
func (c *counter) gameEnded(ev *game.Event, after *game.Table, stake int64) error {
	if ev.Reason == game.ReasonFinished {
		if ev.Amount >= FatBankStakes*stake {
			if err := c.give(ev.User, FatBank); err != nil {
				return err
			}
		}
		if sweep(after) {
			if err := c.give(ev.User, CleanSweep); err != nil {
				return err
			}
		}
	}
	entry := after.Settings().EntryLimit
	for _, pt := range after.Players() {
		if c.rules.none(pt.User) {
			continue
		}
		if pt.Net > 0 {
			if err := c.give(pt.User, FirstWin); err != nil {
				return err
			}
		}
		p, err := c.get(pt.User)
		if err != nil {
			return err
		}
		if p.Stats.Games >= RegularGames {
			if err := c.give(pt.User, Regular); err != nil {
				return err
			}
		}
		if p.Stats.Games >= VeteranGames {
			if err := c.give(pt.User, Veteran); err != nil {
				return err
			}
		}
		if err := c.comeback(p, entry); err != nil {
			return err
		}
	}
	return nil
}

// comeback gives Comeback to a broke player who won back enough, and
// marks a player the game left below the entry limit as broke.
func (c *counter) comeback(p *Player, entry int64) error {
	if p.Stats.Achievements.Has(Comeback) {
		p.Mark = Mark{}
		return nil
	}
	if p.Mark.Broke && p.Stats.Net >= p.Mark.Need {
		p.Mark = Mark{}
		return c.give(p.User, Comeback)
	}
	if !p.Mark.Broke && p.Balance < entry {
		p.Mark = Mark{Broke: true, Need: p.Stats.Net + c.rules.StartingChips - p.Balance}
	}
	return nil
}

// sweep reports whether the banker of a game played out won every duel of
// its whole record, and it had at least SweepDuels.
func sweep(after *game.Table) bool {
	if !after.LogComplete() {
		return false
	}
	duels := 0
	for _, d := range after.Log() {
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

// Merge returns the record of a user whose two records, a in the chat
// that stays and b in the chat that joins it, become one (a group
// upgraded to a supergroup): the counts and Net add up, BiggestWin is the
// larger, the achievements join, and the way to Comeback is that of either
// that is broke, moved to the merged Net (the other's Net added to its
// Need), the nearer when both are; none once Comeback is earned.
func Merge(a, b Record) Record {
	m := Record{Stats: a.Stats, Mark: mergeMarks(a, b)}
	s, o := &m.Stats, &b.Stats
	s.Games += o.Games
	s.GamesAsBanker += o.GamesAsBanker
	s.DuelsWon += o.DuelsWon
	s.DuelsLost += o.DuelsLost
	s.Net += o.Net
	s.BiggestWin = max(s.BiggestWin, o.BiggestWin)
	s.Golden21s += o.Golden21s
	s.FivePictures += o.FivePictures
	s.Achievements |= o.Achievements
	return m
}

// mergeMarks returns the way to Comeback of Merge(a, b).
func mergeMarks(a, b Record) Mark {
	if (a.Stats.Achievements | b.Stats.Achievements).Has(Comeback) {
		return Mark{}
	}
	ma, mb := a.Mark, b.Mark
	switch {
	case !ma.Broke && !mb.Broke:
		return Mark{}
	case !ma.Broke:
		return Mark{Broke: true, Need: mb.Need + a.Stats.Net}
	case !mb.Broke:
		return Mark{Broke: true, Need: ma.Need + b.Stats.Net}
	}
	return Mark{Broke: true, Need: min(ma.Need+b.Stats.Net, mb.Need+a.Stats.Net)}
}
