// Package tableref names a table in the Mini App's direct link
// (https://t.me/<bot>/<app>?startapp=<ref>): a short reference that
// Telegram hands back to the app as initData's start_param, and that
// nobody can guess, nor change into another table's, without the key the
// store keeps.
//
// A reference is 44 characters of base64url (A-Z a-z 0-9 _ -, no
// padding), within Telegram's rule for startapp (at most 512 of those
// characters) and our own bound of 64. It encodes 33 bytes:
//
//	version (1 byte, 1) | chat (8 bytes, big-endian) | thread (8 bytes) | tag (16 bytes)
//
// where tag is the first 16 bytes of HMAC-SHA256(key, "twentyone table
// ref\x00" | version | chat | thread). The reference is authenticated, not
// encrypted: whoever holds it can read the chat's id (which every member's
// client knows anyway). It does not expire: it names the chat's table,
// whichever game is on it; who may watch or act is the server's decision,
// made on each request.
package tableref

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/twentyone-bot/twentyone/storage"
)

const (
	// Len is the length of every reference, in characters.
	Len = 44
	// KeySize is the size of a Key, in bytes.
	KeySize = 32

	version = 1
	tagSize = 16
	rawSize = 1 + 8 + 8 + tagSize
	domain  = "twentyone table ref\x00"
)

// ErrInvalid is wrapped by every error Parse returns: the reference is not
// one Ref made with this key.
var ErrInvalid = errors.New("invalid table reference")

// Key is the secret references are made and checked with (NewKey,
// KeyFrom); its zero value is no key, and Parse refuses every reference
// with it. The store keeps one (a new one makes every link shown so far invalid). It prints as
// "tableref.Key(redacted)" with any verb.
type Key struct{ k [KeySize]byte }

// NewKey returns a key drawn from crypto/rand.
func NewKey() Key {
	var k Key
	rand.Read(k.k[:]) // never fails (crypto/rand, Go 1.24 on)
	return k
}

// KeyFrom returns the key whose bytes are b, as Bytes gave them: exactly
// KeySize bytes, not all zero.
func KeyFrom(b []byte) (Key, error) {
	var k Key
	if len(b) != KeySize {
		return Key{}, fmt.Errorf("table reference key: %d bytes, want %d", len(b), KeySize)
	}
	copy(k.k[:], b)
	if k == (Key{}) {
		return Key{}, errors.New("table reference key: all zero")
	}
	return k, nil
}

// Bytes returns the key's bytes, for the store to keep: a copy.
func (k Key) Bytes() []byte { return append([]byte(nil), k.k[:]...) }

// Format prints the key as "tableref.Key(redacted)", whatever the verb, so
// that no log line shows it.
func (Key) Format(f fmt.State, _ rune) { fmt.Fprint(f, "tableref.Key(redacted)") }

// Ref returns the reference of the table t: Len characters of
// [A-Za-z0-9_-], the same for the same key and table.
func (k Key) Ref(t storage.TableKey) string {
	var raw [rawSize]byte
	raw[0] = version
	binary.BigEndian.PutUint64(raw[1:9], uint64(t.Chat))
	binary.BigEndian.PutUint64(raw[9:17], uint64(t.Thread))
	tag := k.tag(raw[:17])
	copy(raw[17:], tag[:tagSize])
	return base64.RawURLEncoding.EncodeToString(raw[:])
}

// Parse returns the table ref names, if Ref made ref with this key.
// Anything else (another length or alphabet, another version, a tag that
// does not match) is refused with an error wrapping ErrInvalid that
// quotes nothing of ref. The tag is compared in constant time.
func (k Key) Parse(ref string) (storage.TableKey, error) {
	if k == (Key{}) {
		return storage.TableKey{}, fmt.Errorf("%w: no key", ErrInvalid)
	}
	if len(ref) != Len {
		return storage.TableKey{}, fmt.Errorf("%w: %d characters, want %d", ErrInvalid, len(ref), Len)
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(ref)
	if err != nil || len(raw) != rawSize {
		return storage.TableKey{}, fmt.Errorf("%w: not base64url", ErrInvalid)
	}
	if raw[0] != version {
		return storage.TableKey{}, fmt.Errorf("%w: version %d", ErrInvalid, raw[0])
	}
	tag := k.tag(raw[:17])
	if !hmac.Equal(raw[17:], tag[:tagSize]) {
		return storage.TableKey{}, fmt.Errorf("%w: tag does not match", ErrInvalid)
	}
	return storage.TableKey{
		Chat:   int64(binary.BigEndian.Uint64(raw[1:9])),
		Thread: int64(binary.BigEndian.Uint64(raw[9:17])),
	}, nil
}

// tag returns the HMAC of body under the key, in this package's context.
func (k Key) tag(body []byte) [sha256.Size]byte {
	m := hmac.New(sha256.New, k.k[:])
	m.Write([]byte(domain))
	m.Write(body)
	var sum [sha256.Size]byte
	m.Sum(sum[:0])
	return sum
}
