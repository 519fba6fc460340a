package i18n

import (
	"strconv"
	"strings"
	"time"
)

// Clock writes the time of day of t as every language the bot speaks
// does in a chat: 24-hour, hours and minutes, no seconds ("01:52",
// "18:40"). The time is t's own: callers pass it in the zone they name.
func Clock(t time.Time) string { return t.Format("15:04") }

// Date writes the day of the month of t, as the language orders it, with
// the month's short name, so that no reader takes the month for the day:
// "Dec 5", «5 дек.», «5 груд.».
func Date(lang Lang, t time.Time) string {
	months := strings.Split(T(lang, DateMonths), "|")
	month := t.Month().String()[:3]
	if m := int(t.Month()) - 1; m < len(months) {
		month = months[m]
	}
	return T(lang, DateDay, strconv.Itoa(t.Day()), month)
}

// DateTime writes the date (Date) and the time of day (Clock) of t: "Dec
// 5, 01:52", «5 дек., 01:52», «5 груд., 01:52».
func DateTime(lang Lang, t time.Time) string { return T(lang, DateAndTime, Date(lang, t), Clock(t)) }
