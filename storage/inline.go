package storage

import (
	"errors"
	"fmt"
	"hash/fnv"

	bolt "go.etcd.io/bbolt"
)

// Tables on inline messages: a table whose request to open it carried an
// Inline (see ApplyRequest.Inline) keeps that record in the inline bucket
// under the table's key, written in the transaction that opened the table
// and moved or deleted with it (MigrateChat). Apply plays every command on
// the table by the record's settings, and every View of the table reports
// it (View.Inline, View.Settings.Game).

// validate returns an error that says what is wrong with the record, or
// nil.
func (in *Inline) validate() error {
	switch {
	case in.MessageID == "":
		return errors.New("inline message id is empty")
	case len(in.MessageID) > MaxInlineMessageID:
		return fmt.Errorf("inline message id of %d bytes, at most %d", len(in.MessageID), MaxInlineMessageID)
	}
	if err := in.Settings.Validate(); err != nil {
		return fmt.Errorf("inline message's settings: %w", err)
	}
	return nil
}

// InlineChats bounds the ids of the chats of inline messages: the
// synthetic ids the bot derives for them are below it, where no Telegram
// chat is (their ids have at most 52 significant bits).
const InlineChats = -(1 << 60)

// InlineChat reports whether chat is the id of a chat of inline messages
// (below InlineChats). Only a table of such a chat can be on an inline
// message.
func InlineChat(chat int64) bool { return chat < InlineChats }

// A chat the bot is not in is known only by the chat_instance of the
// presses in it (an opaque string, the same for every press there); its
// chips and stats are kept as a chat's, under the id InlineChatID gives.
// A table on an inline message is that chat's table of the thread
// InlineThreadID gives.

// InlineChatID returns the id the chat of chatInstance is kept under:
// below InlineChats (InlineChat reports it), the same for every press in
// that chat.
func InlineChatID(chatInstance string) int64 {
	h := fnv.New64a()
	h.Write([]byte(chatInstance))
	return InlineChats - 1 - int64(h.Sum64()>>4) // at most 2^60 below
}

// InlineThreadID returns the thread of the table on the inline message
// inlineMessageID: positive, the same for every press on it.
func InlineThreadID(inlineMessageID string) int64 {
	h := fnv.New64a()
	h.Write([]byte(inlineMessageID))
	return int64(h.Sum64()>>2) + 1
}

// inlineRecords returns the inline bucket, opened on first use.
func (t *txn) inlineRecords() *bolt.Bucket {
	if t.inline == nil {
		t.inline = t.tx.Bucket(bucketInline)
	}
	return t.inline
}

// inlineOf returns the Inline record of the table at key, the caller's own
// copy; nil when the table is no inline message's. A record that does not
// decode is ErrCorrupt naming the table. Only a chat of inline messages
// (InlineChat) is looked up.
func (t *txn) inlineOf(key TableKey) (*Inline, error) {
	if !InlineChat(key.Chat) {
		return nil, nil
	}
	v := t.inlineRecords().Get(tableKeyBytes(key))
	if v == nil {
		return nil, nil
	}
	in, err := t.decodeInline(v)
	if err != nil {
		return nil, t.corruptAt(fmt.Sprintf("inline message of chat %d thread %d", key.Chat, key.Thread), err)
	}
	return in, nil
}

// putInline writes the Inline record of the table at key.
func (t *txn) putInline(key TableKey, in *Inline) error {
	v, err := encodeInline(in)
	if err != nil {
		return err
	}
	return t.inlineRecords().Put(tableKeyBytes(key), v)
}

// decodeInline decodes a stored Inline record (see encodeInline). Its
// settings go through the settings cache, which checks them: most tables
// on inline messages share one of a few presets.
func (t *txn) decodeInline(v []byte) (*Inline, error) {
	r := newRecReader(v)
	id := r.str()
	if r.err != nil {
		return nil, r.err
	}
	rec, err := t.s.settings.decode(r.b)
	if err != nil {
		return nil, err
	}
	if rec.Game == nil || rec.Language != "" || rec.NoHouse != nil {
		return nil, fmt.Errorf("%w: inline message's settings are no table's", errRecord)
	}
	in := &Inline{MessageID: id, Settings: *rec.Game}
	if err := in.validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", errRecord, err)
	}
	return in, nil
}
