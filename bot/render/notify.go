package render

import (
	"strings"
	"time"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/game"
)

// The messages of /notify: the answers in a group and in private, and the
// private message that a table opened in a group the user follows. Group
// titles are shown as names are (see Name).

// NotifyToggled answers /notify in a group: the user follows it now (on),
// or no longer does.
func NotifyToggled(name string, on bool, lang i18n.Lang) message.Message {
	key := i18n.NotifyOff
	if on {
		key = i18n.NotifyOn
	}
	return message.Message{Text: i18n.T(lang, key, NameHTML(name))}
}

// NotifyStartFirst answers /notify in a group from a user the bot cannot
// write to yet: a button opens link, the bot's deep link, which starts the
// bot in a private chat.
func NotifyStartFirst(name, link string, lang i18n.Lang) message.Message {
	return message.Message{Text: i18n.T(lang, i18n.NotifyStartFirst, NameHTML(name)),
		Keyboard: [][]message.Button{{{Text: i18n.T(lang, i18n.BtnNotifyStart), URL: link}}}}
}

// NotifyTooMany says the user follows max groups already, the most one
// may follow.
func NotifyTooMany(max int, lang i18n.Lang) message.Message {
	return message.Message{Text: i18n.T(lang, i18n.NotifyTooMany, i18n.Number(int64(max)))}
}

// Followed answers the deep link that made the user follow a group, or
// found that they followed it already.
func Followed(title string, already bool, lang i18n.Lang) message.Message {
	key := i18n.NotifyFollowed
	if already {
		key = i18n.NotifyFollowedAlready
	}
	return message.Message{Text: i18n.T(lang, key, NameHTML(title))}
}

// Follows answers /notify in private: the groups the user follows, each
// with a button that stops it, or how to follow one.
func Follows(fs []Follow, lang i18n.Lang) message.Message {
	if len(fs) == 0 {
		return message.Message{Text: i18n.T(lang, i18n.NotifyListEmpty)}
	}
	lines := []string{i18n.T(lang, i18n.NotifyList)}
	var kb [][]message.Button
	for _, f := range fs {
		lines = append(lines, i18n.T(lang, i18n.NotifyListLine, NameHTML(f.Title)))
		kb = append(kb, []message.Button{{Text: i18n.T(lang, i18n.BtnUnfollow, Name(f.Title)),
			Data: callback.Data{Action: callback.Unfollow, Chat: f.Chat}.String()}})
	}
	lines = append(lines, "", i18n.T(lang, i18n.NotifyListHint))
	return message.Message{Text: strings.Join(lines, "\n"), Keyboard: kb}
}

// Notice is what the private message that a table opened shows.
type Notice struct {
	// Title is the group's; Opener the name of who opened the table.
	Title, Opener string
	// Settings are the table's.
	Settings game.Settings
	// Closes is when the lobby closes if nobody starts; Now when the
	// message is drawn.
	Closes, Now time.Time
	// Link opens the table message; "" for a group that has no links to
	// its messages (a basic group).
	Link string
	Lang i18n.Lang
}

// Opened draws the private message that a table opened: the group, who
// opened it, its stake and entry limit, when it closes, and a button to the
// table (or, without a link, a word to open the group).
func Opened(n Notice) message.Message {
	l := n.Lang
	lines := []string{
		i18n.T(l, i18n.NoticeOpened, NameHTML(n.Title), NameHTML(n.Opener)),
		limits(n.Settings, l),
	}
	if !n.Closes.IsZero() {
		lines = append(lines, i18n.T(l, i18n.TableCloses, timeTag(n.Closes, closingFormat(n.Closes.Sub(n.Now)), l)))
	}
	if n.Link == "" {
		lines = append(lines, i18n.T(l, i18n.NoticeNoLink))
		return message.Message{Text: strings.Join(lines, "\n")}
	}
	return message.Message{Text: strings.Join(lines, "\n"), Keyboard: [][]message.Button{{{Text: i18n.T(l, i18n.BtnOpenTable), URL: n.Link}}}}
}
