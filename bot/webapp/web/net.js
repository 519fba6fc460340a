// The page's side of the app's API (bot/webapp's package doc): every
// request carries Telegram's initData as "Authorization: tma <initData>";
// the table is named by initData's start_param, or when it has none (a
// web_app button's launch) by the page's start parameter in X-Table-Ref.
// Paths are relative, so the page works wherever it is served.

import {launch} from './tg.js';

// headers returns a request's headers.
function headers(extra) {
  const h = {Authorization: 'tma ' + launch.initData};
  if (!launch.signedStart && launch.startParam) h['X-Table-Ref'] = launch.startParam;
  return Object.assign(h, extra || {});
}

// Refusal is an answer of the server that is no view: its status, its
// error code ("expired", "no_table", …; "" when none), its body, and how
// long it asks to wait (Retry-After, in ms; 0 when it does not say).
export class Refusal extends Error {
  constructor(status, code, body, retryMs) {
    super('the app server answered ' + status + (code ? ' ' + code : ''));
    this.status = status;
    this.code = code;
    this.body = body;
    this.retryMs = retryMs;
  }

  // final: asking again will not help (who asks or which table is wrong).
  get final() {
    return this.status === 401 || this.status === 403 || this.status === 404 ||
      (this.status === 400 && this.code === 'malformed');
  }
}

async function refusal(res) {
  let body = null;
  try {
    body = await res.json();
  } catch (e) { /* not JSON */ }
  const after = Number(res.headers.get('Retry-After'));
  return new Refusal(res.status, (body && typeof body.error === 'string') ? body.error : '', body,
    Number.isFinite(after) && after > 0 ? after * 1000 : 0);
}

// clockSkew is the server's clock minus the page's, in ms, from a
// response's Date (to the second); 0 unless they differ by more than 2 s,
// as a phone's clock may.
let clockSkew = 0;
function noteDate(res) {
  const d = Date.parse(res.headers.get('Date') || '');
  if (!Number.isFinite(d)) return;
  const skew = d - Date.now();
  clockSkew = Math.abs(skew) > 2000 ? skew : 0;
}

// serverNow is the server's time now, by the page's clock and the skew.
export function serverNow() {
  return Date.now() + clockSkew;
}

// fetchView returns the viewer's view of the table (GET api/table), or
// throws a Refusal, or a TypeError when the network fails.
export async function fetchView() {
  const res = await fetch('api/table', {headers: headers(), cache: 'no-store'});
  noteDate(res);
  if (!res.ok) throw await refusal(res);
  return res.json();
}

// act sends an action, a button's callback data (POST api/act), and
// returns the server's answer {text, alert, applied, version} with its
// status and error code ("" unless refused): a refusal by the table is
// an answer too (409, applied false). A TypeError when the network fails.
export async function act(data) {
  const res = await fetch('api/act', {
    method: 'POST', cache: 'no-store',
    headers: headers({'Content-Type': 'application/json'}),
    body: JSON.stringify({data}),
  });
  let body = {};
  try {
    body = await res.json();
  } catch (e) { /* not JSON: a proxy's page */ }
  const after = Number(res.headers.get('Retry-After'));
  return {status: res.status, code: typeof body.error === 'string' ? body.error : '', answer: body,
    retryMs: Number.isFinite(after) && after > 0 ? after * 1000 : 0};
}

// MAX_BACKOFF bounds the wait between two attempts to stream.
const MAX_BACKOFF = 30000;

// STALL is how long a stream may stay silent before it is taken for dead
// (a connection a phone's sleep broke without a word): three of the
// server's heartbeats (bot/webapp/live: one after 15 s of quiet).
const STALL = 45000;

// Stream keeps the live stream (GET api/stream, Server-Sent Events read
// with fetch, since an EventSource cannot send a header): it calls
// onView(view) for each view, onState(state, err) when it is "live",
// "waiting" (it failed and tries again: err says why), "replaced" (the
// same user opened the table elsewhere: it stops) or "stopped" (a final
// refusal, err: it stops). It reconnects with Last-Event-ID, the version
// it has, waiting longer after each failure (the server's retry: at
// first, doubled up to MAX_BACKOFF, with jitter), again at once when the
// browser comes back online or the page into view, and after STALL of
// silence.
export class Stream {
  constructor(onView, onState) {
    this.onView = onView;
    this.onState = onState;
    this.lastId = '';
    this.retry = 1000;
    this.failures = 0;
    this.running = false;
    this.abort = null;
    this.wake = null;
    window.addEventListener('online', () => this.wakeUp());
    document.addEventListener('visibilitychange', () => {
      if (!document.hidden) this.wakeUp();
    });
  }

