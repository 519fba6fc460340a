// A message's text with its entities, as a Telegram client draws it.
// One of the playground page's scripts, which index.html loads in order:
// classic scripts, no framework, no build step, sharing their top-level
// names (util.js first, app.js, which starts the page, last). Every text
// that comes from the world is put into the page as DOM text nodes, never
// as HTML.
'use strict';

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
