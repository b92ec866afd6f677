// Playing cards drawn as SVG by the project (CC0): no images, no fonts to download.
// A card is a two-character name: rank "A23456789TJQK" + suit "shdc" ("Ks", "Th").

import { _ } from "/static/i18n.js";

const SVG = "http://www.w3.org/2000/svg";
export const RANKS = "A23456789TJQK";
export const SUITS = "shdc";
export const SUIT_SYMBOL = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
export const SUIT_NAME = { s: _("spades"), h: _("hearts"), d: _("diamonds"), c: _("clubs") };
const RANK_NAME = { A: _("ace"), 2: _("two"), 3: _("three"), 4: _("four"), 5: _("five"), 6: _("six"),
  7: _("seven"), 8: _("eight"), 9: _("nine"), T: _("ten"), J: _("jack"), Q: _("queen"), K: _("king") };

// Suit shapes in a 100 x 100 box, drawn as paths so that no font is needed for them.
const SUIT_PATHS = {
  h: ["M50 92 C22 68 2 50 2 29 C2 13 14 3 28 3 C38 3 46 9 50 19 C54 9 62 3 72 3 C86 3 98 13 98 29 C98 50 78 68 50 92 Z"],
  d: ["M50 2 L88 50 L50 98 L12 50 Z"],
  s: ["M50 2 C36 22 2 40 2 62 C2 77 13 86 27 86 C36 86 43 82 47 75 C46 86 40 93 30 98 L70 98 C60 93 54 86 53 75 " +
      "C57 82 64 86 73 86 C87 86 98 77 98 62 C98 40 64 22 50 2 Z"],
  c: ["M50 50 C49 74 43 89 30 98 L70 98 C57 89 51 74 50 50 Z",
      "M50 4 A21 21 0 1 1 49.9 4 Z", "M26 38 A21 21 0 1 1 25.9 38 Z", "M74 38 A21 21 0 1 1 73.9 38 Z",
      "M38 45 L62 45 L50 66 Z"],
};

export function rankOf(card) { return card[0]; }
export function suitOf(card) { return card[1]; }
/** The value of a card's rank: ace 1 ... king 13. */
export function valueOf(card) { return RANKS.indexOf(card[0]) + 1; }
export function isRed(card) { return card[1] === "h" || card[1] === "d"; }
/** How a rank is printed: "10" for T. */
export function rankLabel(card) { return card[0] === "T" ? "10" : card[0]; }
/** A printed joker (Rummy): "JK". */
export const JOKER = "JK";
/** "K♠", "10♥", "JK". */
export function cardText(card) { return card === JOKER ? "JK" : rankLabel(card) + SUIT_SYMBOL[card[1]]; }
/** "king of spades", "two of hearts", "joker": every rank in words, for screen readers, in the page's language
 * (the whole name one template, so that a language puts the suit first if it says it so). */
export function cardWords(card) {
  if (card === JOKER) return _("joker");
  return _("{rank} of {suit}", { rank: RANK_NAME[card[0]], suit: SUIT_NAME[card[1]] });
}
/** The cards in words as one list: "two of spades and nine of spades" (the page's language joins the list). */
export function cardListWords(cards) {
  const lang = document.documentElement.lang || "en";
  return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(cards.map(cardWords));
}

// A card as the server's sentences print it: "K♠", "10♥" or "T♥", "JK" (a printed joker); the cards of one list
// stand side by side, separated by spaces.
const CARD_TOKEN = "(?:10|[A2-9TJQK])[\u2660\u2665\u2666\u2663]|JK";
const CARD_RUN = new RegExp(`(?<![\\w])(?:${CARD_TOKEN})(?: (?:${CARD_TOKEN}))*(?![\\w])`, "gu");
const SYMBOL_SUIT = { "\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c" };

/** A card as printed ("10♥", "T♥", "JK") back to its name ("Th", "JK"). */
function cardOfToken(token) {
  if (token === JOKER) return JOKER;
  const rank = token.length === 3 ? "T" : token[0];
  return rank + SYMBOL_SUIT[token[token.length - 1]];
}

/** A sentence of the server's for a screen reader: every card printed in it named in words, the cards of one list
 * joined ("Capture 2♠ 9♠ with J♣" -> "Capture two of spades and nine of spades with jack of clubs"). Only the
 * printing changes: the sentence is the server's. */
export function spokenText(text) {
  return String(text).replace(CARD_RUN, (run) => cardListWords(run.split(" ").map(cardOfToken)));
}

/** The same sentence as page content: each run of printed cards shown as printed (hidden from screen readers) and
 * said in words (shown to screen readers only), so that what a person sees stays the button's visible label and a
 * screen reader's name for it is the sentence in words. Returns strings and elements, for `h(...)`'s children. */
export function spokenParts(text) {
  const parts = [];
  let at = 0;
  const s = String(text);
  for (const m of s.matchAll(CARD_RUN)) {
    if (m.index > at) parts.push(s.slice(at, m.index));
    const shown = document.createElement("span");
    shown.setAttribute("aria-hidden", "true");
    shown.textContent = m[0];
    const said = document.createElement("span");
    said.className = "visually-hidden";
    said.textContent = cardListWords(m[0].split(" ").map(cardOfToken));
    parts.push(shown, said);
    at = m.index + m[0].length;
  }
  if (at < s.length) parts.push(s.slice(at));
  return parts;
}

