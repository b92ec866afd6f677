// Seep's table view, drawn inside the shared table page (table.js keeps the connection, seats, log, timer and
// the score sheet's frame): the seats around the board, the floor with its houses, the bids, the plays offered
// for the chosen card, the hand, the captured cards and Seep's score sheet. The legal plays and bids are the
// server's word: no rule of the game is written here.

import { _, ngettext, parts } from "/static/i18n.js";
import { h, joinNames, levelLabel, nameEl, ruleLabel, words } from "/static/common.js";
import { cardElement, cardText, sortCards, spokenParts, valueOf } from "/static/cards.js";
import { differenceCell, differenceLine, leadText } from "/static/score.js";

const $ = (id) => document.getElementById(id);
const HOUSE_NAMES = { 9: _("nine"), 10: _("ten"), 11: _("jack"), 12: _("queen"), 13: _("king") };

let T = null; // the table page: { S, $, h, api, send, nextId, seatName, presenceOf, render, toast, tableId }

/** What this view keeps of the player's choice. */
const V = {
  selected: null, // the hand card whose plays are offered
  focusCard: null, // the hand card with the keyboard focus (roving tabindex)
  highlight: 0, // which offered play's floor cards are highlighted
};

export const brand = _("Seep");
/** What a new state changed (the cards that move, the sounds, the last play) and the captured piles. */
export * as feel from "/static/seep/feel.js";

export function init(table) { T = table; }

function team(seat) { return seat % 2; }

/** A team's players, "Priya & Arjun", each name isolated (`cut`: cut to its column, see nameEl). */
function teamName(t, cut = false) {
  const st = T.S.state;
  if (!st) return [t === 0 ? _("Team A") : _("Team B")];
  const seats = st.seats.filter((s) => s.seat % 2 === t);
  return seats.flatMap((s, i) => [i ? " & " : "", s.empty ? _("seat {seat}", { seat: s.seat }) : nameEl(s.name, { cut })]);
}

/** "Team A (you)" at four players, the player's name at two. */
function teamLabel(t, cut = false) {
  const st = T.S.state;
  const mine = st && st.you !== null && st.you !== undefined && team(st.you) === t;
  const label = st && st.players === 4 ? (t === 0 ? _("Team A") : _("Team B")) : nameEl(T.seatName(t), { cut });
  return [label, mine ? ` ${_("(you)")}` : ""];
}

/** teamLabel cut to a table's column: "Priya…" with the whole name in its title. */
const teamCell = (t) => teamLabel(t, true);

/** Every floor card (and house value) a play touches, from the protocol's play format. */
function involved(play) {
  const cards = new Set();
  const houses = new Set();
  const deal = T.S.state && T.S.state.deal;
  const has = (v) => deal && deal.houses.some((x) => x.value === v);
  if (!play) return { cards, houses };
  if ("capture" in play) {
    for (const c of play.capture || []) cards.add(c);
    const v = valueOf(play.card);
    if (has(v)) houses.add(v);
  } else if ("house" in play) {
    for (const c of play.loose || []) cards.add(c);
    if ("break" in play) houses.add(play.break);
    else if (has(play.house)) houses.add(play.house);
  }
  return { cards, houses };
}

export function myTurn(st) {
  const d = st && st.deal;
  return Boolean(st && st.status === "playing" && d && st.you !== null && (d.bids.length || d.legal.length));
}

export function info(st) {
  const match = st.baazis === 0 ? _("single deal") : ngettext("first to {n} baazi", "first to {n} baazis", st.baazis);
  return [ngettext("{n} player", "{n} players", st.players), ruleLabel(st.rules), match,
    _("{level} bots", { level: levelLabel(st.level) })].join(" · ");
}

/** The line under the seats before the start. */
export function seatsNote(st) {
  return st.players === 4 ? _("Partners sit opposite: seats 0 and 2 play against seats 1 and 3.")
    : _("Two players, each on his own.");
}

export function statusText(st) {
  const d = st.deal;
  if (!d) return "";
  const who = d.to_move !== null && d.to_move !== undefined ? T.seatName(d.to_move) : "";
  if (d.phase === "bid") return parts(_("Deal {deal}: {name} is bidding."), { deal: d.number, name: nameEl(who) });
  const values = { deal: d.number, bid: d.bid ?? "?", bidder: T.seatNameEl(d.bidder), name: nameEl(who) };
  return who
    ? parts(ngettext("Deal {deal}: bid {bid} by {bidder} · {n} play made · {name} to play.",
      "Deal {deal}: bid {bid} by {bidder} · {n} plays made · {name} to play.", d.plays_made), values)
    : parts(ngettext("Deal {deal}: bid {bid} by {bidder} · {n} play made.",
      "Deal {deal}: bid {bid} by {bidder} · {n} plays made.", d.plays_made), values);
}

