// What the user does: switching users, replying, sending, pressing,
// following links; the pop-ups and the command menu.
// One of the playground page's scripts, which index.html loads in order:
// classic scripts, no framework, no build step, sharing their top-level
// names (util.js first, app.js, which starts the page, last). Every text
// that comes from the world is put into the page as DOM text nodes, never
// as HTML.
'use strict';

function switchUser(id) {
  if (!S.users.has(id)) return;
  const other = id !== S.me;
  S.me = id;
  saved.set('playground.me', id);
  closeInline(); // the query was the other user's
  if (other) {
    // The chats as this user sees them: without the ephemeral messages
    // only the one before saw, with their own.
    dropEphemeral();
    S.reply = null;
    reloadAll();
  }
  fixCurrent();
  render({ bottom: true });
}

// startReply makes the next message a reply to this one (its keyOf),
// quoted above the input until it is sent or cancelled.
function startReply(chatID, key) {
  hideMessageMenu();
  S.reply = { chat: chatID, id: key };
  renderReply();
  if (!isPhone()) $('input').focus();
}
function cancelReply() {
  S.reply = null;
  renderReply();
}
// replying is the message the next one replies to, in the open chat, or null.
function replying() {
  const ch = S.chats.get(S.current);
  return S.reply && ch && S.reply.chat === S.current ? ch.msgs.get(S.reply.id) || null : null;
}
function renderReply() {
  const m = replying();
  if (!m && S.reply && S.chats.get(S.reply.chat)?.deleted.has(S.reply.id)) S.reply = null;
  const bar = $('reply-bar');
  bar.hidden = !m;
  if (!m) return;
  $('reply-name').className = 'reply-bar-name ' + senderColor(m);
  $('reply-name').textContent = senderName(m);
  $('reply-text').textContent = previewText(m) || '…';
  bar.title = 'Reply to ' + senderName(m);
}

// The message menu, of a tap on a phone or a right click.
let menuMessage = null;
function openMessageMenu(chatID, m, x, y) {
  menuMessage = { chat: chatID, m };
  const menu = $('msg-menu');
  $('msg-copy').hidden = !m.text;
  $('msg-reply').hidden = !canReply(m);
  // An inline message can be deleted, as a user deletes one in a client,
  // and so can an ephemeral one, by the user who sees it; the bot finds
  // it gone when it next edits it.
  $('msg-delete').hidden = !m.inline_message_id && !m.ephemeral_message_id;
  menu.hidden = false;
  const w = menu.offsetWidth;
  const h = menu.offsetHeight;
  menu.style.left = Math.max(8, Math.min(x, window.innerWidth - w - 8)) + 'px';
  menu.style.top = Math.max(8, Math.min(y, window.innerHeight - h - 8)) + 'px';
  (canReply(m) ? $('msg-reply') : $('msg-copy')).focus();
}
function hideMessageMenu() {
  $('msg-menu').hidden = true;
  menuMessage = null;
}
async function deleteMessage() {
  const m = menuMessage && menuMessage.m;
  const chat = menuMessage && menuMessage.chat;
  hideMessageMenu();
  if (!m || (!m.inline_message_id && !m.ephemeral_message_id)) return;
  try {
    if (m.ephemeral_message_id) await api('POST', `/api/chats/${chat}/ephemeral/${m.ephemeral_message_id}/delete`, { from: S.me });
    else await api('POST', `/api/inline/messages/${encodeURIComponent(m.inline_message_id)}/delete`, { from: S.me });
  } catch (err) {
    toast(err.message, 'error');
  }
}
async function copyMessage() {
  const m = menuMessage && menuMessage.m;
  hideMessageMenu();
  if (!m) return;
  try {
    await navigator.clipboard.writeText(m.text || '');
    toast('Copied');
  } catch {
    toast('The browser did not let the page copy', 'error');
  }
}

function openChat(id) {
  if (S.reply && S.reply.chat !== id) S.reply = null;
  S.current = id;
  saved.set('playground.chat', id);
  const ch = S.chats.get(id);
  if (ch) ch.unread = 0;
  document.body.classList.remove('show-list');
  document.body.classList.add('show-chat');
  hideMenu();
  closeInline(); // the query was the other chat's
  render({ bottom: true });
  if (!isPhone()) $('input').focus();
}

async function send(text) {
  text = (text || '').trim();
  if (!text || !S.current) return;
  hideMenu();
  closeInline();
  const input = $('input');
  if (input.value.trim() === text) input.value = '';
  const body = { from: S.me, text };
  const to = replying();
  // As a client sends it (ephemeral.js): a reply to the bot's ephemeral
  // message, or a command the bot declared is_ephemeral, ephemerally.
  if (to && to.ephemeral_message_id) body.reply_to_ephemeral_message_id = to.ephemeral_message_id;
  else if (to) body.reply_to_message_id = to.message_id;
  if (!body.reply_to_ephemeral_message_id && sendsEphemerally(text)) body.ephemeral = true;
  try {
    await api('POST', `/api/chats/${S.current}/messages`, body);
    if (to && S.reply && S.reply.id === keyOf(to)) cancelReply();
    renderMessages({ bottom: true });
  } catch (err) {
    if (!input.value) input.value = text;
    toast(err.message, 'error');
  }
}

