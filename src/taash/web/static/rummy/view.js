// 13-card Rummy's table view, drawn inside the shared table page (table.js keeps the connection, seats, log,
// timer and score sheet's frame). The hand lies in groups the player arranges (drag and drop; a tap on a card then
// on a group; the keys); every group's label and the hand's points are the engine's word (POST /api/rummy/groups,
// and the solver's arrangement in the state): no rule of the game is written here.

import { _, ngettext, parts } from "/static/i18n.js";
import { cardElement, cardText, JOKER, RANKS, SUITS, spokenParts } from "/static/cards.js";
import { formatLabel, levelLabel, nameEl, withNames } from "/static/common.js";
import { animate, measure } from "/static/motion.js";

const KIND_LABEL = { pure: _("pure run"), impure: _("impure run"), set: _("set"), free: _("free joker"),
  invalid: _("invalid"), draw: _("a card short") };
const STATUS_LABEL = { dropped: _("dropped"), wrong: _("wrong declaration"), declared: _("declared") };

let T = null; // the table page: { S, $, h, api, send, nextId, seatName, presenceOf, render, toast, tableId }

/** What this view keeps of the player's own arrangement (never sent to the server but to be judged). */
const R = {
  key: "", // table, deal and seat the groups belong to
  groups: [], // the hand in groups, card names (twins appear twice)
  sel: null, // {g, i, card}: the selected card
  focus: null, // {g, i}: the card with the keyboard focus
  fresh: null, // the card just taken, where it lies: {g, i, card} (one copy, not every card of its name)
  judged: "", // the groups last sent to be judged
  seq: 0,
  kinds: [], // each group's kind, as the engine says
  valid: false,
  points: null,
  judgedWithout: null, // the card the last judgement left out (the card to discard or lay down)
  drag: null,
  confirm: null, // the declaration awaiting confirmation: {finish, groups, kinds, valid}
  awaitVerdict: false,
  verdict: "",
};

export const brand = _("Rummy");
/** What a new state changed (the cards that move, the sounds, the last discard) and the discard pile. */
export * as feel from "/static/rummy/feel.js";
/** What the turn timer says happens when a player's time and extra time run out (the server makes the move). */
export const timeoutWords = _("a card is taken from the stock and discarded for you");

export function init(table) { T = table; }

function deal() { return T.S.state && T.S.state.deal; }

export function myTurn(st) {
  const d = st && st.deal;
  return Boolean(st && st.status === "playing" && d && st.you !== null && st.you !== undefined &&
    d.to_move === st.you && d.legal && d.legal.length);
}

function legal(type, test = () => true) {
  const d = deal();
  return Boolean(myTurn(T.S.state) && d.legal.some((m) => m.type === type && test(m)));
}

/** Whether the player holds 14 cards and must discard (or declare). */
function mustDiscard() { return legal("discard"); }

export function info(st) {
  return [_("13-card Rummy"), ngettext("{n} player", "{n} players", st.players), st.rules, formatName(st.format),
    _("{level} bots", { level: levelLabel(st.level) })].join(" · ");
}

/** The match's format in words ("pool 101"). */
function formatName(format) {
  return format === "points" ? _("points") : formatLabel(format);
}

/** The line under the seats before the start. */
export function seatsNote() { return _("13-card Rummy: each player on his own."); }

export function statusText(st) {
  const d = st.deal;
  if (!d) return "";
  const moving = d.to_move !== null && d.to_move !== undefined;
  const values = { deal: d.number, rank: rankWords(d.wild), stock: d.stock_size };
  return moving ? parts(_("Deal {deal}: jokers {rank} · stock {stock} · {name} to move."), { ...values,
    name: T.seatNameEl(d.to_move) }) : [_("Deal {deal}: jokers {rank} · stock {stock}.", values)];
}

export function turnText(st) {
  const d = st.deal;
  if (myTurn(st)) return mustDiscard() ? _("Your turn: discard a card (or declare)") : _("Your turn: take a card");
  return d && d.to_move !== null && d.to_move !== undefined ? parts(_("{name} to move"), { name: T.seatNameEl(d.to_move) })
    : "";
}

/** The cards of a rank, "10s", "7s" (the deal's jokers). */
function rankWords(rank) { return _("{rank}s", { rank: rank === "T" ? "10" : rank }); }

// -- the arrangement ----------------------------------------------------------------------------------------------

function storageKey() { return `taash-rummy-${R.key}`; }

function save() {
  try { sessionStorage.setItem(storageKey(), JSON.stringify(R.groups)); } catch (e) { /* private mode: no memory */ }
}

