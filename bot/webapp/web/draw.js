// The view drawn into the page: one function per part of the table, each
// building its part anew from the view (bot/webapp/view's JSON) with DOM
// methods. Text from the server goes in as text nodes, never as HTML.

import {card, back} from './cards.js';

const $ = (id) => document.getElementById(id);

// el builds an element with a class and children (strings become text).
function el(tag, cls, ...kids) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  for (const k of kids) {
    if (k !== null && k !== undefined && k !== false && k !== '') e.append(k);
  }
  return e;
}

// inGame: the view's phase is one of a game in play.
function inGame(v) {
  return v.phase === 'betting' || v.phase === 'drawing' || v.phase === 'cutting';
}

// draw draws view v with the words w (words.js); onAct(data) is called
// with an action's data when its button is pressed, busy says whether an
// action is on its way (the buttons wait for it).
export function draw(v, w, onAct, busy) {
  document.documentElement.lang = v.lang;
  $('title').textContent = v.title;
  document.title = v.title;
  const game = inGame(v);
  chip($('bank'), game ? '🏦 ' + w('bank') + ' ' + v.bank : '');
  chip($('stake'), w('stake') + ' ' + v.stake);
  $('table').hidden = false;
  $('table').dataset.version = String(v.version);
  $('table').dataset.phase = v.phase;
  status(v, w);
  seats(v, w);
  result(v, w);
  deck(v, w);
  record(v, w);
  bar(v, w, onAct, busy);
}

function chip(e, text) {
  e.textContent = text;
  e.hidden = text === '';
}

// status says what the table waits for, and counts down to its deadline.
function status(v, w) {
  let text = '';
  let mine = false;
  const cut = v.deck && v.deck.cut;
  if (v.phase === 'closed') {
    text = v.closed || '';
  } else if (v.phase === 'lobby') {
    text = w('lobby');
  } else if (cut && cut.waiting) {
    mine = cut.asked_seat >= 0 && cut.asked_seat === v.you.seat;
    text = mine ? w('your_cut') : cut.asked ? w('cut_asked', {name: cut.asked}) : w('cut_wait');
  } else if (v.turn >= 0 && v.seats[v.turn]) {
    mine = v.turn === v.you.seat;
    text = mine ? w('your_move') : w('to_move', {name: v.seats[v.turn].name});
  }
  $('status-text').textContent = text;
  $('status').classList.toggle('mine', mine);
  $('status').hidden = text === '';
  const cd = $('countdown');
  cd.dataset.deadline = String(v.phase === 'closed' ? 0 : v.deadline || 0);
}

// tick shows the time left to the deadline, m:ss, at now (the server's
// clock as the page knows it, in Unix ms); nothing when there is no
// deadline, or one too far away to be a turn's (a clock gone wrong).
export function tick(now) {
  const cd = $('countdown');
  const deadline = Number(cd.dataset.deadline || 0);
  const left = deadline - now;
  if (!deadline || left > 24 * 3600e3) {
    cd.hidden = true;
    return;
  }
  const s = Math.max(0, Math.ceil(left / 1000));
  const h = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  cd.textContent = '⏱ ' + (h ? h + ':' + String(mm).padStart(2, '0') : String(mm)) + ':' + ss;
  cd.classList.toggle('low', s <= 10);
  cd.hidden = false;
}

function seats(v, w) {
  const list = $('seats');
  list.replaceChildren(...v.seats.map((s, i) => {
    const li = el('li', 'seat state-' + s.state);
    li.dataset.seat = String(i);
    li.classList.toggle('banker', i === v.banker);
    li.classList.toggle('turn', i === v.turn);
    li.classList.toggle('you', !!s.you);
    li.classList.toggle('house', !!s.house);
    li.classList.toggle('leaving', !!s.leaving);
    const badges = el('span', 'badges',
      i === v.banker ? el('span', 'badge banker-badge', '🏦 ' + w('banker')) : null,
      s.you ? el('span', 'badge you-badge', w('you')) : null);
    const head = el('div', 'seat-head', el('span', 'name', s.name), badges,
      el('span', 'balance', s.balance === undefined ? '' : '💰 ' + s.balance));
    const cards = el('div', 'cards', ...s.cards.map(card));
    const foot = el('div', 'seat-foot',
      s.cards.length ? el('span', 'points', String(s.points)) : null,
      s.bet ? bet(s.bet, w) : null,
      s.note ? el('span', 'note', s.note) : null);
    li.append(head, cards, foot);
    return li;
  }));
}