// botLink reports whether href is the bot's own t.me link (its deep link),
// which the playground follows itself: Telegram would open the private
// chat with the bot.
function botLink(href) {
  try {
    const u = new URL(href);
    return ['t.me', 'telegram.me', 'telegram.dog'].includes(u.host.toLowerCase()) && S.bot &&
      u.pathname.replace(/^\/|\/$/g, '').toLowerCase() === (S.bot.username || '').toLowerCase();
  } catch { return false; }
}

// openBotLink taps the bot's deep link as the current user: the bot starts
// in their private chat, which then opens.
async function openBotLink(href) {
  try {
    await api('POST', '/api/links', { from: S.me, url: href });
    await reloadAll();
    openChat(S.me);
  } catch (err) {
    toast(err.message, 'error');
  }
}

// press presses a button of message m: an inline message's by its
// inline_message_id (the bot is told of the press without the message),
// an ephemeral one's by its ephemeral_message_id, any other by its chat
// and id. An answer's url (the bot's deep link) opens as a client opens
// it: the bot starts in the user's private chat.
async function press(chatID, m, data) {
  const key = `${chatID}:${keyOf(m)}:${data}`;
  if (S.pending.has(key)) return;
  S.pending.add(key);
  if (chatID === S.current) renderMessages();
  try {
    const r = m.inline_message_id
      ? await api('POST', `/api/inline/messages/${encodeURIComponent(m.inline_message_id)}/press`, { from: S.me, data })
      : m.ephemeral_message_id
        ? await api('POST', `/api/chats/${chatID}/press`, { from: S.me, ephemeral_message_id: m.ephemeral_message_id, data })
        : await api('POST', `/api/chats/${chatID}/press`, { from: S.me, message_id: m.message_id, data });
    const a = r.answer;
    if (a && a.text) {
      if (a.show_alert) showAlert(a.text);
      else toast(a.text);
    }
    if (a && a.url) {
      const href = safeURL(a.url, 'https://');
      if (href && botLink(href)) await openBotLink(href);
      else toast('The bot answered with a link: ' + a.url);
    }
  } catch (err) {
    toast(err.message, 'error');
  } finally {
    S.pending.delete(key);
    if (chatID === S.current) renderMessages();
  }
}

function toast(text, kind) {
  const box = $('toasts');
  const t = el('div', 'toast' + (kind ? ' ' + kind : ''), text);
  t.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  box.append(t);
  while (box.children.length > 3) box.firstChild.remove();
  setTimeout(() => {
    t.classList.add('leaving');
    setTimeout(() => t.remove(), 300);
  }, kind === 'error' ? 5000 : 2600);
}

function showAlert(text) {
  const d = $('alert');
  $('alert-title').textContent = S.bot ? S.bot.first_name : 'Bot';
  $('alert-text').textContent = text;
  if (!d.open) d.showModal();
  $('alert-ok').focus();
}

function openAddUser() {
  const d = $('add-user');
  $('add-user-form').reset();
  $('add-user-error').hidden = true;
  d.showModal();
  $('new-first').focus();
}

async function addUser(ev) {
  if (!ev.submitter || ev.submitter.value !== 'add') return;
  ev.preventDefault();
  const body = {
    first_name: $('new-first').value.trim(),
    last_name: $('new-last').value.trim(),
    language_code: $('new-lang').value,
  };
  const ok = $('add-user-ok');
  ok.disabled = true;
  try {
    const u = await api('POST', '/api/users', body);
    $('add-user').close();
    await reloadAll();
    switchUser(u.id);
    toast(`${u.first_name} joined every group`);
  } catch (err) {
    const e = $('add-user-error');
    e.textContent = err.message;
    e.hidden = false;
  } finally {
    ok.disabled = false;
  }
}

let menuIndex = -1;
// commandList is the bot's menu the current user sees in the open chat
// (Telegram's choice of scope and language, from /api/state), else its
// default menu in their language.
function commandList() {
  const ch = S.chats.get(S.current);
  const own = ch && ch.info.commands && ch.info.commands[S.me];
  return own || S.commands[myLang()] || S.commands[''] || [];
}
function showMenu(filter) {
  const menu = $('cmd-menu');
  const prefix = (filter || '').toLowerCase();
  const cmds = commandList().filter((c) => c.command.startsWith(prefix));
  if (!cmds.length) { hideMenu(); return; }
  menuIndex = Math.min(menuIndex, cmds.length - 1);
  menu.replaceChildren(...cmds.map((c, i) => {
    const b = el('button', 'cmd' + (i === menuIndex ? ' sel' : ''), el('span', 'cmd-name', '/' + c.command), el('span', 'cmd-desc', c.description));
    b.type = 'button';
    b.dataset.command = c.command;
    if (c.is_ephemeral) {
      // Sent ephemerally in a group: only the user and the bot see it.
      b.dataset.ephemeral = '1';
      b.append(eyeIcon());
      b.title = 'Only you and the bot see it';
    }
    b.addEventListener('click', () => send('/' + c.command));
    return b;
  }));
  menu.hidden = false;
  $('menu-btn').setAttribute('aria-expanded', 'true');
}
function hideMenu() {
  $('cmd-menu').hidden = true;
  $('menu-btn').setAttribute('aria-expanded', 'false');
  menuIndex = -1;
}
function typedCommand() {
  const v = $('input').value;
  return /^\/[A-Za-z0-9_]*$/.test(v) ? v.slice(1) : null;
}
