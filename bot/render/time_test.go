package render

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/twentyone-bot/twentyone/bot/i18n"
)

// TestTimeTag: a time is shown as a tg-time of its moment, with the time
// in UTC inside for clients without date_time entities, to the minute as
// a clock shows it and as the chat's language writes it: 24-hour, no
// seconds, the month by its name.
func TestTimeTag(t *testing.T) {
	at := time.Date(2026, 12, 2, 18, 40, 15, 200e6, time.FixedZone("MSK", 3*3600))
	tests := []struct {
		name   string
		format string
		lang   i18n.Lang
		want   string
	}{
		{name: "the time", format: clockMinutes, lang: i18n.EN,
			want: `<tg-time unix="1796226015" format="t">15:40 UTC</tg-time>`},
		{name: "the time in Russian", format: clockMinutes, lang: i18n.RU,
			want: `<tg-time unix="1796226015" format="t">15:40 UTC</tg-time>`},
		{name: "with the date", format: dateMinutes, lang: i18n.EN,
			want: "<tg-time unix=\"1796226015\" format=\"dt\">Dec\u00a02, 15:40 UTC</tg-time>"},
		{name: "with the date in Russian", format: dateMinutes, lang: i18n.RU,
			want: "<tg-time unix=\"1796226015\" format=\"dt\">2\u00a0дек., 15:40 UTC</tg-time>"},
		{name: "with the date in Ukrainian", format: dateMinutes, lang: i18n.UK,
			want: "<tg-time unix=\"1796226015\" format=\"dt\">2\u00a0груд., 15:40 UTC</tg-time>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, timeTag(at, tt.format, tt.lang))
			assert.Equal(t, utf16Len(plainText(tt.want)), visibleLen(tt.want), "counted as the text inside")
		})
	}
}

func TestClosingFormat(t *testing.T) {
	tests := []struct {
		left time.Duration
		want string
	}{
		{30 * time.Second, clockMinutes},
		{5*time.Minute - time.Second, clockMinutes},
		{10 * time.Minute, clockMinutes},
		{20*time.Hour - time.Second, clockMinutes},
		{24 * time.Hour, dateMinutes},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, closingFormat(tt.left), "%s", tt.left)
	}
}

// TestTurnShowsTheTimeLeft: the player to move sees the time left of the
// turn when the message is drawn, not a clock time.
func TestTurnShowsTheTimeLeft(t *testing.T) {
	p := betting(t, plainNames[i18n.EN])
	in := p.input(i18n.EN) // 15 s into Carol's minute
	assert.Contains(t, Table(in).Text, "<b>Carol — 1\u202f000 · 9♦ ← your bet, Carol (45\u00a0s)</b>")
	in.Now = in.Table.Deadline().Add(-time.Second - time.Millisecond)
	assert.Contains(t, Table(in).Text, "← your bet, Carol (2\u00a0s)", "rounded up")
	assert.NotContains(t, Table(in).Text, "tg-time", "no clock time")
	in = drawing(t, plainNames[i18n.RU]).input(i18n.RU)
	assert.Contains(t, Table(in).Text, "← Вера: ещё или хватит? (45\u00a0с)")
}
