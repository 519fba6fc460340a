// Cards drawn as SVG from code: a face (its rank, its suit as a path, red
// or black) or a back for a card nobody sees. No font file, no image: the
// rank is text in the page's own font, the suits are paths below.
//
// A card is an <svg class="card"> with data-card (the game's code, "Th"),
// data-rank and data-suit, and an aria-label ("10♥"); a back has the class
// "back" and data-card "??". The colours are app.css's (.card .face, .red,
// .black, .back-*), so they follow the theme.

// The SVG namespace, read from the page's own <svg id="defs"> (the parser
// gives it), so that no URL appears in the code.
const defs = document.getElementById('defs');
const NS = defs.namespaceURI;

// SUITS are the four suits: their symbol, colour and outline in a box of
// 100×100.
const SUITS = {
  s: {symbol: '♠', red: false,
    d: 'M50 4C80 30 96 44 96 62C96 76 86 84 74 84C64 84 56 79 53 72C54 82 58 90 66 96H34' +
      'C42 90 46 82 47 72C44 79 36 84 26 84C14 84 4 76 4 62C4 44 20 30 50 4Z'},
  h: {symbol: '♥', red: true,
    d: 'M50 94C20 70 4 54 4 32C4 16 16 6 29 6C39 6 46 12 50 21C54 12 61 6 71 6C84 6 96 16 96 32' +
      'C96 54 80 70 50 94Z'},
  d: {symbol: '♦', red: true, d: 'M50 2L88 50L50 98L12 50Z'},
  c: {symbol: '♣', red: false,
    d: 'M30 28a20 20 0 1 0 40 0a20 20 0 1 0 -40 0Z' +
      'M8 60a20 20 0 1 0 40 0a20 20 0 1 0 -40 0Z' +
      'M52 60a20 20 0 1 0 40 0a20 20 0 1 0 -40 0Z' +
      'M45 52C45 76 40 90 30 96H70C60 90 55 76 55 52Z'},
};

// RANKS are the ranks a code may have (the game's deck of 36) and how a
// card shows them.
const RANKS = {6: '6', 7: '7', 8: '8', 9: '9', T: '10', J: 'J', Q: 'Q', K: 'K', A: 'A'};

// make builds an SVG element with attributes.
function make(tag, attrs, ...kids) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  e.append(...kids);
  return e;
}

// The back's pattern, made once into the page's <defs>.
let backReady = false;
function backPattern() {
  if (backReady) return;
  backReady = true;
  defs.append(make('defs', {},
    make('pattern', {id: 'card-back', width: '6', height: '6', patternUnits: 'userSpaceOnUse',
      patternTransform: 'rotate(45)'},
    make('rect', {class: 'back-bg', width: '6', height: '6'}),
    make('rect', {class: 'back-line', width: '2', height: '6'}))));
}

// parse returns a code's rank and suit, null for a code that is no card.
export function parse(code) {
  if (typeof code !== 'string' || code.length !== 2) return null;
  const rank = RANKS[code[0]];
  const suit = SUITS[code[1]];
  if (!rank || !suit) return null;
  return {rank, suit, code};
}

// card returns the SVG of the card whose game code is code ("Th"); a code
// that is no card ("??", a hidden card) draws its back.
export function card(code) {
  const c = parse(code);
  if (!c) return back();
  const svg = make('svg', {class: 'card ' + (c.suit.red ? 'red' : 'black'), viewBox: '0 0 60 84',
    role: 'img', 'aria-label': c.rank + c.suit.symbol});
  svg.dataset.card = code;
  svg.dataset.rank = code[0];
  svg.dataset.suit = code[1];
  const corner = () => make('g', {},
    make('text', {class: 'rank' + (c.rank.length > 1 ? ' wide' : ''), x: '5', y: '17'}, c.rank),
    make('path', {class: 'pip', d: c.suit.d, transform: 'translate(4.5 21) scale(0.11)'}));
  svg.append(
    make('rect', {class: 'face', x: '0.5', y: '0.5', width: '59', height: '83', rx: '5'}),
    corner(),
    make('path', {class: 'pip big', d: c.suit.d, transform: 'translate(15 27) scale(0.3)'}),
    make('g', {transform: 'rotate(180 30 42)'}, corner()));
  return svg;
}

// back returns the SVG of a card's back.
export function back() {
  backPattern();
  const svg = make('svg', {class: 'card back', viewBox: '0 0 60 84', role: 'img', 'aria-label': '🂠'});
  svg.dataset.card = '??';
  svg.append(
    make('rect', {class: 'face', x: '0.5', y: '0.5', width: '59', height: '83', rx: '5'}),
    make('rect', {class: 'back-field', x: '4', y: '4', width: '52', height: '76', rx: '3', fill: 'url(#card-back)'}));
  return svg;
}
