// The Mini App's page: it starts the Telegram shim, fetches the viewer's
// view of the table, keeps the live stream, draws each newer view, and
// sends the actions. Its state is the newest view and whether an action is
// on its way.

import {launch, inTelegram, start as startTelegram} from './tg.js';
import {fetchView, act, Stream, Refusal, serverNow} from './net.js';
import {WORDS, words, langOf} from './words.js';
import {draw, tick, setBusy, notice, noticeCode, stale, toast} from './draw.js';

// FORMAT is the view's format this page reads (bot/webapp/view.Format).
const FORMAT = 1;

// REFRESH is how long the page waits for the stream to bring a version an
// action applied before it asks for the view itself.
const REFRESH = 1500;

const state = {
  view: null,
  // lang: the view's language; before the first view, the viewer's own.
  lang: langOf(launch.user && launch.user.language_code),
  busy: false,
  stopped: false,
};

const w = (key, args) => words(state.lang)(key, args);

// show draws a view newer than (or as new as) the one shown.
function show(v) {
  if (state.stopped || !v || typeof v !== 'object') return;
  if (v.v !== FORMAT) {
    stop('outdated');
    return;
  }
  if (state.view && v.version < state.view.version) return;
  state.view = v;
  if (WORDS[v.lang]) state.lang = v.lang;
  draw(v, w, onAct, state.busy);
  tick(serverNow());
  const code = noticeCode();
  if (code === 'loading' || code === 'offline') notice('', '');
}

// codeWord is the word of a final refusal's code.
function codeWord(code) {
  switch (code) {
    case 'expired': return 'expired';
    case 'no_table': return 'no_table';
    case 'not_member': return 'not_member';
    case 'outdated': return 'outdated';
    default: return 'unsigned'; // missing, bad_hash, malformed
  }
}

// stop ends the page's work after a final refusal: the notice says why
// and what to do, and nothing can be pressed.
function stop(code) {
  state.stopped = true;
  stream.stop();
  stale();
  notice(code, w(codeWord(code)));
}

function onStream(st, err) {
  switch (st) {
    case 'live':
      if (noticeCode() === 'offline') notice('', '');
      break;
    case 'waiting':
      if (!(err instanceof Refusal) || err.status >= 500) notice('offline', w('offline'));
      break;
    case 'stopped':
      stop(err.code);
      break;
    case 'replaced':
      notice('replaced', w('replaced'), w('show_here'), () => {
        notice('', '');
        stream.start(state.view ? state.view.version : 0);
      });
      break;
  }
}

const stream = new Stream(show, onStream);

// onAct sends an action, one at a time, and shows the answer.
async function onAct(data) {
  if (state.busy || state.stopped) return;
  state.busy = true;
  setBusy(true);
  try {
    const r = await act(data);
    const a = r.answer || {};
    if (r.status === 200 || r.status === 409 || r.code === 'bad_action') {
      const text = a.text || (r.status === 200 ? '' : w('gone'));
      if (text) toast(text, !!a.alert, w('ok'));
      if (a.applied) expect(a.version);
    } else if (r.status === 401 || r.status === 403 || r.status === 404 || r.code === 'malformed') {
      stop(r.code);
    } else if (r.status === 429) {
      toast(w('too_many'));
    } else if (r.status === 503) {
      toast(w('busy'));
    } else {
      toast(w('failed'));
    }
  } catch (e) {
    toast(w('offline'));
  } finally {
    state.busy = false;
    setBusy(false);
  }
}

// expect makes sure the page shows version: the stream brings it, else
// the page asks for it.
function expect(version) {
  setTimeout(async () => {
    if (state.stopped || (state.view && state.view.version >= version)) return;
    try {
      show(await fetchView());
    } catch (e) { /* the stream will bring it */ }
  }, REFRESH);
}

async function main() {
  startTelegram();
  document.documentElement.lang = state.lang;
  document.getElementById('title').textContent = w('game');
  if (!inTelegram) {
    state.stopped = true;
    notice('outside', w('outside'));
    return;
  }
  notice('loading', w('loading'));
  try {
    show(await fetchView());
  } catch (e) {
    if (e instanceof Refusal && e.final) {
      stop(e.code);
      return;
    }
    notice('offline', w('offline'));
  }
  if (state.stopped) return;
  stream.start(state.view ? state.view.version : 0);
  setInterval(() => tick(serverNow()), 250);
}

main();
