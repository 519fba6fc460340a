// Package initdata checks who opened the Mini App: it parses and
// validates the initData string Telegram hands the app (the page reads it
// from its URL fragment, #tgWebAppData=..., and sends it with every
// request), and signs such strings for our own Bot API server, the
// playground and the tests.
//
// The check is the one Telegram's Mini Apps documentation gives
// (https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app):
//
//	data_check_string = every field but hash, sorted by key, as key=value
//	                    (the values decoded), joined by "\n"
//	secret_key        = HMAC_SHA256(key "WebAppData", message <bot token>)
//	valid             ⇔ hex(HMAC_SHA256(key secret_key, data_check_string)) == hash
//
// and auth_date (Unix seconds, Telegram's clock) must be recent. Every other
// field, the optional Ed25519 "signature" for third parties included, is
// signed like any other and is not checked on its own.
//
// initData is untrusted input: Validate reads at most MaxLen bytes, refuses
// anything Telegram does not send (a field twice, an empty key, a raw line
// feed in a value), checks the hash before it decodes a field, and compares
// in constant time. It knows nothing of tables or chips: the caller decides
// what the user may do.
package initdata

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Limits of what Validate reads.
const (
	// MaxLen is the longest initData Validate reads, in bytes (Telegram's
	// is a few hundred; a user with a long name, a photo and a chat stays
	// well under 2 KiB).
	MaxLen = 8 << 10
	// MaxFields is the most fields Validate reads (Telegram sends at most
	// about ten).
	MaxFields = 32
	// MaxStartParam is the longest start_param Telegram passes: the
	// startapp parameter of a direct link, up to 512 characters of
	// A-Z a-z 0-9 _ -.
	MaxStartParam = 512
	// FutureSkew is how far in the future of the caller's clock auth_date
	// may be: Telegram's clock and ours differ a little.
	FutureSkew = time.Minute
)

// The errors Validate returns wrap exactly one of these; compare with
// errors.Is. Each maps to one answer: ErrMissing and ErrMalformed are the
// client's mistake (400), ErrBadHash and ErrExpired a refusal (401).
var (
	// ErrMissing: there is no initData at all.
	ErrMissing = errors.New("initData missing")
	// ErrMalformed: initData is not as Telegram sends it (too long, not a
	// query string, a field twice, no hash or no auth_date, a field that
	// does not decode).
	ErrMalformed = errors.New("initData malformed")
	// ErrBadHash: the hash does not match: forged, changed, or signed with
	// another bot's token.
	ErrBadHash = errors.New("initData hash does not match")
	// ErrExpired: auth_date is older than the caller's maximum age, or
	// later than now plus FutureSkew.
	ErrExpired = errors.New("initData expired")
)

// Secret is the key initData is signed with, derived from the bot token
// (NewSecret); its zero value is no key and validates nothing. It lets
// its holder sign initData for any user, so it prints as
// "initdata.Secret(redacted)" with any verb.
type Secret struct{ key [sha256.Size]byte }

// NewSecret returns the secret of the bot whose token is token:
// HMAC-SHA256 keyed by "WebAppData" over the token. Derive it once; each
// Validate then costs one HMAC.
func NewSecret(token string) Secret {
	m := hmac.New(sha256.New, []byte("WebAppData"))
	m.Write([]byte(token))
	var s Secret
	m.Sum(s.key[:0])
	return s
}

// Format prints the secret as "initdata.Secret(redacted)", whatever the
// verb, so that no log line shows it.
func (Secret) Format(f fmt.State, _ rune) { fmt.Fprint(f, "initdata.Secret(redacted)") }

// User is a Telegram user as initData describes them (WebAppUser).
type User struct {
	ID              int64  `json:"id"`
	IsBot           bool   `json:"is_bot,omitempty"`
	FirstName       string `json:"first_name"`
	LastName        string `json:"last_name,omitempty"`
	Username        string `json:"username,omitempty"`
	LanguageCode    string `json:"language_code,omitempty"`
	IsPremium       bool   `json:"is_premium,omitempty"`
	AllowsWriteToPM bool   `json:"allows_write_to_pm,omitempty"`
	PhotoURL        string `json:"photo_url,omitempty"`
}

