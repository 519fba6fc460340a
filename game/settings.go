package game

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Limits on the settings a table accepts.
const (
	MaxBetOptions   = 6
	MaxStake        = 1_000_000_000
	MaxStakeTimes   = 1000
	MaxBankDivisor  = 10
	MaxKnocksLimit  = 10
	MinTurnTimeout  = 10 * time.Second
	MaxTurnTimeout  = time.Hour
	MinLobbyTimeout = 30 * time.Second
	MaxLobbyTimeout = 24 * time.Hour
)

// BetKind says what a bet option is measured against.
type BetKind uint8

// The two kinds of bet option.
const (
	// StakeTimes is a multiple of the table's stake.
	StakeTimes BetKind = iota + 1
	// BankShare is a share of the bank: the bank divided by N.
	BankShare
)

// BetOption is one of the bets a table offers, before it is capped by the bank
// and the player's balance.
type BetOption struct {
	Kind BetKind
	// N is the multiple of the stake (StakeTimes) or the divisor of the bank
	// (BankShare: 1 is the whole bank, 2 half of it).
	N int64
}

// String returns the option in the form [ParseBetOptions] reads: "x2",
// "bank/2", "bank".
func (o BetOption) String() string {
	switch {
	case o.Kind == StakeTimes:
		return "x" + strconv.FormatInt(o.N, 10)
	case o.Kind == BankShare && o.N == 1:
		return "bank"
	case o.Kind == BankShare:
		return "bank/" + strconv.FormatInt(o.N, 10)
	}
	return "?"
}

// amount returns the option's amount before capping.
func (o BetOption) amount(stake, bank int64) int64 {
	if o.Kind == StakeTimes {
		if o.N > 0 && stake > math.MaxInt64/o.N {
			return math.MaxInt64 // capped below anyway; never wraps
		}
		return stake * o.N
	}
	if o.N <= 0 {
		return 0
	}
	return bank / o.N
}

func (o BetOption) validate() error {
	switch o.Kind {
	case StakeTimes:
		if o.N < 1 || o.N > MaxStakeTimes {
			return fmt.Errorf("%w: stake multiple must be from 1 to %d, not %d", ErrInvalidSettings, MaxStakeTimes, o.N)
		}
	case BankShare:
		if o.N < 1 || o.N > MaxBankDivisor {
			return fmt.Errorf("%w: bank divisor must be from 1 to %d, not %d", ErrInvalidSettings, MaxBankDivisor, o.N)
		}
	default:
		return fmt.Errorf("%w: unknown bet option kind %d", ErrInvalidSettings, o.Kind)
	}
	return nil
}

// ParseBetOptions parses a list of bet options separated by commas or spaces:
// "x1, x2, x5, bank/2, bank". "×" may stand for "x", and "½" for "bank/2".
// The list must hold 1 to MaxBetOptions options, none twice.
func ParseBetOptions(s string) ([]BetOption, error) {
	opts, err := ReadBetOptions(s)
	if err != nil {
		return nil, err
	}
	if len(opts) == 0 {
		return nil, fmt.Errorf("%w: no bet options", ErrInvalidSettings)
	}
	if len(opts) > MaxBetOptions {
		return nil, fmt.Errorf("%w: at most %d bet options, not %d", ErrInvalidSettings, MaxBetOptions, len(opts))
	}
	for i, o := range opts {
		if slices.Contains(opts[:i], o) {
			return nil, fmt.Errorf("%w: bet option %s appears twice", ErrInvalidSettings, o)
		}
	}
	return opts, nil
}

// ReadBetOptions reads a list as ParseBetOptions does, checking only that
// each option is well written: how many there are and whether one is there
// twice are left to Settings.Validate, for a caller that reports each
// problem in its own words.
func ReadBetOptions(s string) ([]BetOption, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == ';' || r == '\t' })
	opts := make([]BetOption, 0, len(fields))
	for _, f := range fields {
		o, err := parseBetOption(strings.ToLower(f))
		if err != nil {
			return nil, err
		}
		opts = append(opts, o)
	}
	return opts, nil
}

func parseBetOption(f string) (BetOption, error) {
	var o BetOption
	var num string
	switch {
	case f == "bank" || f == "all":
		return BetOption{Kind: BankShare, N: 1}, nil
	case f == "½" || f == "half":
		return BetOption{Kind: BankShare, N: 2}, nil
	case strings.HasPrefix(f, "bank/"):
		o.Kind, num = BankShare, f[len("bank/"):]
	case strings.HasPrefix(f, "x"):
		o.Kind, num = StakeTimes, f[1:]
	case strings.HasPrefix(f, "×"):
		o.Kind, num = StakeTimes, f[len("×"):]
	default:
		return o, fmt.Errorf("%w: bet option %q: want x<N>, bank/<N> or bank", ErrInvalidSettings, f)
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		return o, fmt.Errorf("%w: bet option %q: %q is not a whole number", ErrInvalidSettings, f, num)
	}
	o.N = n
	return o, o.validate()
}

