// The Telegram shim: what the page needs of telegram-web-app.js, in our
// own few lines, so that the page loads nothing from elsewhere. It reads
// the launch parameters Telegram puts in the page's fragment, talks to the
// client through the transports Telegram's script uses, and applies the
// client's theme and viewport as CSS variables (--tg-theme-*,
// --tg-viewport-height, --tg-viewport-stable-height). The rules are
// Telegram's (its Mini Apps docs, "Launch parameters" and "Methods" in
// docs.telegram-mini-apps.com, and the script's own source; docs/TELEGRAM.md,
// "Mini Apps", says what our Bot API server gives a page).
//
// Outside Telegram (a browser that opened the page itself) there is no
// initData and the shim posts nothing: the page falls back to the
// browser's prefers-color-scheme (app.css).

// STORE and THEME are the sessionStorage keys of the launch parameters and
// the theme, Telegram's script's own, so that a reload that lost the
// fragment keeps them.
const STORE = '__telegram__initParams';
const THEME = '__telegram__themeParams';

// parseQuery reads a query string (a=1&b=2) into an object, '+' as a
// space, as Telegram's script does.
function parseQuery(s) {
  const out = {};
  for (const part of s.split('&')) {
    if (!part) continue;
    const i = part.indexOf('=');
    const key = decode(i < 0 ? part : part.slice(0, i));
    out[key] = i < 0 ? '' : decode(part.slice(i + 1));
  }
  return out;
}

function decode(s) {
  try {
    return decodeURIComponent(s.replace(/\+/g, '%20'));
  } catch (e) {
    return s;
  }
}

function storageGet(key) {
  try {
    const v = JSON.parse(window.sessionStorage.getItem(key));
    return v && typeof v === 'object' ? v : null;
  } catch (e) {
    return null;
  }
}

function storageSet(key, value) {
  try {
    window.sessionStorage.setItem(key, JSON.stringify(value));
  } catch (e) { /* storage off: the fragment alone */ }
}

// START_PARAM is what a start parameter may be (Telegram's rule for
// startapp); anything else is not sent.
const START_PARAM = /^[A-Za-z0-9_-]{1,512}$/;

