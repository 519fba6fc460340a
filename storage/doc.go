// Package storage keeps everything the groups own in one BoltDB file:
// tables, balances, chat settings, stats, the ledger and the decks revealed
// for /verify.
//
// Every exported method is one use case and one transaction. Writes
// (Apply, the grants, settings, MigrateChat) go through a commit loop: the
// writes queued while a transaction commits are run together in the next
// one, so concurrent chats share one fsync. After a commit of several
// writes, the loop also waits for their writers' next writes, until none
// came for 20 µs (at most 300 µs), yielding the processor to them
// meanwhile; a writer alone pays no batching delay. When one write of a
// batch fails, the transaction is rolled back and the others are
// committed without it; each caller gets the result of the run that
// committed. A write that refuses (a command the game rejects, an update
// handled already, a bonus claimed too soon) writes nothing and rolls
// nothing back. Reads use bbolt read transactions and copy every value
// out of them.
//
// Storage decides no rule of the game: game.Apply says what a command
// does and which chips it moves, award.Count which stats and achievements
// it counts; storage checks what they return, and writes it.
//
// # Chips
//
// Grants (starting chips, the daily bonus, the owner's grants) are the only
// source of chips, and every change of a balance is a ledger entry written
// in the same transaction as the balance. For every chat, the sum of the
// balances plus the chips on its tables equals the running total of grants
// and the sum of the grant entries of its ledger; [Store.Audit] checks it.
//
// # Tables on inline messages
//
// A table on an inline message (a message posted "via @bot" into a chat
// the bot need not be in) is an ordinary table of its TableKey, which the
// bot derives: Chat is a synthetic id for the chat of the message, below
// -(1<<60) ([InlineChat]), so that it never names a real chat, and Thread
// a number for the message. Chips, ledger, stats, leaderboard, deadlines,
// revealed decks and the chat's language are the chat's, as for any
// table. What such a table has of its own is its [Inline] record, the
// message it is shown in and the settings it was opened with: Apply
// writes it with the Open that carries it (ApplyRequest.Inline), every
// command on the table plays by its settings instead of the chat's, and
// every View of the table reports it (View.Inline, View.Settings.Game).
// Only the tables of such chats can have one, and only theirs are looked
// up: a group's command reads nothing more.
//
// After a restart the bot finds every open table on an inline message as
// it finds any open table: Timers lists every table in a lobby or a game
// (each has a deadline), and the View of each says whether it is on an
// inline message and which; a list of its own would add nothing.
// MigrateChat concerns groups, never these chats.
//
// # Layout
//
// Keys are big-endian, signed numbers with the sign bit flipped so that
// they sort numerically. "chat" is 8 bytes; a table key is chat|thread.
// Values are small versioned binary records (a format byte first) unless
// said otherwise.
//
//	meta         "version" → schema version (8 bytes); "copies" → how
//	             many backups are being taken of the file (8 bytes; absent
//	             when none): in a backup, the mark of a copy (copies.go);
//	             "app" → the Mini App's key, 32 bytes drawn at its first
//	             use (AppKey; absent until then), kept in backups
//	chats        chat → last update id, running total of grants, last
//	             ledger seq, the chat it migrated to, creation time, time
//	             of the last update, what the last update's command did to
//	             its user, to answer it again, and the updates handled
//	             above the last (see RedeliveryWindow)
//	settings     chat → ChatSettings as JSON (absent: Options.Defaults);
//	             "no_house" is absent while nobody set it
//	tables       chat|thread → header (message id, deadline, version), then
//	             game.Table.MarshalBinary
//	timers       chat|thread → empty, or while the house is to move there
//	             the time it moves, Unix ms; the tables that have a
//	             deadline. It changes only when a table gains or loses one
//	             or the house's move; Timers reads the deadlines from the
//	             tables' headers
//	users        chat|user → balance, profile, last bonus, stats, the
//	             number of the user's last ledger entry, the achievements
//	             earned and the way to Comeback (award.Record, which
//	             award.Count decides)
//	rank         chat|^balance|user → empty; the leaderboard index, highest
//	             balance first
//	log          n → one balance change: chat, seq, the number of the
//	             user's previous entry in the chat, then who, what and
//	             when. n comes from the bucket's sequence, so every entry
//	             is appended at the end; seq numbers the chat's entries
//	             (append-only per chat). History and the audit follow a
//	             user's entries from their record back to the first
//	reveals      chat|game|thread|version|n → a deck revealed: its
//	             commitment and preimage (game.SchemeSalt, format 1), or
//	             its commitment, record and cutter (game.SchemeCut, format
//	             2; schema 3)
//	retire       chat|thread|message → an old table message to retire
//	             the chat: the finished table it is to become the record
//	             of, or nothing when it is to be deleted
//	awards       chat|thread|game → the achievements earned in the game,
//	             in the order earned: user and achievement, each
//	private      user → the user has a private chat with the bot, which may
//	             write to them: since when, their language
//	follows      chat|user → the user follows the group: since when, when
//	             they were last told of a table there, the group's title
//	following    user|chat → empty; the index of the groups a user follows
//	pace         chat → the times of the bot's recent calls into the group,
//	             oldest first; "saved" → when they were saved and whether
//	             the bot stopped cleanly after (see SavePace)
//	inline       chat|thread → the table is on an inline message (Inline):
//	             Telegram's inline_message_id, then its settings as the
//	             settings bucket stores a chat's (format byte, JSON). Written
//	             with the Open that carried it, moved and deleted with its
//	             table; schema 2
//	chains       chat|thread → the table's hash chain (see chain.go): its
//	             length, the next link to take, its head, its secret and a
//	             cursor link to hash the next ones down from. Written with
//	             the command that takes a link (or gives one back), moved
//	             and deleted with its table; schema 3
//
// The layout keeps what one commit touches on few pages: a chat's users
// and leaderboard entries sit together, the ledger entries of every chat
// in a commit share the log's last page, and the indexes that span chats
// change rarely. Every page a transaction touches is rewritten at commit,
// so this is what bounds the throughput of a batch.
//
// # Schema
//
// The meta bucket holds the schema version, [SchemaVersion]: 3, the
// layout above. Schema 1 is the first release's (1.0.0): the layout
// without the inline and chains buckets; schema 2 has the inline bucket,
// and its reveals are all of format 1. Open creates a new file at the schema,
// migrates a file of an older one in one transaction, and refuses a newer
// one with ErrNewerSchema. Each migration is registered by the version it
// upgrades from, and the transaction that runs them sets the version the
// last leads to: the migration from 1 to 2 creates the inline bucket,
// empty, and the one from 2 to 3 the chains bucket, empty (the decks
// revealed before keep their format, and their records of
// game.SchemeSalt). Once migrated, a file is refused by a binary of an older schema
// (1.0.0's among them): to go back, restore a backup taken before. The
// pre-releases (before 1.0) kept their own schema numbers under the meta
// key "schema"; Open refuses their files with ErrPreRelease and leaves
// them as they are.
//
// # The cut
//
// With Options.CutWait, every deck is of game.SchemeCut: the command that
// asks for a deck's cut (a start, a knock, a reshuffle) takes the next
// link of its table's hash chain, making the chain on its first use or
// when the last is used up, in its own transaction, so that the table
// waiting for the cut is stored with its commitment and link and the
// chain with it; the cut, or the wait's timeout, derives and deals the
// deck in one transaction. A crash loses neither: at worst the command is
// not applied, and the table waits as it did. The wait is the table's
// deadline, re-armed after a restart like any other (Timers). A link
// whose deck was never dealt (its game ended while it waited) goes back
// to the chain.
//
// Every Open retires every chain (in the transaction that checks the
// schema): the next deck of each table starts a new chain, with a new
// head, and the links the old chain had left are never used. Storage
// cannot tell a restart from a backup restored, and a backup's chains
// stand where they stood when it was copied: the links they would give
// next may have been revealed since, by the file the backup replaced,
// and a revealed seed must never be dealt again (a cutter knowing it
// could try cuts until one favours them; a deck not cut would have an
// order everyone could compute). A table waiting for its cut keeps the
// link it holds: its deck was never dealt, so after a restart its seed
// is still secret, and the commitment the players saw stays the one their
// cut answers. Except in a backup restored: a backup copied while a table
// waited for its cut, whose deck the replaced file then dealt and
// revealed, would wait on a revealed seed. So every backup (Backup,
// BackupClosed, BackupClosedTo) is marked as a copy (copies.go: the meta
// key "copies" counts the backups being taken of a file, and a backup is
// taken while it counts one), and the Open of a marked file gives each of
// its tables waiting for its cut link 1 of a new chain instead
// (game.Table.Relink: the wait and its deadline stay, the version moves
// on), then clears the mark. A file copied by other means (cp, a snapshot
// of the disk) is not marked. A new chain after a restart is why a chain
// may end before its ChainLength links.
//
// # Damaged files
//
// bbolt trusts its file: a damaged page can make it panic or read past the
// end of its memory map. Open therefore first checks the file itself,
// without bbolt (meta pages, length, freelist, and every reachable page),
// then runs bbolt's own consistency check, and reports ErrCorrupt naming
// the file instead of crashing. A value that does not decode is ErrCorrupt
// naming the chat.
package storage
