package render

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestTimeTag: a deadline is shown as a tg-time of its time rounded up to
// the format's precision, with the time in UTC inside for clients without
// date_time entities.
func TestTimeTag(t *testing.T) {
	at := time.Date(2026, 12, 2, 18, 40, 15, 200e6, time.FixedZone("MSK", 3*3600))
	tests := []struct {
		name   string
		at     time.Time
		format string
		want   string
	}{
		{name: "seconds, rounded up", at: at, format: clockSeconds,
			want: `<tg-time unix="1796226016" format="T">15:40:16 UTC</tg-time>`},
		{name: "a whole second stays", at: at.Truncate(time.Second), format: clockSeconds,
			want: `<tg-time unix="1796226015" format="T">15:40:15 UTC</tg-time>`},
		{name: "minutes, rounded up", at: at, format: clockMinutes,
			want: `<tg-time unix="1796226060" format="t">15:41 UTC</tg-time>`},
		{name: "with the date", at: at, format: dateMinutes,
			want: `<tg-time unix="1796226060" format="dt">2026-12-02 15:41 UTC</tg-time>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, timeTag(tt.at, tt.format))
			assert.Equal(t, utf16Len(plainText(tt.want)), visibleLen(tt.want), "counted as the text inside")
		})
	}
}

func TestClosingFormat(t *testing.T) {
	tests := []struct {
		left time.Duration
		want string
	}{
		{30 * time.Second, clockSeconds},
		{5*time.Minute - time.Second, clockSeconds},
		{10 * time.Minute, clockMinutes},
		{20*time.Hour - time.Second, clockMinutes},
		{24 * time.Hour, dateMinutes},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, closingFormat(tt.left), "%s", tt.left)
	}
}
