package playground_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/playground"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
)

// appLabel is the table message's button that opens the Mini App.
const appLabel = "🃏 Open the table"

// appLaunch is the answer of POST /api/chats/{chat}/app.
type appLaunch struct {
	URL string `json:"url"`
}

// appView is the part of the app's view (GET /miniapp/api/table) the
// tests read.
type appView struct {
	Version uint64 `json:"version"`
	Phase   string `json:"phase"`
	Seats   []struct {
		Name string `json:"name"`
	} `json:"seats"`
	You struct {
		Seat int `json:"seat"`
	} `json:"you"`
	Actions []struct {
		Buttons []struct {
			Label string `json:"label"`
			Data  string `json:"data"`
		} `json:"buttons"`
	} `json:"actions"`
}

// action returns the data of the view's action labelled label.
func (v appView) action(t *testing.T, label string) string {
	t.Helper()
	for _, line := range v.Actions {
		for _, b := range line.Buttons {
			if b.Label == label {
				return b.Data
			}
		}
	}
	t.Fatalf("the view has no action %q: %+v", label, v.Actions)
	return ""
}

// appRequest asks the app's API, as its page does: initData from the
// launch's fragment in the Authorization header, the page's startapp as
// X-Table-Ref when it has one.
func appRequest(t *testing.T, method, launch, path string, body any, out any) int {
	t.Helper()
	u, err := url.Parse(launch)
	require.NoError(t, err)
	params, err := url.ParseQuery(u.EscapedFragment())
	require.NoError(t, err)
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(t, err)
		rd = strings.NewReader(string(b))
	}
	api := u.ResolveReference(&url.URL{Path: path})
	req, err := http.NewRequest(method, api.String(), rd)
	require.NoError(t, err)
	req.Header.Set("Authorization", "tma "+params.Get("tgWebAppData"))
	if ref := u.Query().Get("startapp"); ref != "" {
		req.Header.Set("X-Table-Ref", ref)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	if out != nil && resp.StatusCode == http.StatusOK {
		require.NoError(t, json.NewDecoder(resp.Body).Decode(out))
	}
	return resp.StatusCode
}

// TestAppFromAGroup: the group's table links to the playground's Mini App;
// tapping it opens the app's page, served by the playground under
// /miniapp/, whose initData (signed with the bot's token) names the user
// and the table; the app's API answers the view and takes an action on the
// press's path, which the chat's table then shows.
func TestAppFromAGroup(t *testing.T) {
	f := gameNight(t)
	pg, ctx, night, alice, bob, base := f.pg, f.ctx, f.night, f.alice, f.bob, f.base
	require.Equal(t, http.StatusOK, call(t, "POST", base+"/messages", map[string]any{"from": alice.ID, "text": "/newgame"}, nil))
	lobby, err := pg.Server().WaitForBotMessage(ctx, night.ID, telegramtest.HasButton(appLabel))
	require.NoError(t, err)
	button, _ := lobby.Button(appLabel)
	require.True(t, strings.HasPrefix(button.URL, "https://t.me/twentyone_bot/"+playground.AppName+"?startapp="), button.URL)

	var l appLaunch
	require.Equal(t, http.StatusOK, call(t, "POST", base+"/app", map[string]any{"from": bob.ID, "url": button.URL}, &l))
	ref := strings.TrimPrefix(button.URL, "https://t.me/twentyone_bot/"+playground.AppName+"?startapp=")
	require.True(t, strings.HasPrefix(l.URL, pg.URL()+"/miniapp/?tgWebAppStartParam="+ref+"#tgWebAppData="), l.URL)
	u, err := url.Parse(l.URL)
	require.NoError(t, err)
	params, err := url.ParseQuery(u.EscapedFragment())
	require.NoError(t, err)
	d, err := initdata.NewSecret(pg.Server().Token()).Validate(params.Get("tgWebAppData"), time.Now(), time.Minute)
	require.NoError(t, err, "signed with the bot's token")
	assert.Equal(t, bob.ID, d.User.ID)
	assert.Equal(t, ref, d.StartParam)

	resp, err := http.Get(l.URL)
	require.NoError(t, err)
	page, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.True(t, strings.HasPrefix(string(page), "<!doctype html>"), "the app's page")
	csp := resp.Header.Get("Content-Security-Policy")
	assert.Contains(t, csp, "frame-ancestors 'self'", "the playground's page may frame it")
	assert.Contains(t, csp, "default-src 'none'", "the app's own policy, not the playground's")

	var v appView
	require.Equal(t, http.StatusOK, appRequest(t, "GET", l.URL, "api/table", nil, &v))
	assert.Equal(t, "lobby", v.Phase)
	require.Len(t, v.Seats, 1)
	assert.Equal(t, "Alice", v.Seats[0].Name)
	assert.Equal(t, -1, v.You.Seat, "Bob watches")
	var answer struct {
		Applied bool `json:"applied"`
	}
	require.Equal(t, http.StatusOK, appRequest(t, "POST", l.URL, "api/act", map[string]string{"data": v.action(t, "Join")}, &answer))
	assert.True(t, answer.Applied)
	_, err = pg.Server().WaitForBotMessage(ctx, night.ID, func(m telegramtest.ChatMessage) bool {
		return m.MessageID == lobby.MessageID && strings.Contains(m.Text, "Bob")
	})
	require.NoError(t, err, "the chat's table shows Bob, who joined in the app")

	forged := strings.Replace(params.Get("tgWebAppData"), "Bob", "Eve", 1)
	require.NotEqual(t, params.Get("tgWebAppData"), forged)
	assert.Equal(t, http.StatusUnauthorized, appRequest(t, "GET", pg.URL()+"/miniapp/#tgWebAppData="+url.QueryEscape(forged), "api/table", nil, nil),
		"the app's own refusal of a forged initData")
}

