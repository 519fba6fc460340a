// Package telegramtest is a fake Telegram Bot API server that speaks real
// HTTP, for end-to-end tests, the playground and load tests of the bot.
//
// It serves /bot<token>/<method> exactly as api.telegram.org answers the
// methods a game bot uses (getMe, getUpdates with long polling, webhooks,
// sendMessage with HTML parsing and inline keyboards,
// editMessageText, editMessageReplyMarkup, deleteMessage,
// answerCallbackQuery, getChat, getChatMember, getChatAdministrators,
// setMyCommands and a few more — see Methods), with Telegram's
// error codes and descriptions. Behind it is a simulated world — users,
// groups, supergroups, forums, memberships, messages — that a test drives
// through the Go API: users send messages and commands, press buttons,
// add and kick the bot, upgrade groups; the test then reads the chats or
// waits for a condition. The package uses only the standard library and
// every method is goroutine-safe.
//
// A test with the real client, github.com/go-telegram-bot-api/telegram-bot-api/v5:
//
//	func TestJoin(t *testing.T) {
//		srv := telegramtest.StartTest(t)
//		alice := srv.AddUser(telegramtest.User{FirstName: "Alice", LanguageCode: "en"})
//		table := srv.NewGroup("Table", alice)
//
//		api, err := tgbotapi.NewBotAPIWithClient(srv.Token(), srv.Endpoint(), srv.Client())
//		require.NoError(t, err)
//		go runBot(api) // the code under test: getUpdates, sendMessage, …
//
//		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
//		defer cancel()
//		_, err = srv.SendCommand(table.ID, alice.ID, "newgame")
//		require.NoError(t, err)
//		msg, err := srv.WaitForBotMessage(ctx, table.ID, telegramtest.HasButton("Join"))
//		require.NoError(t, err)
//
//		press, err := srv.Press(telegramtest.Press{ChatID: table.ID, From: alice.ID, MessageID: msg.MessageID, Label: "Join"})
//		require.NoError(t, err)
//		answer, err := press.Wait(ctx)
//		require.NoError(t, err)
//		assert.Equal(t, "You joined", answer.Text)
//	}
//
// # Faithfulness
//
// Texts are parsed like Telegram: HTML (the tags Telegram allows and the
// entities &lt; &gt; &amp; &quot; &#N; &#xN;), with Telegram's "can't
// parse entities" messages, or plain; the Markdown parse modes and the
// entities parameter, which the bot does not send, are refused with a 400
// that says they are not modelled. The stored
// text is the plain text, trimmed, with entities counted in UTF-16 code
// units and bot commands, mentions, hashtags and URLs detected. Editing a
// message's text without reply_markup removes its keyboard, as on
// Telegram. In groups the bot runs in privacy mode unless WithPrivacyMode
// (false) is given or it is an administrator. Updates carry
// message_thread_id and is_topic_message in forums, which tgbotapi v5.5.1
// does not decode: read them from the raw update. Members post on behalf
// of a channel (Post's SenderChat: from Channel_Bot) and a channel's posts
// reach its discussion group as automatic forwards (PostInChannel: from
// 777000), as the official server shows them. The bot deletes a message
// only within 48 hours of sending it, with the official server's answers.
//
// A webhook gets its updates as from api.telegram.org: in parallel, up to
// setWebhook's max_connections (default 40) at once, with one queue per
// chat for messages and one per user for button presses (WebhookActor in
// tdlib/telegram-bot-api), so a chat's command and a press in it may be in
// flight together or arrive out of order; a refused update is posted again
// and holds back only its own queue (WithWebhookBackoff). setWebhook takes
// only https URLs on ports 443, 80, 88 and 8443, as Telegram does; tests
// that serve their webhook on a random loopback port start the server
// WithLoopbackWebhooks.
//
// # Observing
//
// Messages, LastBotMessage, Calls and friends read the world; WaitFor and
// WaitForBotMessage wait for a condition without sleeping; Subscribe
// streams every change as an Event (never blocking the server: a full
// subscriber buffer drops events and counts them).
//
// # Disturbing
//
// SetRateLimits turns on Telegram's flood limits (429 with retry_after);
// InjectFault makes requests fail with 5xx, 429, delays or dropped
// connections, reproducibly for a given WithFaultSeed; WithClock with a
// ManualClock moves time for callback deadlines and rate windows;
// PushRawUpdate queues an update the world would never send (a message
// with no chat, a press with no sender), to test how the bot survives it.
package telegramtest
