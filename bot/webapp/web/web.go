// Package web is the Mini App's page: the files a client loads from the
// app's server (bot/webapp.Server serves them at "/" and "/<name>"),
// embedded in the binary. It holds no secret and asks for nothing: what
// the page knows of its viewer is what Telegram gave it in the launch
// fragment, and it sends that back to /api/* as the Authorization header.
//
// The page is plain HTML, CSS and JavaScript modules, with no framework,
// no build step and nothing from elsewhere (no font, image or script of
// another origin: the server's Content Security Policy allows only its
// own files, and connects only to itself):
//
//	index.html  the page's skeleton
//	app.css     its layout (a phone, 390×844, and a desktop), light and
//	            dark from Telegram's theme (--tg-theme-*), else the
//	            browser's prefers-color-scheme
//	words.js    the page's own words in en, ru and uk (the view's texts
//	            come from the server, in the view's language)
//	tg.js       the Telegram shim, in place of telegram-web-app.js: the
//	            launch parameters, the events to and from the client
//	cards.js    cards drawn as SVG from code
//	net.js      the API: a view, the live stream (fetch and SSE), acts
//	draw.js     the view drawn into the page
//	app.js      the page's start and its state
//
// Every file is text; its Content-Type follows its extension. A file of
// another kind cannot be embedded (the package panics at start).
package web

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"path"
	"slices"
)

//go:embed *.html *.css *.js
var files embed.FS

// File is one of the page's files, as served.
type File struct {
	// Path is where it is served: "/" for index.html, "/<name>" else.
	Path string
	// Type is its Content-Type.
	Type string
	// Body is its content.
	Body []byte
	// ETag is a strong entity tag of Body, quoted.
	ETag string
}

// types are the Content-Types of the page's kinds of file.
var types = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
}

// byPath holds every file by the path it is served at.
var byPath = load()

// load reads the embedded files.
func load() map[string]File {
	out := map[string]File{}
	err := fs.WalkDir(files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		typ, ok := types[path.Ext(name)]
		if !ok {
			panic("web: " + name + " is of no kind the page serves")
		}
		body, err := files.ReadFile(name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		p := "/" + name
		if name == "index.html" {
			p = "/"
		}
		out[p] = File{Path: p, Type: typ, Body: body, ETag: `"` + hex.EncodeToString(sum[:12]) + `"`}
		return nil
	})
	if err != nil {
		panic("web: reading the embedded page: " + err.Error())
	}
	return out
}

// Lookup returns the file served at path p ("/" is index.html); false
// for any other path (index.html itself is served only at "/").
func Lookup(p string) (File, bool) {
	f, ok := byPath[p]
	return f, ok
}

// Paths returns the path of every file served, sorted ("/" first).
func Paths() []string {
	out := make([]string, 0, len(byPath))
	for p := range byPath {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
