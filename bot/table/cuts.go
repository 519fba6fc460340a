package table

import (
	"context"

	"github.com/twentyone-bot/twentyone/bot/render"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// cuts returns who cut each deck of the cut revealed in the finished game
// t shows, for its record (render.Input.Cuts): read from the reveals only
// when the game revealed decks (decks, View.Decks), as a game in play
// names its deck's cutter on the table itself. A game of decks before
// the cut has none; a failed read shows none (the record still names the
// decks; /verify names the cutters).
func (m *messages) cuts(ctx context.Context, key storage.TableKey, t *game.Table, decks int) []render.DeckCut {
	if decks == 0 || !t.Finished() {
		return nil
	}
	reveals, err := m.k.store.TableReveals(ctx, key, t.Game())
	if err != nil {
		m.k.log.WarnContext(ctx, "reading who cut the decks", "table", key, "game", t.Game(), "err", err)
		return nil
	}
	var out []render.DeckCut
	for _, r := range reveals {
		if r.Scheme == game.SchemeCut {
			out = append(out, render.DeckCut{By: r.CutBy})
		}
	}
	return out
}
