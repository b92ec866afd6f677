// A table (/t/{id}): seats before the start, then the game over the websocket (docs/web-protocol.md). This is the
// shared shell (connection, reconnect, seats, log, timer, the score sheet's frame); each game draws its own table
// in its view module (the URL GET /api/games gives for it), chosen by the state's `game`.

import { _, lang, ngettext, parts, translated } from "/static/i18n.js";
import { cardText } from "/static/cards.js";
import { accountMark, api, games, h, me, nameEl, nameForm, newSeed, toast, withNames, words } from "/static/common.js";
import { tableChat } from "/static/chat.js";
import * as feel from "/static/feel.js";
import { TEXT } from "/static/texts.js";
import * as offline from "/static/offline/table.js";

/** Every game's view module, by name (imported as the page starts); a state without a game is the default's. */
const VIEWS = {};
let DEFAULT_VIEW = null;

const $ = (id) => document.getElementById(id);
// Offline (/offline/play?id=...): the same table, its messages answered in the page by taash's engine in Pyodide.
const OFFLINE = location.pathname === "/offline/play";
const TABLE_ID = OFFLINE ? "offline" : decodeURIComponent(location.pathname.split("/")[2] || "");
// The invite code this page was opened with (/t/{id}?code=...): a private table lets its holder watch and sit.
const CODE = new URLSearchParams(location.search).get("code");

const S = {
  state: null,
  version: -1,
  ws: null,
  attempts: 0,
  retryTimer: null,
  pingTimer: null,
  gaveUp: false,
  guest: null,
  pending: null, // the id of the message sent and not yet answered
  counter: 0,
  timer: null, // the turn timer of the person to move (docs/web-protocol.md), or null
  timerEnd: 0, // when the turn's own time runs out, on this page's clock (performance.now(): no clocks to agree)
  bankEnd: 0, // when the extra time runs out too
  sheet: 0, // the number of deals whose score sheet is shown (0: none)
  wholeLog: false, // the whole log shown (asked for), not only its last lines
  dismissed: Number(sessionStorage.getItem(`taash-sheet-${TABLE_ID}`) || 0),
  coachAt: -1, // the version the coach's answer shown was asked at
  rematch: null, // the rematch offered at the finished match (its "rematch" message), or null
  rematchOver: "", // why the last rematch offer ended without a new table
  chat: null, // the chat panel (static/chat.js)
  owner: null, // the server that owns the table, as one of several servers said (its "owner" message)
};

// -- helpers ----------------------------------------------------------------------------------------------------

/** The status line: text, or the parts of a sentence (text and names) as h() takes them. */
function setStatus(text, error = false) {
  const s = $("status");
  s.replaceChildren(...[text].flat(Infinity));
  s.classList.toggle("error", error);
}

function seatName(seat) {
  const s = S.state && S.state.seats[seat];
  if (!s) return _("Seat {seat}", { seat });
  return s.empty ? _("Seat {seat} (empty)", { seat }) : s.name;
}

/** A seat's name as an element of a sentence (nameEl: a right-to-left name keeps the words around it in order). */
function seatNameEl(seat) { return nameEl(seatName(seat)); }

/** "Playing as Priya", "Priya · watching", "Watching" in the header. */
function showWho(seated) {
  const who = $("who");
  if (seated) who.replaceChildren(...parts(_("Playing as {name}"), { name: nameEl(seated.name) }));
  else if (S.guest) who.replaceChildren(...parts(_("{name} · watching"), { name: nameEl(S.guest.name) }));
  else who.replaceChildren(_("Watching"));
}

function team(seat) { return seat % 2; }

/** Whether the person in `seat` has an account (the state's `seats_account`). */
function isAccount(seat) {
  return Boolean(S.state && S.state.seats_account && S.state.seats_account[seat]);
}

function nextId() {
  S.counter += 1;
  return `c${Date.now().toString(36)}${S.counter}${Math.random().toString(36).slice(2, 7)}`;
}


