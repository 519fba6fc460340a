// Wiring the page's controls, and starting it.
// One of the playground page's scripts, which index.html loads in order:
// classic scripts, no framework, no build step, sharing their top-level
// names (util.js first, app.js, which starts the page, last). Every text
// that comes from the world is put into the page as DOM text nodes, never
// as HTML.
'use strict';

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
  initApp();
  if (!isPhone()) {
    document.body.classList.remove('show-list');
    document.body.classList.add('show-chat');
  }
  connect();
  // The stream's "ready" loads the state; without a stream, load it anyway.
  setTimeout(() => { if (!document.body.dataset.ready) reloadAll(); }, 1500);
}

init();
