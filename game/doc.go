// Package game is the rules engine of Twenty One ("Ochko") as the bot plays it.
//
// It is pure: no I/O, no clock and no global randomness. A [Table] is a value;
// [Apply] takes a table, a [Command] and an [Env] (the time, a [Rand] and the
// players' balances) and returns the new table together with an [Outcome]: the
// events that happened and the chip transfers they caused. A rejected command
// returns one of the errors of this package and the table it was given,
// unchanged.
//
// Chips are never created or destroyed by play: every chip a transfer takes
// from a balance lands in the bank or in a bet on the table, and every chip a
// transfer adds to a balance comes from there. [Table.Chips] counts what is on
// the table, so that balances plus table chips stay constant.
//
// The table round-trips through a stable, versioned binary encoding
// ([Table.MarshalBinary], [Decode]) that storage writes; Decode reads the
// encoding of [EncodingVersion] and of versions 2 and 3, the ones before.
//
// # The cut
//
// When the Env asks for it ([Env.CutWait]), every deck is of [SchemeCut]:
// before its first card the table waits (phase [Cutting]) for a seated
// player's [Cut], showing the deck's commitment, the previous link of the
// table's hash chain; the first cut counts, the house never cuts, and the
// wait's timeout deals it not cut. The deck's order is derived from its
// seed (the next link, from [Env.Seeds]), its place and the cut
// ([DeriveOrder]), and its [Record] is revealed when it is no longer drawn
// from. Without it, decks are of [SchemeSalt], as before the cut.
//
// Every setting an admin changes with /settings is declared here, once, as
// a row of [Fields]: its key, kind, range, default, config key and the
// panel's icon and presets. [Settings.Validate], the encoding and the
// layers above (config, callback data, the settings editor and panel, the
// texts of problems) all read the rows.
//
// Two sub-packages hold the rest of the rules, as pure as this one:
// game/award reads a game as it is played (the stats each command counts,
// the achievements it earns), and game/house is the house's strategy.
package game
