// Package botapi is the bot's Bot API client: every call takes a context
// first and is cancelled by it, has a timeout of its own, and fails with
// an error that names its kind (errors.Is: ErrGone, ErrForbidden, ErrMoved,
// ErrTooMany, ...) and never holds the bot's token. It also decodes the
// updates the Bot API sends, with the fields tgbotapi v5.5.1 does not know
// (forum topics, guest messages, ephemeral messages), and reads what an
// update says: who sent it, which command it holds, what makes it
// senseless. Ephemeral messages (Bot API 10.2-10.3), which one member of
// a group sees, are sent, edited and deleted by the calls of ephemeral.go.
//
// It speaks HTTP itself, with tgbotapi's types (Params, APIResponse,
// Update): tgbotapi's MakeRequest takes no context, so a call could not
// be cancelled.
package botapi
