// The state the page loads and keeps up to date from the event stream.
// One of the playground page's scripts, which index.html loads in order:
// classic scripts, no framework, no build step, sharing their top-level
// names (util.js first, app.js, which starts the page, last). Every text
// that comes from the world is put into the page as DOM text nodes, never
// as HTML.
'use strict';

function chatState(info) {
  return { info, msgs: new Map(), deleted: new Set(), loaded: false, unread: 0, nodes: new Map() };
}

async function loadState() {
  const st = await api('GET', '/api/state');
  S.bot = st.bot;
  S.users = new Map(st.users.map((u) => [u.id, u]));
  S.userOrder = st.users.map((u) => u.id);
  S.commands = st.commands || {};
  const seen = new Set();
  for (const c of st.chats) {
    seen.add(c.id);
    const ch = S.chats.get(c.id);
    if (ch) ch.info = c;
    else S.chats.set(c.id, chatState(c));
  }
  for (const id of [...S.chats.keys()]) if (!seen.has(id)) S.chats.delete(id);
  S.chatOrder = st.chats.map((c) => c.id);
  if (!S.users.has(S.me)) S.me = Number(saved.get('playground.me'));
  if (!S.users.has(S.me)) S.me = S.userOrder[0] || 0;
  fixCurrent();
}

// fixCurrent keeps the open chat one the current user is in.
function fixCurrent() {
  const vis = visibleChats();
  if (!vis.some((c) => c.info.id === S.current)) {
    const want = Number(saved.get('playground.chat'));
    const pick = vis.find((c) => c.info.id === want) || vis[0];
    S.current = pick ? pick.info.id : 0;
  }
}

// loadChat loads a chat as the current user sees it: with the ephemeral
// messages only they see.
async function loadChat(id) {
  const user = S.me;
  const data = await api('GET', `/api/chats/${id}/messages?user=${user}`);
  const ch = S.chats.get(id);
  if (!ch || user !== S.me) return; // another user's view: the next load is the current one's
  const fresh = new Map();
  let top = 0;
  let topEphemeral = 0;
  for (const m of data.messages) {
    top = Math.max(top, m.message_id);
    topEphemeral = Math.max(topEphemeral, m.ephemeral_message_id || 0);
    const k = keyOf(m);
    if (ch.deleted.has(k)) continue;
    const known = ch.msgs.get(k);
    fresh.set(k, known && known.edit_count > m.edit_count ? known : m);
  }
  // Messages that events brought after the snapshot was taken.
  for (const [k, m] of ch.msgs) {
    const newer = m.ephemeral_message_id ? m.ephemeral_message_id > topEphemeral : m.message_id > top;
    if (newer && !fresh.has(k)) fresh.set(k, m);
  }
  ch.msgs = fresh;
  ch.loaded = true;
}

let reloading = null;
let reloadAgain = false;
// reloadAll reloads the state and every chat; calls made while it runs
// make it run once more.
function reloadAll() {
  if (reloading) {
    reloadAgain = true;
    return reloading;
  }
  reloading = (async () => {
    do {
      reloadAgain = false;
      try {
        await loadState();
        await Promise.all(S.chatOrder.map((id) => loadChat(id)));
        S.loaded = true;
        render({ bottom: !document.body.dataset.ready });
        document.body.dataset.ready = '1';
      } catch (err) {
        toast(err.message, 'error');
      }
    } while (reloadAgain);
    reloading = null;
  })();
  return reloading;
}

let stateTimer = 0;
function reloadSoon() {
  clearTimeout(stateTimer);
  stateTimer = setTimeout(reloadAll, 60);
}

function upsert(chatID, m) {
  const ch = S.chats.get(chatID);
  if (!ch) { reloadSoon(); return; }
  if (!seenHere(m)) return; // another member's ephemeral message
  const k = keyOf(m);
  if (ch.deleted.has(k)) return;
  const known = ch.msgs.get(k);
  if (known && known.edit_count > m.edit_count) return;
  ch.msgs.set(k, m);
  const mine = m.from && m.from.id === S.me && !m.from_bot;
  if (!known && !mine && (chatID !== S.current || isPhoneList())) ch.unread++;
  renderChatList();
  if (chatID === S.current) renderMessages({ bottom: mine && !known });
}

function removeMessage(chatID, key) {
  const ch = S.chats.get(chatID);
  if (!ch) return;
  ch.deleted.add(key);
  ch.msgs.delete(key);
  renderChatList();
  if (chatID === S.current) renderMessages();
  renderReply();
}

function onEvent(ev) {
  switch (ev.kind) {
    case 'message_sent':
    case 'message_edited':
      if (ev.message) upsert(ev.chat_id, ev.message);
      break;
    case 'message_deleted':
      if (!ev.visible_to || ev.visible_to === S.me) removeMessage(ev.chat_id, eventKey(ev));
      break;
    case 'member_changed':
    case 'chat_migrated':
    case 'commands_changed':
      reloadSoon();
      break;
    default:
      // callback_answered: the press's own request brings the answer.
  }
}

let source = null;
function connect() {
  if (source) source.close();
  source = new EventSource('/api/events');
  source.addEventListener('ready', () => { setLive(true); reloadAll(); });
  source.addEventListener('gap', () => reloadAll());
  source.onmessage = (e) => {
    let ev;
    try { ev = JSON.parse(e.data); } catch { return; }
    onEvent(ev);
  };
  source.onerror = () => {
    setLive(false);
    if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
  };
}
function setLive(live) {
  const c = $('conn');
  c.classList.toggle('live', live);
  c.textContent = live ? 'live' : 'reconnecting…';
}