// Chat is the chat of an app opened from the attachment menu (WebAppChat).
type Chat struct {
	ID       int64  `json:"id"`
	Type     string `json:"type"`
	Title    string `json:"title"`
	Username string `json:"username,omitempty"`
	PhotoURL string `json:"photo_url,omitempty"`
}

// Data is a valid initData, decoded. Fields Telegram did not send are
// zero; fields it sends that Data does not name were checked all the same.
type Data struct {
	// AuthDate is when Telegram signed it, to the second.
	AuthDate time.Time
	// User is who opened the app; its ID is positive.
	User User
	// StartParam is the startapp parameter of the direct link the app was
	// opened by: at most MaxStartParam characters of A-Z a-z 0-9 _ -.
	StartParam string
	// ChatType is the type of the chat the app was opened from ("sender",
	// "private", "group", "supergroup", "channel"), for direct links.
	ChatType string
	// ChatInstance is the global identifier of the chat the app was opened
	// from, for direct links.
	ChatInstance string
	// QueryID is the app's session, for answerWebAppQuery.
	QueryID string
	// Receiver and Chat are set for apps opened from the attachment menu.
	Receiver *User
	Chat     *Chat
	// CanSendAfter is how long until answerWebAppQuery may be called.
	CanSendAfter time.Duration
	// Hash is the initData's hash, 64 lowercase hex digits: one per
	// signed string, so it can key what the caller remembers of it.
	Hash string
}

// Validate checks raw as Telegram's documentation says, with s the bot's
// secret, and returns what it says. It refuses (ErrExpired) an initData
// signed more than maxAge before now or more than FutureSkew after it.
// The zero Secret, which anyone could sign with, accepts nothing
// (ErrBadHash). Errors wrap exactly one of ErrMissing, ErrMalformed,
// ErrBadHash, ErrExpired, and quote nothing of raw but the names of the
// fields Data names. Validate is pure: it may be called any number of
// times, from any goroutine.
func (s Secret) Validate(raw string, now time.Time, maxAge time.Duration) (Data, error) {
	fields, hash, err := parse(raw)
	if err != nil {
		return Data{}, err
	}
	want := s.sum(fields)
	if !hmac.Equal(hash, want[:]) || s == (Secret{}) {
		return Data{}, ErrBadHash
	}
	d, err := decode(fields)
	if err != nil {
		return Data{}, err
	}
	d.Hash = hex.EncodeToString(hash)
	switch age := now.Sub(d.AuthDate); {
	case age > maxAge:
		return Data{}, fmt.Errorf("%w: signed %s ago, at most %s", ErrExpired, age.Round(time.Second), maxAge)
	case age < -FutureSkew:
		return Data{}, fmt.Errorf("%w: signed %s in the future", ErrExpired, (-age).Round(time.Second))
	}
	return d, nil
}

// field is one key=value of initData, both decoded.
type field struct{ key, value string }

// parse splits raw into its fields but hash, sorted by key, and the hash's
// 32 bytes. It accepts only what Telegram sends: key=value pairs joined by
// '&', percent-encoded, each key once, no empty key, no line feed (it would
// let one data-check string read as other fields).
func parse(raw string) ([]field, []byte, error) {
	switch {
	case raw == "":
		return nil, nil, ErrMissing
	case len(raw) > MaxLen:
		return nil, nil, fmt.Errorf("%w: %d bytes, at most %d", ErrMalformed, len(raw), MaxLen)
	}
	parts := strings.Split(raw, "&")
	if len(parts) > MaxFields {
		return nil, nil, fmt.Errorf("%w: %d fields, at most %d", ErrMalformed, len(parts), MaxFields)
	}
	var hash []byte
	fields := make([]field, 0, len(parts))
	seen := make(map[string]bool, len(parts))
	for i, part := range parts {
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return nil, nil, fmt.Errorf("%w: field %d has no '='", ErrMalformed, i+1)
		}
		key, err1 := url.QueryUnescape(k)
		value, err2 := url.QueryUnescape(v)
		switch {
		case err1 != nil || err2 != nil:
			return nil, nil, fmt.Errorf("%w: field %d: bad percent-encoding", ErrMalformed, i+1)
		case key == "" || strings.ContainsAny(key, "=\n") || strings.Contains(value, "\n"):
			return nil, nil, fmt.Errorf("%w: field %d: empty key, or a line feed", ErrMalformed, i+1)
		case seen[key]:
			return nil, nil, fmt.Errorf("%w: field %d repeats a key", ErrMalformed, i+1)
		}
		seen[key] = true
		if key == "hash" {
			h, err := hex.DecodeString(value)
			if err != nil || len(h) != sha256.Size || value != strings.ToLower(value) {
				return nil, nil, fmt.Errorf("%w: hash is not 64 lowercase hex digits", ErrMalformed)
			}
			hash = h
			continue
		}
		fields = append(fields, field{key, value})
	}
	if hash == nil {
		return nil, nil, fmt.Errorf("%w: no hash", ErrMalformed)
	}
	sort.Slice(fields, func(i, j int) bool { return fields[i].key < fields[j].key })
	return fields, hash, nil
}

