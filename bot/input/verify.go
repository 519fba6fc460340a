package input

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"strconv"
	"strings"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/storage"
)

// The deck check of a table on an inline message: the bot can write
// nothing into that chat, so the press opens a deep link into the bot's
// private chat (answerCallbackQuery's url), t.me/<bot>?start=
// verify_<id>, whose /start shows the decks (render.Verify). The id names
// the table and the game: 24 bytes (the table's chat and thread, the
// game's number) in unpadded base64url, 32 characters, within the 64 a
// start parameter may have, in its alphabet (A-Z a-z 0-9 _ -). The decks
// of a finished game are no secret: a forged link shows only what the
// table's own button would.

// startVerify starts the start parameter of a deck check's deep link.
const startVerify = "verify_"

// VerifyLink returns the deep link of the bot named username that shows,
// in its private chat, the decks of game gameNo of the table at key.
func VerifyLink(username string, key storage.TableKey, gameNo uint64) string {
	var b [24]byte
	binary.BigEndian.PutUint64(b[:], uint64(key.Chat))
	binary.BigEndian.PutUint64(b[8:], uint64(key.Thread))
	binary.BigEndian.PutUint64(b[16:], gameNo)
	return "https://t.me/" + username + "?start=" + startVerify + base64.RawURLEncoding.EncodeToString(b[:])
}

// verifyParam reads a start parameter of VerifyLink: the table and the
// game; false when it is malformed.
func verifyParam(param string) (storage.TableKey, uint64, bool) {
	id, ok := strings.CutPrefix(param, startVerify)
	if !ok || len(id) != 32 {
		return storage.TableKey{}, 0, false
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(id)
	if err != nil || len(b) != 24 {
		return storage.TableKey{}, 0, false
	}
	key := storage.TableKey{Chat: int64(binary.BigEndian.Uint64(b)), Thread: int64(binary.BigEndian.Uint64(b[8:]))}
	gameNo := binary.BigEndian.Uint64(b[16:])
	return key, gameNo, gameNo > 0 && key.Chat != 0
}

// verifyFromLink handles "/start verify_<id>" in private, the deep link of
// an inline table's deck check: the decks of the game it names.
func verifyFromLink(ctx context.Context, c *command) {
	key, gameNo, ok := verifyParam(c.args)
	if !ok {
		c.tell(i18n.T(c.lang, i18n.VerifyUsage))
		return
	}
	msg, found, err := c.h.verifyMessage(ctx, key, gameNo, c.lang)
	switch {
	case err != nil:
		c.fail(ctx, err)
	case !found:
		c.say(i18n.T(c.lang, i18n.VerifyNone, strconv.FormatUint(gameNo, 10)))
	default:
		c.sayMessage(msg)
	}
}