function load() {
  try { return JSON.parse(sessionStorage.getItem(storageKey()) || "null"); } catch (e) { return null; }
}

function suitIndex(c) { return c === JOKER ? 9 : SUITS.indexOf(c[1]); }
function rankIndex(c) { return c === JOKER ? 99 : RANKS.indexOf(c[0]); }

function bySuit(cards) {
  const groups = [];
  for (const s of [0, 1, 2, 3, 9]) {
    const g = cards.filter((c) => suitIndex(c) === s).sort((a, b) => rankIndex(a) - rankIndex(b));
    if (g.length) groups.push(g);
  }
  return groups;
}

/** Cards of a rank held twice or more together, in rank order; the lone cards in one group after them. */
function byRank(cards) {
  const sorted = [...cards].sort((a, b) => rankIndex(a) - rankIndex(b) || suitIndex(a) - suitIndex(b));
  const groups = [];
  const lone = [];
  for (const r of new Set(sorted.map(rankIndex))) {
    const g = sorted.filter((c) => rankIndex(c) === r);
    if (g.length > 1) groups.push(g);
    else lone.push(...g);
  }
  if (lone.length) groups.push(lone);
  return groups;
}

/** Keep the player's groups as the hand changes: cards gone leave their group, a card taken joins a group of
 * its own at the end. A new deal starts sorted by suit (or as arranged before a reload). */
function reconcile(st) {
  const d = st.deal;
  const hand = d && d.hand;
  if (!hand || !hand.length) {
    R.groups = [];
    R.sel = null;
    return;
  }
  const key = `${T.tableId}:${d.number}:${st.you}`;
  if (R.key !== key) {
    R.key = key;
    R.groups = load() || bySuit(hand);
    R.sel = null;
    R.fresh = null;
  }
  const fresh = R.fresh;
  const left = new Map();
  for (const c of hand) left.set(c, (left.get(c) || 0) + 1);
  const groups = R.groups.map((g) => g.filter((c) => {
    const n = left.get(c) || 0;
    if (!n) return false;
    left.set(c, n - 1);
    return true;
  })).filter((g) => g.length);
  const extra = [];
  for (const [c, n] of left) for (let k = 0; k < n; k++) extra.push(c);
  R.groups = groups;
  if (extra.length) {
    groups.push(extra);
    R.fresh = extra.length === 1 ? { g: groups.length - 1, i: 0, card: extra[0] } : null;
  } else if (hand.length <= 13) R.fresh = null;
  else R.fresh = fresh;
  keepFresh();
  if (R.sel && R.groups[R.sel.g] && R.groups[R.sel.g][R.sel.i] !== R.sel.card) R.sel = null;
  if (R.sel && !R.groups[R.sel.g]) R.sel = null;
  save();
}

/** The groups judged: with 14 cards and one chosen, the 13 left after it (what a discard or declaration keeps). */
function judgedGroups() {
  const leave = R.groups.flat().length === 14 && R.sel ? R.sel : null;
  return {
    without: leave ? leave.card : null,
    groups: R.groups.map((g, gi) => g.filter((_g, i) => !(leave && leave.g === gi && leave.i === i))),
  };
}

async function judge() {
  const d = deal();
  if (!d || !R.groups.length) return;
  const { without, groups } = judgedGroups();
  const key = JSON.stringify({ rules: d.rules, wild: d.wild, groups });
  if (key === R.judged) return;
  R.judged = key;
  const seq = ++R.seq;
  // A group emptied by setting its card apart is no group: it is not sent, and has no kind.
  const sent = groups.filter((g) => g.length);
  try {
    const out = await T.api("POST", "/api/rummy/groups", { rules: d.rules, wild: d.wild, groups: sent });
    if (seq !== R.seq) return;
    let k = 0;
    R.kinds = groups.map((g) => (g.length ? out.kinds[k++] : null));
    R.valid = out.valid;
    R.points = out.points;
    R.judgedWithout = without;
    renderHand(T.S.state);
  } catch (e) {
    if (seq === R.seq) R.judged = "";
  }
}

/** Keep the mark of the card just taken on one card: where it lies, or (moved by a sort) the first copy of it. */
function keepFresh() {
  const f = R.fresh;
  if (!f || (R.groups[f.g] && R.groups[f.g][f.i] === f.card)) return;
  const g = R.groups.findIndex((x) => x.includes(f.card));
  R.fresh = g < 0 ? null : { g, i: R.groups[g].indexOf(f.card), card: f.card };
}

