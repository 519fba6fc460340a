package table

import (
	"strconv"

	"github.com/twentyone-bot/twentyone/storage"
)

// The outbox's slots of a table's messages (named ...Op, apart from the
// timers' slotKind): a newer op in a slot replaces
// one still waiting there (outbox.Op.Slot). Each is built here alone.

// tableOp is the slot of the renders of key's table message.
func tableOp(key storage.TableKey) string { return "table:" + key.String() }

// nudgeOp is the slot of key's turn nudge.
func nudgeOp(key storage.TableKey) string { return "nudge:" + key.String() }

// retireOp is the slot of retiring message id of key's table: an old
// table message, or a nudge.
func retireOp(key storage.TableKey, id int) string {
	return "old:" + key.String() + ":" + strconv.Itoa(id)
}
