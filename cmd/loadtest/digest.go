package main

import (
	"regexp"
	"strings"
	"time"
)

// Digests: the bot sends the answers that go to a group while they wait
// for its turn as one message (bot/send digest.go, render.Digest): parts
// a blank line apart, each headed by a line naming its askers and what
// they asked, "Ann, /balance:", "Ann, Bob, /stats:" (the same answer to
// both), "Ann, /stats; Bob, /history:", each name a mention, the answer
// on the lines after. The load tool places each asker of a heading with
// their oldest open ask sent ephemerally (they have one at most).

// digestHeading matches a line that heads a part of a digest answering
// the commands the players ask: what follows the last ", " of each
// segment ("; " apart) is one of askCommands.
var digestHeading = regexp.MustCompile(`^(.+, /(` + strings.Join(askCommands, "|") + `))(; .+, /(` +
	strings.Join(askCommands, "|") + `))*:$`)

// digestAskers returns the askers a digest's text names in its headings,
// by name with what they asked ("/balance"), in order; none for a text
// whose first line heads no part: no digest.
func digestAskers(text string) (names, asked []string) {
	lines := strings.Split(text, "\n")
	if !digestHeading.MatchString(lines[0]) {
		return nil, nil
	}
	for _, line := range lines {
		if !digestHeading.MatchString(line) {
			continue
		}
		for _, seg := range strings.Split(strings.TrimSuffix(line, ":"), "; ") {
			i := strings.LastIndex(seg, ", /")
			if i < 0 {
				continue
			}
			for _, name := range strings.Split(seg[:i], ", ") {
				names, asked = append(names, name), append(asked, seg[i+2:])
			}
		}
	}
	return names, asked
}

// seenDigest places the answers of a digest sent into chat at at, if text
// is one; l.mu is held.
func (l *askLog) seenDigest(chat int64, text string, at time.Time) {
	names, _ := digestAskers(text)
	if len(names) == 0 {
		return
	}
	l.digests = append(l.digests, at)
	for _, name := range names {
		l.place(chat, l.oldestOpen(chat, func(o *ask) bool { return o.ephemeral && o.name == name }), answeredDigest, at)
	}
}
