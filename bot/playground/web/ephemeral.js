// Ephemeral messages (Bot API 10.2): in a group, a message one member and
// the bot see and nobody else does. The page holds the current user's
// only (GET /api/chats/{chat}/messages?user=…, and the events whose
// visible_to is them), marks them as Telegram Desktop does (a plate with an
// eye and "Visible to …": history_view_ephemeral_plate.cpp), and
// sends a command ephemerally where a client does: a command the bot
// lists with is_ephemeral in the menu the user sees in the group, or any
// reply to the bot's ephemeral message (Data::EphemeralMessages::trySend).
// One of the playground page's scripts, which index.html loads in order:
// classic scripts, no framework, no build step, sharing their top-level
// names (util.js first, app.js, which starts the page, last). Every text
// that comes from the world is put into the page as DOM text nodes, never
// as HTML.
'use strict';

const eyeIcon = () => icon('0 0 24 24', 'eye', 'M12 5C6.5 5 2.7 9.3 1.5 12c1.2 2.7 5 7 10.5 7s9.3-4.3 10.5-7C21.3 9.3 17.5 5 12 5zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-7a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z');

// keyOf names a message in the page: its message_id, or "e" and its
// ephemeral_message_id for an ephemeral one (whose message_id is 0).
function keyOf(m) {
  return m.ephemeral_message_id ? 'e' + m.ephemeral_message_id : m.message_id;
}

// eventKey is keyOf for the message an event concerns.
function eventKey(ev) {
  return ev.ephemeral_message_id ? 'e' + ev.ephemeral_message_id : ev.message_id;
}

// seenHere reports whether the current user sees a message: every member
// sees the others, the one it is visible to an ephemeral one.
function seenHere(m) {
  return !m.ephemeral_message_id || m.visible_to === S.me;
}

// dropEphemeral forgets every chat's ephemeral messages: they were
// another user's.
function dropEphemeral() {
  for (const ch of S.chats.values()) {
    for (const [k, m] of ch.msgs) if (m.ephemeral_message_id) ch.msgs.delete(k);
    for (const k of ch.deleted) if (typeof k === 'string') ch.deleted.delete(k);
  }
}

// placed orders a chat's messages as the user sees them: an ephemeral one
// below the message that was the newest when it came, or in place of the
// message it replaces, which is then not shown.
function placed(ch) {
  const list = [...ch.msgs.values()];
  const replaced = new Set(list.filter((m) => m.replaces_message_id && ch.msgs.has(m.replaces_message_id))
    .map((m) => m.replaces_message_id));
  const place = (m) => {
    if (!m.ephemeral_message_id) return [m.message_id, 0, 0];
    if (replaced.has(m.replaces_message_id)) return [m.replaces_message_id, 0, m.ephemeral_message_id];
    return [m.shown_after || 0, 1, m.ephemeral_message_id];
  };
  return list.filter((m) => m.ephemeral_message_id || !replaced.has(m.message_id))
    .map((m) => ({ m, at: place(m) }))
    .sort((a, b) => a.at[0] - b.at[0] || a.at[1] - b.at[1] || a.at[2] - b.at[2])
    .map((x) => x.m);
}

// canReply reports whether a client lets the user reply to the message:
// not to their own ephemeral message (Telegram Desktop drops such a
// reply); to the bot's, ephemerally.
function canReply(m) {
  return !m.ephemeral_message_id || m.from_bot;
}

// plate is the mark above an ephemeral message's text: to its receiver,
// "Only visible to you" (our wording: Telegram Desktop's English text for
// it is not known here); on a member's own ephemeral command, "Visible to
// @bot" (its lng_ephemeral_visible_to, naming the receiver).
function plate(m) {
  if (!m.ephemeral_message_id) return null;
  const r = m.receiver_user;
  const text = m.from_bot || !r ? 'Only visible to you' : `Visible to ${r.username ? '@' + r.username : fullName(r)}`;
  const p = el('div', 'eph-plate', eyeIcon(), el('span', null, text));
  p.title = 'An ephemeral message: only you and the bot see it';
  return p;
}

// commandWord reads a command as Telegram Desktop does (ParseCommand):
// "/cmd" or "/cmd@bot", then a space or the end; null for anything else.
function commandWord(text) {
  const m = /^\/([\p{L}\p{N}_]+)(?:@([\p{L}\p{N}_]+))?(?:\s|$)/u.exec(text);
  return m ? { command: m[1], username: m[2] || '' } : null;
}

// sendsEphemerally reports whether a client sends the text ephemerally in
// the open chat: a group with the bot, and a command its menu for the
// user lists with is_ephemeral, addressed to no other bot.
function sendsEphemerally(text) {
  const ch = S.chats.get(S.current);
  if (!ch || ch.info.kind !== 'group' || !ch.info.bot_member) return false;
  const cmd = commandWord(text.trim());
  if (!cmd || (cmd.username && cmd.username.toLowerCase() !== (S.bot.username || '').toLowerCase())) return false;
  return commandList().some((c) => c.is_ephemeral && c.command.toLowerCase() === cmd.command.toLowerCase());
}
