package webapp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/twentyone-bot/twentyone/bot/callback"
)

// actRequest is the body of POST /api/act.
type actRequest struct {
	// Data is a button's callback data, as the view's action carries it.
	Data string `json:"data"`
}

// actResponse is the answer to an action: the table's, and for a refusal
// of the request itself its code.
type actResponse struct {
	Error string `json:"error,omitempty"`
	Answer
}

// act answers POST /api/act: the action through Actor, as a press.
func (s *Server) act(w http.ResponseWriter, r *http.Request, c caller) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, "json")
		return
	}
	req, err := readAct(w, r)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			writeError(w, http.StatusRequestEntityTooLarge, "too_large")
		} else {
			writeError(w, http.StatusBadRequest, "bad_body")
		}
		return
	}
	data, err := callback.Parse(req.Data)
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_data")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.o.Limits.ActTimeout)
	defer cancel()
	ans, err := s.o.Actor.Act(ctx, c.key, c.user, data)
	switch {
	case err == nil && ans.Applied:
		writeJSON(w, http.StatusOK, actResponse{Answer: ans})
	case err == nil:
		writeJSON(w, http.StatusConflict, actResponse{Answer: ans})
	case errors.Is(err, ErrBadAct):
		writeJSON(w, http.StatusBadRequest, actResponse{Error: "bad_action", Answer: ans})
	case errors.Is(err, ErrNoTable):
		writeError(w, http.StatusNotFound, "no_table")
	case errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil:
		s.failed(r.Context(), "action", c, err)
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, "busy")
	default:
		s.failed(r.Context(), "action", c, err)
		writeError(w, http.StatusInternalServerError, "internal")
	}
}

// readAct reads the body of an action: one JSON object with no field but
// data, and nothing after it, at most MaxBody bytes (an error wrapping
// *http.MaxBytesError past it).
func readAct(w http.ResponseWriter, r *http.Request) (actRequest, error) {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBody))
	dec.DisallowUnknownFields()
	var req actRequest
	if err := dec.Decode(&req); err != nil {
		return actRequest{}, err
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		if err == nil {
			err = errors.New("more than one JSON value")
		}
		return actRequest{}, err
	}
	return req, nil
}
