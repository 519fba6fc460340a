package webapp

import (
	"bytes"
	"net/http"
	"time"

	"github.com/twentyone-bot/twentyone/bot/webapp/web"
)

// page answers a request for one of the page's files (bot/webapp/web),
// reporting false for any other path. The page's files ask for no
// initData: they hold no secret, only the page's code, which asks for
// everything else with the initData Telegram gave it. A client keeps
// them, but asks again each time whether they changed (Cache-Control:
// no-cache, with the file's ETag), so a new binary's page is used at once.
func (s *Server) page(w http.ResponseWriter, r *http.Request) bool {
	f, ok := web.Lookup(r.URL.Path)
	if !ok {
		return false
	}
	h := w.Header()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		writeError(w, http.StatusMethodNotAllowed, "method")
		return true
	}
	h.Set("Content-Type", f.Type)
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", f.ETag)
	http.ServeContent(w, r, f.Path, time.Time{}, bytes.NewReader(f.Body))
	return true
}