/** The view module of the table's game. */
function view() { return VIEWS[S.state && S.state.game] || DEFAULT_VIEW; }

/** Import every game's view module (the registry's, from the server), the default game's first. */
async function loadViews() {
  const offered = Object.values(await games()).filter((g) => g.view);
  const modules = await Promise.all(offered.map((g) => import(g.view)));
  offered.forEach((g, i) => { VIEWS[g.name] = modules[i]; });
  DEFAULT_VIEW = modules[0];
}

function myTurn() { return view().myTurn(S.state); }

// -- the websocket ------------------------------------------------------------------------------------------------

function connect() {
  clearTimeout(S.retryTimer);
  if (OFFLINE) {
    S.ws = offline.connect(S.ws, onMessage, setStatus);
    return;
  }
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const query = new URLSearchParams();
  if (S.version >= 0) query.set("since", String(S.version));
  if (CODE) query.set("code", CODE);
  if (lang !== "en") query.set("lang", lang);
  if (S.owner) query.set("owner", S.owner);
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
  const why = reason ? translated(reason) : code === 1013 ? _("the server is busy") : _("the server refused this table");
  setStatus(_("Disconnected: {why}.", { why }), true);
  $("refused-reason").textContent = _("{why}.", { why: `${why[0].toUpperCase()}${why.slice(1)}` });
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
  banner.textContent = _("Reconnecting… (try {n})", { n: S.attempts });
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
    toast(_("Not connected: wait a moment."), "error");
    return false;
  }
  S.pending = message.id;
  S.ws.send(JSON.stringify(message));
  render();
  return true;
}

function onMessage(m) {
  switch (m.type) {
    case "owner":
      // Served through another server: connect to the owner itself (the proxy sends ?owner= there). Nothing was
      // sent on this connection yet (this is its first message); the new one resumes from the version seen.
      S.owner = m.server;
      reconnectNow();
      break;
    case "snapshot":
    case "resume":
    case "update":
      S.attempts = 0;
      $("reconnecting").hidden = true;
      if (m.type === "resume" && m.missed && m.missed.length) {
        toast(ngettext("Back: {n} thing happened meanwhile.", "Back: {n} things happened meanwhile.", m.missed.length));
      }
      if (m.version >= S.version || m.type !== "update") applyState(m.state, m.version, m.type === "update" ? m.said : null);
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
    case "abandoned":
      refused(1001, m.reason);
      break;
    case "rematch":
      S.rematch = m;
      S.rematchOver = "";
      render();
      break;
    case "rematch_started":
      // Players and watchers alike move on to the new table.
      S.rematch = null;
      setStatus(TEXT.rematchStarting);
      location.assign(`/t/${encodeURIComponent(m.table)}`);
      break;
    case "rematch_over":
      S.rematch = null;
      S.rematchOver = TEXT.rematchOver(m.reason);
      render();
      break;
    case "presence":
      if (S.state) {
        S.state.seats_present = m.seats;
        if ("timer" in m) setTimer(m.timer);
        render();
      }
      break;
    default:
      if (S.chat) S.chat.onMessage(m);
      break;
  }
}

/** Send a chat message: not a move, so nothing waits for its answer (a refusal is shown as any error is). */
function sendChat(message) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    toast(_("Not connected: wait a moment."), "error");
    return false;
  }
  S.ws.send(JSON.stringify(message));
  return true;
}

function setTimer(timer) {
  S.timer = timer || null;
  S.timerEnd = timer ? performance.now() + timer.left * 1000 : 0;
  S.bankEnd = timer ? S.timerEnd + (timer.bank || 0) * 1000 : 0;
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
  const now = performance.now();
  const left = Math.max(0, Math.ceil((S.timerEnd - now) / 1000));
  const bank = Math.max(0, Math.ceil((S.bankEnd - Math.max(now, S.timerEnd)) / 1000));
  const inBank = left === 0 && bank > 0;
  const mine = st.you === t.seat;
  // What happens when both run out is the server's word (t.then); the view words the game's own timeout.
  const then = t.then === "timeout" ? view().timeoutWords || _("your turn is played for you") : _("a bot plays for you");
  const bid = st.deal && st.deal.phase === "bid";
  box.replaceChildren(...(mine ? [timerMine(bid, inBank, left, bank, then)] : timerOther(t.seat, inBank, left, bank)));
  box.dataset.left = String(left);
  box.dataset.bank = String(bank);
  box.classList.toggle("low", left + bank <= 10);
  feel.timer(mine, left + bank, `${S.version}:${t.seat}`);
  box.hidden = false;
}

