package render

import (
	"strconv"
	"strings"

	"github.com/twentyone-bot/twentyone/bot/message"
)

// A digest is one message to a group that holds the answers of several of
// its members, each headed by whom it answers and what they asked: the
// bot sends one where several members' personal answers wait to go to
// the group at once (send.Sender.Tell), so that they take one of the
// group's writes, not one each. It adds no words of its own: a part's
// heading is its askers' names, each a mention (which notifies them, as
// a reply to their command did), and what they asked as they asked it
// ("/balance", a button's label in the chat's language), so it reads the
// same in every language the bot speaks; each answer is as it was
// written, in its own language.

// Asker is a member whose answer a digest holds, and what they asked.
type Asker struct {
	ID   int64
	Name string
	// Asked is what they asked, plain text: the command ("/balance"), or
	// the label of the button they pressed.
	Asked string
}

// DigestPart is one answer's part of a digest: its heading and its text,
// measured once.
type DigestPart struct {
	html string
	size int
}

// digestSep separates the parts of a digest: a blank line.
const digestSep = "\n\n"

// NewDigestPart returns the part of a digest that holds text, an answer
// (HTML), for askers (one, or several given the same answer): headed
// "Alice, /balance:", or for several "Alice, Bob, /help:" when they
// asked the same, else "Alice, /help; Bob, /start:", the answer on the
// next line.
func NewDigestPart(askers []Asker, text string) DigestPart {
	var heads []string
	same := true
	for _, a := range askers {
		same = same && a.Asked == askers[0].Asked
	}
	for i, a := range askers {
		mention := `<a href="tg://user?id=` + strconv.FormatInt(a.ID, 10) + `">` + NameHTML(a.Name) + "</a>"
		switch {
		case a.Asked == "" || same && i < len(askers)-1:
			heads = append(heads, mention)
		default:
			heads = append(heads, mention+", "+escape(a.Asked))
		}
	}
	sep := "; "
	if same {
		sep = ", "
	}
	html := strings.Join(heads, sep) + ":\n" + text
	return DigestPart{html: html, size: visibleLen(html)}
}

// DigestFits returns how many of parts, from the first, one digest holds
// within MaxText: at least one (a single answer goes alone, as it is,
// and fits as it did), and never one past the first that does not fit,
// so that the answers keep their order.
func DigestFits(parts []DigestPart) int {
	if len(parts) == 0 {
		return 0
	}
	size := parts[0].size
	n := 1
	for ; n < len(parts); n++ {
		size += utf16Len(digestSep) + parts[n].size
		if size > MaxText {
			break
		}
	}
	return n
}

// Digest is the message that holds parts, in their order, a blank line
// between two: no buttons (an answer with buttons goes alone), within
// MaxText when DigestFits(parts) holds all of them.
func Digest(parts []DigestPart) message.Message {
	html := make([]string, len(parts))
	for i, p := range parts {
		html[i] = p.html
	}
	return message.Message{Text: strings.Join(html, digestSep)}
}
