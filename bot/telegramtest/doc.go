// Package telegramtest is a fake Telegram Bot API server that speaks real
// HTTP, for end-to-end tests, the playground and load tests of the bot.
//
// It models what the bot and its tests use, no more: the methods getMe,
// getUpdates (long polling), setWebhook, deleteWebhook, sendMessage,
// editMessageText, editMessageReplyMarkup, deleteMessage,
// editEphemeralMessageText, editEphemeralMessageReplyMarkup,
// deleteEphemeralMessage, answerCallbackQuery, answerInlineQuery,
// answerGuestQuery, getChatMember, getChat, setMyCommands and
// getMyCommands, served at /bot<token>/<method> with Telegram's error codes
// and descriptions. Behind it is a simulated world — users, groups,
// supergroups, forums, channels, memberships, messages — that a test
// drives through the Go API: users send messages and commands, press
// buttons, add and kick the bot, upgrade groups; the test then reads the
// chats or waits for a condition. The package uses only the standard
// library and, to sign what a Mini App is opened with, our
// bot/webapp/initdata; every method is goroutine-safe.
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
// Where the bot depends on Telegram's behaviour the server follows the
// official one (tdlib/telegram-bot-api, Client.cpp; each place says where
// from): texts with parse_mode HTML (the tags Telegram allows and the
// entities &lt; &gt; &amp; &quot; &#N; &#xN;, with its "can't parse
// entities" messages) or plain, stored trimmed with entities counted in
// UTF-16 code units and bot commands, mentions, hashtags and URLs
// detected; a user's text gets the entities a client detects, bot_command
// first of all. reply_parameters and link_preview_options are parsed as
// the official server parses them, falling back to the legacy parameters
// it still reads (Call.Legacy names them). So are inline keyboards of
// callback buttons (callback_data up to 64 bytes; editing a text without
// reply_markup removes its keyboard) and URL buttons (http, https and tg
// links; OpenLink follows the bot's deep link, t.me/<bot>?start=…, to a
// "/start …" in the user's private chat); inline mode (WithInlineMode:
// SendInlineQuery, answerInlineQuery checked as the official server checks
// it, ChooseInlineResult posting the result "via @bot" as an inline
// message, chosen_inline_result with WithInlineFeedback, presses with
// inline_message_id and chat_instance and no message, edits by
// inline_message_id answering True and their errors) and guest mode
// (WithGuestMode: SendGuestMessage, the guest_message update,
// answerGuestQuery), in chats the bot is no member of (AddChat with
// BotStatus left, NewUserChat); getUpdates' offset, long polling,
// allowed_updates and the 409 that ends an older poll; Telegram's flood
// limits (SetRateLimits); the 15 s in which a press may be answered;
// ephemeral messages (Bot API 10.2–10.3: sendMessage's
// ephemeral_message_parameters checked by the docs' rules, in groups
// only, to a non-bot member, within 15 s of that member's callback query
// or ephemeral message unless the bot is an administrator; their edits
// and deletion; a member's ephemeral command, Post.Ephemeral, for a
// command the bot declared is_ephemeral; presses on their buttons; and
// who sees what, MessagesSeenBy); answerCallbackQuery's url, the bot's
// deep link, recorded for OpenLink to follow; Mini Apps (RegisterApp, as
// BotFather's /newapp): a direct link t.me/<bot>/<app>?startapp=… tapped
// in a chat (OpenAppLink, or OpenApp on a URL button) or a web_app button
// in the bot's private chat (OpenApp, the button refused elsewhere with
// BUTTON_TYPE_INVALID) yields the page URL a client loads, initData signed
// with the bot's token in its fragment (docs/TELEGRAM.md, "Mini Apps");
// presses on messages too old or deleted (an InaccessibleMessage, see
// WithInaccessibleAfter); and the 48 hours within which the bot may delete
// its own messages. In groups the bot runs in privacy mode (BotFather's
// default) unless it is an administrator. Updates carry
// message_thread_id and is_topic_message in forums, which tgbotapi v5.5.1
// does not decode: read them from the raw update. Members post on behalf
// of a channel (Post's SenderChat: from Channel_Bot) and a channel's posts
// reach its discussion group as automatic forwards (PostInChannel: from
// 777000). A group upgraded to a supergroup answers with
// migrate_to_chat_id; a bot kicked from a group or blocked by a user gets
// Telegram's 403s, and so does a bot that writes first to a user who never
// started it ("bot can't initiate conversation with a user").
//
// A webhook gets its updates as from api.telegram.org: in parallel, up to
// setWebhook's max_connections (default 40) at once, with one queue per
// chat for messages and one per user for button presses (WebhookActor in
// tdlib/telegram-bot-api), so a chat's command and a press in it may be in
// flight together or arrive out of order; a refused update is posted again
// and holds back only its own queue. setWebhook takes only https URLs on
// ports 443, 80, 88 and 8443, as Telegram does; tests that serve their
// webhook on a random loopback port start the server WithLoopbackWebhooks.
//
// # Not modelled
//
// Any other method answers 404 "Not Found", as the official server
// answers a method it does not know (getWebhookInfo, sendPhoto
// and the rest: the bot calls none of them). What the bot does not send is
// refused with a 400 whose description ends "is not modelled by
// telegramtest", so that a bot that starts to send it fails at once
// rather than being served a guess: the Markdown parse modes, the entities
// parameter, buttons other than callback, URL and web_app buttons, reply
// keyboards, keyboard removal and force-reply, answerInlineQuery's button, and
// inline results other than an article with a text. Games are not
// modelled: answerCallbackQuery's url other than the bot's deep link is
// refused with Telegram's URL_INVALID. Of ephemeral messages, the other
// send methods, editEphemeralMessageMedia and editEphemeralMessageCaption
// are not served, and Telegram's expiry of them is left to the test
// (DeleteEphemeral). Telegram's cache of inline answers, a user's location and
// the pages of an inline answer (offset) are not modelled; a reply into
// another chat finds no message; link previews, media and payments do
// not exist here.
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
// SetRateLimits turns on flood limits (429 with retry_after), Telegram's
// with TelegramRateLimits;
// InjectFault makes requests fail with 5xx, 429, delays or dropped
// connections, reproducibly for a given WithFaultSeed, or holds an answer
// until the test releases it (Fault.Hold); WithClock with a
// ManualClock moves time for callback deadlines, rate windows and the
// 48-hour delete rule;
// PushRawUpdate queues an update the world would never send (a message
// with no chat, a press with no sender), to test how the bot survives it.
package telegramtest
