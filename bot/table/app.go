package table

import (
	"strings"

	"github.com/twentyone-bot/twentyone/bot/webapp/tableref"
	"github.com/twentyone-bot/twentyone/storage"
)

// App is the Mini App the table messages open (bot.Config.AppName and
// AppURL): a live table's message gets a button that opens it at that
// table (bot/button's OpenApp row), named by a reference only the app's
// server can check (tableref). The zero App opens nothing.
type App struct {
	// Bot is the bot's username, without the @; Name is the app's short
	// name, as BotFather's /newapp registered it. Either empty: no app
	// button at all.
	Bot, Name string
	// URL is the app's page, its public https URL (BotFather's): a solo
	// table's web_app button opens it. Empty: no app button at solo
	// tables.
	URL string
	// Refs is the key of the references (tableref.KeyFrom of
	// storage.Store.AppKey), read once.
	Refs tableref.Key
}

// Link returns the link of the app button of the table at key: at a solo
// table (solo: the bot's private chat, where Telegram takes web_app
// buttons only) the page's URL with startapp=<ref> added to its query,
// which the page reads (a web_app button's initData carries no
// start_param); elsewhere the direct link
// https://t.me/<Bot>/<Name>?startapp=<ref>, which Telegram hands the app
// as start_param. "" when there is no button to show.
func (a App) Link(key storage.TableKey, solo bool) string {
	if a.Bot == "" || a.Name == "" || a.Refs == (tableref.Key{}) || solo && a.URL == "" {
		return ""
	}
	ref := a.Refs.Ref(key) // base64url: nothing to escape
	if !solo {
		return "https://t.me/" + a.Bot + "/" + a.Name + "?startapp=" + ref
	}
	page, fragment, hasFragment := strings.Cut(a.URL, "#")
	sep := "?"
	if strings.Contains(page, "?") {
		sep = "&"
		if strings.HasSuffix(page, "?") || strings.HasSuffix(page, "&") {
			sep = ""
		}
	}
	page += sep + "startapp=" + ref
	if hasFragment {
		page += "#" + fragment
	}
	return page
}

// SetApp makes every live table's message show the button that opens a
// (its link, App.Link), from the next render on. Call it before the
// Keeper shows any table (bot.New does, before Start): the renders read
// it without a lock.
func (k *Keeper) SetApp(a App) { k.app = a }