function changed() {
  keepFresh();
  R.groups = R.groups.filter((g) => g.length);
  save();
  const before = measure(T.$("hand")); // the cards slide to their new groups (a meld forming)
  renderHand(T.S.state);
  animate(before, { root: T.$("hand"), shifts: true });
  renderControls(T.S.state);
  judge();
}

function moveCard(from, toGroup, toIndex = null) {
  // The cards move with their marks (the one just taken), so that a twin elsewhere keeps none.
  const held = R.groups.map((x, gi) => x.map((card, i) => ({ card, fresh: isFresh(gi, i) })));
  const moving = held[from.g][from.i];
  if (toGroup === held.length) held.push([]);
  const target = held[toGroup];
  held[from.g].splice(from.i, 1);
  let at = toIndex === null ? target.length : toIndex;
  if (from.g === toGroup && toIndex !== null && from.i < toIndex) at -= 1;
  target.splice(Math.min(at, target.length), 0, moving);
  const kept = held.filter((x) => x.length);
  R.groups = kept.map((x) => x.map((c) => c.card));
  R.sel = null; // moved: put down
  const g = kept.findIndex((x) => x.includes(moving));
  R.focus = { g, i: kept[g].indexOf(moving) };
  const fg = kept.findIndex((x) => x.some((c) => c.fresh));
  R.fresh = fg < 0 ? null : { g: fg, i: kept[fg].findIndex((c) => c.fresh), card: R.fresh.card };
  changed();
}

/** Whether the card at (g, i) is the one just taken. */
function isFresh(g, i) { return Boolean(R.fresh && R.fresh.g === g && R.fresh.i === i); }

function select(g, i) {
  const card = R.groups[g][i];
  R.focus = { g, i };
  if (R.sel && R.sel.g === g && R.sel.i === i) R.sel = null;
  else R.sel = { g, i, card };
  changed();
}

function sortHand(how) {
  const cards = R.groups.flat();
  R.groups = how === "rank" ? byRank(cards) : bySuit(cards);
  R.sel = null;
  changed();
}

/** The solver's best arrangement (the state's), the card it would discard set apart and chosen. */
function arrangeForMe() {
  const d = deal();
  const a = d && d.arrangement;
  if (!a) return;
  R.groups = a.groups.map((g) => [...g.cards]);
  R.sel = null;
  if (a.discard) {
    R.groups.push([a.discard]);
    R.sel = { g: R.groups.length - 1, i: 0, card: a.discard };
  }
  changed();
}

/** Whether `card` is a wild joker of deal `d`: of the rank the server names (`d.wild`); a printed joker shows
 * itself. */
function isWildJoker(d, card) { return card !== JOKER && d.wild === card[0]; }

/** A wild joker in the hand: a "J" badge in its corner, and its name says so. */
function markWildJoker(e, card) {
  e.classList.add("wild-joker");
  // Named by its face and these words ("five of hearts, wild joker"): what is seen is part of the name.
  e.appendChild(T.h("span", { class: "visually-hidden" }, _(", wild joker")));
  e.title = _("{card}: wild joker", { card: cardText(card) });
  // The badge's letter is drawn by style.css: the card's name ("…, wild joker") says it to screen readers.
  e.appendChild(T.h("span", { class: "joker-mark", "aria-hidden": "true" }));
}

// -- moves ----------------------------------------------------------------------------------------------------------

function move(message) {
  if (T.S.pending) return;
  T.send({ ...message, version: T.S.version, id: T.nextId() });
}

function take(source) {
  if (!legal("take", (m) => m.from === source)) return;
  move({ type: "take", from: source });
}

function discard() {
  if (!R.sel || !legal("discard", (m) => m.card === R.sel.card)) return;
  const card = R.sel.card;
  R.sel = null;
  move({ type: "discard", card });
}

/** Drop asks first, in the page's own dialog (not the browser's bare confirm box). */
function drop() {
  if (!legal("drop")) return;
  const d = deal();
  R.dropCost = d.has_taken[T.S.state.you] ? d.middle_drop : d.first_drop;
  renderDropDialog();
}

function closeDropDialog() {
  R.dropCost = null;
  renderDropDialog();
}

function confirmDrop() {
  closeDropDialog();
  if (legal("drop")) move({ type: "drop" });
}

