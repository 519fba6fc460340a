// Drawing the page: the users, the chat list, the chat and its messages.
// One of the playground page's scripts, which index.html loads in order:
// classic scripts, no framework, no build step, sharing their top-level
// names (util.js first, app.js, which starts the page, last). Every text
// that comes from the world is put into the page as DOM text nodes, never
// as HTML.
'use strict';

function isPhone() { return window.matchMedia('(max-width: 720px)').matches; }
function isPhoneList() { return isPhone() && document.body.classList.contains('show-list'); }

function render(opts) {
  renderUsers();
  renderChatList();
  renderHeader();
  renderMessages(opts);
  renderReply();
  const u = me();
  $('input').placeholder = u ? `Message as ${u.first_name}` : 'Message';
  const ch = S.chats.get(S.current);
  document.title = ch ? `${chatTitle(ch.info)} — Twenty One playground` : 'Twenty One — playground';
  // The bot's menu, only where the bot is.
  $('menu-btn').hidden = !(ch && ch.info.bot_member);
}

// renderUsers draws the switcher of who you are: in the sidebar, and in
// the chat's header menu for phones. The buttons of known users are kept,
// so that a click never lands on a replaced node.
const userNodes = new Map(); // user id → { key, wide, item }
let addNodes = null;
let whoKey = '';
function renderUsers() {
  const wide = [];
  const menu = [];
  for (const uid of S.userOrder) {
    const u = S.users.get(uid);
    const key = JSON.stringify([u.first_name, u.last_name, u.username, u.language_code]);
    let n = userNodes.get(uid);
    if (!n || n.key !== key) {
      const lang = langOf(u);
      const title = `${fullName(u)}${u.username ? ' · @' + u.username : ''} · ${LANGS[lang]}`;
      const b = el('button', 'user');
      const av = avatar(u);
      if (lang !== 'en') av.append(el('span', 'lang', lang));
      b.append(av, el('span', 'user-name', u.first_name));
      const item = el('button', 'who-item', avatar(u), el('span', 'who-name', fullName(u) + (lang !== 'en' ? ' · ' + lang : '')));
      for (const x of [b, item]) {
        x.type = 'button';
        x.title = title;
        x.setAttribute('role', 'radio');
        x.dataset.userId = uid;
        x.dataset.userName = u.first_name;
        x.addEventListener('click', () => { hideWho(); switchUser(uid); });
      }
      n = { key, wide: b, item };
      userNodes.set(uid, n);
    }
    for (const x of [n.wide, n.item]) x.setAttribute('aria-checked', String(uid === S.me));
    wide.push(n.wide);
    menu.push(n.item);
  }
  if (!addNodes) {
    const add = el('button', 'user add', el('div', 'avatar', '+'), el('span', 'user-name', 'Add'));
    add.id = 'add-user-btn';
    const addItem = el('button', 'who-item add', el('div', 'avatar', '+'), el('span', 'who-name', 'Add a player'));
    for (const x of [add, addItem]) {
      x.type = 'button';
      x.title = 'Add a player';
      x.addEventListener('click', () => { hideWho(); openAddUser(); });
    }
    addNodes = { wide: add, item: addItem };
  }
  wide.push(addNodes.wide);
  menu.push(addNodes.item);
  reconcile($('users'), wide);
  reconcile($('who-menu'), menu);
  const u = me();
  const key = u ? JSON.stringify([u.id, u.first_name, u.last_name]) : '';
  if (key !== whoKey) {
    whoKey = key;
    $('who-btn').replaceChildren(u ? avatar(u) : el('div', 'avatar', '?'));
    $('who-btn').title = u ? `You are ${fullName(u)}: switch` : 'Switch user';
  }
}

// reconcile makes box's children the nodes, in order, moving the ones it
// has and removing the others.
function reconcile(box, nodes) {
  let ref = box.firstChild;
  for (const node of nodes) {
    if (node === ref) {
      ref = ref.nextSibling;
      continue;
    }
    box.insertBefore(node, ref);
  }
  while (ref) {
    const next = ref.nextSibling;
    ref.remove();
    ref = next;
  }
}

function hideWho() {
  $('who-menu').hidden = true;
  $('who-btn').setAttribute('aria-expanded', 'false');
}