// FormatBetOptions returns options in the form ParseBetOptions reads.
func FormatBetOptions(opts []BetOption) string {
	parts := make([]string, len(opts))
	for i, o := range opts {
		parts[i] = o.String()
	}
	return strings.Join(parts, ", ")
}

// Settings are the limits a table plays by. Chat admins change them between
// games; a game keeps the settings it started with. Each is a row of
// Fields, which says its range, default and the rest.
type Settings struct {
	// Stake is the table bet the banker puts into the bank.
	Stake int64
	// EntryLimit is the balance a player needs to sit down; at least Stake.
	EntryLimit int64
	// BetOptions are the bets offered to a player, capped by the bank and the
	// player's balance.
	BetOptions []BetOption
	// TurnTimeout is how long a player has to bet, draw or stand.
	TurnTimeout time.Duration
	// LobbyTimeout is how long an open table waits for a start.
	LobbyTimeout time.Duration
	// MaxKnocks is how many times a game may knock.
	MaxKnocks int
	// AutoStart: a game starts by itself when the last seat of the lobby
	// is taken.
	AutoStart bool
}

// DefaultSettings returns the defaults of rules.md: each row's Default.
func DefaultSettings() Settings { return DefaultChatSettings().Game }

// DefaultChatSettings returns the settings of a chat nobody configured:
// each row's Default (the language not decided).
func DefaultChatSettings() ChatSettings {
	var c ChatSettings
	for i := range fields {
		c = fields[i].set(c, fields[i].Default.clone())
	}
	return c
}

// Validate returns the *SettingError (wrapping ErrInvalidSettings) of the
// first setting, in the order of Fields, that breaks its limits, or nil.
func (s Settings) Validate() error {
	c := ChatSettings{Game: s}
	for i := range tableFields {
		if err := tableFields[i].Check(c); err != nil {
			return err
		}
	}
	return nil
}

// Clone returns a copy of s that shares no memory with it.
func (s Settings) Clone() Settings {
	c := ChatSettings{Game: s}
	for i := range tableFields {
		if f := &tableFields[i]; f.Kind == FieldBets {
			c = f.set(c, f.get(c).clone())
		}
	}
	return c.Game
}

// Equal reports whether s and o are the same settings.
func (s Settings) Equal(o Settings) bool {
	a, b := ChatSettings{Game: s}, ChatSettings{Game: o}
	for i := range tableFields {
		if f := &tableFields[i]; !f.Equal(f.get(a), f.get(b)) {
			return false
		}
	}
	return true
}

// Offer is one bet a player may choose.
type Offer struct {
	// Amount is the bet, capped at the bank and the player's balance.
	Amount int64
	// Option is the option the amount came from: the last one whose uncapped
	// amount is exactly Amount, or else the first one capped to it.
	Option BetOption
	// Capped reports whether no option gives Amount without capping.
	Capped bool
}

// Offers returns the bets offered against bank to a player with balance:
// every option capped at min(bank, balance), the same amount once, amounts
// below 1 dropped, smallest first.
func (s Settings) Offers(bank, balance int64) []Offer {
	var buf [MaxBetOptions]Offer
	n := s.offers(bank, balance, &buf)
	return slices.Clone(buf[:n])
}

// offers writes the offers into buf and returns how many there are.
func (s Settings) offers(bank, balance int64, buf *[MaxBetOptions]Offer) int {
	limit := min(bank, balance)
	n := 0
	for _, o := range s.BetOptions {
		raw := o.amount(s.Stake, bank)
		amt := min(raw, limit)
		if amt < 1 {
			continue
		}
		exact := raw == amt
		i := 0
		for i < n && buf[i].Amount != amt {
			i++
		}
		switch {
		case i == n:
			if n == MaxBetOptions {
				continue
			}
			buf[n] = Offer{Amount: amt, Option: o, Capped: !exact}
			n++
		case exact:
			buf[i].Option, buf[i].Capped = o, false
		}
	}
	slices.SortFunc(buf[:n], func(a, b Offer) int { return cmp.Compare(a.Amount, b.Amount) })
	return n
}
