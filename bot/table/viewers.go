package table

import "github.com/twentyone-bot/twentyone/storage"

// Viewers are who watch the tables beside their chats (the Mini App's
// live push): they are told of every version of a table as it is shown,
// and of a turn's clock started again, which moves the turn's deadline
// but not the table's version. They read the table themselves: they are
// told only that it changed. Both methods must not wait (a viewer that
// is slow is the Viewers' own business), and may be called concurrently
// for different tables.
type Viewers interface {
	// Changed: the table at key is at version, stored. It is called by
	// Keeper.Show, on the table's chat's goroutine, for every version the
	// chat's message is to show: each command's, each timeout's, each of
	// the house's moves (and a table closed where no message can show it:
	// an inline message deleted, or a chat the bot can write to no more:
	// Keeper.Gone). The versions come in the order they were stored, as
	// the commands and timers that store them run one at a time on the
	// chat's goroutine; one may be told again (a table shown again).
	Changed(key storage.TableKey, version uint64)
	// Rearmed: the table at key, still at version, had its turn's clock
	// started again as the render that first showed the turn went out
	// late (Store.ShowTurn): its deadline moved, its version did not. It
	// is called from the render (the outbox's goroutine), after Changed
	// of that version.
	Rearmed(key storage.TableKey, version uint64)
	// Moved: the group from became the supergroup to, and its tables are
	// kept under to's id now (Store.MigrateChat). It is called by
	// Keeper.Moved, on from's goroutine, once the store moved them;
	// Changed of the tables at their new keys follows. It may be told
	// again (Telegram tells of a move more than once).
	Moved(from, to int64)
}

// noViewers is the Viewers of a Keeper given none: nobody is told.
type noViewers struct{}

func (noViewers) Changed(storage.TableKey, uint64) {}
func (noViewers) Rearmed(storage.TableKey, uint64) {}
func (noViewers) Moved(int64, int64)               {}