/** The countdown of one's own turn, whole sentences (a bid or a play, in the turn's time or the extra time). */
function timerMine(bid, inBank, left, bank, then) {
  if (inBank) {
    return bid ? _("Extra time: {bank} s left to bid, then {then}", { bank, then })
      : _("Extra time: {bank} s left to play, then {then}", { bank, then });
  }
  if (bank) {
    return bid ? _("{left} s left to bid (+{bank} s extra time), then {then}", { left, bank, then })
      : _("{left} s left to play (+{bank} s extra time), then {then}", { left, bank, then });
  }
  return bid ? _("{left} s left to bid, then {then}", { left, then }) : _("{left} s left to play, then {then}", { left, then });
}

/** Another seat's countdown, his name isolated. */
function timerOther(seat, inBank, left, bank) {
  const name = seatNameEl(seat);
  if (inBank) return parts(_("{name}: extra time, {bank} s left"), { name, bank });
  return bank ? parts(_("{name}: {left} s left (+{bank} s extra time)"), { name, left, bank })
    : parts(_("{name}: {left} s left"), { name, left });
}

/** Draw a new state; `said` is the update's line for the log (what just happened), or null. */
function applyState(state, version, said = null) {
  const prev = S.state;
  const before = feel.measure(); // where the cards are: they move from there to where the new state puts them
  S.state = state;
  S.version = version;
  setTimer(state.timer);
  view().onState(state);
  if (state.score && state.score.last && state.score.deals.length > S.dismissed) S.sheet = state.score.deals.length;
  render();
  feel.changed(prev, state, before, view(), said);
}

// -- rendering ----------------------------------------------------------------------------------------------------

function render() {
  const st = S.state;
  if (!st || S.gaveUp) return;
  // For tests and tools: what the screen shows.
  document.body.dataset.version = String(S.version);
  document.body.dataset.pending = S.pending ? "1" : "";
  document.body.dataset.status = st.status;
  $("info").textContent = view().info(st);
  document.querySelector(".brand span").textContent = view().brand;
  document.title = feel.title(`taash · ${st.code}`, myTurn());
  const seated = st.you !== null && st.you !== undefined ? st.seats[st.you] : null;
  showWho(seated);
  renderStatus();
  if (st.status === "waiting") {
    $("setup").hidden = false;
    $("game").hidden = true;
    renderSetup();
  } else {
    $("setup").hidden = true;
    $("game").hidden = false;
    view().render(st);
    renderLearning();
    renderLog();
    renderMatchOver();
  }
  renderSheet();
  S.chat.showFor(st);
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
    text = [_("Waiting for players: {seated} of {players} seated.", { seated, players: st.players })];
  } else if (st.status === "finished") {
    text = [_("The match is over.")];
  } else if (d) {
    text = [view().statusText(st)];
  } else {
    text = [];
  }
  if (S.pending) text.push(" ", _("Sending…"));
  setStatus(text);
  const banner = $("turn-banner");
  banner.replaceChildren(...(st.status === "playing" ? [view().turnText(st)].flat(Infinity) : []));
  banner.classList.toggle("mine", myTurn());
}

function presenceOf(seat) {
  const p = S.state.seats_present && S.state.seats_present[seat];
  return p || { connected: false, away: false };
}