const chatNodes = new Map(); // chat id → button
let noChats = null;
function renderChatList() {
  const items = visibleChats().map((ch) => {
    let b = chatNodes.get(ch.info.id);
    if (!b) {
      b = el('button', 'chat-item');
      b.type = 'button';
      b.dataset.chatId = ch.info.id;
      b.addEventListener('click', () => openChat(ch.info.id));
      chatNodes.set(ch.info.id, b);
    }
    b.classList.toggle('active', ch.info.id === S.current);
    const list = sortedMessages(ch);
    const last = list[list.length - 1];
    const preview = el('span', 'chat-item-preview');
    if (last) {
      if (!isService(last) && last.from) {
        const who = last.from_bot ? S.bot.first_name : (last.from.id === S.me ? 'You' : userName(last.from));
        preview.append(el('b', null, who + ': '));
      }
      preview.append(previewText(last));
    } else {
      preview.append('No messages yet');
    }
    const bottom = el('div', 'chat-item-bottom', preview);
    if (ch.unread > 0 && (ch.info.id !== S.current || isPhoneList())) bottom.append(el('span', 'badge', String(ch.unread)));
    b.replaceChildren(
      chatAvatar(ch.info),
      el('div', 'chat-item-body',
        el('div', 'chat-item-top', el('span', 'chat-item-title', chatTitle(ch.info)), el('span', 'chat-item-time', last ? hhmm(last.sent_at) : '')),
        bottom));
    return b;
  });
  if (!items.length) {
    noChats = noChats || el('div', 'section-label', 'Not in any group');
    items.push(noChats);
  }
  reconcile($('chats'), items);
}

function renderHeader() {
  const ch = S.chats.get(S.current);
  if (!ch) {
    $('chat-title').textContent = 'No chat';
    $('chat-sub').textContent = '';
    $('chat-avatar').replaceWith(Object.assign(el('div', 'chat-avatar avatar'), { id: 'chat-avatar' }));
    return;
  }
  const a = chatAvatar(ch.info);
  a.classList.add('chat-avatar');
  a.id = 'chat-avatar';
  $('chat-avatar').replaceWith(a);
  $('chat-title').textContent = chatTitle(ch.info);
  const u = me();
  let who = 'bot';
  if (ch.info.kind === 'users') who = 'private chat';
  else if (ch.info.kind === 'group') who = `${ch.info.members.length + (ch.info.bot_member ? 1 : 0)} members`;
  // Where the bot is not, it comes when called: say how.
  if (!ch.info.bot_member && S.bot) who += ` · no bot here: type @${S.bot.username}`;
  $('chat-sub').textContent = `${who}${u ? ' · you are ' + u.first_name : ''}`;
}

function sender(m) { return m.from ? m.from.id : 0; }

// neighbours says whether a message starts and ends a run of messages of
// one sender, as Telegram groups them.
function neighbours(list, i) {
  const m = list[i];
  const same = (o) => o && !isService(o) && sender(o) === sender(m) && dayKey(o.sent_at) === dayKey(m.sent_at) &&
    Math.abs(new Date(o.sent_at) - new Date(m.sent_at)) < 5 * 60 * 1000;
  return { first: !same(list[i - 1]), last: !same(list[i + 1]) };
}