export function turnText(st) {
  const d = st.deal;
  if (myTurn(st)) return _("Your turn");
  if (d && d.to_move !== null && d.to_move !== undefined) {
    const name = T.seatNameEl(d.to_move);
    return d.phase === "bid" ? parts(_("{name} to bid"), { name }) : parts(_("{name} to play"), { name });
  }
  return "";
}

export function onState(st) {
  const d = st.deal;
  if (!myTurn(st)) V.selected = null;
  else if (V.selected && !(d.legal || []).some((l) => l.play.card === V.selected)) V.selected = null;
}

// -- drawing --------------------------------------------------------------------------------------------------------

export function render() {
  renderBoard();
  renderControls();
  renderHand();
  renderScores();
}

/** Where a seat is drawn: "bottom" for you (or seat 0 for a spectator), the others around the table. */
function slotOf(seat) {
  const st = T.S.state;
  const base = st.you ?? 0;
  const r = (seat - base + st.players) % st.players;
  if (st.players === 2) return r === 0 ? "bottom" : "top";
  return ["bottom", "right", "top", "left"][r];
}

function renderBoard() {
  const st = T.S.state;
  const d = st.deal;
  for (const slot of ["top", "left", "right", "bottom"]) $(`slot-${slot}`).replaceChildren();
  $("board").className = `board players-${st.players}`;
  for (const s of st.seats) {
    const slot = slotOf(s.seat);
    $(`slot-${slot}`).appendChild(seatBox(s, slot));
  }
  renderFloor(d);
}

function seatBox(s, slot) {
  const st = T.S.state;
  const d = st.deal;
  const p = T.presenceOf(s.seat);
  const mine = st.you === s.seat;
  const marks = [];
  if (d && d.dealer === s.seat) marks.push(h("span", { class: "mark dealer", title: _("dealer") }, _("dealer")));
  if (d && d.bidder === s.seat && d.bid) marks.push(h("span", { class: "mark bid" }, _("bid {bid}", { bid: d.bid })));
  if (s.bot) marks.push(h("span", { class: "mark bot" }, _("bot")));
  else if (p.idle) marks.push(h("span", { class: "mark idle" }, _("out of time: a bot plays")));
  else if (p.away) marks.push(h("span", { class: "mark away" }, _("away: a bot plays")));
  else if (!p.connected) marks.push(h("span", { class: "mark off" }, _("disconnected")));
  const turn = d && st.status === "playing" && d.to_move === s.seat;
  if (turn) marks.push(h("span", { class: "mark turn" }, d.phase === "bid" ? _("bidding") : _("to play")));
  const count = d ? d.hand_sizes[s.seat] : 0;
  const backs = h("div", { class: "backs", role: "img", "aria-label": ngettext("{n} card", "{n} cards", count) });
  if (!mine) {
    for (let i = 0; i < count; i++) backs.appendChild(cardElement(null, { small: true }));
  }
  return h("div", { class: `seat-box team-${team(s.seat)}` + (turn ? " turn" : "") + (mine ? " mine" : ""),
    testid: `seat-box-${s.seat}`, dataset: { seat: s.seat } },
    h("div", { class: "seat-head" },
      h("span", { class: "seat-name" }, s.empty ? _("empty") : nameEl(s.name), T.accountMark(s.seat),
        mine ? ` ${_("(you)")}` : ""),
      h("span", { class: "count", testid: `count-${s.seat}` }, ngettext("{n} card", "{n} cards", count))),
    h("div", { class: "marks" }, marks),
    slot === "bottom" && mine ? null : backs);
}

