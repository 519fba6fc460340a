package main

import (
	"context"
	"fmt"

	"github.com/twentyone-bot/twentyone/bot/service"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/storage"
)

// check opens the database the bot left and compares it with the chats:
// the audit of every chat (an inline table's: its chat_instance's
// wallet), and that every chat shows its table's latest version.
func check(ctx context.Context, srv *telegramtest.Server, set botSettings, d *driver, res *Result) error {
	cfg, err := set.config()
	if err != nil {
		return err
	}
	st, err := service.OpenStore(cfg)
	if err != nil {
		return fmt.Errorf("opening the database to check it: %w", err)
	}
	defer st.Close()
	audits, err := st.AuditAll(ctx)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	res.AuditedChats = len(audits)
	audited := map[int64]bool{}
	for _, a := range audits {
		audited[a.Chat] = true
		for _, p := range a.Problems {
			res.AuditProblems = append(res.AuditProblems, fmt.Sprintf("chat %d: %s", a.Chat, p))
		}
	}
	newest := func(chat int64) (tableView, bool) {
		msgs := srv.Messages(chat)
		for i := len(msgs) - 1; i >= 0; i-- {
			if msgs[i].FromBot {
				if v, ok := readTable(&msgs[i]); ok {
					return v, true
				}
			}
		}
		return tableView{}, false
	}
	for _, c := range d.list {
		kr := res.Kinds[c.kind]
		if c.kind == kindInline {
			why, err := checkInline(ctx, st, srv, c)
			if err != nil {
				return err
			}
			if im := c.inlineMessage(); im != nil && audited[im.key().Chat] {
				kr.Audited++
			}
			if why != "" {
				res.NotShowingLatest++
				kr.NotShowingLatest++
				if len(res.Mismatches) < 10 {
					res.Mismatches = append(res.Mismatches, fmt.Sprintf("inline table in chat %d: %s", c.id, why))
				}
			}
			continue
		}
		if audited[c.id] {
			kr.Audited++
		}
		v, err := st.View(ctx, storage.TableKey{Chat: c.id})
		if err != nil {
			return fmt.Errorf("chat %d: %w", c.id, err)
		}
		// The message the table is rendered into must show its version.
		var shown uint64
		if m, ok := srv.Message(c.id, v.MessageID); ok {
			tv, _ := readTable(&m)
			shown = tv.version
		}
		if shown != v.Table.Version() {
			res.NotShowingLatest++
			kr.NotShowingLatest++
			if len(res.Mismatches) < 10 {
				res.Mismatches = append(res.Mismatches, fmt.Sprintf("chat %d: message %d shows version %d, its table is at %d (%s)",
					c.id, v.MessageID, shown, v.Table.Version(), v.Table.Phase()))
			}
		}
		if t := d.appTable(c); t != nil && res.App != nil {
			if least, _ := t.lat.versions(); least != v.Table.Version() {
				res.App.NotLatest++
				if len(res.App.NotLatestWhy) < 5 {
					res.App.NotLatestWhy = append(res.App.NotLatestWhy, fmt.Sprintf("chat %d: a viewer holds version %d, the table is at %d",
						c.id, least, v.Table.Version()))
				}
			}
		}
		// A newer table message than the stored one is an orphan: sent by a
		// bot killed before it stored the message's id.
		if n, ok := newest(c.id); ok && n.messageID != v.MessageID && n.version < v.Table.Version() {
			res.Orphans++
		}
	}
	return nil
}
