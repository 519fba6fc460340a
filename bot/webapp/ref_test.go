package webapp_test

import (
	"bytes"
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/webapp"
	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
	"github.com/twentyone-bot/twentyone/bot/webapp/tableref"
	"github.com/twentyone-bot/twentyone/bot/webapp/view"
	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/storage"
)

// webAppInitData is what Telegram hands the app the user named opened
// from a web_app button, signed now less age: the user, auth_date and a
// query_id, and no start_param, chat_type or chat_instance (the docs give
// those to direct links only); startParam, when set, is one anyway.
func (a *app) webAppInitData(name string, age time.Duration, startParam string) string {
	u := a.users[name]
	return a.secret.Sign(initdata.Data{
		AuthDate:   a.clock.Now().Add(-age).Truncate(time.Second),
		QueryID:    "AAQ1",
		User:       initdata.User{ID: u.ID, FirstName: u.FirstName, LanguageCode: u.LanguageCode},
		StartParam: startParam,
	})
}

// doRef is do with each of refs as an X-Table-Ref header.
func (a *app) doRef(method, path, auth string, refs []string, body []byte) reply {
	a.t.Helper()
	req, err := http.NewRequest(method, a.http.URL+path, bytes.NewReader(body))
	require.NoError(a.t, err)
	req.Header.Set("Authorization", auth)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, r := range refs {
		req.Header.Add(webapp.RefHeader, r)
	}
	return a.roundTrip(req)
}

// TestTableFromTheRefHeader: an app opened from a web_app button, whose
// initData has no start_param, names its table in X-Table-Ref (its page's
// startapp): it views the table and acts at it as one opened from a
// direct link does.
func TestTableFromTheRefHeader(t *testing.T) {
	a := newApp(t, webapp.Limits{})
	a.command("Alice", "newgame")
	ref := []string{a.refs.Ref(a.key())}
	auth := "tma " + a.webAppInitData("Bob", 0, "")

	r := a.doRef(http.MethodGet, "/api/table", auth, ref, nil)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	var v view.View
	r.json(t, &v)
	assert.Equal(t, -1, v.You.Seat, "Bob sits nowhere yet")
	assertSecure(t, r.header)

	r = a.doRef(http.MethodPost, "/api/act", auth, ref, []byte(`{"data":"`+actData(t, v, "join")+`"}`))
	a.settle()
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	var ans answer
	r.json(t, &ans)
	assert.True(t, ans.Applied)
	stored, err := a.store.View(context.Background(), a.key())
	require.NoError(t, err)
	_, seated := stored.Table.SeatOf(game.UserID(a.users["Bob"].ID))
	assert.True(t, seated, "Bob is seated in the store")
}

// TestRefHeaderRefusals: the header names a table only as strictly as
// start_param does, and only when initData has none: a forged, foreign or
// doubled reference is no table, and neither the header nor start_param
// makes a forged initData good. None reaches a table or changes anything.
func TestRefHeaderRefusals(t *testing.T) {
	unlimited := webapp.Rate{Every: time.Nanosecond, Burst: 1000}
	a := newApp(t, webapp.Limits{Acts: unlimited, Reads: unlimited})
	a.command("Alice", "newgame")
	v := a.getView("Bob")
	join := []byte(`{"data":"` + actData(t, v, "join") + `"}`)
	ref := a.refs.Ref(a.key())
	tampered := forged(ref, 0)
	elsewhere := a.refs.Ref(storage.TableKey{Chat: -999})
	webApp := "tma " + a.webAppInitData("Bob", 0, "")

	tests := []struct {
		name   string
		method string
		auth   string
		refs   []string
		body   []byte
		status int
		code   string
		// version: the view answered is the group's table's.
		version bool
	}{
		{"no start_param, no header", http.MethodGet, webApp, nil, nil, http.StatusNotFound, "no_table", false},
		{"an empty header", http.MethodGet, webApp, []string{""}, nil, http.StatusNotFound, "no_table", false},
		{"a forged ref", http.MethodPost, webApp, []string{tampered}, join, http.StatusNotFound, "no_table", false},
		{"a ref of another key", http.MethodGet, webApp, []string{tableref.NewKey().Ref(a.key())}, nil, http.StatusNotFound, "no_table", false},
		{"not a ref", http.MethodGet, webApp, []string{"../../etc/passwd"}, nil, http.StatusNotFound, "no_table", false},
		{"two headers", http.MethodPost, webApp, []string{ref, ref}, join, http.StatusNotFound, "no_table", false},
		{"initData not signed by the bot", http.MethodPost,
			"tma " + initdata.NewSecret("123:another bot's token").Sign(initdata.Data{AuthDate: a.clock.Now(), User: initdata.User{ID: a.users["Bob"].ID}}),
			[]string{ref}, join, http.StatusUnauthorized, "bad_hash", false},
		{"expired initData", http.MethodGet, "tma " + a.webAppInitData("Bob", webapp.DefaultMaxAge+time.Second, ""), []string{ref}, nil,
			http.StatusUnauthorized, "expired", false},
		{"start_param first: the header is not read", http.MethodGet, "tma " + a.webAppInitData("Bob", 0, elsewhere), []string{ref}, nil,
			http.StatusNotFound, "no_table", false},
		{"start_param first: a header elsewhere", http.MethodGet, "tma " + a.webAppInitData("Bob", 0, ref), []string{elsewhere}, nil,
			http.StatusOK, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, acts := a.ledger(), a.acts.Load()
			path := "/api/table"
			if tt.method == http.MethodPost {
				path = "/api/act"
			}
			r := a.doRef(tt.method, path, tt.auth, tt.refs, tt.body)
			a.settle()
			assert.Equal(t, tt.status, r.status, "%s", r.body)
			var got struct {
				Error   string `json:"error"`
				Version uint64 `json:"version"`
			}
			r.json(t, &got)
			assert.Equal(t, tt.code, got.Error)
			if tt.version {
				assert.Equal(t, v.Version, got.Version, "the table start_param names")
			}
			assertSecure(t, r.header)
			assert.Equal(t, acts, a.acts.Load(), "no table was asked")
			assert.Equal(t, before, a.ledger(), "nothing changed")
		})
	}
}