function renderFloor(d) {
  const floor = $("floor");
  floor.replaceChildren();
  if (!d) return;
  const offered = currentPlays();
  const hl = offered.length ? involved(offered[Math.min(V.highlight, offered.length - 1)].play) : involved(null);
  if (d.phase === "bid") {
    const backs = h("div", { class: "loose" });
    for (let i = 0; i < 4; i++) backs.appendChild(cardElement(null));
    floor.appendChild(h("div", { class: "floor-note" }, _("The floor lies face down until the bid.")));
    floor.appendChild(backs);
    return;
  }
  const houses = h("div", { class: "houses" });
  for (const house of d.houses) {
    const owners = joinNames(house.owners.map(T.seatName));
    const cards = h("div", { class: "house-cards" });
    for (const c of sortCards(house.cards)) cards.appendChild(cardElement(c, { small: true }));
    houses.appendChild(h("div", {
      class: "house" + (house.cemented ? " cemented" : "") + (hl.houses.has(house.value) ? " involved" : ""),
      testid: `house-${house.value}`, dataset: { value: house.value } },
      h("div", { class: "house-title" },
        h("strong", {}, _("House {value}", { value: house.value })),
        ` ${HOUSE_NAMES[house.value] || ""} · ${house.cemented ? _("cemented") : _("not cemented")}`),
      h("div", { class: "house-owners" }, owners),
      cards));
  }
  const loose = h("div", { class: "loose", testid: "loose" });
  for (const c of d.loose) {
    const e = cardElement(c, { testid: `floor-${c}` });
    if (hl.cards.has(c)) e.classList.add("involved");
    loose.appendChild(e);
  }
  if (!d.loose.length && !d.houses.length) floor.appendChild(h("div", { class: "floor-note" }, _("The floor is empty.")));
  if (d.houses.length) floor.appendChild(houses);
  floor.appendChild(loose);
}

function currentPlays() {
  const d = T.S.state && T.S.state.deal;
  if (!d || !V.selected || !myTurn(T.S.state)) return [];
  return d.legal.filter((l) => l.play.card === V.selected);
}

function renderControls() {
  const st = T.S.state;
  const d = st.deal;
  const bids = $("bids");
  bids.replaceChildren();
  if (d && d.bids && d.bids.length && st.status === "playing") {
    bids.appendChild(h("span", { class: "bids-label" }, _("Your bid:")));
    d.bids.forEach((v, i) => {
      bids.appendChild(h("button", { type: "button", class: "bid", testid: `bid-${v}`, disabled: Boolean(T.S.pending),
        onclick: () => bid(v) }, i < 9 ? h("kbd", {}, String(i + 1)) : null,
        `${v}${HOUSE_NAMES[v] ? " (" + HOUSE_NAMES[v] + ")" : ""}`));
    });
  }
  const list = $("plays");
  list.replaceChildren();
  const offered = currentPlays();
  offered.forEach((l, i) => {
    const b = h("button", { type: "button", class: "play-option" + (i === V.highlight ? " hl" : ""),
      testid: "play-option", disabled: Boolean(T.S.pending), onclick: () => play(l.play) },
      // The server's sentence, its cards said in words: "capture two of spades and nine of spades with ...".
      i < 9 ? h("kbd", {}, String(i + 1)) : null, spokenParts(words(l.text)));
    const show = () => {
      if (V.highlight !== i) {
        V.highlight = i;
        renderFloor(T.S.state.deal);
        for (const [j, other] of [...list.querySelectorAll(".play-option")].entries()) other.classList.toggle("hl", j === i);
      }
    };
    b.addEventListener("mouseenter", show);
    b.addEventListener("focus", show);
    list.appendChild(h("li", {}, b));
  });
  list.hidden = !offered.length;
}

function renderHand() {
  const st = T.S.state;
  const d = st.deal;
  const hand = $("hand");
  const hadFocus = hand.contains(document.activeElement);
  hand.replaceChildren();
  hand.hidden = st.you === null || !d || !d.hand;
  $("keys-help").hidden = hand.hidden || st.status !== "playing";
  if (hand.hidden) return;
  const cards = sortCards(d.hand);
  // The cards share the hand's width (CSS works out their size from these): a full hand fanned, each card's
  // index showing; six cards or fewer side by side with a small gap, none hiding any part of another.
  hand.style.setProperty("--n", String(Math.max(cards.length, 1)));
  hand.style.setProperty("--ov", cards.length <= 6 ? "-0.06" : "0.45");
  const turn = myTurn(T.S.state) && d.phase !== "bid";
  const playable = new Set(turn ? d.legal.map((l) => l.play.card) : []);
  if (!cards.includes(V.focusCard)) V.focusCard = V.selected && cards.includes(V.selected) ? V.selected : cards[0];
  for (const c of cards) {
    const e = cardElement(c, { tag: "button", testid: `card-${c}` });
    e.type = "button";
    e.tabIndex = c === V.focusCard ? 0 : -1;
    const ok = playable.has(c);
    if (turn && !ok) {
      e.classList.add("dim");
      e.setAttribute("aria-disabled", "true");
      e.title = _("{card}: no legal play", { card: cardText(c) });
    }
    if (turn && ok) e.classList.add("playable");
    if (c === V.selected) {
      e.classList.add("selected");
      e.setAttribute("aria-pressed", "true");
    }
    e.addEventListener("click", () => choose(c));
    e.addEventListener("focus", () => { V.focusCard = c; });
    hand.appendChild(e);
  }
  if (hadFocus) {
    const f = hand.querySelector(`[data-card="${V.focusCard}"]`);
    if (f) f.focus();
  }
}

