package appgate

import (
	"github.com/twentyone-bot/twentyone/bot/table"
	"github.com/twentyone-bot/twentyone/bot/webapp/live"
	"github.com/twentyone-bot/twentyone/storage"
)

// Viewers returns the table.Viewers (bot.Config.Viewers) that tells hub
// of every version the table keeper shows, and of a turn's clock started
// again: each stream of the table then sends its viewer's view (again,
// for a clock started again at a version it has).
func Viewers(hub *live.Hub) table.Viewers { return hubViewers{hub} }

// hubViewers tells a live.Hub what the table keeper shows.
type hubViewers struct{ hub *live.Hub }

func (v hubViewers) Changed(key storage.TableKey, version uint64) { v.hub.Changed(key, version) }

// Rearmed tells the hub that the view at version changed (the turn's
// clock started again): each stream sends it again, so the app's
// countdown follows the chat's.
func (v hubViewers) Rearmed(key storage.TableKey, version uint64) { v.hub.Rearmed(key, version) }

// Moved ends the streams of the group's tables: their pages reconnect and
// are named the supergroup's tables (Members.Admit).
func (v hubViewers) Moved(from, to int64) { v.hub.Moved(from, to) }