// TestAppFromThePrivateChat: a solo table, in the bot's private chat,
// shows a web_app button to the playground's app with the table's
// reference in its query; pressing it opens the app as the user.
func TestAppFromThePrivateChat(t *testing.T) {
	f := gameNight(t)
	pg, ctx, alice := f.pg, f.ctx, f.alice
	pg.Server().PrivateChat(alice)
	private := f.pg.URL() + "/api/chats/" + itoa(alice.ID)
	require.Equal(t, http.StatusOK, call(t, "POST", private+"/messages", map[string]any{"from": alice.ID, "text": "/newgame"}, nil))
	table, err := pg.Server().WaitForBotMessage(ctx, alice.ID, telegramtest.HasButton(appLabel))
	require.NoError(t, err)
	button, _ := table.Button(appLabel)
	require.NotNil(t, button.WebApp, "a web_app button in the private chat")

	var l appLaunch
	require.Equal(t, http.StatusOK, call(t, "POST", private+"/app", map[string]any{"from": alice.ID, "message_id": table.MessageID, "button": appLabel}, &l))
	require.True(t, strings.HasPrefix(l.URL, pg.URL()+"/miniapp/?startapp="), l.URL)
	var v appView
	require.Equal(t, http.StatusOK, appRequest(t, "GET", l.URL, "api/table", nil, &v))
	require.NotEmpty(t, v.Seats)
	assert.Equal(t, "Alice", v.Seats[0].Name)
	assert.Equal(t, 0, v.You.Seat, "Alice sits at her own table")
}

// TestAppOpenRefusals: what opens no app is refused with a reason, and the
// launch is at the host the request reached the playground by.
func TestAppOpenRefusals(t *testing.T) {
	f := gameNight(t)
	pg, ctx, night, alice, base := f.pg, f.ctx, f.night, f.alice, f.base
	require.Equal(t, http.StatusOK, call(t, "POST", base+"/messages", map[string]any{"from": alice.ID, "text": "/newgame"}, nil))
	lobby, err := pg.Server().WaitForBotMessage(ctx, night.ID, telegramtest.HasButton(appLabel))
	require.NoError(t, err)
	button, _ := lobby.Button(appLabel)
	ivan := pg.Server().Users()[4]

	for _, tt := range []struct {
		name string
		body map[string]any
		want string
	}{
		{"nothing to open", map[string]any{"from": alice.ID}, `send either "url"`},
		{"a link and a button", map[string]any{"from": alice.ID, "url": button.URL, "message_id": lobby.MessageID, "button": appLabel}, `send either "url"`},
		{"no such app", map[string]any{"from": alice.ID, "url": "https://t.me/twentyone_bot/nope?startapp=x"}, `has no app "nope"`},
		{"not a direct link", map[string]any{"from": alice.ID, "url": "https://example.com/"}, "not a direct link"},
		{"not a member", map[string]any{"from": ivan.ID, "url": button.URL}, "not a member"},
		{"no such message", map[string]any{"from": alice.ID, "message_id": 999, "button": appLabel}, "has no message 999"},
		{"a button that opens no app", map[string]any{"from": alice.ID, "message_id": lobby.MessageID, "button": "Join"}, "web_app or URL button"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var e apiError
			assert.Equal(t, http.StatusBadRequest, call(t, "POST", base+"/app", tt.body, &e))
			assert.Contains(t, e.Error, tt.want)
		})
	}

	t.Run("reached by another host", func(t *testing.T) {
		host := strings.Replace(strings.TrimPrefix(pg.URL(), "http://"), "127.0.0.1", "localhost", 1)
		body, err := json.Marshal(map[string]any{"from": alice.ID, "url": button.URL})
		require.NoError(t, err)
		req, err := http.NewRequest("POST", base+"/app", strings.NewReader(string(body)))
		require.NoError(t, err)
		req.Host = host
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var l appLaunch
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&l))
		assert.True(t, strings.HasPrefix(l.URL, "http://"+host+"/miniapp/?"), l.URL)
	})
}

// TestAppLimitsFollowPace: unpaced, the app's server takes a user's
// requests as fast as they come (the tests play faster than any human);
// paced, it limits them as `twentyone run`'s does (webapp.Limits'
// defaults: 5 reads at once), refusing the next with 429.
func TestAppLimitsFollowPace(t *testing.T) {
	for _, paced := range []bool{false, true} {
		t.Run(fmt.Sprintf("paced %v", paced), func(t *testing.T) {
			pg := startPlayground(t, playground.Options{Paced: paced})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			night, alice := pg.Groups()[0], pg.Server().Users()[0]
			base := pg.URL() + "/api/chats/" + itoa(night.ID)
			require.Equal(t, http.StatusOK, call(t, "POST", base+"/messages", map[string]any{"from": alice.ID, "text": "/newgame"}, nil))
			lobby, err := pg.Server().WaitForBotMessage(ctx, night.ID, telegramtest.HasButton(appLabel))
			require.NoError(t, err)
			button, _ := lobby.Button(appLabel)
			var l appLaunch
			require.Equal(t, http.StatusOK, call(t, "POST", base+"/app", map[string]any{"from": alice.ID, "url": button.URL}, &l))
			var statuses []int
			for range 8 {
				statuses = append(statuses, appRequest(t, "GET", l.URL, "api/table", nil, nil))
			}
			if paced {
				assert.Contains(t, statuses, http.StatusTooManyRequests, "%v", statuses)
			} else {
				assert.NotContains(t, statuses, http.StatusTooManyRequests, "%v", statuses)
			}
			assert.Equal(t, http.StatusOK, statuses[0])
		})
	}
}
