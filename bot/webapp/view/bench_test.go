package view_test

import (
	"encoding/json"
	"testing"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/webapp/view"
)

// BenchmarkMake: one viewer's view of a game in play, made and encoded as
// the server sends it, once per viewer per version.
func BenchmarkMake(b *testing.B) {
	in := drawing(b, names[i18n.EN]).input(carol, i18n.EN)
	b.ReportAllocs()
	size := 0
	for b.Loop() {
		body, err := json.Marshal(view.Make(in))
		if err != nil {
			b.Fatal(err)
		}
		size = len(body)
	}
	b.ReportMetric(float64(size), "bytes/view")
}
