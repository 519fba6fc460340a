// Twenty One playground: a Telegram-like group chat over the playground's
// JSON API and its event stream. No framework, no build step. Every text
// that comes from the world is put into the page as DOM text nodes, never
// as HTML.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);

  // el builds an element with a class and children (strings become text nodes).
  function el(tag, cls, ...kids) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    for (const k of kids) {
      if (k !== null && k !== undefined && k !== false) e.append(k);
    }
    return e;
  }

  const SVG = 'http://www.w3.org/2000/svg';
  // icon draws one path of an icon.
  function icon(viewBox, cls, d) {
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', viewBox);
    if (cls) svg.setAttribute('class', cls);
    svg.setAttribute('aria-hidden', 'true');
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', d);
    svg.append(path);
    return svg;
  }
  const checksIcon = () => icon('0 0 16 11', 'checks', 'M11.1 1.1 4.6 7.6 2 5 1 6l3.6 3.6 7.5-7.5zm3 0L7.6 7.6l-.7-.7-1 1 1.7 1.7 7.5-7.5z');
  const replyIcon = () => icon('0 0 24 24', null, 'M10 9V5l-7 7 7 7v-4.1c5 0 8.5 1.6 11 5.1-1-5-4-10-11-11z');

  const S = {
    bot: null,
    users: new Map(), // id → user
    userOrder: [],
    chats: new Map(), // id → chat state
    chatOrder: [],
    commands: {},
    me: 0,
    current: 0,
    pending: new Set(), // "chat:message:data" of presses awaiting an answer
    reply: null, // { chat, id }: the message the next one replies to
    loaded: false,
  };

  const saved = {
    get(k) { try { return localStorage.getItem(k); } catch { return null; } },
    set(k, v) { try { localStorage.setItem(k, String(v)); } catch { /* private mode */ } },
  };

  // ---------- API ----------

  // api calls the playground's API; signal, if given, aborts the call.
  async function api(method, path, body, signal) {
    const opts = { method, headers: { Accept: 'application/json' }, signal };
    if (body !== undefined) {
      opts.headers['Content-Type'] = 'application/json';
      opts.body = JSON.stringify(body);
    }
    let resp;
    try {
      resp = await fetch(path, opts);
    } catch (err) {
      if (signal && signal.aborted) throw err;
      throw new Error('The playground does not answer: is it still running?');
    }
    let data = null;
    try { data = await resp.json(); } catch { /* not JSON */ }
    if (!resp.ok) throw new Error((data && data.error) || `${resp.status} ${resp.statusText}`);
    return data;
  }

  // ---------- helpers ----------

  function initials(u) {
    if (!u) return '?';
    if (S.bot && u.id === S.bot.id) return '21';
    const first = Array.from((u.first_name || '').trim())[0] || '';
    const last = Array.from((u.last_name || '').trim())[0] || '';
    return (first + last).toUpperCase() || '?';
  }
  const palette = (id) => Math.abs(Number(id)) % 7;
  function fullName(u) {
    if (!u) return 'Unknown';
    return [u.first_name, u.last_name].filter(Boolean).join(' ');
  }
  function avatar(u, extra) {
    const a = el('div', 'avatar ' + (S.bot && u && u.id === S.bot.id ? 'bot' : 'p' + palette(u ? u.id : 0)) + (extra ? ' ' + extra : ''), initials(u));
    a.setAttribute('aria-hidden', 'true');
    return a;
  }
  // peerOf is, in a private chat between two users, the other one than
  // the current user, whose name and face the chat shows, as Telegram does.
  function peerOf(chat) {
    if (chat.kind !== 'users') return null;
    const id = chat.members.find((m) => m !== S.me) ?? chat.members[0];
    return S.users.get(id) || null;
  }
  function chatTitle(chat) {
    const peer = peerOf(chat);
    return peer ? fullName(peer) : chat.title || '';
  }
  function chatAvatar(chat) {
    const peer = peerOf(chat);
    if (peer) return avatar(peer);
    const words = (chat.title || '?').trim().split(/\s+/);
    const text = words.slice(0, 2).map((w) => Array.from(w)[0] || '').join('').toUpperCase();
    return el('div', 'avatar p' + palette(chat.id), text || '?');
  }
  function hhmm(iso) {
    const d = new Date(iso);
    if (isNaN(d)) return '';
    return d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  }
  function dayKey(iso) {
    const d = new Date(iso);
    return isNaN(d) ? '' : `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
  }
  function dayLabel(iso) {
    const d = new Date(iso);
    if (dayKey(iso) === dayKey(new Date().toISOString())) return 'Today';
    return d.toLocaleDateString([], { month: 'long', day: 'numeric' });
  }
  function me() { return S.users.get(S.me); }
  // The bot's languages, which a player may speak.
  const LANGS = { en: 'English', ru: 'Русский', uk: 'Українська' };
  function langOf(u) { return u && Object.hasOwn(LANGS, u.language_code) ? u.language_code : 'en'; }
  function myLang() { return langOf(me()); }
  function visibleChats() {
    return S.chatOrder.map((id) => S.chats.get(id)).filter((c) => c && c.info.members.includes(S.me));
  }
  function sortedMessages(ch) {
    return [...ch.msgs.values()].sort((a, b) => a.message_id - b.message_id);
  }
  function isService(m) {
    return Boolean((m.new_chat_members && m.new_chat_members.length) || m.left_chat_member || m.group_chat_created ||
      m.supergroup_chat_created || m.migrate_to_chat_id || m.migrate_from_chat_id || m.forum_topic_created);
  }
  function userName(u) {
    if (!u) return 'Someone';
    const known = S.users.get(u.id);
    return (known || u).first_name || 'Someone';
  }
  function serviceText(m) {
    const by = m.from;
    if (m.new_chat_members && m.new_chat_members.length) {
      const names = m.new_chat_members.map(userName).join(', ');
      if (by && m.new_chat_members.length === 1 && m.new_chat_members[0].id === by.id) return `${names} joined the group`;
      return `${userName(by)} added ${names}`;
    }
    if (m.left_chat_member) {
      if (by && m.left_chat_member.id === by.id) return `${userName(by)} left the group`;
      return `${userName(by)} removed ${userName(m.left_chat_member)}`;
    }
    if (m.group_chat_created || m.supergroup_chat_created) return `${userName(by)} created the group`;
    if (m.migrate_to_chat_id || m.migrate_from_chat_id) return 'The group was upgraded to a supergroup';
    if (m.forum_topic_created) return `Topic created: ${m.forum_topic_created.name}`;
    return 'Service message';
  }
  function previewText(m) {
    if (isService(m)) return serviceText(m);
    return (m.text || '').split('\n').find((l) => l.trim()) || '';
  }

  // safeURL returns an address a link may open, or null.
  function safeURL(raw, fallbackScheme) {
    let u;
    try {
      u = new URL(raw);
    } catch {
      try { u = new URL(fallbackScheme + raw); } catch { return null; }
    }
    return ['http:', 'https:', 'mailto:', 'tel:', 'tg:'].includes(u.protocol) ? u.href : null;
  }

  // ---------- message text with entities ----------

  // renderText builds the text of a message with its entities (offsets in
  // UTF-16 code units, as JavaScript strings count) as DOM nodes.
  function renderText(text, entities) {
    const frag = document.createDocumentFragment();
    const ents = (entities || [])
      .filter((e) => Number.isInteger(e.offset) && Number.isInteger(e.length) && e.length > 0 && e.offset >= 0 && e.offset < text.length)
      .map((e) => ({ ...e, end: Math.min(e.offset + e.length, text.length) }))
      .sort((a, b) => a.offset - b.offset || b.end - a.end);
    build(frag, text, 0, text.length, ents);
    return frag;
  }

  function build(parent, text, start, end, ents) {
    let pos = start;
    let i = 0;
    while (i < ents.length) {
      const e = ents[i];
      let j = i + 1;
      while (j < ents.length && ents[j].offset < e.end) j++;
      // Entities inside e; one that overlaps its end is cut there.
      const inner = ents.slice(i + 1, j).map((c) => (c.end > e.end ? { ...c, end: e.end } : c));
      const from = Math.max(e.offset, pos);
      const to = Math.min(e.end, end);
      if (from > pos) parent.append(text.slice(pos, from));
      if (to > from) {
        const { outer, body } = entityElement(e, text.slice(e.offset, e.end));
        build(body, text, from, to, inner);
        parent.append(outer);
        pos = to;
      }
      i = j;
    }
    if (pos < end) parent.append(text.slice(pos, end));
  }

  function entityElement(e, covered) {
    const one = (node) => ({ outer: node, body: node });
    switch (e.type) {
      case 'bold': return one(el('strong'));
      case 'italic': return one(el('em'));
      case 'underline': return one(el('u'));
      case 'strikethrough': return one(el('s'));
      case 'code': return one(el('code'));
      case 'pre': {
        const code = el('code');
        if (e.language) code.dataset.language = e.language;
        return { outer: el('pre', null, code), body: code };
      }
      case 'blockquote':
      case 'expandable_blockquote': return one(el('blockquote'));
      case 'spoiler': {
        const s = el('span', 'spoiler');
        s.title = 'Spoiler: click to reveal';
        s.addEventListener('click', () => s.classList.toggle('revealed'));
        return one(s);
      }
      case 'text_link':
      case 'url':
      case 'email':
      case 'phone_number': {
        const raw = e.type === 'text_link' ? e.url : covered;
        const fallback = { email: 'mailto:', phone_number: 'tel:' }[e.type] || 'http://';
        const href = raw ? safeURL(e.type === 'email' || e.type === 'phone_number' ? fallback + raw : raw, fallback) : null;
        if (!href) return one(el('span', 'link'));
        const a = el('a');
        a.href = href;
        a.target = '_blank';
        a.rel = 'noopener noreferrer';
        return one(a);
      }
      case 'bot_command': {
        const a = el('a', 'command');
        a.href = '#';
        a.title = 'Send ' + covered;
        a.addEventListener('click', (ev) => { ev.preventDefault(); send(covered); });
        return one(a);
      }
      case 'date_time': {
        // Telegram's clients write the time in the reader's own zone and
        // language, in place of the text (a fallback for old clients).
        const format = e.date_time_format || '';
        const shown = formatDateTime(e.unix_time, format, myLang());
        if (shown === null) return one(el('span'));
        const s = el('span', 'date-time', shown);
        s.dataset.unixTime = String(e.unix_time);
        s.dataset.format = format;
        s.title = covered;
        return { outer: s, body: el('span') }; // the text inside is not shown
      }
      case 'mention':
      case 'hashtag':
      case 'cashtag':
      case 'text_mention': {
        const s = el('span', 'link');
        if (e.user) s.title = fullName(e.user);
        return one(s);
      }
      default: return one(el('span'));
    }
  }

  // formatDateTime writes a date_time entity's time as a Telegram client
  // does (messageEntityFormattedDate, core.telegram.org): in the reader's
  // language lang and the browser's time zone, "r" relative to now ("in 40
  // seconds", and nothing else), else the parts the format names, in this
  // order: "w" the day of the week, "t"/"T" the time without or with
  // seconds, "d" a short date (month and day, and the year when it is not
  // this one) or "D" a long one (always with the year). null for an empty
  // format: the text shows as it is.
  function formatDateTime(unix, format, lang) {
    if (!Number.isInteger(unix) || unix <= 0 || format === '') return null;
    const at = new Date(unix * 1000);
    if (format === 'r') {
      const secs = Math.round((at.getTime() - Date.now()) / 1000);
      const rtf = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
      if (Math.abs(secs) < 60) return rtf.format(secs, 'second');
      if (Math.abs(secs) < 3600) return rtf.format(Math.round(secs / 60), 'minute');
      if (Math.abs(secs) < 86400) return rtf.format(Math.round(secs / 3600), 'hour');
      return rtf.format(Math.round(secs / 86400), 'day');
    }
    const part = (opts) => new Intl.DateTimeFormat(lang, opts).format(at);
    const parts = [];
    if (format.includes('w')) parts.push(part({ weekday: 'long' }));
    if (format.includes('t')) parts.push(part({ timeStyle: 'short' }));
    else if (format.includes('T')) parts.push(part({ timeStyle: 'medium' }));
    if (format.includes('d')) {
      const thisYear = at.getFullYear() === new Date().getFullYear();
      parts.push(part({ month: 'numeric', day: 'numeric', year: thisYear ? undefined : '2-digit' }));
    } else if (format.includes('D')) {
      parts.push(part({ dateStyle: 'long' }));
    }
    return parts.join(', ');
  }

  // tickRelative rewrites the relative times shown, as time passes.
  function tickRelative() {
    for (const s of document.querySelectorAll('#messages-inner .date-time[data-format="r"]')) {
      const shown = formatDateTime(Number(s.dataset.unixTime), 'r', myLang());
      if (shown !== null && s.textContent !== shown) s.textContent = shown;
    }
  }

  // ---------- state ----------

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

  async function loadChat(id) {
    const data = await api('GET', `/api/chats/${id}/messages`);
    const ch = S.chats.get(id);
    if (!ch) return;
    const fresh = new Map();
    let top = 0;
    for (const m of data.messages) {
      top = Math.max(top, m.message_id);
      if (ch.deleted.has(m.message_id)) continue;
      const known = ch.msgs.get(m.message_id);
      fresh.set(m.message_id, known && known.edit_count > m.edit_count ? known : m);
    }
    // Messages that events brought after the snapshot was taken.
    for (const [mid, m] of ch.msgs) if (mid > top && !fresh.has(mid)) fresh.set(mid, m);
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
    if (ch.deleted.has(m.message_id)) return;
    const known = ch.msgs.get(m.message_id);
    if (known && known.edit_count > m.edit_count) return;
    ch.msgs.set(m.message_id, m);
    const mine = m.from && m.from.id === S.me && !m.from_bot;
    if (!known && !mine && (chatID !== S.current || isPhoneList())) ch.unread++;
    renderChatList();
    if (chatID === S.current) renderMessages({ bottom: mine && !known });
  }

  function removeMessage(chatID, messageID) {
    const ch = S.chats.get(chatID);
    if (!ch) return;
    ch.deleted.add(messageID);
    ch.msgs.delete(messageID);
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
        removeMessage(ev.chat_id, ev.message_id);
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

  // ---------- live updates ----------

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

  // ---------- rendering ----------

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
        o.pending = [...S.pending].filter((p) => p.startsWith(`${ch.info.id}:${m.message_id}:`)).join(',');
        const key = [m.edit_count, o.out, o.first, o.last, o.pending, S.me].join('|');
        take(m.message_id, key, () => messageNode(ch, m, o));
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
    row.dataset.messageId = m.message_id;
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
      window.getSelection()?.removeAllRanges();
      startReply(ch.info.id, m.message_id);
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
      bubble.append(name);
    } else if (via) {
      bubble.append(el('div', 'sender', via));
    }
    if (m.reply_to_message) bubble.append(replyNode(ch, m.reply_to_message));
    const text = el('div', 'text');
    text.append(renderText(m.text || '', m.entities));
    text.append(el('span', 'meta-spacer'));
    bubble.append(text);
    const meta = el('span', 'meta');
    if (m.edit_count > 0) {
      const ed = el('span', 'edited-mark', 'edited');
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
    reply.addEventListener('click', () => startReply(ch.info.id, m.message_id));
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
    b.dataset.messageId = r.message_id;
    b.addEventListener('click', () => {
      const hit = ch.nodes.get(r.message_id);
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
          if (S.pending.has(`${ch.info.id}:${m.message_id}:${b.callback_data}`)) btn.classList.add('loading');
          btn.addEventListener('click', () => press(ch.info.id, m, b.callback_data));
        } else if (b.url) {
          btn.classList.add('url');
          const href = safeURL(b.url, 'https://');
          if (href && botLink(href)) btn.addEventListener('click', () => openBotLink(href));
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

  // ---------- actions ----------

  function switchUser(id) {
    if (!S.users.has(id)) return;
    S.me = id;
    saved.set('playground.me', id);
    closeInline(); // the query was the other user's
    fixCurrent();
    render({ bottom: true });
  }

  // startReply makes the next message a reply to this one, quoted above
  // the input until it is sent or cancelled.
  function startReply(chatID, messageID) {
    hideMessageMenu();
    S.reply = { chat: chatID, id: messageID };
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
    // An inline message can be deleted, as a user deletes one in a client;
    // the bot finds it gone when it next edits it.
    $('msg-delete').hidden = !m.inline_message_id;
    menu.hidden = false;
    const w = menu.offsetWidth;
    const h = menu.offsetHeight;
    menu.style.left = Math.max(8, Math.min(x, window.innerWidth - w - 8)) + 'px';
    menu.style.top = Math.max(8, Math.min(y, window.innerHeight - h - 8)) + 'px';
    $('msg-reply').focus();
  }
  function hideMessageMenu() {
    $('msg-menu').hidden = true;
    menuMessage = null;
  }
  async function deleteMessage() {
    const m = menuMessage && menuMessage.m;
    hideMessageMenu();
    if (!m || !m.inline_message_id) return;
    try {
      await api('POST', `/api/inline/messages/${encodeURIComponent(m.inline_message_id)}/delete`, { from: S.me });
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
    if (to) body.reply_to_message_id = to.message_id;
    try {
      await api('POST', `/api/chats/${S.current}/messages`, body);
      if (to && S.reply && S.reply.id === to.message_id) cancelReply();
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
  // any other by its chat and id.
  async function press(chatID, m, data) {
    const key = `${chatID}:${m.message_id}:${data}`;
    if (S.pending.has(key)) return;
    S.pending.add(key);
    if (chatID === S.current) renderMessages();
    try {
      const r = m.inline_message_id
        ? await api('POST', `/api/inline/messages/${encodeURIComponent(m.inline_message_id)}/press`, { from: S.me, data })
        : await api('POST', `/api/chats/${chatID}/press`, { from: S.me, message_id: m.message_id, data });
      const a = r.answer;
      if (a && a.text) {
        if (a.show_alert) showAlert(a.text);
        else toast(a.text);
      } else if (a && a.url) {
        toast('The bot answered with a link: ' + a.url);
      }
    } catch (err) {
      toast(err.message, 'error');
    } finally {
      S.pending.delete(key);
      if (chatID === S.current) renderMessages();
    }
  }

  // ---------- pop-ups ----------

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

  // ---------- the command menu ----------

  let menuIndex = -1;
  function commandList() {
    return S.commands[myLang()] || S.commands[''] || [];
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

  // ---------- inline mode ----------

  // As in Telegram: text that starts with the bot's @username (alone, or
  // followed by a space) is an inline query of the rest, sent once the
  // typing pauses; the bot's results show above the input, and the one
  // picked is posted "via @bot" by the current user.
  const INLINE_DEBOUNCE = 250; // ms of quiet before a query goes
  const MAX_INLINE_QUERY = 256; // characters (Bot API, InlineQuery.query)
  const IQ = {
    text: null, // the query shown, null while the panel is closed
    key: '', // the chat and user it was asked for
    id: '', // its inline query id, once sent
    state: 'idle', // 'waiting' for the answer, 'done', 'error'
    results: [],
    error: '',
    sel: -1,
    timer: 0,
    seq: 0, // the newest query's number: older answers are dropped
    abort: null,
  };

  // typedInline is the inline query the input holds, or null.
  function typedInline() {
    if (!S.bot || !S.bot.username) return null;
    const v = $('input').value;
    const at = '@' + S.bot.username;
    if (v.slice(0, at.length).toLowerCase() !== at.toLowerCase()) return null;
    const rest = v.slice(at.length);
    if (rest && !/^\s/.test(rest)) return null; // another username
    return Array.from(rest.replace(/^\s+/, '')).slice(0, MAX_INLINE_QUERY).join('');
  }

  // onInlineInput opens, updates or closes the results as the input changes.
  function onInlineInput() {
    const q = typedInline();
    const key = `${S.current}:${S.me}`;
    if (q === null || !S.current) { closeInline(); return; }
    if (q === IQ.text && key === IQ.key) return;
    cancelInline();
    IQ.text = q;
    IQ.key = key;
    IQ.state = 'waiting';
    IQ.results = [];
    IQ.sel = -1;
    renderInline();
    IQ.timer = setTimeout(() => askInline(q), INLINE_DEBOUNCE);
  }

  // cancelInline forgets the query in flight, if any.
  function cancelInline() {
    clearTimeout(IQ.timer);
    IQ.seq++;
    if (IQ.abort) IQ.abort.abort();
    IQ.abort = null;
    IQ.id = '';
  }

  function closeInline() {
    cancelInline();
    IQ.text = null;
    IQ.state = 'idle';
    $('inline-results').hidden = true;
    delete $('inline-results').dataset.queryId;
  }

  // askInline sends the query and shows the bot's answer once it came.
  async function askInline(q) {
    const seq = ++IQ.seq;
    const ctl = new AbortController();
    IQ.abort = ctl;
    try {
      const sent = await api('POST', `/api/chats/${S.current}/inline`, { from: S.me, query: q }, ctl.signal);
      if (seq !== IQ.seq) return;
      IQ.id = sent.id;
      $('inline-results').dataset.queryId = sent.id;
      // Answers as soon as the bot answered (or could no longer).
      const res = await api('GET', `/api/inline/queries/${encodeURIComponent(sent.id)}`, undefined, ctl.signal);
      if (seq !== IQ.seq) return;
      IQ.results = res.results || [];
      IQ.state = 'done';
    } catch (err) {
      if (seq !== IQ.seq) return;
      IQ.state = 'error';
      IQ.error = err.message;
    }
    IQ.abort = null;
    renderInline();
  }

  function renderInline() {
    const box = $('inline-results');
    if (IQ.text === null) { box.hidden = true; return; }
    hideMenu();
    const at = '@' + (S.bot ? S.bot.username : 'bot');
    box.dataset.state = IQ.state;
    let items;
    if (IQ.state === 'done' && IQ.results.length) {
      IQ.sel = Math.min(IQ.sel, IQ.results.length - 1);
      items = IQ.results.map((r, i) => {
        const b = el('button', 'inline-result' + (i === IQ.sel ? ' sel' : ''),
          el('div', 'inline-thumb avatar bot', Array.from(r.title || '?')[0].toUpperCase()),
          el('div', 'inline-body',
            el('div', 'inline-title', r.title || ''),
            r.description ? el('div', 'inline-desc', r.description) : null));
        b.type = 'button';
        b.setAttribute('role', 'option');
        b.setAttribute('aria-selected', String(i === IQ.sel));
        b.dataset.resultId = r.id;
        b.title = r.description ? `${r.title}\n${r.description}` : r.title;
        b.addEventListener('click', () => chooseInline(r));
        return b;
      });
    } else {
      const note = {
        waiting: `Asking ${at}…`,
        done: 'No results',
        error: IQ.error,
      }[IQ.state] || '';
      items = [el('div', 'inline-note' + (IQ.state === 'waiting' ? ' waiting' : ''), note)];
    }
    box.replaceChildren(...items);
    box.hidden = false;
  }

  // chooseInline posts the result picked in the chat, and clears the input.
  async function chooseInline(r) {
    const id = IQ.id;
    if (!id) return;
    try {
      await api('POST', `/api/inline/queries/${encodeURIComponent(id)}/choose`, { from: S.me, result_id: r.id });
      $('input').value = '';
      closeInline();
      renderMessages({ bottom: true });
      if (!isPhone()) $('input').focus();
    } catch (err) {
      toast(err.message, 'error');
    }
  }

  // inlineKey moves through the results with the arrows, picks one with
  // Enter and closes them with Escape; it returns whether it took the key.
  function inlineKey(ev) {
    if ($('inline-results').hidden) return false;
    if (ev.key === 'Escape') { closeInline(); return true; }
    const n = IQ.state === 'done' ? IQ.results.length : 0;
    if (!n) return false;
    if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      ev.preventDefault();
      if (ev.key === 'ArrowDown') IQ.sel = (IQ.sel + 1) % n;
      else IQ.sel = IQ.sel <= 0 ? n - 1 : IQ.sel - 1;
      renderInline();
      return true;
    }
    return false;
  }

  // ---------- wiring ----------

  function init() {
    document.body.classList.add('show-list');
    $('composer').addEventListener('submit', (ev) => {
      ev.preventDefault();
      if (!$('inline-results').hidden && IQ.state === 'done' && IQ.results[IQ.sel]) {
        chooseInline(IQ.results[IQ.sel]);
        return;
      }
      const items = [...$('cmd-menu').querySelectorAll('.cmd')];
      if (!$('cmd-menu').hidden && menuIndex >= 0 && items[menuIndex]) {
        send('/' + items[menuIndex].dataset.command);
        return;
      }
      send($('input').value);
    });
    $('input').addEventListener('input', () => {
      const cmd = typedCommand();
      if (cmd === null || !S.chats.get(S.current)?.info.bot_member) hideMenu();
      else showMenu(cmd);
      onInlineInput();
    });
    $('input').addEventListener('focus', onInlineInput);
    $('input').addEventListener('keydown', (ev) => {
      if (inlineKey(ev)) return;
      if ($('cmd-menu').hidden) {
        if (ev.key === 'Escape' && S.reply) cancelReply();
        return;
      }
      const n = $('cmd-menu').querySelectorAll('.cmd').length;
      if (ev.key === 'Escape') { hideMenu(); return; }
      if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
        ev.preventDefault();
        if (ev.key === 'ArrowDown') menuIndex = (menuIndex + 1) % n;
        else menuIndex = menuIndex <= 0 ? n - 1 : menuIndex - 1;
        showMenu(typedCommand() || '');
      }
    });
    $('menu-btn').addEventListener('click', () => {
      if ($('cmd-menu').hidden) showMenu('');
      else hideMenu();
    });
    $('who-btn').addEventListener('click', () => {
      const open = $('who-menu').hidden;
      $('who-menu').hidden = !open;
      $('who-btn').setAttribute('aria-expanded', String(open));
    });
    document.addEventListener('click', (ev) => {
      if (!ev.target.closest('#cmd-menu, #menu-btn, #input')) hideMenu();
      if (!ev.target.closest('#inline-results, #input')) closeInline();
      if (!ev.target.closest('.who-compact')) hideWho();
      if (!ev.target.closest('#msg-menu') && !(isPhone() && ev.target.closest('.bubble'))) hideMessageMenu();
    });
    document.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') { hideWho(); hideMessageMenu(); }
    });
    setInterval(tickRelative, 1000);
    $('messages').addEventListener('scroll', hideMessageMenu, { passive: true });
    $('msg-reply').addEventListener('click', () => { if (menuMessage) startReply(menuMessage.chat, menuMessage.m.message_id); });
    $('msg-copy').addEventListener('click', copyMessage);
    $('msg-delete').addEventListener('click', deleteMessage);
    $('reply-cancel').addEventListener('click', () => { cancelReply(); if (!isPhone()) $('input').focus(); });
    $('back').addEventListener('click', () => {
      document.body.classList.remove('show-chat');
      document.body.classList.add('show-list');
      renderChatList();
    });
    $('add-user-form').addEventListener('submit', addUser);
    if (!isPhone()) {
      document.body.classList.remove('show-list');
      document.body.classList.add('show-chat');
    }
    connect();
    // The stream's "ready" loads the state; without a stream, load it anyway.
    setTimeout(() => { if (!document.body.dataset.ready) reloadAll(); }, 1500);
  }

  init();
})();