// readLaunch returns the launch: initData (the raw string to send as is),
// the user it names, the start parameter (initData's start_param, else
// the page's tgWebAppStartParam or startapp query parameter, and whether
// it came from initData, which is signed), the theme, version and
// platform.
function readLaunch() {
  const fresh = parseQuery(window.location.hash.replace(/^#/, ''));
  const params = Object.assign({}, fresh);
  const stored = storageGet(STORE);
  if (stored) {
    for (const k of Object.keys(stored)) {
      if (!(k in params) && typeof stored[k] === 'string') params[k] = stored[k];
    }
  }
  storageSet(STORE, params);
  const initData = params.tgWebAppData || '';
  const fields = parseQuery(initData);
  let user = null;
  try {
    user = fields.user ? JSON.parse(fields.user) : null;
  } catch (e) { /* the server judges initData; the page only reads the language */ }
  const query = new URLSearchParams(window.location.search);
  let startParam = fields.start_param || '';
  const signed = startParam !== '';
  if (!signed) startParam = query.get('tgWebAppStartParam') || query.get('startapp') || '';
  if (!START_PARAM.test(startParam)) startParam = '';
  // The theme: the fragment's, else the newest the client sent (kept by
  // applyTheme), else the one the stored launch had.
  const parseTheme = (s) => {
    try {
      return s ? JSON.parse(s) : null;
    } catch (e) {
      return null;
    }
  };
  const theme = parseTheme(fresh.tgWebAppThemeParams) || storageGet(THEME) ||
    parseTheme(params.tgWebAppThemeParams);
  return {
    initData, user, startParam, signedStart: signed, theme,
    version: params.tgWebAppVersion || '', platform: params.tgWebAppPlatform || '',
  };
}

export const launch = readLaunch();

// inTelegram: the page was opened by a Telegram client (it has initData).
export const inTelegram = launch.initData !== '';

const inIframe = (() => {
  try {
    return window.parent != null && window !== window.parent;
  } catch (e) {
    return true;
  }
})();

// postEvent sends an event to the Telegram client: through the webview's
// proxy (mobile and desktop apps), window.external.notify (Windows Phone)
// or the parent window (web clients, which frame the page), as Telegram's
// script does; nothing outside Telegram. It reports whether it was sent.
export function postEvent(type, data) {
  if (!inTelegram) return false;
  const payload = data === undefined ? '' : data;
  try {
    if (window.TelegramWebviewProxy !== undefined) {
      window.TelegramWebviewProxy.postEvent(type, JSON.stringify(payload));
      return true;
    }
    if (window.external && 'notify' in window.external) {
      window.external.notify(JSON.stringify({eventType: type, eventData: payload}));
      return true;
    }
    if (inIframe) {
      // Telegram's script posts to any origin too: the web clients live on
      // several, and nothing posted here is secret.
      window.parent.postMessage(JSON.stringify({eventType: type, eventData: payload}), '*');
      return true;
    }
  } catch (e) { /* the client went */ }
  return false;
}

const handlers = new Map();

// onEvent calls fn(data) for each event of type the client sends.
export function onEvent(type, fn) {
  if (!handlers.has(type)) handlers.set(type, []);
  handlers.get(type).push(fn);
}

function receiveEvent(type, data) {
  for (const fn of handlers.get(type) || []) {
    try {
      fn(data || {});
    } catch (e) { /* one handler's fault stays its own */ }
  }
}

// The client calls window.Telegram.WebView.receiveEvent (older ones
// TelegramGameProxy.receiveEvent); web clients post to the window.
window.Telegram = window.Telegram || {};
window.Telegram.WebView = {receiveEvent};
window.TelegramGameProxy = {receiveEvent};
window.TelegramGameProxy_receiveEvent = receiveEvent;
if (inIframe) {
  window.addEventListener('message', (ev) => {
    if (ev.source !== window.parent || typeof ev.data !== 'string') return;
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch (e) {
      return;
    }
    if (msg && typeof msg.eventType === 'string') receiveEvent(msg.eventType, msg.eventData);
  });
}

const root = document.documentElement;

// COLOR is a theme colour as the page takes it: #rgb or #rrggbb.
const COLOR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

// applyTheme sets --tg-theme-<key> for each colour of theme (bg_color is
// --tg-theme-bg-color), --tg-color-scheme and the root's data-scheme
// ("light" or "dark", by bg_color's brightness), and keeps the theme for
// a reload.
export function applyTheme(theme) {
  if (!theme || typeof theme !== 'object') return;
  const kept = {};
  for (const [key, value] of Object.entries(theme)) {
    if (!/^[a-z_]{1,40}$/.test(key) || typeof value !== 'string' || !COLOR.test(value)) continue;
    kept[key] = value;
    root.style.setProperty('--tg-theme-' + key.replace(/_/g, '-'), value);
  }
  if (kept.bg_color) {
    const scheme = isDark(kept.bg_color) ? 'dark' : 'light';
    root.style.setProperty('--tg-color-scheme', scheme);
    root.dataset.scheme = scheme;
  }
  storageSet(THEME, kept);
}

// isDark: a colour's luminance is below the middle (Telegram's test).
function isDark(hex) {
  let h = hex.slice(1);
  if (h.length === 3) h = h.replace(/./g, '$&$&');
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
  return Math.sqrt(0.299 * r * r + 0.587 * g * g + 0.114 * b * b) < 120;
}

// applyViewport sets the viewport's height, and its stable height when the
// client says it is stable (the one to lay out by).
function applyViewport(v) {
  const h = Number(v.height);
  if (!Number.isFinite(h) || h <= 0) return;
  root.style.setProperty('--tg-viewport-height', h + 'px');
  if (v.is_state_stable) root.style.setProperty('--tg-viewport-stable-height', h + 'px');
}

// start applies the launch's theme, listens for the client's theme and
// viewport, and tells the client that the page is ready, wants all the
// height, and would like the current theme and viewport.
export function start() {
  applyTheme(launch.theme);
  onEvent('theme_changed', (d) => applyTheme(d.theme_params));
  onEvent('viewport_changed', applyViewport);
  if (inIframe) postEvent('iframe_ready', {reload_supported: false});
  postEvent('web_app_ready');
  postEvent('web_app_expand');
  postEvent('web_app_request_theme');
  postEvent('web_app_request_viewport');
}