// bet is a seat's bet as a chip: its amount, its word for whoever reads
// the page aloud (the seat's note words it too, as the chat does).
function bet(amount, w) {
  const b = el('span', 'bet', '🪙 ' + amount);
  b.title = w('bet') + ' ' + amount;
  b.setAttribute('aria-label', b.title);
  return b;
}

function result(v, w) {
  const box = $('result');
  const nets = v.result || [];
  box.hidden = nets.length === 0;
  $('result-title').textContent = w('result');
  $('nets').replaceChildren(...nets.map((n) => el('li', n.net > 0 ? 'plus' : n.net < 0 ? 'minus' : '',
    el('span', 'name', n.name + (n.banker ? ' 🏦' : '')),
    el('span', 'net', (n.net > 0 ? '+' : n.net < 0 ? '−' : '') + Math.abs(n.net)))));
}

function deck(v, w) {
  const box = $('deck');
  const d = v.deck;
  box.hidden = !d && !v.revealed;
  const lines = [];
  if (d) {
    lines.push(el('p', 'deck-text', d.text));
    if (d.cut && d.cut.text) lines.push(el('p', 'cut-text', d.cut.text));
  }
  if (v.revealed) lines.push(el('p', 'revealed', v.revealed));
  $('deck-pile').replaceChildren(...(box.hidden ? [] : [back()]));
  $('deck-pile').title = w('deck');
  $('deck-lines').replaceChildren(...lines);
}

function record(v, w) {
  const box = $('record');
  box.hidden = v.log.length === 0;
  $('record-title').textContent = w('record');
  $('log').replaceChildren(...v.log.map((line) => el('li', '', line)));
}

// bar shows the viewer's balance and their actions, line by line as the
// chat's keyboard lays them.
function bar(v, w, onAct, busy) {
  $('bar').hidden = false;
  const watching = v.you.seat < 0 && inGame(v);
  $('you-label').textContent = (watching ? w('watching') + ' · ' : '') + w('balance');
  $('you-balance').textContent = v.you.balance === undefined ? '—' : String(v.you.balance);
  $('actions').replaceChildren(...v.actions.map((line) => {
    const row = el('div', 'line');
    // CSSOM, which the Content Security Policy allows (a style attribute
    // it would not).
    row.style.setProperty('--per-row', String(Math.max(1, Math.min(line.per_row || 1, line.buttons.length))));
    row.append(...line.buttons.map((b) => {
      const btn = el('button', 'act' + (b.style ? ' ' + b.style : ''), b.label);
      btn.type = 'button';
      btn.dataset.verb = b.verb;
      btn.dataset.data = b.data;
      btn.disabled = busy;
      btn.addEventListener('click', () => onAct(b.data));
      return btn;
    }));
    return row;
  }));
}

// setBusy disables the actions while one is on its way.
export function setBusy(busy) {
  for (const b of $('actions').querySelectorAll('button')) b.disabled = busy;
}

// notice shows a message above the table (with a button when label is
// set), or hides it for text ''; code names it for whoever reads the page.
export function notice(code, text, label, onClick) {
  const box = $('notice');
  box.hidden = text === '';
  box.dataset.code = code;
  $('notice-text').textContent = text;
  const btn = $('notice-button');
  btn.hidden = !label;
  btn.textContent = label || '';
  btn.onclick = label ? onClick : null;
}

// noticeCode is the code of the notice shown ('' when none).
export function noticeCode() {
  return $('notice').hidden ? '' : $('notice').dataset.code || '';
}

// stale hides what the viewer can no longer do: the actions.
export function stale() {
  $('actions').replaceChildren();
}

// toast shows a short answer for a few seconds, or until dismissed when
// alert (with a button labelled ok).
export function toast(text, alert, ok) {
  // The newest answer replaces one still shown, but for an alert, which
  // waits to be dismissed.
  for (const old of $('toasts').querySelectorAll('.toast:not(.alert)')) old.remove();
  const t = el('div', 'toast' + (alert ? ' alert' : ''), el('span', 'toast-text', text));
  t.setAttribute('role', alert ? 'alert' : 'status');
  if (alert) {
    const btn = el('button', 'toast-ok', ok);
    btn.type = 'button';
    btn.addEventListener('click', () => t.remove());
    t.append(btn);
  } else {
    setTimeout(() => t.remove(), 3500);
  }
  $('toasts').append(t);
}
