package telegramtest

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// View reads the world for a WaitFor condition and remembers which chats
// the condition looked at, so that a timeout can say what was last seen
// there. Its methods lock the server themselves: a condition may call
// them (and any Server method) freely.
type View struct {
	s    *Server
	seen map[int64]struct{}
}

func (v *View) look(chatID int64) { v.seen[chatID] = struct{}{} }

// Messages returns a chat's current messages (see Server.Messages).
func (v *View) Messages(chatID int64) []ChatMessage {
	v.look(chatID)
	return v.s.Messages(chatID)
}

// Message returns one current message of a chat.
func (v *View) Message(chatID int64, messageID int) (ChatMessage, bool) {
	v.look(chatID)
	return v.s.Message(chatID, messageID)
}

// LastBotMessage returns the newest message the bot sent to a chat.
func (v *View) LastBotMessage(chatID int64) (ChatMessage, bool) {
	v.look(chatID)
	return v.s.LastBotMessage(chatID)
}

// EphemeralMessages returns a chat's ephemeral messages (see
// Server.EphemeralMessages).
func (v *View) EphemeralMessages(chatID int64) []ChatMessage {
	v.look(chatID)
	return v.s.EphemeralMessages(chatID)
}

// MessagesSeenBy returns a chat as a user sees it (see
// Server.MessagesSeenBy).
func (v *View) MessagesSeenBy(chatID, userID int64) []ChatMessage {
	v.look(chatID)
	return v.s.MessagesSeenBy(chatID, userID)
}

// PendingUpdates returns how many updates the bot has not confirmed.
func (v *View) PendingUpdates() int { return v.s.PendingUpdates() }

// HungUp reports whether the server closed its connection from a client's
// address (see Server.HungUp).
func (v *View) HungUp(addr string) bool { return v.s.HungUp(addr) }

// WaitFor blocks until cond returns true or ctx ends. The condition is
// evaluated now and after every change in the world (messages, edits,
// answers, member changes, API calls), never by polling on a timer. On
// timeout the error describes the last messages of the chats the
// condition looked at, and the last API calls.
func (s *Server) WaitFor(ctx context.Context, cond func(v *View) bool) error {
	v := &View{s: s, seen: map[int64]struct{}{}}
	for {
		wake := s.change.wait()
		if cond(v) {
			return nil
		}
		if err := s.waitCtx(ctx, wake); err != nil {
			return fmt.Errorf("telegramtest: condition not met: %w; %s", err, s.describe(v.seen))
		}
	}
}

// Nudge wakes the WaitFor calls to evaluate their conditions again, for a
// condition that reads state outside the world, such as the bot's own
// database, when that state changed.
func (s *Server) Nudge() { s.change.broadcast() }

// WaitForBotMessage waits until the newest bot message in the chat that
// matches exists and returns it. A nil match accepts any bot message.
func (s *Server) WaitForBotMessage(ctx context.Context, chatID int64, match func(ChatMessage) bool) (ChatMessage, error) {
	var found ChatMessage
	err := s.WaitFor(ctx, func(v *View) bool {
		v.look(chatID)
		m, ok := s.lastMatching(chatID, func(r *msgRecord) bool {
			return r.msg.FromBot && (match == nil || match(r.msg))
		})
		found = m
		return ok
	})
	return found, err
}

// WaitForEphemeralMessage waits until the newest ephemeral message of the
// bot to the user in the chat that matches exists, and returns it. A nil
// match accepts any.
func (s *Server) WaitForEphemeralMessage(ctx context.Context, chatID, userID int64, match func(ChatMessage) bool) (ChatMessage, error) {
	var found ChatMessage
	err := s.WaitFor(ctx, func(v *View) bool {
		msgs := v.EphemeralMessages(chatID)
		for i := len(msgs) - 1; i >= 0; i-- {
			m := msgs[i]
			if m.FromBot && m.VisibleTo == userID && (match == nil || match(m)) {
				found = m
				return true
			}
		}
		return false
	})
	return found, err
}

// HasButton matches messages showing an inline button labelled label.
func HasButton(label string) func(ChatMessage) bool {
	return func(m ChatMessage) bool {
		_, ok := m.Button(label)
		return ok
	}
}

// TextContains matches messages whose text contains sub.
func TextContains(sub string) func(ChatMessage) bool {
	return func(m ChatMessage) bool { return strings.Contains(m.Text, sub) }
}

// describeMessage renders a message in one line for diagnostics.
func describeMessage(m ChatMessage) string {
	var b strings.Builder
	who := "?"
	switch {
	case m.FromBot:
		who = "bot"
	case m.From != nil:
		who = m.From.FirstName
	}
	if m.IsEphemeral() {
		fmt.Fprintf(&b, "ephemeral #%d %s to %d", m.EphemeralMessageID, who, m.VisibleTo)
	} else {
		fmt.Fprintf(&b, "#%d %s", m.MessageID, who)
	}
	switch {
	case m.Text != "":
		text := m.Text
		if len(text) > 120 {
			text = text[:117] + "..."
		}
		fmt.Fprintf(&b, " %q", text)
	case m.IsService():
		b.WriteString(" (service)")
	}
	if labels := m.Labels(); len(labels) > 0 {
		fmt.Fprintf(&b, " [%s]", strings.Join(labels, " | "))
	}
	if m.EditCount > 0 {
		fmt.Fprintf(&b, " edits=%d", m.EditCount)
	}
	return b.String()
}

// describe summarises chats and recent calls for a timeout error.
func (s *Server) describe(chats map[int64]struct{}) string {
	var b strings.Builder
	ids := make([]int64, 0, len(chats))
	for id := range chats {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		msgs := s.Messages(id)
		fmt.Fprintf(&b, "chat %d has %d messages", id, len(msgs))
		if len(msgs) > 5 {
			msgs = msgs[len(msgs)-5:]
			b.WriteString(", the last 5")
		}
		b.WriteString(": ")
		for i, m := range msgs {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(describeMessage(m))
		}
		b.WriteString(". ")
		if eph := s.EphemeralMessages(id); len(eph) > 0 {
			eph = eph[max(0, len(eph)-3):]
			fmt.Fprintf(&b, "its last ephemeral messages: ")
			for i, m := range eph {
				if i > 0 {
					b.WriteString("; ")
				}
				b.WriteString(describeMessage(m))
			}
			b.WriteString(". ")
		}
	}
	calls := s.RecentCalls()
	if len(calls) > 8 {
		calls = calls[len(calls)-8:]
	}
	b.WriteString("last calls:")
	if len(calls) == 0 {
		b.WriteString(" none")
	}
	for _, c := range calls {
		fmt.Fprintf(&b, " %s=%d", c.Method, c.Code)
		if c.Description != "" {
			fmt.Fprintf(&b, " (%s)", c.Description)
		}
		b.WriteString(";")
	}
	fmt.Fprintf(&b, " pending updates: %d", s.PendingUpdates())
	return b.String()
}
