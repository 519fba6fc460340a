package webapp_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/webapp"
	"github.com/twentyone-bot/twentyone/bot/webapp/web"
)

// TestPageServed: the page and each of its files are served to anyone,
// without initData, with their Content-Type, the CSP and the other
// security headers; a client keeps them but asks each time whether they
// changed (the ETag); they take no other method, and a file the page does
// not have is the API's 404.
func TestPageServed(t *testing.T) {
	a := newApp(t, webapp.Limits{})
	paths := web.Paths()
	require.Contains(t, paths, "/")
	require.Contains(t, paths, "/app.js")
	for _, p := range paths {
		f, _ := web.Lookup(p)
		r := a.do(http.MethodGet, p+"?tgWebAppStartParam=abc", "", nil)
		require.Equal(t, http.StatusOK, r.status, p)
		assert.Equal(t, f.Type, r.header.Get("Content-Type"), p)
		assert.Equal(t, string(f.Body), string(r.body), p)
		assert.Equal(t, webapp.CSP, r.header.Get("Content-Security-Policy"), p)
		assert.Equal(t, "nosniff", r.header.Get("X-Content-Type-Options"), p)
		assert.Equal(t, "no-referrer", r.header.Get("Referrer-Policy"), p)
		assert.Equal(t, "no-cache", r.header.Get("Cache-Control"), p)
		assert.Equal(t, f.ETag, r.header.Get("ETag"), p)
		for _, s := range []string{"http://", "https://"} {
			assert.NotContains(t, string(r.body), s, "%s: nothing from elsewhere", p)
		}

		req, err := http.NewRequest(http.MethodGet, a.http.URL+p, nil)
		require.NoError(t, err)
		req.Header.Set("If-None-Match", f.ETag)
		again := a.roundTrip(req)
		assert.Equal(t, http.StatusNotModified, again.status, p)
		assert.Empty(t, again.body, p)

		head := a.do(http.MethodHead, p, "", nil)
		assert.Equal(t, http.StatusOK, head.status, p)
		assert.Empty(t, head.body, p)
		assert.Equal(t, f.Type, head.header.Get("Content-Type"), p)

		post := a.do(http.MethodPost, p, "", []byte(`{}`))
		assert.Equal(t, http.StatusMethodNotAllowed, post.status, p)
		assert.Equal(t, "GET, HEAD", post.header.Get("Allow"), p)
		assert.Equal(t, "method", post.errorCode(t), p)
		assertSecure(t, post.header)
	}
	for _, p := range []string{"/index.html", "/nope.js", "/web.go", "/api"} {
		r := a.do(http.MethodGet, p, "", nil)
		assert.Equal(t, http.StatusNotFound, r.status, p)
		assert.Equal(t, "not_found", r.errorCode(t), p)
		assertSecure(t, r.header)
	}
	assert.Zero(t, a.acts.Load(), "no table was asked")
	page := a.do(http.MethodGet, "/", "", nil)
	assert.True(t, strings.HasPrefix(string(page.body), "<!doctype html>"))
}

// TestFramedBy: Options.FramedBy replaces only the CSP's frame-ancestors
// (the playground's page frames the app: 'self'), on the page and the
// API alike; a value that would end the directive or add a policy is
// refused.
func TestFramedBy(t *testing.T) {
	a := newApp(t, webapp.Limits{}, func(o *webapp.Options) { o.FramedBy = " 'self' " })
	want := strings.Replace(webapp.CSP, webapp.TelegramFrames, "'self'", 1)
	require.NotEqual(t, webapp.CSP, want)
	for _, p := range []string{"/", "/app.js", "/api/table", "/nope"} {
		r := a.do(http.MethodGet, p, "", nil)
		assert.Equal(t, want, r.header.Get("Content-Security-Policy"), p)
	}
	for _, bad := range []string{"'self'; script-src *", "'self', *", "'self'\r\nX-Evil: 1"} {
		o := webapp.Options{Secret: a.secret, Refs: a.refs, Members: a.members, Views: a.views, Actor: a.actor, Streams: a.hub, Clock: a.clock, FramedBy: bad}
		_, err := webapp.New(o)
		assert.Error(t, err, bad)
	}
}
