// The Mini App, opened as a Telegram client opens it: a button that opens
// it (a URL button with the direct link t.me/<bot>/<app>?startapp=…, or a
// web_app button in the bot's private chat) asks the playground to open it
// as the current user (POST /api/chats/{chat}/app: our Bot API server signs
// the launch's initData), and the launch's page loads in a phone-sized
// panel beside the chat (over it on a narrow screen, the whole screen on a
// phone), until it is closed. The app stays its opener's while you switch
// players, as it would stay open on their phone. The panel answers the
// page's few requests as Telegram's web clients do (their postMessage
// transport): its theme, its viewport, closing.
// One of the playground page's scripts, which index.html loads in order:
// classic scripts, no framework, no build step, sharing their top-level
// names (util.js first, app.js, which starts the page, last). Every text
// that comes from the world is put into the page as DOM text nodes, never
// as HTML.
'use strict';

// MA is the open Mini App: its opener and its launch's theme.
const MA = { user: 0, theme: null, opening: 0 };

// appLink reports whether href is a direct link to one of the bot's Mini
// Apps, t.me/<bot>/<app>: a client opens the app rather than the link.
function appLink(href) {
  try {
    const u = new URL(href);
    const parts = u.pathname.replace(/^\/|\/$/g, '').split('/');
    return ['t.me', 'telegram.me', 'telegram.dog'].includes(u.host.toLowerCase()) && S.bot && parts.length === 2 &&
      parts[0].toLowerCase() === (S.bot.username || '').toLowerCase() && parts[1] !== '';
  } catch { return false; }
}

// openApp opens the Mini App as the current user from a button of a
// message of the chat: how is {url} for a direct link, {message_id,
// button} for a web_app button. A second press before the first opened
// wins.
async function openApp(chatID, how) {
  const seq = ++MA.opening;
  const user = S.me;
  try {
    const r = await api('POST', `/api/chats/${chatID}/app`, Object.assign({ from: user }, how));
    if (seq === MA.opening) showApp(r.url, user);
  } catch (err) {
    toast(err.message, 'error');
  }
}

// showApp loads the launch's page in a new frame (a new launch, even of the
// same page: a frame would only follow a new fragment) and shows the panel.
function showApp(url, user) {
  const frame = el('iframe', 'miniapp-frame');
  frame.id = 'miniapp-frame';
  frame.title = 'Mini App';
  frame.src = url;
  $('miniapp-frame').replaceWith(frame);
  MA.user = user;
  MA.theme = launchTheme(url);
  $('miniapp-user').textContent = 'as ' + fullName(S.users.get(user));
  $('miniapp').dataset.user = String(user);
  $('miniapp').hidden = false;
  document.body.classList.add('show-app');
}

// closeApp closes the panel, unloading the app's page (its live stream
// ends with it).
function closeApp() {
  MA.opening++;
  MA.user = 0;
  const frame = el('iframe', 'miniapp-frame');
  frame.id = 'miniapp-frame';
  frame.title = 'Mini App';
  $('miniapp-frame').replaceWith(frame);
  $('miniapp').hidden = true;
  delete $('miniapp').dataset.user;
  document.body.classList.remove('show-app');
}

// launchTheme is the theme a launch's fragment gives the page.
function launchTheme(url) {
  try {
    const hash = new URL(url, location.href).hash.replace(/^#/, '');
    return JSON.parse(new URLSearchParams(hash).get('tgWebAppThemeParams') || 'null');
  } catch { return null; }
}

// postToApp sends the app's page an event, as a web client does.
function postToApp(type, data) {
  const frame = $('miniapp-frame');
  if (frame.contentWindow) frame.contentWindow.postMessage(JSON.stringify({ eventType: type, eventData: data }), '*');
}

// onAppMessage answers what the app's page asks of its client.
function onAppMessage(ev) {
  const frame = $('miniapp-frame');
  if (!frame || ev.source !== frame.contentWindow || typeof ev.data !== 'string') return;
  let msg;
  try { msg = JSON.parse(ev.data); } catch { return; }
  switch (msg && msg.eventType) {
    case 'web_app_request_theme':
      if (MA.theme) postToApp('theme_changed', { theme_params: MA.theme });
      break;
    case 'web_app_request_viewport':
      postToApp('viewport_changed', { height: frame.clientHeight, is_expanded: true, is_state_stable: true });
      break;
    case 'web_app_close':
      closeApp();
      break;
  }
}

function initApp() {
  $('miniapp-close').addEventListener('click', closeApp);
  window.addEventListener('message', onAppMessage);
  window.addEventListener('resize', () => {
    if (MA.user) postToApp('viewport_changed', { height: $('miniapp-frame').clientHeight, is_expanded: true, is_state_stable: true });
  });
}
