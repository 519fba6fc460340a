package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/storage"
)

// Inline tables (-inline): a table posted via the bot into a chat the bot
// is not in. The chat's first player types @bot there (an inline query),
// chooses one of the tables the bot answers with (its presets: the stake
// ×1, ×5, ×10), and the server posts it from them "via @bot" as an inline
// message; they open it with its one button, and from then on its four
// players press on that message as on a group's table message. Their
// presses carry the message's inline_message_id and the chat's
// chat_instance, no chat: the bot keeps the table under
// {storage.InlineChatID(chat_instance), storage.InlineThreadID(inline_message_id)},
// the chips in the chat_instance's wallet, and edits the message by its
// inline_message_id, paced as a group's message.

// kind is what a chat of the load is.
type kind int

const (
	kindGroup  kind = iota // a group with the bot in it
	kindInline             // an inline table, in a group without the bot
	kinds
)

func (k kind) String() string { return [...]string{"groups", "inline tables"}[k] }

// inlineMessage is an inline table's message: the inline_message_id the
// bot edits it by, and the chat_instance its presses carry.
type inlineMessage struct {
	id       string
	instance string
}

// key is the table's key in storage, as the bot keys it.
func (im *inlineMessage) key() storage.TableKey {
	return storage.TableKey{Chat: storage.InlineChatID(im.instance), Thread: storage.InlineThreadID(im.id)}
}

// inlineMessage returns the inline table's message; nil for a group, or
// before the table was posted.
func (c *chat) inlineMessage() *inlineMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.inline
}

// drawsTables reports whether a message is one a table is drawn in: the
// bot's own, or an inline message (posted by a user via the bot, edited by
// the bot).
func drawsTables(m *telegramtest.ChatMessage) bool {
	return m.FromBot || m.InlineMessageID != ""
}

// botWrote reports whether an event is a write of the bot's that
// Telegram's limits count: a message it sent or edited, or its edit of an
// inline message. The posting of an inline message is its user's.
func botWrote(e telegramtest.Event) bool {
	return e.Message.FromBot || e.Kind == telegramtest.EventMessageEdited && e.Message.InlineMessageID != ""
}

// inlineChat creates the chat of the i-th chat's inline table: a group of
// its players that the bot is not in.
func (d *driver) inlineChat(i int, members []telegramtest.User) (int64, error) {
	var ids []int64
	for _, u := range members[1:] {
		ids = append(ids, u.ID)
	}
	c, err := d.srv.AddChat(telegramtest.ChatSpec{Title: fmt.Sprintf("Inline %d", i), Creator: members[0].ID, Members: ids,
		BotStatus: telegramtest.StatusLeft})
	if err != nil {
		return 0, fmt.Errorf("the chat of an inline table: %w", err)
	}
	return c.ID, nil
}

// inlineSetups bounds the inline tables posted at once: the server
// remembers its last 1024 inline queries only, and a query the bot does
// not answer within 10 s can no longer be answered.
const inlineSetups = 64

// openInlineTables posts and opens every inline table (openInline), a few
// at a time.
func (d *driver) openInlineTables(ctx context.Context) error {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	slots := make(chan struct{}, inlineSetups)
	for _, c := range d.list {
		if c.kind != kindInline {
			continue
		}
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			wg.Wait()
			return ctx.Err()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			if err := d.openInline(ctx, c); err != nil {
				mu.Lock()
				errs = append(errs, fmt.Errorf("chat %d: %w", c.id, err))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs[:min(3, len(errs))]...)
}

// openInline has the chat's first player ask the bot for a table inline,
// choose one of the results it answers with (at random: a stake of the
// presets), and open the table posted, which seats them: the first press
// on the inline message, by its inline_message_id.
func (d *driver) openInline(ctx context.Context, c *chat) error {
	q, err := d.srv.SendInlineQuery(c.id, c.users[0].ID, "")
	if err != nil {
		return fmt.Errorf("asking for a table inline: %w", err)
	}
	a, err := q.Wait(ctx)
	if err != nil {
		return err
	}
	if len(a.Results) == 0 {
		return errors.New("the bot answered the inline query with no table")
	}
	r := a.Results[c.rng.IntN(len(a.Results))]
	im, err := d.srv.ChooseInlineResult(q.ID(), r.ID)
	if err != nil {
		return fmt.Errorf("choosing the table %q: %w", r.ID, err)
	}
	instance, ok := d.srv.ChatInstance(c.id)
	if !ok {
		return errors.New("the chat has no chat_instance")
	}
	c.mu.Lock()
	c.inline = &inlineMessage{id: im.ID, instance: instance}
	c.mu.Unlock()
	if err := c.waitShown(ctx); err != nil {
		return fmt.Errorf("the posted table never showed: %w", err)
	}
	c.mu.Lock()
	v := c.view
	c.mu.Unlock()
	b, ok := v.find(callback.InlineOpen)
	if !ok {
		return fmt.Errorf("the posted table shows no button to open it (%s)", v.phase)
	}
	if !d.pressAndWait(ctx, c, v, 0, b, false, false) {
		return fmt.Errorf("the table did not open: %s", c.describe())
	}
	return nil
}

// checkInline compares an inline table's message with its stored table:
// the message must show the table's version, and the table must know its
// message.
func checkInline(ctx context.Context, st *storage.Store, srv *telegramtest.Server, c *chat) (string, error) {
	im := c.inlineMessage()
	if im == nil {
		return "never posted", nil
	}
	v, err := st.View(ctx, im.key())
	if err != nil {
		return "", fmt.Errorf("inline table of chat %d: %w", c.id, err)
	}
	var shown uint64
	if m, ok := srv.InlineMessage(im.id); ok {
		tv, _ := readTable(&m)
		shown = tv.version
	}
	switch {
	case shown != v.Table.Version():
		return fmt.Sprintf("the inline message shows version %d, its table is at %d (%s)", shown, v.Table.Version(), v.Table.Phase()), nil
	case v.Inline == nil || v.Inline.MessageID != im.id:
		return "the stored table does not name its inline message", nil
	}
	return "", nil
}
