package initdata

import (
	"encoding/hex"
	"encoding/json"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// Sign returns the initData Telegram would hand the app for d, signed with
// s: what our own Bot API server, the playground and the tests give the
// page. It writes the fields Data names that are set (auth_date and user
// always; d.Hash is ignored), so that Validate returns d again, its Hash
// set, as long as d.AuthDate is whole seconds and d.User.ID positive.
func (s Secret) Sign(d Data) string {
	fields := map[string]string{
		"auth_date": strconv.FormatInt(d.AuthDate.Unix(), 10),
		"user":      marshal(d.User),
	}
	set := func(key, value string) {
		if value != "" {
			fields[key] = value
		}
	}
	set("start_param", d.StartParam)
	set("chat_type", d.ChatType)
	set("chat_instance", d.ChatInstance)
	set("query_id", d.QueryID)
	if d.Receiver != nil {
		fields["receiver"] = marshal(*d.Receiver)
	}
	if d.Chat != nil {
		fields["chat"] = marshal(*d.Chat)
	}
	if d.CanSendAfter > 0 {
		fields["can_send_after"] = strconv.FormatInt(int64(d.CanSendAfter.Seconds()), 10)
	}
	return s.SignFields(fields)
}

// SignFields returns initData of exactly fields (key to decoded value; a
// "hash" among them is left out) and their hash, keys sorted, hash last,
// each key and value percent-encoded. It is for the tests and tools that
// need fields Data does not name; fields Telegram would not send (an empty
// key, a line feed) give initData that Validate refuses.
func (s Secret) SignFields(fields map[string]string) string {
	list := make([]field, 0, len(fields))
	for k, v := range fields {
		if k != "hash" {
			list = append(list, field{k, v})
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].key < list[j].key })
	sum := s.sum(list)
	var b strings.Builder
	for _, f := range list {
		b.WriteString(url.QueryEscape(f.key))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(f.value))
		b.WriteByte('&')
	}
	b.WriteString("hash=")
	b.WriteString(hex.EncodeToString(sum[:]))
	return b.String()
}

// marshal returns v as compact JSON, as Telegram writes it (no HTML
// escapes).
func marshal(v any) string {
	var b strings.Builder
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		panic(err) // User and Chat are plain fields: they always marshal
	}
	return strings.TrimSuffix(b.String(), "\n")
}
