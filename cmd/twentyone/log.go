package main

import (
	"io"
	"log/slog"

	"github.com/twentyone-bot/twentyone/bot/config"
)

// newLogger returns a logger writing text or JSON lines to w at level, that
// replaces every occurrence of the secrets in its lines (messages, string
// attributes and errors) by [REDACTED]. config.Secret-typed values redact
// themselves; the scrubbing is for the errors that carry a secret inside a
// string, like the *url.Error of a Bot API call, whose URL holds the token.
func newLogger(w io.Writer, level, format string, secrets ...config.Secret) *slog.Logger {
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

// scrubber replaces secrets in strings (scrubText).
type scrubber struct {
	secrets []string
}

func newScrubber(secrets ...config.Secret) scrubber {
	var revealed []string
	for _, s := range secrets {
		if v := s.Reveal(); v != "" {
			revealed = append(revealed, v)
		}
	}
	return scrubber{secrets: revealed}
}

// scrub returns str with the secrets replaced.
func (s scrubber) scrub(str string) string {
	if len(s.secrets) == 0 {
		return str
	}
	return scrubText(str, s.secrets...)
}

func (s scrubber) replaceAttr(_ []string, a slog.Attr) slog.Attr {
	if len(s.secrets) == 0 {
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