function renderDropDialog() {
  let box = document.getElementById("drop-dialog");
  if (R.dropCost === null || R.dropCost === undefined) {
    if (box) box.remove();
    return;
  }
  if (!box) {
    box = T.h("div", { id: "drop-dialog", class: "overlay", testid: "drop-dialog", role: "dialog",
      "aria-modal": "true", "aria-labelledby": "drop-title" });
    document.body.appendChild(box);
  }
  const yes = T.h("button", { type: "button", class: "primary", testid: "drop-confirm", onclick: confirmDrop },
    ngettext("Drop ({n} point)", "Drop ({n} points)", R.dropCost));
  box.replaceChildren(T.h("div", { class: "sheet" },
    T.h("h2", { id: "drop-title" }, _("Drop out of this deal?")),
    T.h("p", {}, ngettext("You leave this deal now and score {n} point for it.",
      "You leave this deal now and score {n} points for it.", R.dropCost)),
    T.h("div", { class: "buttons" }, yes,
      T.h("button", { type: "button", testid: "drop-cancel", onclick: closeDropDialog }, _("Keep playing")))));
  yes.focus();
}

async function askDeclare() {
  if (!mustDiscard()) return;
  if (!R.sel) {
    T.toast(_("First choose the card to lay face down (the finish card)."));
    return;
  }
  const d = deal();
  const { groups } = judgedGroups();
  const melds = groups.filter((g) => g.length);
  let verdict;
  try {
    verdict = await T.api("POST", "/api/rummy/groups", { rules: d.rules, wild: d.wild, groups: melds });
  } catch (e) {
    T.toast(e.message, "error");
    return;
  }
  R.confirm = { finish: R.sel.card, groups: melds, kinds: verdict.kinds, valid: verdict.valid };
  renderConfirm();
}

function declare() {
  const c = R.confirm;
  R.confirm = null;
  renderConfirm();
  if (!c || !mustDiscard()) return;
  R.awaitVerdict = true;
  R.sel = null;
  move({ type: "declare", discard: c.finish, melds: c.groups });
}

// -- drawing --------------------------------------------------------------------------------------------------------

export function onState(st) {
  reconcile(st);
  if (R.awaitVerdict) {
    const said = (st.log || []).filter((l) => / declares/.test(l));
    const mine = st.you !== null ? st.seats[st.you].name : "";
    const line = [...said].reverse().find((l) => l.startsWith(`${mine} declares`));
    if (line) {
      R.awaitVerdict = false;
      R.verdict = line;
      T.toast(withNames(line, [mine]));
    }
  }
}

export function render(st) {
  renderSeats(st);
  renderFloor(st);
  renderControls(st);
  renderHand(st);
  renderScores(st);
  renderConfirm();
  judge();
}

function seatBox(st, s) {
  const d = st.deal;
  const p = T.presenceOf(s.seat);
  const mine = st.you === s.seat;
  const marks = [];
  if (d && d.dealer === s.seat) marks.push(T.h("span", { class: "mark dealer" }, _("dealer")));
  const status = d && d.status[s.seat];
  if (status && STATUS_LABEL[status]) marks.push(T.h("span", { class: `mark ${status}` }, STATUS_LABEL[status]));
  if (d && status === null) marks.push(T.h("span", { class: "mark out" }, _("out")));
  if (s.bot) marks.push(T.h("span", { class: "mark bot" }, _("bot")));
  else if (p.idle) marks.push(T.h("span", { class: "mark idle" }, _("out of time: a bot plays")));
  else if (lastTurnTimedOut(d, s.seat)) marks.push(T.h("span", { class: "mark idle" }, _("ran out of time")));
  else if (p.away) marks.push(T.h("span", { class: "mark away" }, _("away: a bot plays")));
  else if (!p.connected) marks.push(T.h("span", { class: "mark off" }, _("disconnected")));
  const turn = d && st.status === "playing" && d.to_move === s.seat;
  if (turn) marks.push(T.h("span", { class: "mark turn" }, _("to move")));
  const count = d ? d.hand_sizes[s.seat] : 0;
  const total = st.score ? st.score.totals[s.seat] : 0;
  return T.h("div", { class: "seat-box" + (turn ? " turn" : "") + (mine ? " mine" : ""), testid: `seat-box-${s.seat}`,
    dataset: { seat: s.seat } },
    T.h("div", { class: "seat-head" },
      T.h("span", { class: "seat-name" }, s.empty ? _("empty") : nameEl(s.name), T.accountMark(s.seat),
        mine ? ` ${_("(you)")}` : ""),
      T.h("span", { class: "count", testid: `count-${s.seat}` }, ngettext("{n} card", "{n} cards", count)),
      st.score && st.score.format !== "points" ? T.h("span", { class: "count" }, " · ",
        ngettext("{n} pt", "{n} pts", total)) : null),
    T.h("div", { class: "marks" }, marks));
}

function lastTurnTimedOut(d, seat) {
  const mine = d && [...(d.turns || [])].reverse().find((t) => t.seat === seat);
  return Boolean(mine && mine.timeout);
}

