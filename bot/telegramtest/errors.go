package telegramtest

import (
	"errors"
	"fmt"
)

// Errors returned by the Go API (acting as users, pressing buttons, chat
// lifecycle). They are wrapped with details; test with errors.Is.
var (
	// ErrChatNotFound means no chat has the given id.
	ErrChatNotFound = errors.New("telegramtest: chat not found")
	// ErrUserNotFound means no user has the given id.
	ErrUserNotFound = errors.New("telegramtest: user not found")
	// ErrMessageNotFound means the chat has no (undeleted) message with the given id.
	ErrMessageNotFound = errors.New("telegramtest: message not found")
	// ErrButtonNotFound means no message carries the requested button.
	ErrButtonNotFound = errors.New("telegramtest: button not found")
	// ErrNotMember means the user (or the bot) cannot act in the chat.
	ErrNotMember = errors.New("telegramtest: not a member of the chat")
	// ErrChatMigrated means the group was upgraded to a supergroup.
	ErrChatMigrated = errors.New("telegramtest: group was upgraded to a supergroup")
	// ErrInvalid means the request makes no sense for the world as it is.
	ErrInvalid = errors.New("telegramtest: invalid request")
	// ErrClosed means the server was closed.
	ErrClosed = errors.New("telegramtest: server closed")
)

// apiError is a Bot API error answer.
type apiError struct {
	code        int
	description string
	retryAfter  int
	migrateTo   int64
}

// Error renders the code and description.
func (e *apiError) Error() string { return fmt.Sprintf("%d %s", e.code, e.description) }

func badRequest(description string) *apiError {
	return &apiError{code: 400, description: "Bad Request: " + description}
}

func forbidden(description string) *apiError {
	return &apiError{code: 403, description: "Forbidden: " + description}
}

func conflict(description string) *apiError {
	return &apiError{code: 409, description: "Conflict: " + description}
}

func tooManyRequests(retryAfter int) *apiError {
	return &apiError{code: 429, description: fmt.Sprintf("Too Many Requests: retry after %d", retryAfter), retryAfter: retryAfter}
}

// notModelled refuses a request that Telegram would serve but this model
// does not: with a 400, so that a bot does not retry it, and a description
// that says so rather than pretend to be Telegram's.
func notModelled(what string) *apiError {
	return badRequest(what + " is not modelled by telegramtest")
}

func migratedError(to int64) *apiError {
	return &apiError{code: 400, description: "Bad Request: group chat was upgraded to a supergroup chat", migrateTo: to}
}

var (
	errUnauthorized   = &apiError{code: 401, description: "Unauthorized"}
	errMethodNotFound = &apiError{code: 404, description: "Not Found"}
	errInternal       = &apiError{code: 500, description: "Internal Server Error"}

	errChatNotFound   = badRequest("chat not found")
	errChatIDEmpty    = badRequest("chat_id is empty")
	errTextEmpty      = badRequest("message text is empty")
	errTextTooLong    = badRequest("message is too long")
	errNotModified    = badRequest("message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message")
	errEditNotFound   = badRequest("message to edit not found")
	errCantEdit       = badRequest("message can't be edited")
	errDeleteNotFound = badRequest("message to delete not found")
	errCantDelete     = badRequest("message can't be deleted")
	// errCantDeleteForEveryone: see Server.deleteRefusal.
	errCantDeleteForEveryone = badRequest("message can't be deleted for everyone")
	errMessageIDMissing      = badRequest("message identifier is not specified")
	errReplyNotFound         = badRequest("message to be replied not found")
	errThreadNotFound        = badRequest("message thread not found")
	errButtonData            = badRequest("BUTTON_DATA_INVALID")
	errQueryTooOld           = badRequest("query is too old and response timeout expired or query ID is invalid")
	errAnswerTooLong         = badRequest("MESSAGE_TOO_LONG")
	errUserNotFound          = badRequest("user not found")
	errWebhookActive         = conflict("can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first")
	errPollConflict          = conflict("terminated by other getUpdates request; make sure that only one bot instance is running")
	errPollBySetWebhook      = conflict("terminated by setWebhook request")
)
