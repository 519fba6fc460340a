// The page's own words, in the three languages the bot speaks. Everything
// about the table itself (its title, the record, the seats' notes, the
// buttons' labels, the answers to an action) is the server's, in the
// view's language; these are only what the page says of itself: its
// state, its errors, and the names of what it draws. A word is in every
// language or in none (web_test checks it: the object is JSON).

export const WORDS = {
  "en": {
    "game": "Twenty One",
    "loading": "Opening the table…",
    "outside": "Open this page with the table's button in Telegram.",
    "expired": "This window is too old: close it and open the table again from the chat.",
    "unsigned": "Telegram's signature could not be checked: open the table again from the chat.",
    "no_table": "There is no such table: it may have closed. Open the table again from the chat.",
    "not_member": "This table is its chat's: only the chat's members can open it.",
    "outdated": "The app was updated: close it and open the table again from the chat.",
    "replaced": "This table is open in another window.",
    "show_here": "Show it here",
    "offline": "No connection: trying again…",
    "busy": "The table is busy: try again.",
    "too_many": "Too many taps: wait a moment.",
    "failed": "That did not work: try again.",
    "gone": "That button is gone: the table has moved on.",
    "ok": "OK",
    "bank": "Bank",
    "stake": "Stake",
    "bet": "bet",
    "banker": "banker",
    "you": "you",
    "balance": "Your chips",
    "watching": "You are watching",
    "your_move": "Your move",
    "to_move": "{name} to move",
    "lobby": "Waiting for players",
    "cut_asked": "{name} cuts the deck",
    "your_cut": "Your cut: cut the deck",
    "cut_wait": "Waiting for the cut",
    "result": "Result",
    "record": "Record",
    "deck": "Deck"
  },
  "ru": {
    "game": "Очко",
    "loading": "Открываем стол…",
    "outside": "Открой эту страницу кнопкой стола в Telegram.",
    "expired": "Это окно устарело: закрой его и снова открой стол из чата.",
    "unsigned": "Не удалось проверить подпись Telegram: открой стол из чата заново.",
    "no_table": "Такого стола нет: возможно, он закрыт. Открой стол из чата заново.",
    "not_member": "Этот стол — стол своего чата: открыть его могут только участники чата.",
    "outdated": "Приложение обновилось: закрой его и снова открой стол из чата.",
    "replaced": "Этот стол открыт в другом окне.",
    "show_here": "Показать здесь",
    "offline": "Нет связи: пробуем снова…",
    "busy": "Стол занят: попробуй ещё раз.",
    "too_many": "Слишком часто: подожди немного.",
    "failed": "Не получилось: попробуй ещё раз.",
    "gone": "Этой кнопки уже нет: игра ушла дальше.",
    "ok": "OK",
    "bank": "Банк",
    "stake": "Ставка",
    "bet": "ставка",
    "banker": "банкир",
    "you": "ты",
    "balance": "Твои фишки",
    "watching": "Ты смотришь",
    "your_move": "Твой ход",
    "to_move": "Ходит {name}",
    "lobby": "Ждём игроков",
    "cut_asked": "{name} снимает колоду",
    "your_cut": "Твоя очередь снять колоду",
    "cut_wait": "Ждём, кто снимет колоду",
    "result": "Итог",
    "record": "Ход игры",
    "deck": "Колода"
  },
  "uk": {
    "game": "Очко",
    "loading": "Відкриваємо стіл…",
    "outside": "Відкрий цю сторінку кнопкою столу в Telegram.",
    "expired": "Це вікно застаріло: закрий його і знову відкрий стіл із чату.",
    "unsigned": "Не вдалося перевірити підпис Telegram: відкрий стіл із чату наново.",
    "no_table": "Такого столу немає: можливо, його закрито. Відкрий стіл із чату наново.",
    "not_member": "Цей стіл — стіл свого чату: відкрити його можуть лише учасники чату.",
    "outdated": "Застосунок оновився: закрий його і знову відкрий стіл із чату.",
    "replaced": "Цей стіл відкрито в іншому вікні.",
    "show_here": "Показати тут",
    "offline": "Немає зв'язку: пробуємо знову…",
    "busy": "Стіл зайнятий: спробуй ще раз.",
    "too_many": "Занадто часто: зачекай трохи.",
    "failed": "Не вийшло: спробуй ще раз.",
    "gone": "Цієї кнопки вже немає: гра пішла далі.",
    "ok": "OK",
    "bank": "Банк",
    "stake": "Ставка",
    "bet": "ставка",
    "banker": "банкір",
    "you": "ти",
    "balance": "Твої фішки",
    "watching": "Ти дивишся",
    "your_move": "Твій хід",
    "to_move": "Ходить {name}",
    "lobby": "Чекаємо гравців",
    "cut_asked": "{name} знімає колоду",
    "your_cut": "Твоя черга зняти колоду",
    "cut_wait": "Чекаємо, хто зніме колоду",
    "result": "Підсумок",
    "record": "Хід гри",
    "deck": "Колода"
  }
};

// langOf returns the language the bot speaks for a Telegram language_code,
// as bot/i18n's FromTelegram decides it: uk, ru (and be), else en.
export function langOf(code) {
  const c = String(code || '').trim().toLowerCase().split(/[-_]/)[0];
  if (c === 'uk') return 'uk';
  if (c === 'ru' || c === 'be') return 'ru';
  return 'en';
}

// words returns the words of lang (en for a language it does not know);
// w('to_move', {name: 'Bob'}) fills in {name}.
export function words(lang) {
  const cat = WORDS[lang] || WORDS.en;
  return (key, args) => {
    let s = cat[key] ?? WORDS.en[key] ?? key;
    for (const [k, v] of Object.entries(args || {})) s = s.split('{' + k + '}').join(String(v));
    return s;
  };
}