function renderSeats(st) {
  const top = T.$("slot-top");
  const bottom = T.$("slot-bottom");
  for (const slot of ["top", "left", "right", "bottom"]) T.$(`slot-${slot}`).replaceChildren();
  T.$("board").className = `board rummy players-${st.players}`;
  const base = st.you ?? 0;
  const others = T.h("div", { class: "rummy-seats", testid: "rummy-seats" });
  top.appendChild(others);
  for (let k = 1; k < st.players; k++) others.appendChild(seatBox(st, st.seats[(base + k) % st.players]));
  bottom.appendChild(seatBox(st, st.seats[base]));
}

function renderFloor(st) {
  const d = st.deal;
  const floor = T.$("floor");
  floor.replaceChildren();
  if (!d) return;
  const canStock = legal("take", (m) => m.from === "stock");
  const canPile = legal("take", (m) => m.from === "discard");
  const top = d.pile.length ? d.pile[d.pile.length - 1].card : null;
  const stock = T.h("button", { type: "button", class: "pile-button" + (canStock ? " can" : ""), testid: "stock",
    disabled: !canStock, "aria-label": _("Stock {n}: take a card from the stock", { n: d.stock_size }), onclick: () => take("stock") },
    cardElement(null, { small: false }), T.h("span", { class: "pile-label" }, _("Stock {n}", { n: d.stock_size })));
  const wild = T.h("div", { class: "wild", testid: "wild-card", title: _("Wild joker: every {rank} is a joker", { rank: d.wild }) },
    cardElement(d.wild_card, { small: true }),
    T.h("span", { class: "pile-label" }, _("Wild joker: {rank} and JK are jokers", { rank: rankWords(d.wild) })));
  const pile = T.h("button", { type: "button", class: "pile-button" + (canPile ? " can" : ""), testid: "discard-pile",
    disabled: !canPile, onclick: () => take("discard") },
    // Named by what it shows (the top card, the count: what a person sees is what he may say) after the action.
    T.h("span", { class: "visually-hidden" }, top ? _("Take from the discard pile:") : _("The discard pile is empty:")),
    top ? cardElement(top, { testid: "pile-top" }) : T.h("span", { class: "card empty-pile" }),
    T.h("span", { class: "pile-label" }, _("Discards {n}", { n: d.pile.length })));
  floor.appendChild(T.h("div", { class: "rummy-floor" }, T.h("div", { class: "stock-wrap" }, stock, wild), pile));
}

function button(testid, label, onclick, enabled, primary = false) {
  // A label that prints a card ("Discard 9♥") says the card in words to a screen reader.
  return T.h("button", { type: "button", testid, class: primary ? "primary" : null,
    disabled: !enabled || Boolean(T.S.pending), onclick }, typeof label === "string" ? spokenParts(label) : label);
}

function renderControls(st) {
  const d = st.deal;
  const box = T.$("bids");
  T.$("plays").replaceChildren();
  T.$("plays").hidden = true;
  box.replaceChildren();
  if (!d || st.you === null || st.you === undefined || !d.hand) return;
  const stockTake = legal("take", (m) => m.from === "stock");
  const pileTake = legal("take", (m) => m.from === "discard");
  const top = d.pile.length ? d.pile[d.pile.length - 1].card : null;
  const cost = d.has_taken[st.you] ? d.middle_drop : d.first_drop;
  const sel = R.sel && legal("discard", (m) => m.card === R.sel.card) ? R.sel.card : null;
  const row = [];
  if (stockTake || pileTake) {
    row.push(button("take-stock", _("Take from the stock"), () => take("stock"), stockTake, true));
    row.push(button("take-discard", top ? _("Take {card}", { card: cardText(top) }) : _("Take the discard"),
      () => take("discard"), pileTake));
  }
  if (mustDiscard()) {
    row.push(button("discard", sel ? _("Discard {card}", { card: cardText(sel) }) : _("Discard (choose a card)"), discard,
      Boolean(sel), true));
    row.push(button("declare", sel ? `Declare (lay ${cardText(sel)} down)` : "Declare", askDeclare, true));
  }
  if (legal("drop")) row.push(button("drop", `Drop (${cost} points)`, drop, true));
  row.push(...splitButtons(st));
  row.push(button("sort-suit", _("Sort by suit"), () => sortHand("suit"), true));
  row.push(button("sort-rank", _("Sort by rank"), () => sortHand("rank"), true));
  row.push(button("arrange", _("Arrange for me"), arrangeForMe, Boolean(d.arrangement)));
  row.push(T.coachButton()); // the coach's button among the actions: no row of its own under the hand
  box.appendChild(T.h("div", { class: "rummy-buttons" }, row));
  if (R.verdict) {
    const names = st.seats.filter((s) => !s.empty).map((s) => s.name);
    box.appendChild(T.h("p", { class: "verdict", testid: "verdict" }, withNames(R.verdict, names)));
  }
  const timedOut = timedOutLine(st);
  if (timedOut) box.appendChild(T.h("p", { class: "timed-out", testid: "timed-out", role: "status" }, timedOut));
}

