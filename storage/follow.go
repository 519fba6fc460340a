package storage

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/twentyone-bot/twentyone/game"
)

// Who follows which group: a user who follows a group gets a private
// message when a table opens there. The bot may write to a user only once
// the user started it in a private chat, so storage keeps that too (the
// private bucket), and a user without a private chat follows nothing.

// MaxFollows is how many groups one user may follow.
const MaxFollows = 20

// ErrNoPrivateChat: the user never started the bot in a private chat, or
// blocked it since; the bot cannot write to them.
var ErrNoPrivateChat = errors.New("no private chat with the user")

// ErrTooManyFollows: the user follows MaxFollows groups already.
var ErrTooManyFollows = errors.New("the user follows too many groups")

// Follow is a group a user follows.
type Follow struct {
	Chat int64
	// Title is the group's title, as last seen.
	Title string
	Since time.Time
}

// Follower is a user to tell that a table opened in a group they follow.
type Follower struct {
	User game.UserID
	// Language is the user's Telegram language code, as last seen in
	// their private chat.
	Language string
}

// privateRec is a user the bot may write to: when the private chat became
// known, and the user's language code.
type privateRec struct {
	since    int64 // Unix ms
	language string
}

func (p *privateRec) encode() []byte {
	b := []byte{recordFormat}
	b = binary.AppendVarint(b, p.since)
	return appendStr(b, p.language)
}

func decodePrivate(v []byte) (privateRec, error) {
	r := newRecReader(v)
	p := privateRec{since: r.varint(), language: r.str()}
	return p, r.done()
}

// followRec is a user's following of a group: since when, when they were
// last told of a table there, and the group's title as last seen.
type followRec struct {
	since    int64 // Unix ms
	lastSent int64 // Unix ms, 0 when never
	title    string
}

func (f *followRec) encode() []byte {
	b := []byte{recordFormat}
	b = binary.AppendVarint(b, f.since)
	b = binary.AppendVarint(b, f.lastSent)
	return appendStr(b, f.title)
}

func decodeFollow(v []byte) (followRec, error) {
	r := newRecReader(v)
	f := followRec{since: r.varint(), lastSent: r.varint(), title: r.str()}
	return f, r.done()
}

// privateKey is the key of a user's private chat.
func privateKey(u game.UserID) []byte { return chatKey(int64(u)) }

// followKey is chat|user: a chat's followers sit together.
func followKey(chat int64, u game.UserID) []byte { return userKey(chat, u) }

// followingKey is user|chat: the index of the groups a user follows.
func followingKey(u game.UserID, chat int64) []byte { return userKey(int64(u), game.UserID(chat)) }

// private returns the user's private chat record; ok is false when the
// bot may not write to them.
func (t *txn) private(u game.UserID) (privateRec, bool, error) {
	v := t.tx.Bucket(bucketPrivate).Get(privateKey(u))
	if v == nil {
		return privateRec{}, false, nil
	}
	p, err := decodePrivate(v)
	if err != nil {
		return privateRec{}, false, t.corruptAt(fmt.Sprintf("private chat of user %d", u), err)
	}
	return p, true, nil
}

// notePrivate records that the user has a private chat with the bot,
// with their language; it writes only what changed.
func (t *txn) notePrivate(u User, now time.Time) error {
	p, ok, err := t.private(u.ID)
	if err != nil {
		return err
	}
	lang := cleanString(u.Language)
	if ok && (lang == "" || lang == p.language) {
		return nil
	}
	if !ok {
		p.since = timeMs(now)
	}
	if lang != "" {
		p.language = lang
	}
	return t.tx.Bucket(bucketPrivate).Put(privateKey(u.ID), p.encode())
}

// follow returns the user's following of the chat; ok is false when they
// do not follow it.
func (t *txn) follow(chat int64, u game.UserID) (followRec, bool, error) {
	v := t.tx.Bucket(bucketFollows).Get(followKey(chat, u))
	if v == nil {
		return followRec{}, false, nil
	}
	f, err := decodeFollow(v)
	if err != nil {
		return followRec{}, false, t.corruptAt(fmt.Sprintf("follow of chat %d by user %d", chat, u), err)
	}
	return f, true, nil
}

func (t *txn) putFollow(chat int64, u game.UserID, f *followRec) error {
	if err := t.tx.Bucket(bucketFollows).Put(followKey(chat, u), f.encode()); err != nil {
		return err
	}
	return t.tx.Bucket(bucketFollowing).Put(followingKey(u, chat), present)
}

func (t *txn) deleteFollow(chat int64, u game.UserID) error {
	if err := t.tx.Bucket(bucketFollows).Delete(followKey(chat, u)); err != nil {
		return err
	}
	return t.tx.Bucket(bucketFollowing).Delete(followingKey(u, chat))
}

