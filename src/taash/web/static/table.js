// A table (/t/{id}): seats before the start, then the game over the websocket (docs/web-protocol.md).

import { api, h, me, nameForm, toast, ruleLabel, words } from "/static/common.js";
import { cardElement, cardText, sortCards, valueOf } from "/static/cards.js";
import { differenceCell, differenceLine, leadText } from "/static/score.js";
import * as rummyView from "/static/rummy/view.js";

const $ = (id) => document.getElementById(id);
const TABLE_ID = decodeURIComponent(location.pathname.split("/")[2] || "");
// The invite code this page was opened with (/t/{id}?code=...): a private table lets its holder watch and sit.
const CODE = new URLSearchParams(location.search).get("code");
const HOUSE_NAMES = { 9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king" };

const S = {
  state: null,
  version: -1,
  ws: null,
  attempts: 0,
  retryTimer: null,
  pingTimer: null,
  gaveUp: false,
  guest: null,
  selected: null, // the hand card whose plays are offered
  focusCard: null, // the hand card with the keyboard focus (roving tabindex)
  highlight: 0, // which offered play's floor cards are highlighted
  pending: null, // the id of the message sent and not yet answered
  counter: 0,
  timer: null, // the turn timer of the person to move (docs/web-protocol.md), or null
  timerEnd: 0, // when it runs out, on this page's clock (performance.now(), so the two clocks need not agree)
  sheet: 0, // the number of deals whose score sheet is shown (0: none)
  dismissed: Number(sessionStorage.getItem(`taash-sheet-${TABLE_ID}`) || 0),
};

// -- helpers ----------------------------------------------------------------------------------------------------

function setStatus(text, error = false) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", error);
}

function seatName(seat) {
  const s = S.state && S.state.seats[seat];
  if (!s) return `Seat ${seat}`;
  return s.empty ? `Seat ${seat} (empty)` : s.name;
}

function team(seat) { return seat % 2; }

function teamName(t) {
  const st = S.state;
  if (!st) return t === 0 ? "Team A" : "Team B";
  const seats = st.seats.filter((s) => s.seat % 2 === t).map((s) => (s.empty ? `seat ${s.seat}` : s.name));
  return seats.join(" & ");
}

function teamLabel(t) {
  const st = S.state;
  const mine = st && st.you !== null && st.you !== undefined && team(st.you) === t;
  return (st && st.players === 4 ? (t === 0 ? "Team A" : "Team B") : seatName(t)) + (mine ? " (you)" : "");
}

function nextId() {
  S.counter += 1;
  return `c${Date.now().toString(36)}${S.counter}${Math.random().toString(36).slice(2, 7)}`;
}