const emptyNodes = {}; // with the bot, without it → the hint of an empty chat
function renderMessages(opts = {}) {
  const inner = $('messages-inner');
  const box = $('messages');
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 120;
  const ch = S.chats.get(S.current);
  const wanted = [];
  if (ch) {
    const list = sortedMessages(ch);
    const keep = new Map();
    const take = (id, key, make) => {
      const hit = ch.nodes.get(id);
      const node = hit && hit.key === key ? hit.node : make();
      keep.set(id, { key, node });
      wanted.push(node);
    };
    let day = '';
    list.forEach((m, i) => {
      const d = dayKey(m.sent_at);
      if (d !== day) {
        day = d;
        take('day:' + d, dayLabel(m.sent_at), () => el('div', 'date-row', el('span', 'pill', dayLabel(m.sent_at))));
      }
      if (isService(m)) {
        const text = serviceText(m);
        take(m.message_id, 'service|' + text, () => {
          const row = el('div', 'service-row', el('span', 'pill', text));
          row.dataset.messageId = m.message_id;
          return row;
        });
        return;
      }
      const o = neighbours(list, i);
      o.out = !m.from_bot && sender(m) === S.me;
      o.pending = [...S.pending].filter((p) => p.startsWith(`${ch.info.id}:${keyOf(m)}:`)).join(',');
      const key = [m.edit_count, o.out, o.first, o.last, o.pending, S.me].join('|');
      take(keyOf(m), key, () => messageNode(ch, m, o));
    });
    ch.nodes = keep;
    if (!list.length && ch.loaded) {
      const key = ch.info.bot_member ? 'bot' : 'inline';
      emptyNodes[key] = emptyNodes[key] || el('div', 'empty',
        el('h2', null, '🃏 No messages here yet'),
        el('p', null, ch.info.bot_member ? 'Send /newgame to open a table.'
          : `The bot is not in this chat: type @${S.bot ? S.bot.username : 'bot'} in the input and pick a table, or send a message that mentions it.`),
        el('p', null, 'Switch players at the top left, and press the buttons as each of them.'));
      wanted.push(emptyNodes[key]);
    }
  }
  reconcile(inner, wanted);
  if (opts.bottom || atBottom) box.scrollTop = box.scrollHeight;
}

function messageNode(ch, m, o) {
  const from = m.from ? (S.users.get(m.from.id) || m.from) : null;
  const row = el('div', `row ${o.out ? 'out' : 'in'}${o.first ? ' first' : ''}${o.last ? ' last' : ''}${m.edit_count > 0 ? ' edited' : ''}`);
  if (m.ephemeral_message_id) {
    // Seen by one member and the bot only (ephemeral.js).
    row.classList.add('ephemeral');
    row.dataset.ephemeralMessageId = m.ephemeral_message_id;
  } else {
    row.dataset.messageId = m.message_id;
  }
  row.dataset.edits = m.edit_count;
  if (m.from_bot) row.dataset.fromBot = '1';
  if (from) row.dataset.from = from.id;
  // Posted through the bot (a chosen inline result, a guest answer): the
  // bot edits it, and is told of its presses, by this id.
  if (m.inline_message_id) row.dataset.inlineMessageId = m.inline_message_id;

  const bubble = el('div', 'bubble');
  // Reply as in Telegram: a double click, or the message's menu (a tap
  // on a phone, a right click elsewhere), or the button beside it.
  bubble.addEventListener('dblclick', (ev) => {
    if (isPhone() || ev.target.closest('a, button, .spoiler')) return;
    if (!canReply(m)) return;
    window.getSelection()?.removeAllRanges();
    startReply(ch.info.id, keyOf(m));
  });
  bubble.addEventListener('contextmenu', (ev) => {
    ev.preventDefault();
    openMessageMenu(ch.info.id, m, ev.clientX, ev.clientY);
  });
  bubble.addEventListener('click', (ev) => {
    if (!isPhone() || ev.target.closest('a, button, .spoiler')) return;
    openMessageMenu(ch.info.id, m, ev.clientX, ev.clientY);
  });
  // "via @bot" on a message a user posted through the bot, as Telegram
  // shows via_bot: after the sender's name, or alone on the user's own.
  const via = m.via_bot ? el('span', 'via', 'via @' + (m.via_bot.username || '')) : null;
  if (o.first && !o.out && from) {
    const name = el('div', 'sender ' + senderColor(m), fullName(from));
    if (m.from_bot) name.append(el('span', 'tag', 'bot'));
    if (via) name.append(' ', via);
    // A guest bot's answer names who called it (guest_bot_caller_user or
    // _chat), as TDLib clients write it: "for Alice".
    const caller = m.guest_bot_caller_user || m.guest_bot_caller_chat;
    if (caller) name.append(' ', el('span', 'caller', 'for ' + (caller.title || fullName(S.users.get(caller.id) || caller))));
    bubble.append(name);
  } else if (via) {
    bubble.append(el('div', 'sender', via));
  }
  if (m.reply_to_message) bubble.append(replyNode(ch, m.reply_to_message));
  else if (m.reply_to_ephemeral_message_id && ch.msgs.get('e' + m.reply_to_ephemeral_message_id)) {
    bubble.append(replyNode(ch, ch.msgs.get('e' + m.reply_to_ephemeral_message_id)));
  }
  const mark = plate(m);
  if (mark) bubble.append(mark);
  const text = el('div', 'text');
  text.append(renderText(m.text || '', m.entities));
  text.append(el('span', 'meta-spacer'));
  bubble.append(text);
  const meta = el('span', 'meta');
  if (m.edit_count > 0) {
    // Telegram Desktop writes "updated" on an edited ephemeral message
    // (lng_ephemeral_updated), "edited" on others.
    const ed = el('span', 'edited-mark', m.ephemeral_message_id ? 'updated' : 'edited');
    if (m.edited_at) ed.title = 'Edited at ' + new Date(m.edited_at).toLocaleTimeString();
    meta.append(ed);
  }
  meta.append(el('time', null, hhmm(m.sent_at)));
  if (o.out) meta.append(checksIcon());
  bubble.append(meta);

  const stack = el('div', 'stack', bubble);
  const rows = m.reply_markup && m.reply_markup.inline_keyboard;
  if (rows && rows.length) {
    stack.classList.add('has-kb');
    stack.append(keyboardNode(ch, m, rows));
  }
  const reply = el('button', 'reply-btn', replyIcon());
  reply.type = 'button';
  reply.title = 'Reply';
  reply.setAttribute('aria-label', 'Reply');
  reply.addEventListener('click', () => startReply(ch.info.id, keyOf(m)));
  reply.hidden = !canReply(m);
  row.append(o.last && from ? avatar(from) : el('div', 'avatar-spacer'), stack, reply);
  return row;
}