function choose(card) {
  V.focusCard = card;
  const d = T.S.state.deal;
  if (!myTurn(T.S.state) || d.phase === "bid") {
    if (d && d.phase === "bid" && d.bids.length) T.toast(_("First choose your bid."));
    return;
  }
  if (!d.legal.some((l) => l.play.card === card)) {
    T.toast(_("{card} has no legal play now.", { card: cardText(card) }));
    return;
  }
  V.selected = V.selected === card ? null : card;
  V.highlight = 0;
  T.render();
}

function play(p) {
  if (T.S.pending || !myTurn(T.S.state)) return;
  const legal = T.S.state.deal.legal.some((l) => JSON.stringify(l.play) === JSON.stringify(p));
  if (!legal) return;
  if (T.send({ type: "play", play: p, version: T.S.version, id: T.nextId() })) V.selected = null;
}

function bid(value) {
  if (T.S.pending || !T.S.state.deal.bids.includes(value)) return;
  T.send({ type: "bid", value, version: T.S.version, id: T.nextId() });
}

function renderScores() {
  const st = T.S.state;
  const d = st.deal;
  const box = $("scores");
  box.replaceChildren(h("h2", { class: "minor-title" }, _("Score")));
  const toBaazis = st.baazis !== 0; // a single deal plays for no baazis: no column of them
  const rows = [0, 1].map((t) => {
    const c = d ? d.captured[t] : { cards: 0, points: 0, sweeps: 0, sweep_points: 0 };
    return h("tr", { class: `team-${t}`, testid: `team-${t}` },
      h("th", { scope: "row" }, h("span", { class: "team-title" }, teamCell(t)),
        st.players === 4 ? h("small", {}, teamName(t, true)) : null),
      h("td", {}, String(c.cards)), h("td", {}, String(c.points)),
      h("td", {}, `${c.sweeps}${c.sweep_points ? ` (+${c.sweep_points})` : ""}`),
      toBaazis ? h("td", {}, String(st.score ? st.score.baazis[t] : 0)) : null);
  });
  box.appendChild(h("table", { class: "score-table" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, _("cards")), h("th", {}, _("points")), h("th", {}, _("sweeps")),
      toBaazis ? h("th", {}, _("baazis")) : null)),
    h("tbody", {}, rows)));
  const facts = [];
  if (d && d.bid) facts.push(parts(_("Bid: {bid} by {bidder}"), { bid: d.bid, bidder: T.seatNameEl(d.bidder) }));
  if (st.score) {
    const deals = st.score.deals;
    const last = deals.length ? deals[deals.length - 1] : null;
    const restarted = last && last.baazi !== null && last.baazi !== undefined && st.score.difference === 0;
    const lead = leadText(st.score.difference, (t) => teamLabel(t));
    facts.push(restarted ? parts(_("Running difference: {lead} (started again after the last deal's baazi)"), { lead })
      : parts(_("Running difference: {lead}"), { lead }));
    facts.push(st.baazis === 0 ? _("A single deal") : ngettext("First to {n} baazi wins", "First to {n} baazis wins", st.baazis));
  }
  box.appendChild(h("p", { class: "facts" }, facts.flatMap((f, i) => (i ? [" · ", f] : [f]))));
}

export function winnerText(st) {
  const w = st.score && st.score.winner;
  if (w === null || w === undefined) return [_("A draw.")];
  if (st.players === 2) return parts(_("{name} wins."), { name: T.seatNameEl(w) });
  return parts(_("{team} win: {names}."), { team: teamLabel(w), names: teamName(w) });
}