function renderSetup() {
  const st = S.state;
  $("partners-note").textContent = view().seatsNote(st);
  const box = $("seats");
  box.className = `seats seats-${st.players}`;
  box.replaceChildren();
  for (const s of st.seats) {
    const mine = st.you === s.seat;
    const p = presenceOf(s.seat);
    const marks = [];
    if (s.bot) marks.push(h("span", { class: "mark bot" }, _("bot")));
    else if (!s.empty && !p.connected) marks.push(h("span", { class: "mark off" }, _("not here")));
    let action = null;
    if (s.empty && S.guest && st.you === null) {
      action = h("button", { type: "button", testid: `sit-${s.seat}`, onclick: () => sit(s.seat) }, _("Sit here"));
    } else if (s.empty && S.guest) {
      action = h("button", { type: "button", testid: `sit-${s.seat}`, onclick: () => sit(s.seat) }, _("Move here"));
    } else if (mine) {
      action = h("button", { type: "button", testid: "leave", onclick: leave }, _("Leave seat"));
    }
    box.appendChild(h("div", { class: `seat-card team-${team(s.seat)}` + (mine ? " mine" : ""),
      testid: `seat-${s.seat}` },
      h("div", { class: "seat-label" }, st.players !== 4 ? _("Seat {seat}", { seat: s.seat })
        : team(s.seat) ? _("Seat {seat} · Team B", { seat: s.seat }) : _("Seat {seat} · Team A", { seat: s.seat })),
      h("div", { class: "seat-name" }, s.empty ? _("empty") : [nameEl(s.name), accountMark(isAccount(s.seat)),
        mine ? ` ${_("(you)")}` : ""]),
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
    body.seed = newSeed();
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
    h("label", { for: "table-name" }, _("{why}. Sit as:", { why: `${why[0].toUpperCase()}${why.slice(1)}` })),
    h("div", { class: "row" }, input, h("button", { type: "submit", testid: "table-name-submit" }, _("Sit"))));
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

/** The log's last lines, each numbered by its place in the whole log (the state says where they start); or, once
 * asked for, the whole log. */
async function renderLog() {
  const log = $("log");
  let lines = S.state.log || [];
  let start = S.state.log_from || 1;
  if (S.wholeLog) {
    const asked = S.version;
    try {
      lines = (await api("GET", `/api/tables/${TABLE_ID}/log`)).log;
      start = 1;
    } catch (e) {
      S.wholeLog = false;
    }
    if (asked !== S.version) return; // a newer state draws it again
  }
  log.start = start;
  const names = S.state.seats.filter((s) => !s.empty).map((s) => s.name);
  log.replaceChildren(...lines.map((line) => h("li", {}, withNames(words(line), names))));
  $("log-title").textContent = S.wholeLog ? _("The whole log") : _("Last plays");
  $("log-all").textContent = S.wholeLog ? _("Show the last plays") : _("Show the whole log");
  $("log-all").setAttribute("aria-expanded", String(Boolean(S.wholeLog)));
}

function renderMatchOver() {
  const st = S.state;
  const box = $("match-over");
  box.hidden = st.status !== "finished";
  if (box.hidden) return;
  box.replaceChildren(
    h("h2", {}, _("The match is over")),
    h("p", { class: "winner", testid: "winner" }, view().winnerText(st)),
    h("p", {}, h("a", { class: "button primary", href: `/r/${encodeURIComponent(st.id)}`, testid: "replay-link" },
      _("Watch the replay")), " ", h("a", { class: "button", href: "/" }, _("Back to the lobby"))),
    rematchBox(st));
}

function sendRematch(answer) {
  send({ type: "rematch", answer, id: nextId() });
}

/** The rematch: a button to propose one, or the offer with each seat's answer (the server decides when it starts). */
function rematchBox(st) {
  const seated = st.you !== null && st.you !== undefined;
  const offer = S.rematch;
  const box = h("div", { class: "rematch", testid: "rematch-box" });
  if (!offer) {
    if (S.rematchOver) box.append(h("p", { class: "error", testid: "rematch-over" }, S.rematchOver));
    if (seated) {
      box.append(h("button", { type: "button", class: "primary", testid: "rematch", title: TEXT.rematchTitle,
        onclick: () => sendRematch("propose") }, TEXT.rematch));
    }
    return box;
  }
  box.append(h("p", { testid: "rematch-offer" }, TEXT.rematchProposed(seatName(offer.by))));
  box.append(h("ul", { class: "rematch-seats" }, ...offer.seats.map((answer, seat) =>
    h("li", { testid: "rematch-seat", dataset: { answer } }, TEXT.rematchSeat(seatName(seat), answer)))));
  if (seated && offer.seats[st.you] !== "accepted") {
    box.append(h("button", { type: "button", class: "primary", testid: "rematch-accept",
      onclick: () => sendRematch("accept") }, TEXT.rematchAccept), " ");
  }
  if (seated && offer.seats[st.you] !== "declined") {
    box.append(h("button", { type: "button", testid: "rematch-decline", onclick: () => sendRematch("decline") },
      st.you === offer.by ? TEXT.rematchTakeBack : TEXT.rematchDecline));
  }
  return box;
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
  showSheet(box, [view().sheet(st, r, n), explained(st, n)]);
}

/** A game's own score sheet (its `parts`), with the Continue button every sheet ends with. */
function showSheet(box, parts) {
  // Drawn anew with every state: the keyboard's focus stays on Continue (a new button) when it was in the sheet.
  const hadFocus = box.contains(document.activeElement);
  box.replaceChildren(h("div", { class: "sheet" }, parts,
    h("div", { class: "buttons" },
      h("button", { type: "button", class: "primary", testid: "continue", onclick: dismissSheet }, _("Continue")))));
  const wasHidden = box.hidden;
  box.hidden = false;
  if (wasHidden || hadFocus) box.querySelector("[data-testid=continue]").focus();
}

function dismissSheet() {
  S.dismissed = S.sheet;
  sessionStorage.setItem(`taash-sheet-${TABLE_ID}`, String(S.dismissed));
  render();
}

// -- learning: the coach, why a card cannot be played, a forced choice, the deal explained (the server's words) --

/** The coach's answer for the seat to move: the expert bot's move and why (POST /api/tables/{id}/coach). */
async function askCoach() {
  const said = $("coach-said");
  said.textContent = _("The coach is thinking…");
  S.coachAt = S.version;
  try {
    const advice = await api("POST", `/api/tables/${TABLE_ID}/coach`);
    said.textContent = words(_("Coach: {why}", { why: advice.why }));
  } catch (e) {
    said.textContent = e.message;
  }
}

/** Each card of the hand that cannot be played says why (hover, focus or tap), a forced choice says so, and the
 * coach's button is offered to the player to move. */
/** The coach's button (one element for the page's life, wherever a view seats it). */
const COACH = document.getElementById("coach");
function coachButton() { return COACH; }

function renderLearning() {
  const st = S.state;
  const d = st.deal || {};
  const mine = st.status === "playing" && myTurn();
  if (st.game) $("learn-link").href = `/learn/${encodeURIComponent(st.game)}`;
  const coach = coachButton();
  // A view may seat the button in its own row of actions (Rummy's, on a phone's short screen); wherever the view
  // drew none, it goes back beside the hand.
  if (!coach.isConnected) $("coach-home").prepend(coach);
  coach.hidden = OFFLINE || st.you === null || st.you === undefined || st.status !== "playing";
  coach.disabled = !mine;
  if (S.coachAt !== S.version) $("coach-said").textContent = "";
  markBlocked();
  $("why-not").textContent = mine && d.forced ? words(d.forced) : "";
}

/** The reason on each card of the hand that cannot be played (again whenever the view draws the hand anew). */
function markBlocked() {
  const blocked = (S.state && S.state.deal && S.state.deal.blocked) || {};
  for (const [card, why] of Object.entries(blocked)) {
    for (const e of $("hand").querySelectorAll(`[data-card="${card}"]:not([data-why-not])`)) {
      e.title = words(`${cardText(card)}: ${why}`);
      e.dataset.whyNot = words(why);
      e.setAttribute("aria-description", words(why));
    }
  }
}

/** Why a card the player touches cannot be played, under the hand. */
function showWhyNot(event) {
  const card = event.target.closest && event.target.closest("[data-why-not]");
  if (card) $("why-not").textContent = `${cardText(card.dataset.card)}: ${card.dataset.whyNot}`;
}

/** Where each side's points of deal `n` came from, when it is the last finished deal. */
function explained(st, n) {
  const last = st.score && st.score.last;
  if (!last || !last.explained || st.score.deals.length !== n) return null;
  const names = st.seats.filter((s) => !s.empty).map((s) => s.name);
  return h("div", { class: "explained", testid: "explained" }, h("h3", {}, _("Where the points came from")),
    h("ul", {}, last.explained.map((line) => h("li", {}, withNames(words(line), names)))));
}

// -- keyboard -----------------------------------------------------------------------------------------------------

function onKey(event) {
  const t = event.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (!$("score-sheet").hidden) return;
  if (view().onKey(event)) event.preventDefault();
}

// -- start --------------------------------------------------------------------------------------------------------

async function copyInvite() {
  const url = $("invite-link").href;
  try {
    await navigator.clipboard.writeText(url);
    toast(_("Invite link copied."));
  } catch (e) {
    const input = h("input", { value: url });
    document.body.appendChild(input);
    input.select();
    const ok = document.execCommand && document.execCommand("copy");
    input.remove();
    toast(ok ? _("Invite link copied.") : _("Copy this link: {url}", { url }));
  }
}

async function askName() {
  const box = $("name-box");
  box.replaceChildren(h("p", { class: "muted" }, _("Watching needs no name; to take a seat, say who you are.")));
  S.guest = await nameForm(box, { prompt: _("Your name"), submitLabel: _("Use this name") });
  box.replaceChildren();
  showWho(S.guest);
  reconnectNow(); // the new connection carries the guest cookie
  render();
}

async function main() {
  if (!OFFLINE && !/^[0-9a-f]{16}$/.test(TABLE_ID)) {
    setStatus(_("No such table."), true);
    return;
  }
  try {
    await loadViews();
  } catch (e) {
    setStatus(e.message || String(e), true);
    return;
  }
  document.addEventListener("keydown", onKey);
  const table = { S, $, h, api: OFFLINE ? offline.api : api, send, nextId, seatName, seatNameEl, presenceOf, render, toast, tableId: TABLE_ID, coachButton,
    accountMark: (seat) => accountMark(isAccount(seat)) };
  for (const v of Object.values(VIEWS)) v.init(table);
  feel.init(table, view);
  S.chat = tableChat({ send: sendChat, nextId, tableId: TABLE_ID, guestId: () => (S.guest ? S.guest.id : null) });
  document.querySelector(".table-main").append(S.chat.panel);
  $("fill-bots").addEventListener("click", () => setupCall(`/api/tables/${TABLE_ID}/bots`));
  $("start").addEventListener("click", () => setupCall(`/api/tables/${TABLE_ID}/start`));
  $("copy-invite").addEventListener("click", copyInvite);
  $("retry").addEventListener("click", retry);
  $("back").addEventListener("click", () => send({ type: "back", id: nextId() }));
  coachButton().addEventListener("click", askCoach);
  $("hand").addEventListener("click", showWhyNot);
  $("hand").addEventListener("focusin", showWhyNot);
  new MutationObserver(markBlocked).observe($("hand"), { childList: true, subtree: true });
  $("log-all").addEventListener("click", () => {
    S.wholeLog = !S.wholeLog;
    renderLog();
  });
  setInterval(tickTimer, 250);
  if (OFFLINE) {
    connect();
    return;
  }
  try {
    S.guest = await me();
  } catch (e) {
    S.guest = null;
  }
  showWho(S.guest);
  connect();
  if (!S.guest) askName();
}

main();