// senderName is the full name of who sent a message, as the page knows them.
function senderName(m) {
  const u = m.from ? (S.users.get(m.from.id) || m.from) : null;
  return u ? fullName(u) : '';
}
// senderColor is the class that colours a sender's name.
function senderColor(m) {
  if (!m.from) return '';
  return S.bot && m.from.id === S.bot.id ? 'n5' : 'n' + palette(m.from.id);
}

function replyNode(ch, r) {
  const b = el('button', 'reply ' + senderColor(r),
    el('div', 'reply-name', senderName(r)),
    el('div', 'reply-text', previewText(r) || '…'));
  b.type = 'button';
  // The message quoted: an ephemeral one by its own id (its message_id
  // is 0).
  if (r.ephemeral_message_id) b.dataset.ephemeralMessageId = r.ephemeral_message_id;
  else b.dataset.messageId = r.message_id;
  b.addEventListener('click', () => {
    const hit = ch.nodes.get(keyOf(r));
    if (hit) hit.node.scrollIntoView({ block: 'center', behavior: 'smooth' });
  });
  return b;
}

function keyboardNode(ch, m, rows) {
  const kb = el('div', 'kb');
  for (const r of rows) {
    const line = el('div', 'kb-row');
    for (const b of r) {
      const btn = el('button', 'kb-btn', b.text);
      btn.type = 'button';
      btn.title = b.text;
      // Bot API 9.4's colours: a client draws a styled button in it.
      if (['primary', 'success', 'danger'].includes(b.style)) btn.classList.add('style-' + b.style);
      if (b.callback_data) {
        btn.dataset.data = b.callback_data;
        if (S.pending.has(`${ch.info.id}:${keyOf(m)}:${b.callback_data}`)) btn.classList.add('loading');
        btn.addEventListener('click', () => press(ch.info.id, m, b.callback_data));
      } else if (b.web_app) {
        // A Mini App's button, in the bot's private chat (miniapp.js).
        btn.classList.add('url', 'app-link');
        btn.addEventListener('click', () => openApp(ch.info.id, { message_id: m.message_id, button: b.text }));
      } else if (b.url) {
        btn.classList.add('url');
        const href = safeURL(b.url, 'https://');
        if (href && appLink(href)) {
          btn.classList.add('app-link');
          btn.addEventListener('click', () => openApp(ch.info.id, { url: href }));
        } else if (href && botLink(href)) btn.addEventListener('click', () => openBotLink(href));
        else if (href) btn.addEventListener('click', () => window.open(href, '_blank', 'noopener'));
        else btn.disabled = true;
      } else {
        btn.disabled = true;
        btn.title = 'This kind of button does nothing in the playground';
      }
      line.append(btn);
    }
    kb.append(line);
  }
  return kb;
}