/** The player's own last turn of the deal, if his time ran out in it: what the server discarded for him (and
 * whether that dropped him), until his next turn of his own. */
function timedOutLine(st) {
  const d = st.deal;
  const turns = (d && d.turns) || [];
  const mine = [...turns].reverse().find((t) => t.seat === st.you);
  if (!mine || !mine.timeout) return "";
  const card = mine.discard ? _("{card} was discarded for you", { card: cardText(mine.discard) })
    : _("your turn was played for you");
  const runs = d.timeouts ? d.timeouts[st.you] : 0;
  if (mine.timed_out_drop) return _("Your time ran out: {what}; you are dropped for running out of time.", { what: card });
  return runs > 1 ? _("Your time ran out: {what} ({runs} turns in a row).", { what: card, runs })
    : _("Your time ran out: {what}.", { what: card });
}

/** A split of the prize (the server says whether one may be proposed, and who is still to answer). */
function splitButtons(st) {
  const sp = st.split;
  const answer = (a) => T.send({ type: "split", answer: a, id: T.nextId() });
  if (sp && !sp.agreed && sp.weights[String(st.you)] !== undefined) {
    const shares = Object.entries(sp.weights).flatMap(([s, w], i) => [i ? ", " : "", nameEl(st.seats[Number(s)].name),
      ` ${w}`]);
    if (sp.waiting_for.includes(st.you)) {
      return [button("split-accept", parts(_("Accept the split ({shares})"), { shares }), () => answer("accept"), true, true),
        button("split-decline", _("Decline the split"), () => answer("decline"), true)];
    }
    return [button("split-decline", _("Withdraw (waiting for {n})", { n: sp.waiting_for.length }), () => answer("decline"),
      true)];
  }
  if (st.split_open) return [button("split-propose", _("Propose a split"), () => answer("propose"), true)];
  return [];
}

