// Package message is what the bot sends into a chat, as the renderer draws
// it and the Bot API client sends it: a text in Telegram's HTML and an
// inline keyboard. It is the one type the two share, so that the client
// knows nothing of the rooms above it and the renderer nothing of the
// transport.
package message

// Message is a message to send or edit to.
type Message struct {
	// Text is in Telegram's HTML parse mode.
	Text string
	// Keyboard is the inline keyboard, row by row; nil for none.
	Keyboard [][]Button
}

// Button is an inline keyboard button: a callback button, or a URL
// button when URL is set, or a web_app button when WebApp is set.
type Button struct {
	// Text is the label, plain text.
	Text string
	// Data is the callback data, as package callback encodes it.
	Data string
	// URL is the link the button opens.
	URL string
	// WebApp is the https URL of the Mini App page the button opens in
	// the client (a web_app button): Telegram takes one only on the bot's
	// messages in its private chat with a user.
	WebApp string
	// Style colours the button (Bot API 9.4): the move a player is most
	// likely to look for. Its label must mean the same without the colour.
	Style Style
}

// Style is a button's colour, as the Bot API names it; "" for the app's
// own.
type Style string

// The styles the Bot API takes (any other is refused).
const (
	// Primary is blue: the main move of the moment.
	Primary Style = "primary"
	// Success is green: a positive move.
	Success Style = "success"
	// Danger is red: a move that costs or ends something.
	Danger Style = "danger"
)
