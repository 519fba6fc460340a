// Package playground runs the whole product on one machine without
// Telegram: our Bot API server (bot/telegramtest) in-process, the real bot
// polling it over HTTP with a real BoltDB file, and a web page that looks
// and behaves like a Telegram group chat.
//
// The page is served by the binary itself (go:embed, no CDN, no build step).
// It shows the bot's messages with their inline keyboards, edits them in
// place as Telegram does, shows callback answers as toasts (show_alert ones
// as a modal), and lets you type commands, press buttons and reply to a
// message (a double click, the Reply beside it, or its menu: a right click,
// a tap on a phone) as any of the seeded users, or one you add. It writes a
// date_time entity as a client does, in the reader's language and time
// zone. On a phone's screen the chat list and the chat are two views, as
// in Telegram's apps. Changes arrive live over server-sent events.
//
// The bot runs with inline mode, inline feedback and guest mode on, and
// the world has two chats it is not in: Alice's private chat with Bob and
// the group "Book club". In any chat, text that starts with
// @twentyone_bot is an inline query of the rest: the bot's results show
// above the input, and the one picked is posted "via @twentyone_bot",
// an inline message whose buttons are pressed by its inline_message_id
// and which a user may delete from its menu. A message that mentions the
// bot where it is not a member reaches it as a guest message, and the
// bot's answer names who called it ("for Carol Cooper").
//
// Ephemeral messages (Bot API 10.2) show to the one user who sees them
// only, marked as Telegram Desktop marks them (an eye, "Only visible to
// you" on the bot's, "Visible to @twentyone_bot" on one's own command);
// a command the bot declared is_ephemeral (the menu marks it with the
// eye) is sent ephemerally in a group, and so is a reply to the bot's
// ephemeral message. A press whose answer carries a url, the bot's deep
// link, opens the user's private chat with the bot as a client does.
//
// The bot has its Mini App (AppName, registered in the Bot API server at
// the playground's own address: telegramtest.WithLoopbackApps), and every
// live table links to it: a URL button to t.me/<bot>/table?startapp=… in
// groups and on inline messages, a web_app button in the bot's private
// chat. Pressing it opens the app as the current player, as a client does
// (POST /api/chats/{chat}/app): its page, with initData signed with the
// bot's token in the fragment, loads in a phone-sized panel, 390×844,
// beside the chat (over it on a narrower screen, the whole screen on a
// phone) until closed, and stays that player's while you switch. The app
// is the product's own server (service.WithApp, as `twentyone run` builds
// it), served by the playground's at /miniapp/: its page is same-origin
// with its API and with the playground's page, which alone may frame it.
//
// Options.Paced puts the server and the bot under Telegram's rate limits,
// and the Mini App's server under its own, so that a person feels the
// speed of a real group; by default nothing is paced.
//
// # HTTP API
//
// Every answer is JSON; errors are {"error": "..."} with status 400 for a
// request the world cannot satisfy (an unknown user, chat or message, a user
// who is not a member, an empty text). POST bodies must be JSON
// (Content-Type: application/json).
//
//	GET  /api/state                     the bot, the users, the chats (groups, chats
//	                                    between two users, private chats with the bot:
//	                                    "kind" group, users or bot) with their members and
//	                                    whether the bot is one ("bot_member"), the bot's
//	                                    command menus (and, in each chat with the bot, the
//	                                    menu each member sees: "commands" by user id)
//	GET  /api/chats/{chat}/messages     a chat and the messages every member sees (edits
//	                                    applied); with ?user=ID, as that user sees it: with
//	                                    the ephemeral messages only they see
//	POST /api/chats/{chat}/messages     {"from": user, "text": "/newgame"}: send as a user;
//	                                    with "reply_to_message_id": 5, in reply to that
//	                                    message (the bot gets reply_to_message, with its
//	                                    sender, as from Telegram); where the bot is not a
//	                                    member, a text that mentions it is a guest message,
//	                                    and the answer has its "guest_query_id"; with
//	                                    "ephemeral": true, a command the bot declared
//	                                    is_ephemeral sent ephemerally; with
//	                                    "reply_to_ephemeral_message_id": 3, a reply to the
//	                                    bot's ephemeral message to the user
//	POST /api/chats/{chat}/press        {"from": user, "message_id": 5, "data": "j:2"}:
//	                                    press a button (of the bot's ephemeral message with
//	                                    "ephemeral_message_id" in place of "message_id");
//	                                    answers {"answer": {...}} once the bot answered
//	                                    (or "answered": false); an answer's "url" is a
//	                                    link for the client to open (POST /api/links)
//	POST /api/chats/{chat}/ephemeral/{id}/delete
//	                                    {"from": user}: the user who sees an ephemeral
//	                                    message deletes it
//	POST /api/users                     {"first_name": "Eve", "language_code": "en",
//	                                    "chats": [-4000000001]}: add a user to groups
//	                                    (all of them when chats is absent); the language
//	                                    is en, ru or uk, the bot's languages
//	POST /api/links                     {"from": user, "url": "https://t.me/<bot>?start=x"}:
//	                                    tap the bot's deep link: the user's private chat
//	                                    with the bot (a chat of /api/state once it exists)
//	                                    gets "/start x"
//	POST /api/chats/{chat}/app          {"from": user, "url": "https://t.me/<bot>/table?startapp=x"}
//	                                    (a direct link tapped in the chat: a URL button's)
//	                                    or {"from": user, "message_id": 5, "button": "🃏 Open
//	                                    the table"} (a web_app button): open the Mini App as
//	                                    the user; answers {"url": ...}, the launch's page at
//	                                    the host the request came by
//	GET, POST /miniapp/...              the Mini App's page and API (bot/webapp's routes
//	                                    under /miniapp: /miniapp/api/table, ...), as its own
//	                                    server answers them
//	POST /api/chats/{chat}/inline       {"from": user, "query": "10"}: the user types
//	                                    "@twentyone_bot 10" in the chat; answers the inline
//	                                    query's {"id": ..., "chat_type": "private"}
//	GET  /api/inline/queries/{id}       the query and the bot's results: {"answered": true,
//	                                    "results": [{"id", "title", "description", "text",
//	                                    "reply_markup", ...}]}, once the bot answered
//	                                    ("answered": false when it can no longer)
//	POST /api/inline/queries/{id}/choose
//	                                    {"from": user, "result_id": "t10"}: the query's
//	                                    user picks a result, posted in the chat from them
//	                                    via the bot; answers the message, with its
//	                                    "inline_message_id"
//	POST /api/inline/messages/{id}/press
//	                                    {"from": user, "data": "j:2"}: press a button of
//	                                    an inline message (deleted ones too, as a client
//	                                    that has not seen the deletion); answers as
//	                                    /press does
//	POST /api/inline/messages/{id}/delete
//	                                    {"from": user}: delete an inline message as a user
//	                                    does in a client; answers {"chat_id", "message_id"}
//	GET  /api/events                    text/event-stream of telegramtest events: a
//	                                    "ready" event first (load the state now), then
//	                                    one unnamed event per change (the telegramtest
//	                                    Event as JSON: an ephemeral message's has its
//	                                    "visible_to", the one user to show it to), and
//	                                    "gap" when events were dropped (reload the state)
package playground
