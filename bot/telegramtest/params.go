package telegramtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// maxBodyBytes bounds a request body, as Telegram does for non-file requests.
const maxBodyBytes = 10 << 20

// params are a request's arguments as strings, whatever encoding they came
// in: like Telegram, nested objects are JSON text inside a field.
type params map[string]string

// parseParams reads the query string and the body (form, multipart or JSON).
func parseParams(r *http.Request) (params, error) {
	p := make(params)
	for k, v := range r.URL.Query() {
		if len(v) > 0 {
			p[k] = v[0]
		}
	}
	if r.Body == nil || r.Method == http.MethodGet || r.Method == http.MethodHead {
		return p, nil
	}
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		mediaType = ""
	}
	switch mediaType {
	case "multipart/form-data":
		r.Body = http.MaxBytesReader(nil, r.Body, maxBodyBytes)
		if err := r.ParseMultipartForm(maxBodyBytes); err != nil {
			return nil, fmt.Errorf("can't parse multipart body: %w", err)
		}
		for k, v := range r.MultipartForm.Value {
			if len(v) > 0 {
				p[k] = v[0]
			}
		}
		return p, nil
	case "application/json":
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes))
		if err != nil {
			return nil, fmt.Errorf("can't read body: %w", err)
		}
		if len(bytes.TrimSpace(body)) == 0 {
			return p, nil
		}
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(body, &fields); err != nil {
			return nil, fmt.Errorf("can't parse JSON object: %w", err)
		}
		for k, raw := range fields {
			raw = bytes.TrimSpace(raw)
			switch {
			case string(raw) == "null":
			case len(raw) > 0 && raw[0] == '"':
				var s string
				if err := json.Unmarshal(raw, &s); err != nil {
					return nil, fmt.Errorf("can't parse field %q: %w", k, err)
				}
				p[k] = s
			default:
				p[k] = string(raw)
			}
		}
		return p, nil
	default:
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes))
		if err != nil {
			return nil, fmt.Errorf("can't read body: %w", err)
		}
		values, err := url.ParseQuery(string(body))
		if err != nil {
			return nil, fmt.Errorf("can't parse form body: %w", err)
		}
		for k, v := range values {
			if len(v) > 0 {
				p[k] = v[0]
			}
		}
		return p, nil
	}
}

// str returns a plain string argument.
func (p params) str(key string) string { return p[key] }

// has reports whether the argument is present and non-empty.
func (p params) has(key string) bool { return p[key] != "" }

// jsonArg returns a JSON-encoded argument; "" and the literal null mean absent.
func (p params) jsonArg(key string) (string, bool) {
	v := strings.TrimSpace(p[key])
	if v == "" || v == "null" {
		return "", false
	}
	return v, true
}

// integer parses an integer argument leniently, like Telegram: what does
// not parse counts as def.
func (p params) integer(key string, def int64) int64 {
	v := strings.TrimSpace(p[key])
	if v == "" {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		if f, ferr := strconv.ParseFloat(v, 64); ferr == nil {
			return int64(f)
		}
		return def
	}
	return n
}

// clamped parses an integer argument and clamps it to [lo, hi].
func (p params) clamped(key string, def, lo, hi int64) int64 {
	n := p.integer(key, def)
	return max(lo, min(hi, n))
}

// boolean parses a boolean argument like Telegram: true, yes or 1.
func (p params) boolean(key string) bool {
	switch strings.ToLower(strings.TrimSpace(p[key])) {
	case "true", "yes", "1":
		return true
	}
	return false
}
