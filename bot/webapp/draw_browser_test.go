package webapp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/webapp/view"
)

// TestPageDrawsEveryView: the page draws each of bot/webapp/view's golden
// views (every phase, the cut waiting and done, the house thinking, a
// game over with its result, a closed table, a watcher, three languages)
// as the view says, the parts a game rarely reaches in a browser test
// included: the cut's status, the house's seat, the result's nets, the
// deck's words, the record. The page is opened outside Telegram, so that
// no stream draws over the views it is given.
func TestPageDrawsEveryView(t *testing.T) {
	goldens, err := filepath.Glob(filepath.Join("view", "testdata", "*.json"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(goldens), 20)
	a := newBrowserApp(t)
	ctx, b := newBrowser(t, 390, 844, true)
	b.open(ctx, a.http.URL+"/")
	b.waitNotice(ctx, "outside")
	for _, path := range goldens {
		raw, err := os.ReadFile(path)
		require.NoError(t, err)
		var v view.View
		require.NoError(t, json.Unmarshal(raw, &v), path)
		name := filepath.Base(path)
		drawn := get(ctx, b, "drawing "+name, chromedp.Evaluate[bool](`(async () => {
		  const {draw} = await import('./draw.js');
		  const {words} = await import('./words.js');
		  draw(`+string(raw)+`, words(`+strconv.Quote(v.Lang)+`), () => {}, false);
		  return true;
		})()`, chromedp.EvalAwaitPromise))
		require.True(t, drawn)
		b.shot(ctx, "app-view-"+strings.TrimSuffix(name, ".json")+".png")
		s := b.page(ctx)
		t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
			assertShows(t, s, v)
			extra := eval[drawnExtra](ctx, b, drawnExtraJS)
			if cut := v.Deck; cut != nil && cut.Cut != nil && cut.Cut.Waiting {
				mine := cut.Cut.AskedSeat >= 0 && cut.Cut.AskedSeat == v.You.Seat
				assert.Equal(t, mine, s.Mine, "the viewer's own cut stands out")
				if mine {
					assert.Equal(t, "Your cut: cut the deck", s.Status)
				} else if cut.Cut.Asked != "" {
					assert.Equal(t, cut.Cut.Asked+" cuts the deck", s.Status, "who cuts")
				}
			}
			if v.Phase == "closed" {
				assert.Equal(t, v.Closed, s.Status)
			}
			require.Len(t, extra.Nets, len(v.Result))
			for i, n := range v.Result {
				sign := "+"
				if n.Net < 0 {
					sign = "−"
				} else if n.Net == 0 {
					sign = ""
				}
				assert.Equal(t, sign+strconv.FormatInt(max(n.Net, -n.Net), 10), extra.Nets[i])
			}
			assert.Equal(t, v.Log, extra.Log)
			if v.Deck != nil {
				assert.Contains(t, extra.Deck, v.Deck.Text)
			}
			if v.Revealed != "" {
				assert.Contains(t, extra.Deck, v.Revealed)
			}
			assert.Equal(t, v.Deck == nil && v.Revealed == "", extra.DeckHidden)
		})
	}
}

// drawnExtra is what the page shows beside the seats.
type drawnExtra struct {
	Nets       []string `json:"nets"`
	Log        []string `json:"log"`
	Deck       string   `json:"deck"`
	DeckHidden bool     `json:"deckHidden"`
}

const drawnExtraJS = `({
  nets: [...document.querySelectorAll('#nets .net')].map((e) => e.textContent),
  log: [...document.querySelectorAll('#log li')].map((e) => e.textContent),
  deck: document.getElementById('deck-lines').textContent,
  deckHidden: document.getElementById('deck').hidden,
})`
