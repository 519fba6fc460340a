package table

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/webapp/tableref"
	"github.com/twentyone-bot/twentyone/storage"
)

// TestAppLink: a table's app button links to the direct link of the app
// with its reference, or at a solo table to the page with the reference
// in its query (its own query and fragment kept); nothing without a bot
// username, an app name, a key, or (solo) a page.
func TestAppLink(t *testing.T) {
	refs := tableref.NewKey()
	group := storage.TableKey{Chat: -100123, Thread: 7}
	solo := storage.TableKey{Chat: 42}
	full := App{Bot: "twentyone_bot", Name: "table", URL: "https://app.example/", Refs: refs}
	tests := []struct {
		name string
		app  App
		key  storage.TableKey
		solo bool
		want string
	}{
		{"a group's topic", full, group, false, "https://t.me/twentyone_bot/table?startapp=" + refs.Ref(group)},
		{"a solo table", full, solo, true, "https://app.example/?startapp=" + refs.Ref(solo)},
		{"a page with a query and a fragment", App{Bot: "b", Name: "table", URL: "https://app.example/p?x=1#top", Refs: refs}, solo, true,
			"https://app.example/p?x=1&startapp=" + refs.Ref(solo) + "#top"},
		{"a page ending in ?", App{Bot: "b", Name: "table", URL: "https://app.example/p?", Refs: refs}, solo, true,
			"https://app.example/p?startapp=" + refs.Ref(solo)},
		{"a group without a page", App{Bot: "b", Name: "table", Refs: refs}, group, false, "https://t.me/b/table?startapp=" + refs.Ref(group)},
		{"a solo table without a page", App{Bot: "b", Name: "table", Refs: refs}, solo, true, ""},
		{"no username", App{Name: "table", URL: "https://app.example/", Refs: refs}, group, false, ""},
		{"no app name", App{Bot: "b", URL: "https://app.example/", Refs: refs}, solo, true, ""},
		{"no key", App{Bot: "b", Name: "table", URL: "https://app.example/"}, group, false, ""},
		{"none", App{}, group, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.app.Link(tt.key, tt.solo)
			require.Equal(t, tt.want, got)
			if got == "" {
				return
			}
			u, err := url.Parse(got)
			require.NoError(t, err)
			key, err := refs.Parse(u.Query().Get("startapp"))
			require.NoError(t, err)
			assert.Equal(t, tt.key, key, "the reference names the table")
		})
	}
}
