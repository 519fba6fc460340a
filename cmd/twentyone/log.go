package main

import (
	"io"
	"log/slog"
	"net/url"
	"strings"
)

// newLogger returns a logger writing text or JSON lines to w at level, that
// replaces every occurrence of the secrets in its lines (messages, string
// attributes and errors) by [REDACTED]. Secret-typed values redact
// themselves; the scrubbing is for the errors that carry a secret inside a
// string, like the *url.Error of a Bot API call, whose URL holds the token.
func newLogger(w io.Writer, level, format string, secrets ...Secret) *slog.Logger {
	s := newScrubber(secrets...)
	opts := &slog.HandlerOptions{Level: parseLevel(level), ReplaceAttr: s.replaceAttr}
	var h slog.Handler
	if format == "json" {
		h = slog.NewJSONHandler(w, opts)
	} else {
		h = slog.NewTextHandler(w, opts)
	}
	return slog.New(h)
}

func parseLevel(level string) slog.Level {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return slog.LevelInfo
	}
	return l
}

// scrubber replaces secrets in strings.
type scrubber struct {
	r *strings.Replacer
}

func newScrubber(secrets ...Secret) scrubber {
	var pairs []string
	for _, s := range secrets {
		v := s.Reveal()
		if v == "" {
			continue
		}
		pairs = append(pairs, v, redacted)
		// The forms a secret takes inside a URL.
		for _, esc := range []string{url.PathEscape(v), url.QueryEscape(v)} {
			if esc != v {
				pairs = append(pairs, esc, redacted)
			}
		}
	}
	if len(pairs) == 0 {
		return scrubber{}
	}
	return scrubber{r: strings.NewReplacer(pairs...)}
}

// scrub returns s with the secrets replaced.
func (s scrubber) scrub(str string) string {
	if s.r == nil {
		return str
	}
	return s.r.Replace(str)
}

func (s scrubber) replaceAttr(_ []string, a slog.Attr) slog.Attr {
	if s.r == nil {
		return a
	}
	switch a.Value.Kind() {
	case slog.KindString:
		if v := a.Value.String(); s.scrub(v) != v {
			a.Value = slog.StringValue(s.scrub(v))
		}
	case slog.KindAny:
		var text string
		switch v := a.Value.Any().(type) {
		case error:
			text = v.Error()
		case interface{ String() string }:
			text = v.String()
		default:
			return a
		}
		if scrubbed := s.scrub(text); scrubbed != text {
			a.Value = slog.StringValue(scrubbed)
		}
	}
	return a
}

// scrubError returns err with the secrets replaced in its text. It unwraps
// to err, for errors.Is and errors.As.
func scrubError(err error, secrets ...Secret) error {
	text := newScrubber(secrets...).scrub(err.Error())
	if text == err.Error() {
		return err
	}
	return &scrubbedError{text: text, err: err}
}

type scrubbedError struct {
	text string
	err  error
}

func (e *scrubbedError) Error() string { return e.text }
func (e *scrubbedError) Unwrap() error { return e.err }