// sum returns the HMAC of fields' data-check string, fields sorted by key
// and without hash.
func (s Secret) sum(fields []field) [sha256.Size]byte {
	m := hmac.New(sha256.New, s.key[:])
	for i, f := range fields {
		if i > 0 {
			m.Write([]byte{'\n'})
		}
		m.Write([]byte(f.key))
		m.Write([]byte{'='})
		m.Write([]byte(f.value))
	}
	var sum [sha256.Size]byte
	m.Sum(sum[:0])
	return sum
}

// decode reads the fields Data names from fields, already authenticated.
func decode(fields []field) (Data, error) {
	var d Data
	var hasDate, hasUser bool
	for _, f := range fields {
		var err error
		switch f.key {
		case "auth_date":
			hasDate = true
			var sec int64
			if sec, err = seconds(f.value); err == nil {
				d.AuthDate = time.Unix(sec, 0)
			}
		case "user":
			hasUser = true
			err = object(f.value, &d.User)
			if err == nil && d.User.ID <= 0 {
				err = errors.New("no positive id")
			}
		case "receiver":
			d.Receiver = new(User)
			err = object(f.value, d.Receiver)
		case "chat":
			d.Chat = new(Chat)
			err = object(f.value, d.Chat)
		case "start_param":
			d.StartParam = f.value
			if !ValidStartParam(f.value) {
				err = errors.New("not [A-Za-z0-9_-]{1,512}")
			}
		case "can_send_after":
			var sec int64
			if sec, err = seconds(f.value); err == nil {
				d.CanSendAfter = time.Duration(sec) * time.Second
			}
		case "chat_type":
			d.ChatType = f.value
		case "chat_instance":
			d.ChatInstance = f.value
		case "query_id":
			d.QueryID = f.value
		}
		if err != nil {
			return Data{}, fmt.Errorf("%w: %s: %w", ErrMalformed, f.key, err)
		}
	}
	switch {
	case !hasDate:
		return Data{}, fmt.Errorf("%w: no auth_date", ErrMalformed)
	case !hasUser:
		return Data{}, fmt.Errorf("%w: no user", ErrMalformed)
	}
	return d, nil
}

// maxSeconds bounds the numbers of seconds initData carries, so that a
// time.Duration of them does not overflow (about 292 years).
const maxSeconds = int64(1<<63-1) / int64(time.Second)

// seconds parses a count of seconds: decimal digits only, at most
// maxSeconds.
func seconds(s string) (int64, error) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, errors.New("not a decimal number")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n > maxSeconds {
		return 0, errors.New("out of range")
	}
	return n, nil
}

// object decodes a JSON object into v, ignoring fields v does not name
// (Telegram adds fields over time).
func object(s string, v any) error {
	if !strings.HasPrefix(s, "{") {
		return errors.New("not a JSON object")
	}
	if err := json.Unmarshal([]byte(s), v); err != nil {
		return errors.New("not a JSON object of the right fields")
	}
	return nil
}

// ValidStartParam reports whether p may be a direct link's startapp
// parameter: 1 to MaxStartParam characters of A-Z a-z 0-9 _ - (Telegram's
// rule; an empty parameter is sent as none).
func ValidStartParam(p string) bool {
	if p == "" || len(p) > MaxStartParam {
		return false
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