/** The score sheet of deal `n` (its result `r`): the deal's points, the running difference, every deal so far. */
export function sheet(st, r, n) {
  const deals = st.score.deals;
  const teamRow = (t) => h("tr", { class: `team-${t}` },
    h("th", { scope: "row" }, h("span", { class: "team-title" }, teamCell(t)),
      st.players === 4 ? h("small", {}, teamName(t, true)) : null),
    h("td", {}, String(r.card_points[t])), h("td", {}, String(r.sweep_points[t])),
    h("td", { class: "total" }, String(r.score[t])));
  // A team as the history's columns and cells name it: "Team A", or the player's name cut to the column.
  const short = (t, cut = true) => (st.players === 4 ? (t === 0 ? _("Team A") : _("Team B")) : nameEl(T.seatName(t), { cut }));
  const toBaazis = st.baazis !== 0; // a single deal plays for no baazis: no column of them
  const history = h("table", { class: "history" },
    h("thead", {}, h("tr", {}, h("th", {}, _("deal")), h("th", {}, _("dealer")), h("th", {}, short(0)),
      h("th", {}, short(1)), h("th", {}, _("diff.")), toBaazis ? h("th", {}, _("baazi")) : null)),
    h("tbody", {}, deals.map((x, i) => h("tr", { class: i === n - 1 ? "current" : "" },
      h("td", {}, String(i + 1)), h("td", {}, nameEl(T.seatName(x.dealer), { cut: true })), h("td", {}, String(x.score[0])),
      h("td", {}, String(x.score[1])), h("td", { testid: `diff-${i + 1}` }, differenceCell(deals, i, short)),
      toBaazis ? h("td", {}, x.baazi === null || x.baazi === undefined ? "" : short(x.baazi)) : null))));
  const notes = [];
  if (r.baazi !== null && r.baazi !== undefined) notes.push(h("p", { class: "baazi" }, parts(_("{team} wins a baazi!"), { team: teamLabel(r.baazi) })));
  if (r.minimum_rule) notes.push(h("p", { class: "muted" }, _("The minimum rule applied to this deal.")));
  const baazis = st.score.baazis;
  return [
    h("h2", { id: "sheet-title" }, _("Deal {n}: the score", { n })),
    h("table", { class: "score-table" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, _("card points")), h("th", {}, _("sweep points")),
        h("th", {}, _("deal score")))),
      h("tbody", {}, teamRow(0), teamRow(1))),
    ...notes,
    h("p", { testid: "sheet-difference" }, differenceLine(deals, n - 1, (t) => short(t, false)), ...(toBaazis
      ? [" · ", ...parts(_("Baazis: {a} {baazisA}, {b} {baazisB}"),
        { a: teamLabel(0), baazisA: baazis[0], b: teamLabel(1), baazisB: baazis[1] })] : [])),
    st.status === "finished" ? h("p", { class: "winner" }, _("The match is over."), " ", winnerText(st)) : null,
    h("h3", {}, _("Every deal")),
    h("div", { class: "scroll-x" }, history),
  ];
}

/** The hand's keys; true when the key was this view's. */
export function onKey(event) {
  const hand = $("hand");
  if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
    const cards = [...hand.querySelectorAll("button.card")];
    if (!cards.length) return false;
    let i = cards.findIndex((c) => c === document.activeElement);
    if (i < 0) i = Math.max(0, cards.findIndex((c) => c.dataset.card === V.focusCard));
    else i = (i + (event.key === "ArrowRight" ? 1 : -1) + cards.length) % cards.length;
    for (const c of cards) c.tabIndex = -1;
    cards[i].tabIndex = 0;
    cards[i].focus();
    V.focusCard = cards[i].dataset.card;
    return true;
  } else if (/^[1-9]$/.test(event.key)) {
    const i = Number(event.key) - 1;
    const d = T.S.state && T.S.state.deal;
    if (myTurn(T.S.state) && d.bids.length) {
      if (i < d.bids.length) {
        bid(d.bids[i]);
        return true;
      }
      return false;
    }
    const offered = currentPlays();
    if (i < offered.length) {
      play(offered[i].play);
      return true;
    }
  } else if (event.key === "Escape" && V.selected) {
    V.selected = null;
    T.render();
  }
  return false; // any other key (Escape too) keeps its default
}