// following returns the chats the user follows, in key order.
func (t *txn) following(u game.UserID) []int64 {
	var chats []int64
	for _, k := range keysWithPrefix(t.tx.Bucket(bucketFollowing), privateKey(u)) {
		chats = append(chats, getInt(k[8:]))
	}
	return chats
}

// startFollowing makes the user follow the chat, when they have a private
// chat and follow fewer than MaxFollows groups; it reports whether they
// followed it already.
func (t *txn) startFollowing(chat int64, u game.UserID, title string, now time.Time) (bool, error) {
	if _, ok, err := t.private(u); err != nil || !ok {
		return false, firstErr(err, fmt.Errorf("%w: user %d", ErrNoPrivateChat, u))
	}
	f, ok, err := t.follow(chat, u)
	if err != nil || ok {
		return ok, err
	}
	if n := len(t.following(u)); n >= MaxFollows {
		return false, fmt.Errorf("%w: user %d follows %d", ErrTooManyFollows, u, n)
	}
	f = followRec{since: timeMs(now), title: cleanString(title)}
	return false, t.putFollow(chat, u, &f)
}

// StartedPrivate records that the user has a private chat with the bot (they
// wrote to it there): from now on the bot may write to them, until they
// block it (StopPrivate). It keeps their language code; it writes only
// what changed.
func (s *Store) StartedPrivate(ctx context.Context, u User, now time.Time) error {
	if u.ID <= 0 {
		return fmt.Errorf("%w: user %d", game.ErrInvalidInput, u.ID)
	}
	return firstErr(s.write(ctx, func(t *txn) error { return t.notePrivate(u, now) }))
}

// ToggleFollow makes the user follow the group chat when they do not, and
// stop when they do, and reports whether they follow it now. title is the
// group's title. update is the Telegram update that asked for it (0:
// none), stored as the chat's last handled one as Apply does: the same
// update delivered again returns ErrDuplicate with the state the first one
// left, and changes nothing. A user with no private chat is
// ErrNoPrivateChat, one who follows MaxFollows groups ErrTooManyFollows;
// neither changes anything.
func (s *Store) ToggleFollow(ctx context.Context, chat int64, u User, title string, update int64, now time.Time) (bool, error) {
	if err := checkUser(chat, u); err != nil {
		return false, err
	}
	var on bool
	rejected, err := s.write(ctx, func(t *txn) error {
		c, crec, known, err := t.resolve(chat)
		if err != nil {
			return reject(err)
		}
		_, on, err = t.follow(c, u.ID)
		if err != nil {
			return reject(err)
		}
		if crec.handled(update, now) {
			return reject(duplicate(update, c))
		}
		if on {
			err = t.deleteFollow(c, u.ID)
		} else if _, err = t.startFollowing(c, u.ID, title, now); err != nil {
			return reject(err)
		}
		if err != nil {
			return err
		}
		on = !on
		if !known {
			crec.created = timeMs(now)
		}
		crec.markHandled(update, now, nil)
		return t.putChat(c, &crec)
	})
	return on, firstErr(err, rejected)
}

// Follow makes the user, who writes to the bot in their private chat,
// follow the group chat, and records that private chat (see
// StartedPrivate), in one transaction; it reports whether they followed it
// already. title is the group's title. A user who follows MaxFollows
// groups is ErrTooManyFollows: only the private chat is recorded. The
// caller checks that the user is a member of the group.
func (s *Store) Follow(ctx context.Context, chat int64, u User, title string, now time.Time) (bool, error) {
	if err := checkUser(chat, u); err != nil {
		return false, err
	}
	var already, full bool
	rejected, err := s.write(ctx, func(t *txn) error {
		already, full = false, false
		c, crec, known, err := t.resolve(chat)
		if err != nil {
			return reject(err)
		}
		if err := t.notePrivate(u, now); err != nil {
			return err
		}
		already, err = t.startFollowing(c, u.ID, title, now)
		switch {
		case errors.Is(err, ErrTooManyFollows):
			full = true
			return nil // the private chat is recorded all the same
		case err != nil || known:
			return err
		}
		// A chat record, so that MigrateChat moves the followers of a
		// group where nothing else happened.
		crec.created = timeMs(now)
		return t.putChat(c, &crec)
	})
	if err := firstErr(err, rejected); err != nil {
		return false, err
	}
	if full {
		return false, fmt.Errorf("%w: user %d", ErrTooManyFollows, u.ID)
	}
	return already, nil
}

// Unfollow makes the user stop following the chat, and reports whether
// they followed it.
func (s *Store) Unfollow(ctx context.Context, chat int64, user game.UserID) (bool, error) {
	var was bool
	rejected, err := s.write(ctx, func(t *txn) error {
		c, _, _, err := t.resolve(chat)
		if err != nil {
			return reject(err)
		}
		if _, was, err = t.follow(c, user); err != nil || !was {
			return reject(err)
		}
		return t.deleteFollow(c, user)
	})
	return was, firstErr(err, rejected)
}

