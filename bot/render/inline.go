package render

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/twentyone-bot/twentyone/bot/button"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/message"
	"github.com/twentyone-bot/twentyone/game"
)

// What a table on an inline message shows before and besides the table
// itself: the inline result that offers it, the message it posts, and the
// answers the bot can give there only as alerts (at most MaxAlert
// characters).

// MaxAlert is Telegram's limit on a callback answer's text.
const MaxAlert = 200

// InlineResult returns the title and description of the inline result
// that offers a table playing by s.
func InlineResult(s game.Settings, lang i18n.Lang) (title, description string) {
	return i18n.T(lang, i18n.InlineTitle, i18n.Number(s.Stake)), i18n.T(lang, i18n.InlineDescription, i18n.Number(s.EntryLimit))
}

// InlineLobby is the message an inline result posts: a table to open,
// playing by s, speaking lang, whose one button (button.Rows: callback.InlineOpen)
// opens it and seats its presser. No table exists until pressed: the
// chat it is in is known only from a press.
func InlineLobby(s game.Settings, lang i18n.Lang) message.Message {
	text := strings.Join([]string{
		bold(i18n.T(lang, i18n.TableTitleLobby)),
		limits(s, lang),
		"",
		i18n.T(lang, i18n.TableNobody),
		i18n.T(lang, i18n.InlineOpenHint),
	}, "\n")
	never := button.State{Table: &game.Table{}, Kind: button.Inline, Settings: s, Lang: lang}
	return message.Message{Text: text, Keyboard: layOut(button.Keyboard(never))}
}

// TopAlert is the leaderboard of an inline table's chat as an alert: the
// players by balance, as many as fit MaxAlert characters.
func TopAlert(rows []Standing, lang i18n.Lang) string {
	if len(rows) == 0 {
		return i18n.T(lang, i18n.TopAlertEmpty)
	}
	text := ""
	for i, r := range rows {
		entry := strconv.Itoa(i+1) + ". " + r.Name + " " + i18n.Number(r.Balance)
		if i > 0 {
			entry = " · " + entry
		}
		next := i18n.T(lang, i18n.TopAlert, text+entry)
		if utf8.RuneCountInString(next) > MaxAlert {
			if i == 0 {
				return string([]rune(next)[:MaxAlert-1]) + "…"
			}
			break
		}
		text += entry
	}
	return i18n.T(lang, i18n.TopAlert, text)
}
