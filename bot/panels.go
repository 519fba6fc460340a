package bot

import (
	"sync"
	"time"
)

// settingsPanels remembers the settings panels (/settings messages) the
// bot sent each chat, so that a change of the settings redraws every one
// still open: the newest maxPanels of a chat, each for panelTTL, in at
// most maxPanelChats chats. A panel forgotten stays as it was drawn; its
// buttons carry the settings' stamp, so a press on it is answered as
// outdated and redraws it. Its methods are safe for concurrent use.
type settingsPanels struct {
	mu    sync.Mutex
	chats map[int64][]panel
}

// panel is one settings message of a chat.
type panel struct {
	id int
	// readOnly: drawn without buttons (render.SettingsReadOnly).
	readOnly bool
	// at is when it was sent or last pressed.
	at time.Time
}

// The bounds of settingsPanels.
const (
	maxPanels     = 4
	maxPanelChats = 1024
	panelTTL      = 48 * time.Hour
)

// add remembers a panel of chat, as of now: a panel already remembered
// is updated, and the oldest beyond maxPanels forgotten.
func (p *settingsPanels) add(chat int64, pn panel, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.chats == nil {
		p.chats = make(map[int64][]panel)
	}
	if _, ok := p.chats[chat]; !ok && len(p.chats) >= maxPanelChats {
		p.pruneAll(now)
		for c := range p.chats {
			if len(p.chats) < maxPanelChats {
				break
			}
			delete(p.chats, c)
		}
	}
	list := fresh(p.chats[chat], now)
	for i := range list {
		if list[i].id == pn.id {
			list = append(list[:i], list[i+1:]...)
			break
		}
	}
	list = append(list, pn)
	if len(list) > maxPanels {
		list = list[len(list)-maxPanels:]
	}
	p.chats[chat] = list
}

// open returns the chat's panels not older than panelTTL, oldest first.
func (p *settingsPanels) open(chat int64, now time.Time) []panel {
	p.mu.Lock()
	defer p.mu.Unlock()
	list := fresh(p.chats[chat], now)
	if len(list) == 0 {
		delete(p.chats, chat)
		return nil
	}
	p.chats[chat] = list
	return append([]panel(nil), list...)
}

// drop forgets a panel of chat.
func (p *settingsPanels) drop(chat int64, id int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	list := p.chats[chat]
	for i := range list {
		if list[i].id == id {
			list = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(p.chats, chat)
		return
	}
	p.chats[chat] = list
}

// pruneAll forgets every chat's panels older than panelTTL.
func (p *settingsPanels) pruneAll(now time.Time) {
	for c, list := range p.chats {
		if list = fresh(list, now); len(list) == 0 {
			delete(p.chats, c)
		} else {
			p.chats[c] = list
		}
	}
}

// fresh returns the panels of list not older than panelTTL.
func fresh(list []panel, now time.Time) []panel {
	out := list[:0:0]
	for _, pn := range list {
		if now.Sub(pn.at) <= panelTTL {
			out = append(out, pn)
		}
	}
	return out
}
