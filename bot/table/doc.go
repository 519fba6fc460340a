// Package table keeps each table's message showing the table, and its
// timers running. It owns, for every table of every chat (one per forum
// topic, one per inline message): the table message, the turn's clock as
// far as it depends on what is shown, the deadlines, the turn's nudge and
// the house's moves. The rules are package game's, the storage package's
// the transactions, package render's the messages; this package decides
// when each is called. Its one entry is the Keeper; the bot above runs
// each of its calls on the table's chat's goroutine (Host.OnChat), the one
// thing the package asks of it, and is told nothing.
//
// A table message's life:
//
//   - Render (message.go). Keeper.Show arms the table's timers for the
//     view and queues a render in the outbox (its slot: a newer render
//     replaces one still waiting). The render reads the table when its
//     turn comes, so it shows the newest state however long it waited,
//     and edits the table's one message in place; it sends a new message
//     when there is none, it was deleted, or the table moved out of it
//     (storage's View.Retiring). A new message's id is stored before
//     anything else. The first message of a lobby just opened is then told
//     to the Sent that Keeper.Open was given (opened.go), once: that is
//     how package notice learns which message to link its followers to.
//     An inline table's message is edited only; one a user deleted closes
//     its table, every chip given back.
//   - Retire (message.go). Once the table's message is not one of the old
//     messages the table is to retire, each of those is edited into the
//     record of its game, or deleted (edited into a note when too old to
//     delete), as an outbox op of its own, and reported to storage once
//     done; a restart finishes what is left.
//   - The turn shown (shown.go). A turn's clock runs only while the turn
//     is shown, and so does a deck's cut wait: the first render to show
//     a turn (or a cut wait) late starts its clock again, and while a render that will first show a turn waits, the
//     turn's timers wait for it. The state machine turnShown says how.
//   - Deadlines (schedule.go). Each table has at most three timers, each
//     for the version of the table it was armed for: its deadline (the
//     turn's or the lobby's timeout), its turn's nudge and the house's
//     move, all in one heap under one clock timer. Storage keeps the
//     deadlines and the house's move, and Keeper.Start arms them again
//     after a restart, holding them for a grace time. A timeout is a
//     command of its own (game.Timeout), applied and shown as a player's.
//   - Nudge (nudge.go). When the player to move in a group has not acted
//     a third into the turn, one short message mentions them, in reply to
//     the table message, and is deleted (retired) once the turn passes.
//   - The house (house.go). The bot seated as a player: it moves by its
//     strategy (game/house) once its turn is shown and a short delay
//     passed, and stands up where the chat forbids it.
//   - Viewers (viewers.go). Whoever watches the tables beside their chats
//     (the Mini App's live push) is told of each version as Keeper.Show
//     shows it (Viewers.Changed: every command's, timeout's and house
//     move's, in the order stored), and of the closes no message shows (an
//     inline message deleted, a chat the bot left: Keeper.Gone). A turn's
//     clock started again as its render went out late (shown.go) moves
//     the deadline but not the version: it is told apart, as
//     Viewers.Rearmed of that version, rather than as a revision counter
//     that would have to be stored to survive a restart. A viewer that
//     keeps the newest version it sent makes its view again on Rearmed
//     all the same.
//
// After a restart, Keeper.Start and Keeper.Restore show every open table
// again, unless its message shows the stored table already (what the
// process before saved of its calls, package pace).
package table
