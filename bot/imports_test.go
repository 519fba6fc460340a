package bot_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/twentyone-bot/twentyone/"

// The rule of the imports (docs/ARCHITECTURE.md, "Imports point one way"):
// each layer imports only the layers below it. The game knows nothing of
// the rest, storage only the game, and the bot's pure rooms (the texts,
// the button grammar, the button table, the settings editor, the
// renderer) nothing of the transport nor of storage; the transport
// (bot/botapi) and our model of Telegram (bot/telegramtest) know Telegram
// and nothing of ours above it, but the message type they share with the
// renderer (bot/message) and, for telegramtest, the initData that Telegram
// signs when it opens a Mini App (bot/webapp/initdata, which imports
// nothing of ours).
var allowedImports = map[string][]string{
	"bot/message":         {},
	"bot/clock":           {},
	"bot/clock/clocktest": {"bot/clock"},
	"bot/telegramtest":    {"bot/webapp/initdata"},
	// The browser tests' driver: nothing of ours, and only tests import it
	// (TestImportsPointOneWay), so chromedp never reaches the binary.
	"bot/browsertest": {},
	"bot/botapi":      {"bot/message"},
	"bot/i18n":        {"game"},
	"bot/callback":    {"game"},
	"bot/setting":     {"bot/callback", "bot/i18n", "game"},
	"bot/button":      {"bot/callback", "bot/i18n", "bot/message", "game"},
	// render draws from the game's types and its own views (views.go),
	// which the rooms that read the store make: never storage's.
	"bot/render": {"bot/button", "bot/callback", "bot/i18n", "bot/message", "bot/setting", "game"},
	"storage":    {"game"},
	"game":       {"game"},
	// The Mini App's identity: initData is Telegram's alone, a table's
	// reference names a storage key and nothing else of ours.
	"bot/webapp/initdata": {},
	"bot/webapp/tableref": {"storage", "game"},
	// The live push knows a table by storage's key, and waits on the clock.
	"bot/webapp/live": {"bot/clock", "storage"},
	// The app's view of a table draws from render's Input: its texts and
	// names are the chat's message's, as render words them
	// (render.TableWords, render.Input.ShownName), its actions bot/button's
	// rows (the chat's buttons, their data bot/callback's), its language
	// bot/i18n's decision; never storage's.
	"bot/webapp/view": {"bot/button", "bot/callback", "bot/i18n", "bot/render", "game"},
	// The app's HTTP server: who asks (initdata), which table (tableref,
	// storage's key), the live push's viewer, a button's data parsed as a
	// press's (callback), the clock and bounded memory of the rate limit
	// (expiring); the views and actions through interfaces it declares,
	// never the rooms that implement them; the page it serves (web).
	"bot/webapp": {"bot/callback", "bot/clock", "bot/expiring", "bot/webapp/initdata", "bot/webapp/live",
		"bot/webapp/tableref", "bot/webapp/web", "storage"},
	// The app's page: files embedded, nothing of ours.
	"bot/webapp/web": {},
	// The app's way into the bot: the server's views made from the store
	// (storage, render's Input, bot/webapp/view), its actions on the one
	// path of a press (input.Handler.Act; a row of bot/button, a chat's
	// title from bot/botapi), the live push told by the table keeper
	// (table.Viewers), who may open a table (Telegram's getChatMember
	// through bot/botapi, its answers kept a while: bot/expiring on the
	// bot's bot/clock). The bot's root and its builder (bot/service) use
	// it.
	"bot/appgate": {"bot/botapi", "bot/button", "bot/callback", "bot/clock", "bot/expiring", "bot/input",
		"bot/render", "bot/table", "bot/webapp", "game", "storage"},
}

// TestImportsPointOneWay fails when a package imports one of ours that
// its layer may not: the rule above, and that nothing imports cmd/.
func TestImportsPointOneWay(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "../...").Output()
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Greater(t, len(lines), 20, "every package listed")
	for _, line := range lines {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		for _, imp := range fields[1:] {
			ours, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			assert.False(t, strings.HasPrefix(ours, "cmd/"), "%s imports %s: nothing imports a command", pkg, ours)
			assert.NotEqual(t, "bot/browsertest", ours, "%s imports %s: only tests may", pkg, ours)
			allowed, ruled := rule(pkg)
			if ruled {
				assert.True(t, within(ours, allowed), "%s imports %s: its layer may import only %v", pkg, ours, allowed)
			}
		}
	}
}

// rule returns what pkg may import of ours: its own rule, or that of the
// nearest ruled package it is inside (game/award is game's).
func rule(pkg string) ([]string, bool) {
	for p := pkg; p != "."; {
		if r, ok := allowedImports[p]; ok {
			return r, true
		}
		i := strings.LastIndex(p, "/")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return nil, false
}

// within reports whether imp is one of allowed or inside one.
func within(imp string, allowed []string) bool {
	for _, a := range allowed {
		if imp == a || strings.HasPrefix(imp, a+"/") {
			return true
		}
	}
	return false
}
