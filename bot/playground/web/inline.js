// Inline mode, as in Telegram.
// One of the playground page's scripts, which index.html loads in order:
// classic scripts, no framework, no build step, sharing their top-level
// names (util.js first, app.js, which starts the page, last). Every text
// that comes from the world is put into the page as DOM text nodes, never
// as HTML.
'use strict';

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
