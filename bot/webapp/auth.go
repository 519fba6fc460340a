package webapp

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
	"github.com/twentyone-bot/twentyone/bot/webapp/live"
	"github.com/twentyone-bot/twentyone/storage"
)

// caller is who a request comes from and the table it names, as its
// initData vouches.
type caller struct {
	user initdata.User
	key  storage.TableKey
}

// viewer is the caller as the views know them.
func (c caller) viewer() live.Viewer {
	return live.Viewer{User: c.user.ID, Lang: c.user.LanguageCode}
}

// scheme is the Authorization scheme of initData (the tma.js convention).
const scheme = "tma"

// RefHeader is the header that names the table when initData has no
// start_param (an app opened from a web_app button): the page sends its
// URL's startapp parameter in it. See the package doc.
const RefHeader = "X-Table-Ref"

// vouch checks the request's initData and the table its start_param (or,
// without one, RefHeader) names, and returns the caller; when it refuses,
// it has answered the request (the statuses of the package doc) and
// reports false.
func (s *Server) vouch(w http.ResponseWriter, r *http.Request) (caller, bool) {
	d, err := s.initData(r)
	if err != nil {
		switch {
		case errors.Is(err, initdata.ErrMalformed):
			writeError(w, http.StatusBadRequest, "malformed")
		case errors.Is(err, initdata.ErrExpired):
			s.unauthorized(w, "expired")
		case errors.Is(err, initdata.ErrBadHash):
			s.unauthorized(w, "bad_hash")
		default: // initdata.ErrMissing
			s.unauthorized(w, "missing")
		}
		return caller{}, false
	}
	key, err := s.o.Refs.Parse(tableRef(d, r))
	if err != nil {
		writeError(w, http.StatusNotFound, "no_table")
		return caller{}, false
	}
	return caller{user: d.User, key: key}, true
}

// tableRef is the reference of the table a request names: initData's
// start_param when it has one (a direct link's launch), else the one
// value of RefHeader (a web_app button's launch, whose page read it from
// its URL); "" (no table) for none, or for more than one header.
func tableRef(d initdata.Data, r *http.Request) string {
	if d.StartParam != "" {
		return d.StartParam
	}
	if values := r.Header.Values(RefHeader); len(values) == 1 {
		return strings.TrimSpace(values[0])
	}
	return ""
}

// initData validates the request's initData: an error wrapping one of
// initdata's four.
func (s *Server) initData(r *http.Request) (initdata.Data, error) {
	values := r.Header.Values("Authorization")
	if len(values) > 1 {
		return initdata.Data{}, initdata.ErrMalformed
	}
	if len(values) == 0 {
		return initdata.Data{}, initdata.ErrMissing
	}
	got, raw, _ := strings.Cut(strings.TrimSpace(values[0]), " ")
	if !strings.EqualFold(got, scheme) {
		return initdata.Data{}, initdata.ErrMissing
	}
	return s.o.Secret.Validate(strings.TrimSpace(raw), s.o.Clock.Now(), s.o.MaxAge)
}

// unauthorized answers 401 with code, naming the scheme that is asked.
func (s *Server) unauthorized(w http.ResponseWriter, code string) {
	w.Header().Set("WWW-Authenticate", scheme)
	writeError(w, http.StatusUnauthorized, code)
}

// writeError answers {"error":code} with status.
func writeError(w http.ResponseWriter, status int, code string) {
	writeJSON(w, status, struct {
		Error string `json:"error"`
	}{code})
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
