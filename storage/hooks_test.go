package storage

// The test hooks of the write path: failures injected into Apply's
// transaction and migrations in place of the package's, installed on a
// store opened by the package's tests only (openHooked). The product's
// Open never sees them.

import (
	"github.com/twentyone-bot/twentyone/game"
)

// faults are failures injected into Apply's transaction, for the package's
// tests. Either may be nil.
type faults struct {
	// outcome may change what game.Apply returned, before storage checks
	// and writes it.
	outcome func(*game.Outcome)
	// afterWrite is told each stage of Apply's writes done (see
	// applySteps): the key of the table and the stage's name. An error
	// fails the write, and the transaction rolls back.
	afterWrite func(key TableKey, stage string) error
}

// install wraps the rules and the steps of Apply with f, before the
// commit loop starts: the write path itself never asks for them.
func (s *Store) install(f *faults) {
	s.rules, s.steps = game.Apply, applySteps[:]
	if f == nil {
		return
	}
	if f.outcome != nil {
		s.rules = func(tb game.Table, c game.Command, env game.Env) (game.Table, game.Outcome, error) {
			nt, out, err := game.Apply(tb, c, env)
			if err == nil {
				f.outcome(&out)
			}
			return nt, out, err
		}
	}
	if f.afterWrite != nil {
		s.steps = make([]applyStep, len(applySteps))
		for i, st := range applySteps {
			s.steps[i] = applyStep{name: st.name, write: func(a *applying) error {
				if err := st.write(a); err != nil {
					return err
				}
				return f.afterWrite(a.key, st.name)
			}}
		}
	}
}

// openHooked opens the store at path as Open does, with f's failures in
// its Apply (f may be nil) and, when migs is not nil, migs in place of the
// package's migrations.
func openHooked(path string, opts Options, f *faults, migs []migration) (*Store, error) {
	if migs == nil {
		migs = migrations
	}
	s, err := open(path, opts, migs)
	if err != nil {
		return nil, err
	}
	s.install(f)
	s.start()
	return s, nil
}
