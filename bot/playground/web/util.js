// The page's tools: building elements, the state it holds, the API, and
// the helpers that name users and chats and write dates.
// One of the playground page's scripts, which index.html loads in order:
// classic scripts, no framework, no build step, sharing their top-level
// names (util.js first, app.js, which starts the page, last). Every text
// that comes from the world is put into the page as DOM text nodes, never
// as HTML.
'use strict';

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
// sortedMessages are a chat's messages in the order the user sees them
// (placed, ephemeral.js).
function sortedMessages(ch) {
  return placed(ch);
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