  // start runs the stream (again) from version since.
  start(since) {
    if (since) this.lastId = String(since);
    if (this.running) return;
    this.running = true;
    this.loop();
  }

  stop() {
    this.running = false;
    if (this.abort) this.abort.abort();
    this.wakeUp();
  }

  wakeUp() {
    if (this.wake) this.wake();
  }

  async loop() {
    while (this.running) {
      let err = null;
      try {
        await this.once();
      } catch (e) {
        err = e;
      }
      if (!this.running) return;
      if (err instanceof Refusal && err.final) {
        this.running = false;
        this.onState('stopped', err);
        return;
      }
      let wait = this.retry;
      if (err) {
        this.failures++;
        wait = Math.min(this.retry * 2 ** (this.failures - 1), MAX_BACKOFF);
        if (err instanceof Refusal && err.retryMs) wait = Math.max(wait, err.retryMs);
        wait = wait * (0.8 + Math.random() * 0.4);
        this.onState('waiting', err);
      }
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, wait);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  // once reads one connection of the stream until it ends.
  async once() {
    this.abort = new AbortController();
    const extra = {Accept: 'text/event-stream'};
    if (this.lastId) extra['Last-Event-ID'] = this.lastId;
    const res = await fetch('api/stream', {headers: headers(extra), cache: 'no-store', signal: this.abort.signal});
    noteDate(res);
    if (!res.ok) throw await refusal(res);
    this.failures = 0;
    this.onState('live', null);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    const parser = new EventParser((ev) => this.dispatch(ev));
    const abort = this.abort;
    let stall = setTimeout(() => abort.abort(), STALL);
    try {
      for (;;) {
        const {value, done} = await reader.read();
        if (done) return;
        clearTimeout(stall);
        stall = setTimeout(() => abort.abort(), STALL);
        parser.push(value);
        if (!this.running) {
          reader.cancel();
          return;
        }
      }
    } finally {
      clearTimeout(stall);
    }
  }

  dispatch(ev) {
    if (ev.retry !== null) this.retry = ev.retry;
    if (ev.id !== null) this.lastId = ev.id;
    if (ev.type === 'replaced') {
      this.running = false;
      this.onState('replaced', null);
      return;
    }
    if (ev.type !== 'message' || ev.data === null) return;
    let view;
    try {
      view = JSON.parse(ev.data);
    } catch (e) {
      return;
    }
    this.onView(view);
  }
}

// EventParser reads Server-Sent Events as the HTML standard says: lines
// end at CR LF, CR or LF; a blank line ends an event; a line that starts
// with ":" is a comment; a field's value follows "field:" and one space.
// It calls onEvent({type, data, id, retry}) for each event (data null
// when the event had none; id and retry null when not set).
export class EventParser {
  constructor(onEvent) {
    this.onEvent = onEvent;
    this.buf = '';
    this.reset();
  }

  reset() {
    this.type = '';
    this.data = null;
    this.id = null;
    this.retryMs = null;
  }

  push(chunk) {
    this.buf += chunk;
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buf);
      // A CR at the chunk's end may be the start of a CR LF.
      if (!m || (m[0] === '\r' && m.index === this.buf.length - 1)) return;
      const line = this.buf.slice(0, m.index);
      this.buf = this.buf.slice(m.index + m[0].length);
      this.line(line);
    }
  }

  line(line) {
    if (line === '') {
      if (this.data !== null || this.id !== null || this.retryMs !== null) {
        this.onEvent({type: this.type || 'message', data: this.data, id: this.id, retry: this.retryMs});
      }
      this.reset();
      return;
    }
    if (line[0] === ':') return;
    const i = line.indexOf(':');
    const field = i < 0 ? line : line.slice(0, i);
    let value = i < 0 ? '' : line.slice(i + 1);
    if (value[0] === ' ') value = value.slice(1);
    switch (field) {
      case 'event': this.type = value; break;
      case 'data': this.data = this.data === null ? value : this.data + '\n' + value; break;
      case 'id': if (!value.includes('\0')) this.id = value; break;
      case 'retry': if (/^\d+$/.test(value)) this.retryMs = Number(value); break;
    }
  }
}
