// Package storage keeps everything the groups own in one BoltDB file:
// tables, balances, chat settings, stats, the ledger and the decks revealed
// for /verify.
//
// Every exported method is one use case and one transaction. Writes
// (Apply, the grants, settings, migrations) go through a commit loop: the
// writes queued while a transaction commits are run together in the next
// one, so concurrent chats share one fsync. After a commit of several
// writes, the loop also waits for their writers' next writes, until none
// came for 20 µs (at most 300 µs), yielding the processor to them
// meanwhile; a writer alone pays no batching delay. When one write of a batch fails, the transaction is
// rolled back and the others are committed without it; each caller gets
// the result of the run that committed. A write that refuses (a command
// the game rejects, an update handled already, a bonus claimed too soon)
// writes nothing and rolls nothing back. Reads use bbolt read transactions
// and copy every value out of them.
//
// # Chips
//
// Grants (starting chips, the daily bonus, the owner's grants) are the only
// source of chips, and every change of a balance is a ledger entry written
// in the same transaction as the balance. For every chat, the sum of the
// balances plus the chips on its tables equals the running total of grants
// and the sum of the grant entries of its ledger; [Store.Audit] checks it.
//
// # Layout
//
// Keys are big-endian, signed numbers with the sign bit flipped so that
// they sort numerically. "chat" is 8 bytes; a table key is chat|thread.
// Values are small versioned binary records (a format byte first) unless
// said otherwise.
//
//	meta         "schema" → schema version (8 bytes)
//	chats        chat → last update id, running total of grants, last
//	             ledger seq, the chat it migrated to, creation time, time
//	             of the last update (schema 3), what the last update's
//	             command did to its user, to answer it again (schema 5)
//	settings     chat → ChatSettings as JSON (absent: Options.Defaults);
//	             "no_house" (schema 10) is absent while nobody set it
//	tables       chat|thread → header (message id, deadline, version), then
//	             game.Table.MarshalBinary
//	timers       chat|thread → empty, or while the house is to move there
//	             the time it moves, Unix ms (schema 10); the tables that have
//	             a deadline. It changes only when a table gains or loses one
//	             or the house's move; Timers reads the deadlines from the
//	             tables' headers
//	users        chat|user → balance, profile, last bonus, stats, the
//	             number of the user's last ledger entry (schema 4), the
//	             achievements earned and the way to Comeback (schema 8)
//	rank         chat|^balance|user → empty; the leaderboard index, highest
//	             balance first (schema 2)
//	log          n → one balance change: chat, seq, the number of the
//	             user's previous entry in the chat, then who, what and when
//	             (schema 4). n comes from the bucket's sequence, so every
//	             entry is appended at the end; seq numbers the chat's
//	             entries (append-only per chat). History and the audit
//	             follow a user's entries from their record back to the first
//	reveals      chat|game|thread|version|n → commitment and preimage
//	retire       chat|thread|message → an old table message the bot owes
//	             the chat (schema 5): the finished table it is to become
//	             the record of, or nothing when it is to be deleted
//	awards       chat|thread|game → the achievements earned in the game,
//	             in the order earned: user and achievement, each (schema 8)
//	private      user → the user has a private chat with the bot, which may
//	             write to them: since when, their language (schema 9)
//	follows      chat|user → the user follows the group: since when, when
//	             they were last told of a table there, the group's title
//	             (schema 9)
//	following    user|chat → empty; the index of the groups a user follows
//	             (schema 9)
//	pace         chat → the times of the bot's recent calls into the group
//	             (schema 11), oldest first; "saved" → when they were saved
//	             and whether the bot stopped cleanly after (see SavePace)
//
// The layout keeps what one commit touches on few pages: a chat's users
// and leaderboard entries sit together, the ledger entries of every chat
// in a commit share the log's last page, and the indexes that span chats
// change rarely. Every page a transaction touches is rewritten at commit,
// so this is what bounds the throughput of a batch.
//
// # Schema
//
// The meta bucket holds the schema version. Open creates a new file at
// [SchemaVersion], migrates an older one in one transaction (each
// migration is registered by the version it upgrades from), and refuses a
// newer one with ErrNewerSchema. Schema 1 is schema 2 without the rank
// bucket; its migration builds the index from the balances. Schema 2 is
// schema 3 without the time of each chat's last update; its migration
// stamps the chats with the time of the upgrade (see RedeliveryWindow).
// Schema 3 is schema 4 with the ledger keyed chat|user|seq in a bucket
// named "ledger"; its migration writes the entries into the log, a user's
// in order, and points each user's record at their last. Schema 4 is
// schema 5 without the retire bucket (the bot kept the old messages it
// owed in memory) and without the last command's answer in chat records
// (read as none); its migration creates the bucket empty. Schema 5 is
// schema 6 without the updates handled in chat records, which schema 5
// read as every update up to the last; its migration changes nothing, as
// schema 6 reads the records of schema 5 so, and keeps a file written by
// schema 6 from a binary that would misread it. Schema 6 is schema 7 with
// tables in game encoding 1 (the last 8 duels of a game), which game.Decode
// still reads; its migration changes nothing, and keeps tables of encoding
// 2 from a binary that cannot read them. Schema 7 is schema 8 without the
// awards bucket and without achievements in user records (read as none);
// its migration creates the bucket empty and gives every user the
// achievements their stats decide (games played, Golden 21, Five
// pictures, a game won), without announcing them. Schema 8 is schema 9 without
// the private, follows and following buckets (nobody followed a group);
// its migration creates them empty.
// Schema 9 is schema 10 with every value of the timer index empty: schema
// 10 keeps there the time the house moves at the table (package
// game/house), and its migration writes it for every table listed (no
// house could sit before, so none is to move); it also keeps the house's
// account from a binary that would grant it a member's starting chips.
// Schema 10 is schema 11 without the pace bucket; its migration creates it
// empty.
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