// MemberLeft records that the user left the group chat, or was removed
// from it, in update: they stop following it, and it reports whether they
// did. One transaction, which records the update as the chat's last
// handled one, as Apply does: delivered again, the update returns
// ErrDuplicate and changes nothing (a follow made since stays). A chat
// storage keeps nothing of has no followers: nothing is written.
func (s *Store) MemberLeft(ctx context.Context, chat int64, user game.UserID, update int64, now time.Time) (bool, error) {
	var was bool
	rejected, err := s.write(ctx, func(t *txn) error {
		was = false
		c, crec, known, err := t.resolve(chat)
		if err != nil || !known {
			return reject(err)
		}
		if crec.handled(update, now) {
			return reject(duplicate(update, c))
		}
		if _, was, err = t.follow(c, user); err != nil {
			return reject(err)
		}
		if was {
			if err := t.deleteFollow(c, user); err != nil {
				return err
			}
		}
		crec.markHandled(update, now, nil)
		return t.putChat(c, &crec)
	})
	return was, firstErr(err, rejected)
}

// Follows returns the groups the user follows, the oldest first.
func (s *Store) Follows(ctx context.Context, user game.UserID) ([]Follow, error) {
	var out []Follow
	err := s.read(ctx, func(t *txn) error {
		out = nil
		for _, chat := range t.following(user) {
			f, ok, err := t.follow(chat, user)
			if err != nil {
				return err
			}
			if ok {
				out = append(out, Follow{Chat: chat, Title: f.title, Since: msTime(f.since)})
			}
		}
		return nil
	})
	slices.SortStableFunc(out, func(a, b Follow) int { return a.Since.Compare(b.Since) })
	return out, err
}

// StopPrivate forgets the user's private chat and every group they follow,
// in one transaction: they blocked the bot, or Telegram refused a message
// to them. It returns how many groups they followed.
func (s *Store) StopPrivate(ctx context.Context, user game.UserID) (int, error) {
	var n int
	rejected, err := s.write(ctx, func(t *txn) error {
		n = 0
		chats := t.following(user)
		_, known, err := t.private(user)
		if err != nil {
			return reject(err)
		}
		if !known && len(chats) == 0 {
			return nil
		}
		for _, chat := range chats {
			if err := t.deleteFollow(chat, user); err != nil {
				return err
			}
		}
		n = len(chats)
		return t.tx.Bucket(bucketPrivate).Delete(privateKey(user))
	})
	return n, firstErr(err, rejected)
}

// Announce returns the followers of the chat to tell that opener opened a
// table there at now: every follower but opener who was not told of a
// table there within quiet, in key order. It records them as told at now,
// and the chat's title, in one transaction.
func (s *Store) Announce(ctx context.Context, chat int64, opener game.UserID, title string, now time.Time, quiet time.Duration) ([]Follower, error) {
	var out []Follower
	rejected, err := s.write(ctx, func(t *txn) error {
		out = nil
		c, _, _, err := t.resolve(chat)
		if err != nil {
			return reject(err)
		}
		title = cleanString(title)
		for _, k := range keysWithPrefix(t.tx.Bucket(bucketFollows), chatKey(c)) {
			u := game.UserID(getInt(k[8:]))
			f, _, err := t.follow(c, u)
			if err != nil {
				return err
			}
			p, ok, err := t.private(u)
			if err != nil {
				return err
			}
			tell := ok && u != opener && (f.lastSent == 0 || now.Sub(msTime(f.lastSent)) >= quiet)
			if !tell && (title == "" || title == f.title) {
				continue
			}
			if title != "" {
				f.title = title
			}
			if tell {
				f.lastSent = timeMs(now)
				out = append(out, Follower{User: u, Language: p.language})
			}
			if err := t.putFollow(c, u, &f); err != nil {
				return err
			}
		}
		return nil
	})
	return out, firstErr(err, rejected)
}

// moveFollows moves from's followers to to, for MigrateChat; a user who
// follows both keeps to's.
func (t *txn) moveFollows(from, to int64) error {
	for _, k := range keysWithPrefix(t.tx.Bucket(bucketFollows), chatKey(from)) {
		u := game.UserID(getInt(k[8:]))
		f, _, err := t.follow(from, u)
		if err != nil {
			return err
		}
		if err := t.deleteFollow(from, u); err != nil {
			return err
		}
		_, ok, err := t.follow(to, u)
		if err != nil {
			return err
		}
		if ok {
			continue
		}
		if err := t.putFollow(to, u, &f); err != nil {
			return err
		}
	}
	return nil
}
