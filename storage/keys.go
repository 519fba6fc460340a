package storage

import (
	"encoding/binary"

	"github.com/twentyone-bot/twentyone/game"
)

// Keys are big-endian so that bbolt's byte order is numeric order. Signed
// numbers have their sign bit flipped, so that negative chat ids (every
// group's) sort below positive ones.

const signBit = 1 << 63

func putInt(b []byte, v int64) { binary.BigEndian.PutUint64(b, uint64(v)^signBit) }

func getInt(b []byte) int64 { return int64(binary.BigEndian.Uint64(b) ^ signBit) }

func putUint(b []byte, v uint64) { binary.BigEndian.PutUint64(b, v) }

func getUint(b []byte) uint64 { return binary.BigEndian.Uint64(b) }

// chatKey is the key of a chat, and the prefix of everything it owns.
func chatKey(chat int64) []byte {
	k := make([]byte, 8)
	putInt(k, chat)
	return k
}

// tableKeyBytes is chat|thread: the key of a table and of its timer.
func tableKeyBytes(k TableKey) []byte {
	b := make([]byte, 16)
	putInt(b, k.Chat)
	putInt(b[8:], k.Thread)
	return b
}

func parseTableKey(b []byte) TableKey {
	return TableKey{Chat: getInt(b), Thread: getInt(b[8:])}
}

// userKey is chat|user.
func userKey(chat int64, u game.UserID) []byte {
	b := make([]byte, 16)
	putInt(b, chat)
	putInt(b[8:], int64(u))
	return b
}

// rankKey is chat|inverted balance|user: a forward scan of a chat's prefix
// yields the highest balance first, ties by user id.
func rankKey(chat int64, balance int64, u game.UserID) []byte {
	b := make([]byte, 24)
	putInt(b, chat)
	putUint(b[8:], ^(uint64(balance) ^ signBit))
	putInt(b[16:], int64(u))
	return b
}

// entryKey is the key of a ledger entry: the number the ledger bucket's
// sequence gave it. Every chat's entries are appended at the end of one
// bucket, so that a commit of many chats' commands writes their entries on
// the same few pages; each entry links to the user's previous one.
func entryKey(n uint64) []byte {
	b := make([]byte, 8)
	putUint(b, n)
	return b
}

// retireKey is chat|thread|message: an old message of a table, to be
// retired. A prefix scan by tableKeyBytes reads a table's.
func retireKey(k TableKey, messageID int) []byte {
	b := make([]byte, 24)
	putInt(b, k.Chat)
	putInt(b[8:], k.Thread)
	putUint(b[16:], uint64(messageID))
	return b
}

// revealKey is chat|game|thread|version|index: Reveals reads one game of a
// chat with a prefix scan.
func revealKey(k TableKey, gameNo, version uint64, i int) []byte {
	b := make([]byte, 34)
	putInt(b, k.Chat)
	putUint(b[8:], gameNo)
	putInt(b[16:], k.Thread)
	putUint(b[24:], version)
	binary.BigEndian.PutUint16(b[32:], uint16(i))
	return b
}

// hasPrefix reports whether k starts with p.
func hasPrefix(k, p []byte) bool {
	return len(k) >= len(p) && string(k[:len(p)]) == string(p)
}

// withChat returns a copy of key k with its leading chat replaced.
func withChat(k []byte, chat int64) []byte {
	b := append([]byte(nil), k...)
	putInt(b, chat)
	return b
}