function renderHand(st) {
  const d = st && st.deal;
  const hand = T.$("hand");
  const hadFocus = hand.contains(document.activeElement);
  hand.replaceChildren();
  hand.hidden = !st || st.you === null || st.you === undefined || !d || !d.hand || !d.hand.length;
  T.$("keys-help").hidden = hand.hidden || st.status !== "playing";
  T.$("keys-help").textContent = _("Keys: ← → choose a card, Enter picks it up, Shift+← → moves it to the group beside, " +
    "Esc puts it back.");
  if (hand.hidden) return;
  hand.className = "hand rummy-hand";
  // The cards and groups share the hand's width in one row (CSS works out the cards' size from these).
  hand.style.setProperty("--n", String(Math.max(R.groups.flat().length, 1)));
  hand.style.setProperty("--g", String(Math.max(R.groups.length, 1)));
  const judgedNow = R.judged === JSON.stringify({ rules: d.rules, wild: d.wild, groups: judgedGroups().groups });
  const cards = R.groups.flat().length;
  R.groups.forEach((group, g) => {
    // A group holding only the card set apart (to discard, or to lay down in a declaration) is judged as none.
    const kind = judgedNow ? R.kinds[g] || "apart" : "unknown";
    const label = kind === "unknown" ? "…" : kind === "apart" ? _("set apart") : KIND_LABEL[kind] || kind;
    const box = T.h("div", { class: `group kind-${kind}`, testid: `group-${g}`,
      dataset: { kind }, role: "group", "aria-label": _("group {n}: {kind}", { n: g + 1, kind: label }) });
    box.appendChild(T.h("div", { class: "group-label", testid: `group-label-${g}` }, label));
    const row = T.h("div", { class: "group-cards" });
    group.forEach((c, i) => {
      const e = cardElement(c, { tag: "button", testid: `card-${c}` });
      e.type = "button";
      e.draggable = true;
      if (isWildJoker(d, c)) markWildJoker(e, c);
      const isSel = R.sel && R.sel.g === g && R.sel.i === i;
      const isFocus = R.focus ? R.focus.g === g && R.focus.i === i : g === 0 && i === 0;
      e.tabIndex = isFocus ? 0 : -1;
      if (isSel) {
        e.classList.add("selected");
        e.setAttribute("aria-pressed", "true");
      }
      if (isFresh(g, i)) e.classList.add("fresh");
      e.addEventListener("click", () => select(g, i));
      e.addEventListener("focus", () => { R.focus = { g, i }; });
      e.addEventListener("dragstart", (ev) => {
        R.drag = { g, i };
        ev.dataTransfer.effectAllowed = "move";
        ev.dataTransfer.setData("text/plain", c);
      });
      e.addEventListener("dragover", (ev) => { if (R.drag) ev.preventDefault(); });
      e.addEventListener("drop", (ev) => {
        ev.preventDefault();
        ev.stopPropagation();
        if (R.drag) moveCard(R.drag, g, i);
        R.drag = null;
      });
      row.appendChild(e);
    });
    box.appendChild(row);
    if (R.sel && R.sel.g !== g) {
      box.appendChild(T.h("button", { type: "button", class: "move-here", testid: `move-to-${g}`,
        onclick: () => moveCard(R.sel, g) }, _("Move here")));
    }
    box.addEventListener("dragover", (ev) => { if (R.drag) ev.preventDefault(); });
    box.addEventListener("drop", (ev) => {
      ev.preventDefault();
      if (R.drag) moveCard(R.drag, g);
      R.drag = null;
    });
    hand.appendChild(box);
  });
  const fresh = T.h("div", { class: "group new-group", testid: "new-group" },
    R.sel ? T.h("button", { type: "button", class: "move-here", testid: "move-to-new",
      onclick: () => moveCard(R.sel, R.groups.length) }, "New group") : T.h("span", { class: "muted" }, _("New group")));
  fresh.addEventListener("dragover", (ev) => { if (R.drag) ev.preventDefault(); });
  fresh.addEventListener("drop", (ev) => {
    ev.preventDefault();
    if (R.drag) moveCard(R.drag, R.groups.length);
    R.drag = null;
  });
  hand.appendChild(fresh);
  const pts = judgedNow && R.points !== null
    ? (cards === 14 && !R.judgedWithout ? _("14 cards: choose the card to discard")
      : R.valid ? ngettext("A valid declaration · {n} point if someone declared now",
        "A valid declaration · {n} points if someone declared now", R.points)
        : ngettext("Not yet a valid declaration · {n} point if someone declared now",
          "Not yet a valid declaration · {n} points if someone declared now", R.points))
    : "…";
  hand.appendChild(T.h("p", { class: "hand-points", testid: "hand-points" }, pts));
  if (hadFocus) {
    const f = hand.querySelector("button.card[tabindex='0']");
    if (f) f.focus();
  }
}

function renderScores(st) {
  const box = T.$("scores");
  const sc = st.score;
  box.replaceChildren(T.h("h2", { class: "minor-title" }, _("Score")));
  if (!sc) return;
  const out = new Set(Object.keys(sc.eliminated || {}).map(Number));
  const rows = st.seats.map((s) => T.h("tr", { testid: `total-${s.seat}`, class: out.has(s.seat) ? "out" : "" },
    T.h("th", { scope: "row" }, nameEl(T.seatName(s.seat), { cut: true }), st.you === s.seat ? ` ${_("(you)")}` : ""),
    T.h("td", {}, String(sc.totals[s.seat])),
    T.h("td", {}, out.has(s.seat) ? _("out") : "")));
  box.appendChild(T.h("table", { class: "score-table" },
    T.h("thead", {}, T.h("tr", {}, T.h("th", {}, ""), T.h("th", {}, _("points")), T.h("th", {}, ""))),
    T.h("tbody", {}, rows)));
  const d = st.deal;
  const facts = [formatName(st.format), ngettext("{n} deal played", "{n} deals played", sc.deals.length)];
  if (d) facts.push(_("drop {first} / {middle}", { first: d.first_drop, middle: d.middle_drop }));
  box.appendChild(T.h("p", { class: "facts" }, facts.join(" · ")));
}

function groupsRow(groups) {
  return T.h("div", { class: "shown-groups" }, groups.map((g) => T.h("div", { class: `group kind-${g.kind}` },
    T.h("div", { class: "group-label" }, g.kind ? KIND_LABEL[g.kind] || g.kind : _("unmatched")),
    T.h("div", { class: "group-cards" }, g.cards.map((c) => cardElement(c, { small: true }))))));
}