/** Every floor card (and house value) a play touches, from the protocol's play format. */
function involved(play) {
  const cards = new Set();
  const houses = new Set();
  const deal = S.state && S.state.deal;
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

/** Whether the table plays 13-card Rummy (its view is /static/rummy/view.js; Seep's is drawn here). */
function isRummy() { return Boolean(S.state && S.state.game === "rummy"); }

function myTurn() {
  if (isRummy()) return rummyView.myTurn(S.state);
  const st = S.state;
  const d = st && st.deal;
  return Boolean(st && st.status === "playing" && d && st.you !== null && (d.bids.length || d.legal.length));
}

// -- the websocket ------------------------------------------------------------------------------------------------

function connect() {
  clearTimeout(S.retryTimer);
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const query = new URLSearchParams();
  if (S.version >= 0) query.set("since", String(S.version));
  if (CODE) query.set("code", CODE);
  const q = query.toString() ? `?${query}` : "";
  const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(TABLE_ID)}${q}`);
  S.ws = ws;
  ws.onmessage = (event) => {
    if (ws !== S.ws) return;
    let m;
    try {
      m = JSON.parse(event.data);
    } catch (e) {
      return;
    }
    onMessage(m);
  };
  ws.onopen = () => {
    clearInterval(S.pingTimer);
    S.pingTimer = setInterval(() => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" }));
    }, 25000);
  };
  ws.onclose = (event) => {
    if (ws !== S.ws) return;
    clearInterval(S.pingTimer);
    S.pending = null;
    if (event.code === 1008 || event.code === 1013) {
      // Refused (1008: no such table, a private table, another origin; 1013: the server or the table is full):
      // retrying by itself cannot help. Say why, and offer the lobby (and, when full, to try again).
      refused(event.code, event.reason);
      return;
    }
    scheduleReconnect();
  };
}

function refused(code, reason) {
  S.gaveUp = true;
  clearTimeout(S.retryTimer);
  $("reconnecting").hidden = true;
  const why = reason || (code === 1013 ? "the server is busy" : "the server refused this table");
  setStatus(`Disconnected: ${why}.`, true);
  $("refused-reason").textContent = `${why[0].toUpperCase()}${why.slice(1)}.`;
  $("refused").hidden = false;
  $("retry").hidden = code !== 1013;
  $("setup").hidden = true;
  $("game").hidden = true;
  $("name-box").replaceChildren();
}

function retry() {
  $("refused").hidden = true;
  S.gaveUp = false;
  reconnectNow();
}

function scheduleReconnect() {
  if (S.gaveUp) return;
  const delay = Math.min(15000, 500 * 2 ** S.attempts) * (0.75 + Math.random() * 0.5);
  S.attempts += 1;
  const banner = $("reconnecting");
  banner.hidden = false;
  banner.textContent = `Reconnecting… (try ${S.attempts})`;
  S.retryTimer = setTimeout(connect, delay);
}

/** Open a fresh connection now (after choosing a name, so that it carries the cookie). */
function reconnectNow() {
  const old = S.ws;
  S.ws = null;
  if (old) old.close();
  S.attempts = 0;
  connect();
}

function send(message) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    toast("Not connected: wait a moment.", "error");
    return false;
  }
  S.pending = message.id;
  S.ws.send(JSON.stringify(message));
  render();
  return true;
}

function onMessage(m) {
  switch (m.type) {
    case "snapshot":
    case "resume":
    case "update":
      S.attempts = 0;
      $("reconnecting").hidden = true;
      if (m.type === "resume" && m.missed && m.missed.length) {
        toast(`Back: ${m.missed.length} thing${m.missed.length > 1 ? "s" : ""} happened meanwhile.`);
      }
      if (m.version >= S.version || m.type !== "update") applyState(m.state, m.version);
      break;
    case "ack":
      if (m.id === S.pending) {
        S.pending = null;
        render();
      }
      break;
    case "error":
      if (m.id === S.pending || m.id === null) S.pending = null;
      toast(m.message || m.code, "error");
      setStatus(`${m.message || m.code}`, true);
      if (m.code === "stale" && m.state) applyState(m.state, m.version);
      else render();
      break;
    case "presence":
      if (S.state) {
        S.state.seats_present = m.seats;
        if ("timer" in m) setTimer(m.timer);
        render();
      }
      break;
    default:
      break;
  }
}

function setTimer(timer) {
  S.timer = timer || null;
  S.timerEnd = timer ? performance.now() + timer.left * 1000 : 0;
}

/** The countdown of the turn timer, under the turn banner (run four times a second). */
function tickTimer() {
  const box = $("turn-timer");
  const st = S.state;
  const t = S.timer;
  if (!t || !st || st.status !== "playing" || S.gaveUp) {
    box.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil((S.timerEnd - performance.now()) / 1000));
  const mine = st.you === t.seat;
  box.textContent = mine
    ? `${left} s left to ${st.deal && st.deal.phase === "bid" ? "bid" : "play"}, then a bot plays for you`
    : `${seatName(t.seat)}: ${left} s left`;
  box.classList.toggle("low", left <= 10);
  box.hidden = false;
}

function applyState(state, version) {
  S.state = state;
  S.version = version;
  setTimer(state.timer);
  const d = state.deal;
  if (isRummy()) rummyView.onState(state);
  else if (!myTurn()) S.selected = null;
  else if (S.selected && !(d.legal || []).some((l) => l.play.card === S.selected)) S.selected = null;
  if (state.score && state.score.last && state.score.deals.length > S.dismissed) S.sheet = state.score.deals.length;
  render();
}

// -- rendering ----------------------------------------------------------------------------------------------------

function render() {
  const st = S.state;
  if (!st || S.gaveUp) return;
  // For tests and tools: what the screen shows.
  document.body.dataset.version = String(S.version);
  document.body.dataset.pending = S.pending ? "1" : "";
  document.body.dataset.status = st.status;
  $("info").textContent = isRummy() ? rummyView.info(st) : `${st.players} players · ${ruleLabel(st.rules)} · ` +
    (st.baazis === 0 ? "single deal" : `first to ${st.baazis} baazi${st.baazis > 1 ? "s" : ""}`) + ` · ${st.level} bots`;
  document.querySelector(".brand span").textContent = isRummy() ? "Rummy" : "Seep";
  document.title = `taash · ${st.code}`;
  const seated = st.you !== null && st.you !== undefined ? st.seats[st.you] : null;
  $("who").textContent = seated ? `Playing as ${seated.name}` : S.guest ? `${S.guest.name} · watching` : "Watching";
  renderStatus();
  if (st.status === "waiting") {
    $("setup").hidden = false;
    $("game").hidden = true;
    renderSetup();
  } else {
    $("setup").hidden = true;
    $("game").hidden = false;
    if (isRummy()) {
      rummyView.render(st);
    } else {
      renderBoard();
      renderControls();
      renderHand();
      renderScores();
    }
    renderLog();
    renderMatchOver();
  }
  renderSheet();
  tickTimer();
  $("idle-box").hidden = !(st.status === "playing" && st.you !== null && st.you !== undefined &&
    presenceOf(st.you).idle);
}

function renderStatus() {
  const st = S.state;
  const d = st.deal;
  let text;
  if (st.status === "waiting") {
    const seated = st.seats.filter((s) => !s.empty).length;
    text = `Waiting for players: ${seated} of ${st.players} seated.`;
  } else if (st.status === "finished") {
    text = "The match is over.";
  } else if (d && isRummy()) {
    text = rummyView.statusText(st);
  } else if (d) {
    const who = d.to_move !== null && d.to_move !== undefined ? seatName(d.to_move) : "";
    if (d.phase === "bid") text = `Deal ${d.number}: ${who} is bidding.`;
    else text = `Deal ${d.number}: bid ${d.bid ?? "?"} by ${seatName(d.bidder)} · ${d.plays_made} play${d.plays_made === 1 ? "" : "s"} made` +
      (who ? ` · ${who} to play` : "") + ".";
  } else {
    text = "";
  }
  if (S.pending) text += " Sending…";
  setStatus(text);
  const banner = $("turn-banner");
  if (st.status !== "playing") banner.textContent = "";
  else if (isRummy()) banner.textContent = rummyView.turnText(st);
  else if (myTurn()) banner.textContent = "Your turn";
  else if (d && d.to_move !== null && d.to_move !== undefined) {
    banner.textContent = `${seatName(d.to_move)} to ${d.phase === "bid" ? "bid" : "play"}`;
  } else banner.textContent = "";
  banner.classList.toggle("mine", myTurn());
}

function presenceOf(seat) {
  const p = S.state.seats_present && S.state.seats_present[seat];
  return p || { connected: false, away: false };
}

function renderSetup() {
  const st = S.state;
  $("partners-note").textContent = isRummy() ? "13-card Rummy: each player on his own."
    : st.players === 4
    ? "Partners sit opposite: seats 0 and 2 play against seats 1 and 3."
    : "Two players, each on his own.";
  const box = $("seats");
  box.className = `seats seats-${st.players}`;
  box.replaceChildren();
  for (const s of st.seats) {
    const mine = st.you === s.seat;
    const p = presenceOf(s.seat);
    const marks = [];
    if (s.bot) marks.push(h("span", { class: "mark bot" }, "bot"));
    else if (!s.empty && !p.connected) marks.push(h("span", { class: "mark off" }, "not here"));
    let action = null;
    if (s.empty && S.guest && st.you === null) {
      action = h("button", { type: "button", testid: `sit-${s.seat}`, onclick: () => sit(s.seat) }, "Sit here");
    } else if (s.empty && S.guest) {
      action = h("button", { type: "button", testid: `sit-${s.seat}`, onclick: () => sit(s.seat) }, "Move here");
    } else if (mine) {
      action = h("button", { type: "button", testid: "leave", onclick: leave }, "Leave seat");
    }
    box.appendChild(h("div", { class: `seat-card team-${team(s.seat)}` + (mine ? " mine" : ""),
      testid: `seat-${s.seat}` },
      h("div", { class: "seat-label" }, `Seat ${s.seat}` + (st.players === 4 ? ` · ${team(s.seat) ? "Team B" : "Team A"}` : "")),
      h("div", { class: "seat-name" }, s.empty ? "empty" : s.name + (mine ? " (you)" : "")),
      h("div", { class: "marks" }, marks),
      action));
  }
  const url = location.origin + `/join/${st.code}`;
  const link = $("invite-link");
  link.href = url;
  link.textContent = url;
  $("invite-code").textContent = st.code;
  const filled = st.seats.every((s) => !s.empty);
  // Only the table's creator and seated players may fill seats or start (the server says who may).
  const manage = S.guest && st.can_manage !== false;
  $("fill-bots").disabled = !manage || filled;
  $("start").disabled = !manage || !filled;
}

async function setupCall(path, body) {
  $("setup-error").textContent = "";
  try {
    await api("POST", path, body);
  } catch (e) {
    $("setup-error").textContent = e.message;
  }
}

/** Take `seat`, under the guest's name or under `name`; when the name is taken here, ask for another. */
async function sit(seat, name = null) {
  $("setup-error").textContent = "";
  try {
    const body = name ? { seat, name } : { seat };
    if (CODE) body.code = CODE;
    await api("POST", `/api/tables/${TABLE_ID}/sit`, body);
    $("name-box").replaceChildren();
  } catch (e) {
    if (e.code === "name_taken") askTableName(seat, e.message);
    else $("setup-error").textContent = e.message;
  }
}

/** Names are unique per table: a form for the name to sit under here (the guest's own name is unchanged). */
function askTableName(seat, why) {
  const box = $("name-box");
  const input = h("input", { type: "text", id: "table-name", testid: "table-name-input", maxlength: 24,
    autocomplete: "off", value: `${S.guest.name} 2` });
  const form = h("form", { class: "name-form" },
    h("label", { for: "table-name" }, `${why[0].toUpperCase()}${why.slice(1)}. Sit as:`),
    h("div", { class: "row" }, input, h("button", { type: "submit", testid: "table-name-submit" }, "Sit")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (name) sit(seat, name);
  });
  box.replaceChildren(form);
  input.focus();
  input.select();
}

const leave = () => setupCall(`/api/tables/${TABLE_ID}/leave`);

/** Where a seat is drawn: "bottom" for you (or seat 0 for a spectator), the others around the table. */
function slotOf(seat) {
  const st = S.state;
  const base = st.you ?? 0;
  const r = (seat - base + st.players) % st.players;
  if (st.players === 2) return r === 0 ? "bottom" : "top";
  return ["bottom", "right", "top", "left"][r];
}

function renderBoard() {
  const st = S.state;
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
  const st = S.state;
  const d = st.deal;
  const p = presenceOf(s.seat);
  const mine = st.you === s.seat;
  const marks = [];
  if (d && d.dealer === s.seat) marks.push(h("span", { class: "mark dealer", title: "dealer" }, "dealer"));
  if (d && d.bidder === s.seat && d.bid) marks.push(h("span", { class: "mark bid" }, `bid ${d.bid}`));
  if (s.bot) marks.push(h("span", { class: "mark bot" }, "bot"));
  else if (p.idle) marks.push(h("span", { class: "mark idle" }, "out of time: a bot plays"));
  else if (p.away) marks.push(h("span", { class: "mark away" }, "away: a bot plays"));
  else if (!p.connected) marks.push(h("span", { class: "mark off" }, "disconnected"));
  const turn = d && st.status === "playing" && d.to_move === s.seat;
  if (turn) marks.push(h("span", { class: "mark turn" }, d.phase === "bid" ? "bidding" : "to play"));
  const count = d ? d.hand_sizes[s.seat] : 0;
  const backs = h("div", { class: "backs", "aria-label": `${count} cards` });
  if (!mine) {
    for (let i = 0; i < count; i++) backs.appendChild(cardElement(null, { small: true }));
  }
  return h("div", { class: `seat-box team-${team(s.seat)}` + (turn ? " turn" : "") + (mine ? " mine" : ""),
    testid: `seat-box-${s.seat}`, dataset: { seat: s.seat } },
    h("div", { class: "seat-head" },
      h("span", { class: "seat-name" }, (s.empty ? "empty" : s.name) + (mine ? " (you)" : "")),
      h("span", { class: "count", testid: `count-${s.seat}` }, `${count} card${count === 1 ? "" : "s"}`)),
    h("div", { class: "marks" }, marks),
    slot === "bottom" && mine ? null : backs);
}

function renderFloor(d) {
  const floor = $("floor");
  floor.replaceChildren();
  if (!d) return;
  const offered = currentPlays();
  const hl = offered.length ? involved(offered[Math.min(S.highlight, offered.length - 1)].play) : involved(null);
  if (d.phase === "bid") {
    const backs = h("div", { class: "loose" });
    for (let i = 0; i < 4; i++) backs.appendChild(cardElement(null));
    floor.appendChild(h("div", { class: "floor-note" }, "The floor lies face down until the bid."));
    floor.appendChild(backs);
    return;
  }
  const houses = h("div", { class: "houses" });
  for (const house of d.houses) {
    const owners = house.owners.map(seatName).join(", ");
    const cards = h("div", { class: "house-cards" });
    for (const c of sortCards(house.cards)) cards.appendChild(cardElement(c, { small: true }));
    houses.appendChild(h("div", {
      class: "house" + (house.cemented ? " cemented" : "") + (hl.houses.has(house.value) ? " involved" : ""),
      testid: `house-${house.value}`, dataset: { value: house.value } },
      h("div", { class: "house-title" },
        h("strong", {}, `House ${house.value}`),
        ` ${HOUSE_NAMES[house.value] || ""} · ${house.cemented ? "cemented" : "not cemented"}`),
      h("div", { class: "house-owners" }, owners),
      cards));
  }
  const loose = h("div", { class: "loose", testid: "loose" });
  for (const c of d.loose) {
    const e = cardElement(c, { testid: `floor-${c}` });
    if (hl.cards.has(c)) e.classList.add("involved");
    loose.appendChild(e);
  }
  if (!d.loose.length && !d.houses.length) floor.appendChild(h("div", { class: "floor-note" }, "The floor is empty."));
  if (d.houses.length) floor.appendChild(houses);
  floor.appendChild(loose);
}

function currentPlays() {
  const d = S.state && S.state.deal;
  if (!d || !S.selected || !myTurn()) return [];
  return d.legal.filter((l) => l.play.card === S.selected);
}

function renderControls() {
  const st = S.state;
  const d = st.deal;
  const bids = $("bids");
  bids.replaceChildren();
  if (d && d.bids && d.bids.length && st.status === "playing") {
    bids.appendChild(h("span", { class: "bids-label" }, "Your bid:"));
    d.bids.forEach((v, i) => {
      bids.appendChild(h("button", { type: "button", class: "bid", testid: `bid-${v}`, disabled: Boolean(S.pending),
        onclick: () => bid(v) }, i < 9 ? h("kbd", {}, String(i + 1)) : null,
        `${v}${HOUSE_NAMES[v] ? " (" + HOUSE_NAMES[v] + ")" : ""}`));
    });
  }
  const list = $("plays");
  list.replaceChildren();
  const offered = currentPlays();
  offered.forEach((l, i) => {
    const b = h("button", { type: "button", class: "play-option" + (i === S.highlight ? " hl" : ""),
      testid: "play-option", disabled: Boolean(S.pending), onclick: () => play(l.play) },
      i < 9 ? h("kbd", {}, String(i + 1)) : null, words(l.text));
    const show = () => {
      if (S.highlight !== i) {
        S.highlight = i;
        renderFloor(S.state.deal);
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
  const st = S.state;
  const d = st.deal;
  const hand = $("hand");
  const hadFocus = hand.contains(document.activeElement);
  hand.replaceChildren();
  hand.hidden = st.you === null || !d || !d.hand;
  $("keys-help").hidden = hand.hidden;
  if (hand.hidden) return;
  const cards = sortCards(d.hand);
  // The cards share the hand's width (CSS works out their size from these): a full hand fanned, each card's
  // index showing; six cards or fewer side by side with a small gap, none hiding any part of another.
  hand.style.setProperty("--n", String(Math.max(cards.length, 1)));
  hand.style.setProperty("--ov", cards.length <= 6 ? "-0.06" : "0.45");
  const turn = myTurn() && d.phase !== "bid";
  const playable = new Set(turn ? d.legal.map((l) => l.play.card) : []);
  if (!cards.includes(S.focusCard)) S.focusCard = S.selected && cards.includes(S.selected) ? S.selected : cards[0];
  for (const c of cards) {
    const e = cardElement(c, { tag: "button", testid: `card-${c}` });
    e.type = "button";
    e.tabIndex = c === S.focusCard ? 0 : -1;
    const ok = playable.has(c);
    if (turn && !ok) {
      e.classList.add("dim");
      e.setAttribute("aria-disabled", "true");
      e.title = `${cardText(c)}: no legal play`;
    }
    if (turn && ok) e.classList.add("playable");
    if (c === S.selected) {
      e.classList.add("selected");
      e.setAttribute("aria-pressed", "true");
    }
    e.addEventListener("click", () => choose(c));
    e.addEventListener("focus", () => { S.focusCard = c; });
    hand.appendChild(e);
  }
  if (hadFocus) {
    const f = hand.querySelector(`[data-card="${S.focusCard}"]`);
    if (f) f.focus();
  }
}

function choose(card) {
  S.focusCard = card;
  const d = S.state.deal;
  if (!myTurn() || d.phase === "bid") {
    if (d && d.phase === "bid" && d.bids.length) toast("First choose your bid.");
    return;
  }
  if (!d.legal.some((l) => l.play.card === card)) {
    toast(`${cardText(card)} has no legal play now.`);
    return;
  }
  S.selected = S.selected === card ? null : card;
  S.highlight = 0;
  render();
}

function play(p) {
  if (S.pending || !myTurn()) return;
  const legal = S.state.deal.legal.some((l) => JSON.stringify(l.play) === JSON.stringify(p));
  if (!legal) return;
  if (send({ type: "play", play: p, version: S.version, id: nextId() })) S.selected = null;
}

function bid(value) {
  if (S.pending || !S.state.deal.bids.includes(value)) return;
  send({ type: "bid", value, version: S.version, id: nextId() });
}

function renderScores() {
  const st = S.state;
  const d = st.deal;
  const box = $("scores");
  box.replaceChildren(h("h3", {}, "Score"));
  const rows = [0, 1].map((t) => {
    const c = d ? d.captured[t] : { cards: 0, points: 0, sweeps: 0, sweep_points: 0 };
    return h("tr", { class: `team-${t}`, testid: `team-${t}` },
      h("th", { scope: "row" }, h("span", { class: "team-title" }, teamLabel(t)),
        st.players === 4 ? h("small", {}, teamName(t)) : null),
      h("td", {}, String(c.cards)), h("td", {}, String(c.points)),
      h("td", {}, `${c.sweeps}${c.sweep_points ? ` (+${c.sweep_points})` : ""}`),
      h("td", {}, String(st.score ? st.score.baazis[t] : 0)));
  });
  box.appendChild(h("table", { class: "score-table" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, "cards"), h("th", {}, "points"), h("th", {}, "sweeps"),
      h("th", {}, "baazis"))),
    h("tbody", {}, rows)));
  const facts = [];
  if (d && d.bid) facts.push(`Bid: ${d.bid} by ${seatName(d.bidder)}`);
  if (st.score) {
    const deals = st.score.deals;
    const last = deals.length ? deals[deals.length - 1] : null;
    const restarted = last && last.baazi !== null && last.baazi !== undefined && st.score.difference === 0;
    facts.push(`Running difference: ${leadText(st.score.difference, teamLabel)}` +
      (restarted ? " (started again after the last deal's baazi)" : ""));
    facts.push(st.baazis === 0 ? "A single deal" : `First to ${st.baazis} baazi${st.baazis > 1 ? "s" : ""} wins`);
  }
  box.appendChild(h("p", { class: "facts" }, facts.join(" · ")));
}

function renderLog() {
  const log = $("log");
  log.replaceChildren();
  for (const line of S.state.log || []) log.appendChild(h("li", {}, words(line)));
}

function winnerText() {
  const st = S.state;
  if (isRummy()) return rummyView.winnerText(st);
  const w = st.score && st.score.winner;
  if (w === null || w === undefined) return "A draw.";
  if (st.players === 2) return `${seatName(w)} wins.`;
  return `${teamLabel(w)} win${st.players === 2 ? "s" : ""}: ${teamName(w)}.`;
}

function renderMatchOver() {
  const st = S.state;
  const box = $("match-over");
  box.hidden = st.status !== "finished";
  if (box.hidden) return;
  box.replaceChildren(
    h("h2", {}, "The match is over"),
    h("p", { class: "winner", testid: "winner" }, winnerText()),
    h("p", {}, h("a", { class: "button primary", href: `/r/${encodeURIComponent(st.id)}`, testid: "replay-link" },
      "Watch the replay"), " ", h("a", { class: "button", href: "/" }, "Back to the lobby")));
}

function renderSheet() {
  const box = $("score-sheet");
  const st = S.state;
  const deals = (st.score && st.score.deals) || [];
  if (!S.sheet || S.sheet <= S.dismissed || !deals[S.sheet - 1]) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const r = deals[S.sheet - 1];
  const n = S.sheet;
  if (isRummy()) {
    showSheet(box, rummyView.sheet(st, r, n));
    return;
  }
  const teamRow = (t) => h("tr", { class: `team-${t}` },
    h("th", { scope: "row" }, teamLabel(t), st.players === 4 ? h("small", {}, teamName(t)) : null),
    h("td", {}, String(r.card_points[t])), h("td", {}, String(r.sweep_points[t])),
    h("td", { class: "total" }, String(r.score[t])));
  const short = (t) => (st.players === 4 ? (t === 0 ? "Team A" : "Team B") : seatName(t));
  const history = h("table", { class: "history" },
    h("thead", {}, h("tr", {}, h("th", {}, "deal"), h("th", {}, "dealer"), h("th", {}, short(0)),
      h("th", {}, short(1)), h("th", {}, "diff."), h("th", {}, "baazi"))),
    h("tbody", {}, deals.map((x, i) => h("tr", { class: i === n - 1 ? "current" : "" },
      h("td", {}, String(i + 1)), h("td", {}, seatName(x.dealer)), h("td", {}, String(x.score[0])),
      h("td", {}, String(x.score[1])), h("td", { testid: `diff-${i + 1}` }, differenceCell(deals, i, short)),
      h("td", {}, x.baazi === null || x.baazi === undefined ? "" : short(x.baazi))))));
  const notes = [];
  if (r.baazi !== null && r.baazi !== undefined) notes.push(h("p", { class: "baazi" }, `${teamLabel(r.baazi)} win a baazi!`));
  if (r.minimum_rule) notes.push(h("p", { class: "muted" }, "The minimum rule applied to this deal."));
  const baazis = st.score.baazis;
  box.replaceChildren(h("div", { class: "sheet" },
    h("h2", { id: "sheet-title" }, `Deal ${n}: the score`),
    h("table", { class: "score-table" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, "card points"), h("th", {}, "sweep points"),
        h("th", {}, "deal score"))),
      h("tbody", {}, teamRow(0), teamRow(1))),
    notes,
    h("p", { testid: "sheet-difference" }, `${differenceLine(deals, n - 1, short)} · Baazis: ${teamLabel(0)} ` +
      `${baazis[0]}, ${teamLabel(1)} ${baazis[1]}`),
    st.status === "finished" ? h("p", { class: "winner" }, `The match is over. ${winnerText()}`) : null,
    h("h3", {}, "Every deal"),
    h("div", { class: "scroll-x" }, history),
    h("div", { class: "buttons" },
      h("button", { type: "button", class: "primary", testid: "continue", onclick: dismissSheet }, "Continue"))));
  const wasHidden = box.hidden;
  box.hidden = false;
  if (wasHidden) box.querySelector("[data-testid=continue]").focus();
}

/** A game's own score sheet (its `parts`), with the Continue button every sheet ends with. */
function showSheet(box, parts) {
  box.replaceChildren(h("div", { class: "sheet" }, parts,
    h("div", { class: "buttons" },
      h("button", { type: "button", class: "primary", testid: "continue", onclick: dismissSheet }, "Continue"))));
  const wasHidden = box.hidden;
  box.hidden = false;
  if (wasHidden) box.querySelector("[data-testid=continue]").focus();
}

function dismissSheet() {
  S.dismissed = S.sheet;
  sessionStorage.setItem(`taash-sheet-${TABLE_ID}`, String(S.dismissed));
  render();
}

// -- keyboard -----------------------------------------------------------------------------------------------------

function onKey(event) {
  const t = event.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (!$("score-sheet").hidden) return;
  if (isRummy()) {
    if (rummyView.onKey(event)) event.preventDefault();
    return;
  }
  const hand = $("hand");
  if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
    const cards = [...hand.querySelectorAll("button.card")];
    if (!cards.length) return;
    let i = cards.findIndex((c) => c === document.activeElement);
    if (i < 0) i = Math.max(0, cards.findIndex((c) => c.dataset.card === S.focusCard));
    else i = (i + (event.key === "ArrowRight" ? 1 : -1) + cards.length) % cards.length;
    for (const c of cards) c.tabIndex = -1;
    cards[i].tabIndex = 0;
    cards[i].focus();
    S.focusCard = cards[i].dataset.card;
    event.preventDefault();
  } else if (/^[1-9]$/.test(event.key)) {
    const i = Number(event.key) - 1;
    const d = S.state && S.state.deal;
    if (myTurn() && d.bids.length) {
      if (i < d.bids.length) {
        bid(d.bids[i]);
        event.preventDefault();
      }
      return;
    }
    const offered = currentPlays();
    if (i < offered.length) {
      play(offered[i].play);
      event.preventDefault();
    }
  } else if (event.key === "Escape" && S.selected) {
    S.selected = null;
    render();
  }
}

// -- start --------------------------------------------------------------------------------------------------------

async function copyInvite() {
  const url = $("invite-link").href;
  try {
    await navigator.clipboard.writeText(url);
    toast("Invite link copied.");
  } catch (e) {
    const input = h("input", { value: url });
    document.body.appendChild(input);
    input.select();
    const ok = document.execCommand && document.execCommand("copy");
    input.remove();
    toast(ok ? "Invite link copied." : `Copy this link: ${url}`);
  }
}

async function askName() {
  const box = $("name-box");
  box.replaceChildren(h("p", { class: "muted" }, "Watching needs no name; to take a seat, say who you are."));
  S.guest = await nameForm(box, { prompt: "Your name", submitLabel: "Use this name" });
  box.replaceChildren();
  $("who").textContent = `Playing as ${S.guest.name}`;
  reconnectNow(); // the new connection carries the guest cookie
  render();
}

async function main() {
  if (!/^[0-9a-f]{16}$/.test(TABLE_ID)) {
    setStatus("No such table.", true);
    return;
  }
  document.addEventListener("keydown", onKey);
  rummyView.init({ S, $, h, api, send, nextId, seatName, presenceOf, render, toast, tableId: TABLE_ID });
  $("fill-bots").addEventListener("click", () => setupCall(`/api/tables/${TABLE_ID}/bots`));
  $("start").addEventListener("click", () => setupCall(`/api/tables/${TABLE_ID}/start`));
  $("copy-invite").addEventListener("click", copyInvite);
  $("retry").addEventListener("click", retry);
  $("back").addEventListener("click", () => send({ type: "back", id: nextId() }));
  setInterval(tickTimer, 250);
  try {
    S.guest = await me();
  } catch (e) {
    S.guest = null;
  }
  $("who").textContent = S.guest ? `Playing as ${S.guest.name}` : "Watching";
  connect();
  if (!S.guest) askName();
}

main();