/** Sorted by suit (s h d c) then rank (A..K), as the protocol writes lists of cards. */
export function sortCards(cards) {
  return [...cards].sort((a, b) =>
    SUITS.indexOf(a[1]) - SUITS.indexOf(b[1]) || RANKS.indexOf(a[0]) - RANKS.indexOf(b[0]));
}

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

function suitShape(parent, suit, x, y, size, flip = false) {
  const g = el("g", { transform: `translate(${x} ${y}) scale(${size / 100})` + (flip ? " rotate(180 50 50)" : "") },
    parent);
  for (const d of SUIT_PATHS[suit]) el("path", { d }, g);
  return g;
}

/** A small card's face: its rank large over its suit, readable at 20 pixels wide (houses, other hands). */
export function miniCardSvg(card) {
  if (card === JOKER) return jokerSvg();
  const svg = el("svg", { viewBox: "0 0 60 84", class: `card-svg mini ${isRed(card) ? "red" : "black"} suit-${card[1]}`,
    role: "img", "aria-label": cardWords(card) });
  el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, class: "card-face" }, svg);
  const ink = el("g", { class: "ink" }, svg);
  const label = rankLabel(card);
  const t = el("text", { x: 30, y: 40, "text-anchor": "middle", class: "rank", "font-size": label.length > 1 ? 34 : 40,
    "letter-spacing": label.length > 1 ? -3 : 0 }, ink);
  t.textContent = label;
  suitShape(ink, card[1], 15, 46, 30);
  return svg;
}

/** A printed joker's face: the word over a star. */
function jokerSvg() {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg joker", role: "img", "aria-label": _("joker") });
  el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, class: "card-face" }, svg);
  const ink = el("g", { class: "ink" }, svg);
  const t = el("text", { x: 30, y: 24, "text-anchor": "middle", class: "rank", "font-size": 13 }, ink);
  t.textContent = "JOKER";
  el("path", { d: "M30 34 L34 46 L46 46 L36 53 L40 65 L30 57 L20 65 L24 53 L14 46 L26 46 Z" }, ink);
  return svg;
}

/** An <svg> of the face of `card` (60 x 84 units; size it with CSS). */
export function cardSvg(card) {
  if (card === JOKER) return jokerSvg();
  const red = isRed(card);
  const svg = el("svg", { viewBox: "0 0 60 84", class: `card-svg ${red ? "red" : "black"} suit-${card[1]}`,
    role: "img", "aria-label": cardWords(card) });
  el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, class: "card-face" }, svg);
  const court = "JQK".includes(card[0]);
  // A court card's frame lies under its ink.
  if (court) el("rect", { x: 15, y: 14, width: 30, height: 56, rx: 3, class: "court-frame" }, svg);
  const ink = el("g", { class: "ink" }, svg);
  const label = rankLabel(card);
  const corner = (flip) => {
    const g = el("g", flip ? { transform: "rotate(180 30 42)" } : {}, ink);
    const t = el("text", { x: 8.5, y: 15, "text-anchor": "middle", class: "rank",
      "font-size": label.length > 1 ? 12 : 14, "letter-spacing": label.length > 1 ? -1 : 0 }, g);
    t.textContent = label;
    suitShape(g, card[1], 3.5, 18, 10);
  };
  corner(false);
  corner(true);
  if (court) {
    // A framed court card: the letter large over the suit.
    const t = el("text", { x: 30, y: 40, "text-anchor": "middle", class: "rank court", "font-size": 20 }, ink);
    t.textContent = card[0];
    suitShape(ink, card[1], 19, 45, 22);
  } else {
    suitShape(ink, card[1], 13, 25, 34);
  }
  return svg;
}

/** An <svg> of a card's back. */
export function cardBackSvg() {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg back", role: "img", "aria-label": "a card face down" });
  el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, class: "back-edge" }, svg);
  el("rect", { x: 5, y: 5, width: 50, height: 74, rx: 3, class: "back-field" }, svg);
  const g = el("g", { class: "back-pattern" }, svg);
  for (let y = 9; y < 78; y += 8) {
    for (let x = 9; x < 54; x += 8) el("path", { d: `M${x} ${y - 3} L${x + 3} ${y} L${x} ${y + 3} L${x - 3} ${y} Z` }, g);
  }
  el("circle", { cx: 30, cy: 42, r: 10, class: "back-medal" }, svg);
  return svg;
}

/** A card as an HTML element: `<span class="card">` (or `tag`) holding its SVG; `name` null for a back. */
export function cardElement(name, { tag = "span", testid = null, small = false } = {}) {
  const e = document.createElement(tag);
  e.className = "card" + (small ? " small" : "") + (name ? "" : " card-back");
  if (name) {
    e.dataset.card = name;
    e.title = cardText(name);
  }
  if (testid) e.dataset.testid = testid;
  e.appendChild(name ? (small ? miniCardSvg(name) : cardSvg(name)) : cardBackSvg());
  return e;
}