/** The score sheet of a finished deal: every hand shown in its groups, the points, the totals, who is out. */
export function sheet(st, r, n) {
  const shown = st.score.last && st.score.deals.length === n ? st.score.last.shown || [] : [];
  const bySeat = new Map(shown.map((x) => [x.seat, x]));
  const rows = r.seats.map((seat) => {
    const how = r.dropped.includes(seat) ? _("dropped") : r.wrong.includes(seat) ? _("wrong declaration")
      : seat === r.winner ? (r.declared ? _("declared") : _("last in")) : "";
    return T.h("tr", { testid: `sheet-seat-${seat}`, class: seat === r.winner ? "winner" : "" },
      T.h("th", { scope: "row" }, nameEl(T.seatName(seat), { cut: true })), T.h("td", {}, how),
      T.h("td", {}, r.points[seat] === null ? "" : String(r.points[seat])), T.h("td", {}, String(r.totals[seat])),
      T.h("td", {}, r.eliminated.includes(seat) ? _("out of the pool") : ""));
  });
  const hands = shown.map((x) => T.h("div", { class: "shown-hand", testid: `shown-${x.seat}` },
    T.h("h4", {}, ...parts(ngettext("{name}: {n} point", "{name}: {n} points", x.points ?? 0),
      { name: T.seatNameEl(x.seat) })), groupsRow(x.groups)));
  return [
    T.h("h2", { id: "sheet-title" }, ...parts(_("Deal {n}: {said}"), { n, said: withNames(r.said, st.seats.map((s) => s.name)) })),
    T.h("table", { class: "score-table" },
      T.h("thead", {}, T.h("tr", {}, T.h("th", {}, ""), T.h("th", {}, ""), T.h("th", {}, _("points")),
        T.h("th", {}, _("total")), T.h("th", {}, ""))),
      T.h("tbody", {}, rows)),
    hands.length ? T.h("div", { class: "shown-hands" }, hands) : null,
    st.status === "finished" ? T.h("p", { class: "winner" }, _("The match is over."), " ", winnerText(st)) : null,
  ];
}

export function winnerText(st) {
  const w = st.score && st.score.winner;
  return w === null || w === undefined ? [_("No winner.")] : parts(_("{name} wins."), { name: T.seatNameEl(w) });
}

function renderConfirm() {
  let box = document.getElementById("declare-dialog");
  if (!R.confirm) {
    if (box) box.remove();
    return;
  }
  if (!box) {
    box = T.h("div", { id: "declare-dialog", class: "overlay", testid: "declare-dialog", role: "dialog",
      "aria-modal": "true" });
    document.body.appendChild(box);
  }
  const c = R.confirm;
  const groups = c.groups.map((cards, i) => ({ cards, kind: c.kinds[i] }));
  box.replaceChildren(T.h("div", { class: "sheet" },
    T.h("h2", {}, _("Declare?")),
    T.h("p", {}, _("You lay {card} face down and show:", { card: cardText(c.finish) })),
    groupsRow(groups),
    T.h("p", { class: c.valid ? "valid" : "error", testid: "declare-verdict" }, c.valid
      ? _("A valid declaration: you win the deal.")
      : _("Not a valid declaration: a wrong declaration costs 80 points and you are out of the deal.")),
    T.h("div", { class: "buttons" },
      T.h("button", { type: "button", class: "primary", testid: "declare-confirm", onclick: declare }, _("Declare")),
      T.h("button", { type: "button", testid: "declare-cancel", onclick: () => { R.confirm = null; renderConfirm(); } },
        _("Cancel")))));
}

// -- keys -----------------------------------------------------------------------------------------------------------

/** The hand's keys; true when the key was this view's. */
export function onKey(event) {
  const flat = [];
  R.groups.forEach((g, gi) => g.forEach((_g, i) => flat.push({ g: gi, i })));
  if (!flat.length) return false;
  const at = Math.max(0, flat.findIndex((x) => R.focus && x.g === R.focus.g && x.i === R.focus.i));
  if ((event.key === "ArrowLeft" || event.key === "ArrowRight") && event.shiftKey && R.sel) {
    const to = R.sel.g + (event.key === "ArrowRight" ? 1 : -1);
    if (to >= 0) moveCard(R.sel, Math.min(to, R.groups.length));
    return true;
  }
  if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
    const next = flat[(at + (event.key === "ArrowRight" ? 1 : -1) + flat.length) % flat.length];
    R.focus = next;
    renderHand(T.S.state);
    const e = T.$("hand").querySelector("button.card[tabindex='0']");
    if (e) e.focus();
    return true;
  }
  if (event.key === "Escape" && (R.sel || R.confirm)) {
    R.sel = null;
    R.confirm = null;
    renderConfirm();
    changed();
    return true;
  }
  return false;
}
