// The lobby (/ and /join/{code}): a name, quick play, a new table, join by code, the public tables.

import { _, ngettext, parts, translated } from "/static/i18n.js";
import { accountMark, api, h, joinNames, me, nameEl, nameForm, newSeed, games, formatLabel, levelLabel, ruleLabel,
  seatName } from "/static/common.js";
import { accountPanel, loginForm } from "/static/account.js";
import { playNow } from "/static/playnow.js";
import { friendsPanel } from "/static/friends.js";
import { TEXT } from "/static/texts.js";
import { installButton, register } from "/static/offline/register.js";

/** The games the server offers, by name (GET /api/games), the default first. */
let GAMES = {};

const $ = (id) => document.getElementById(id);
const status = $("status");

/** The status line: text, or the parts of a sentence (text and names) as h() takes them. */
function setStatus(text, error = false) {
  status.replaceChildren(...[text].flat(Infinity));
  status.classList.toggle("error", error);
}

function tableOptions() {
  const form = $("table-form");
  const baazis = parseInt(form.baazis.value, 10);
  const stake = parseInt(form.stake.value, 10);
  const options = {
    game: form.game.value,
    stake: Number.isFinite(stake) ? Math.max(0, stake) : 0,
    players: parseInt(form.players.value, 10),
    rules: form.rules.value,
    level: form.level.value,
    public: form.public.checked,
    seed: newSeed(),
  };
  if (GAMES[options.game].formats.length) options.format = form.format.value;
  else options.baazis = Number.isFinite(baazis) ? Math.min(20, Math.max(0, baazis)) : 1;
  return options;
}

/** Open a table's page; `code`, the invite code given, lets its page watch and sit at a private table. An
 * invitation's page (/join/CODE) is replaced in the history by the table's, so that Back leaves the table. */
function goToTable(table, code = null, replace = false) {
  const query = code && !table.public ? `?code=${encodeURIComponent(code)}` : "";
  const url = `/t/${encodeURIComponent(table.id)}${query}`;
  if (replace) location.replace(url);
  else location.assign(url);
}

async function joinCode(code, errorBox) {
  code = code.trim();
  if (!code) {
    errorBox.textContent = _("Type the code of the table.");
    return;
  }
  try {
    const table = await api("GET", `/api/join/${encodeURIComponent(code)}`);
    goToTable(table, code);
  } catch (e) {
    errorBox.textContent = e.message;
  }
}

let holdAsked = 0;

/** What the chosen stake will hold from each player, as the server says it (the rule lives there). */
async function showHold() {
  const box = $("stake-hold");
  const options = tableOptions();
  if (!options.stake) {
    box.textContent = _("0 = not for chips");
    return;
  }
  const asked = ++holdAsked;
  const { public: _public, ...query } = options;
  try {
    const answer = await api("GET", `/api/stakes/hold?${new URLSearchParams(query)}`);
    if (asked === holdAsked) box.textContent = `${answer.said[0].toUpperCase()}${answer.said.slice(1)}.`;
  } catch (e) {
    if (asked === holdAsked) box.textContent = e.message;
  }
}

/** The players, rules and match length the chosen game offers. */
function fillGame() {
  const form = $("table-form");
  const game = GAMES[form.game.value];
  form.players.replaceChildren(...game.players.map(([n, label]) => h("option", { value: n }, translated(label))));
  form.rules.replaceChildren(...game.rules.map((r) => h("option", { value: r }, ruleLabel(r))));
  form.format.replaceChildren(...game.formats.map((f) => h("option", { value: f }, formatLabel(f))));
  $("baazis-field").hidden = game.formats.length > 0;
  $("format-field").hidden = game.formats.length === 0;
  fillLevels(game);
}

/** The levels the chosen game offers (the server's registry says which), keeping the level chosen where the game
 * has it, else the game's default. */
function fillLevels(game) {
  const form = $("table-form");
  const kept = game.levels.includes(form.level.value) ? form.level.value : game.default_level;
  form.level.replaceChildren(...game.levels.map((l) => h("option", { value: l, selected: l === kept }, levelLabel(l))));
  form.level.value = kept;
  showLevelWords();
}

/** What the chosen level's bots do, in the game's words. */
function showLevelWords() {
  const form = $("table-form");
  const game = GAMES[form.game.value];
  $("level-words").textContent = (game && translated(game.level_words[form.level.value] || "")) || "";
}

function fillSelects() {
  const form = $("table-form");
  form.game.replaceChildren(...Object.values(GAMES).map((g, i) => h("option", { value: g.name, selected: i === 0 },
    g.title)));
  form.level.addEventListener("change", showLevelWords);
  form.game.addEventListener("change", fillGame);
  fillGame();
  // After the game's own choices are filled in (its select's listener runs first).
  form.addEventListener("change", showHold);
  for (const input of [form.stake, form.baazis]) input.addEventListener("input", showHold);
}

function describe(t) {
  const seated = t.seats.filter((s) => !s.empty);
  const free = t.seats.length - seated.length;
  const names = seated.length ? seated.flatMap((s, i) => [i ? ", " : "", nameEl(seatName(s)), accountMark(s.account)])
    : [_("nobody yet")];
  const match = t.format ? formatLabel(t.format)
    : t.baazis === 0 ? _("single deal") : ngettext("{n} baazi", "{n} baazis", t.baazis);
  const game = (GAMES[t.game] || { title: t.game }).title;
  const bits = [game, ngettext("{n} player", "{n} players", t.players), ruleLabel(t.rules), match];
  if (t.stake) bits.push(_("stake {stake} (holds {hold} chips)", { stake: t.stake, hold: t.hold }));
  return { free, text: [`${bits.join(" · ")} · `, ...names] };
}

async function refreshTables() {
  const box = $("tables");
  let tables;
  try {
    tables = await api("GET", "/api/tables");
  } catch (e) {
    box.replaceChildren(h("p", { class: "error" }, _("Cannot load the tables: {why}", { why: e.message })));
    return;
  }
  if (!tables.length) {
    box.replaceChildren(h("p", { class: "muted" }, _("No public table right now. Create one!")));
    return;
  }
  const list = h("ul", { class: "table-list" });
  for (const t of tables) {
    const d = describe(t);
    const url = `/t/${encodeURIComponent(t.id)}`;
    const action = t.status === "waiting" && d.free > 0
      ? h("a", { class: "button primary", href: url, testid: "table-join" }, ngettext("Join ({n} free)", "Join ({n} free)", d.free))
      : h("a", { class: "button", href: url, testid: "table-watch" }, _("Watch"));
    list.appendChild(h("li", { testid: "table-item", dataset: { table: t.id } },
      h("span", { class: "badge " + t.status }, STATUS_NAMES[t.status] || t.status),
      h("span", { class: "desc" }, ...d.text),
      action));
  }
  box.replaceChildren(list);
}

/** A table's status, as its badge says it. */
const STATUS_NAMES = { waiting: _("waiting"), playing: _("playing"), finished: _("finished"), abandoned: _("abandoned") };

let queued = null;
let ticker = null;

/** Play now: the form's settings (not its public box: those tables are public) and the chosen wait. */
function startPlayNow() {
  $("form-error").textContent = "";
  const { public: _public, ...options } = tableOptions();
  options.wait = parseInt($("table-form").wait.value, 10);
  $("play-now").disabled = true;
  $("play-now-waiting").hidden = false;
  $("play-now-status").textContent = _("Looking for players…");
  let botsAt = null;
  let here = { waiting: 0, players: 0 };
  const show = () => {
    const left = botsAt === null ? null : Math.max(0, Math.ceil(botsAt - Date.now() / 1000));
    $("play-now-status").textContent = left === null ? _("Waiting for players: {waiting} of {players} here", here)
      : left > 0 ? _("Waiting for players: {waiting} of {players} here · bots fill the empty seats in {left} s",
        { ...here, left })
        : _("Waiting for players: {waiting} of {players} here · seating you…", here);
  };
  queued = playNow(options, {
    onWaiting(m) {
      here = { waiting: m.waiting, players: m.players };
      botsAt = m.bots_at;
      show();
      clearInterval(ticker);
      ticker = setInterval(show, 1000);
    },
    onMatched(m) {
      clearInterval(ticker);
      $("play-now-status").textContent = _("Matched: opening your table…");
      location.assign(m.url);
    },
    onError(message) {
      stopPlayNow();
      $("form-error").textContent = message;
    },
  });
}

function stopPlayNow() {
  clearInterval(ticker);
  if (queued) queued.cancel();
  queued = null;
  $("play-now").disabled = false;
  $("play-now-waiting").hidden = true;
}

/** The header line: the name and links are drawn once per person; the chips update in place (so a click on a link
 * never lands on an element that is being replaced). */
function showWho(guest, wallet = null) {
  const who = $("who");
  if (who.dataset.person !== guest.id || who.dataset.name !== guest.name) {
    who.dataset.person = guest.id;
    who.dataset.name = guest.name;
    who.replaceChildren(...parts(_("Playing as {name}"), { name: nameEl(guest.name) }), h("span", { id: "who-chips" }),
      " · ", h("a", { href: `/p/${encodeURIComponent(guest.id)}`, "data-testid": "my-matches" }, _("your matches")),
      " · ", h("a", { href: "/leaderboard", "data-testid": "leaderboards" }, _("leaderboards")),
      " · ", h("a", { href: "/tournaments", "data-testid": "tournaments" }, TEXT.tournaments));
  }
  $("who-chips").replaceChildren(
    wallet === null ? "" : h("span", { testid: "wallet" }, " · ", ngettext("{n} chip", "{n} chips", wallet.balance,
      { n: wallet.balance.toLocaleString("en-IN") })),
    wallet && wallet.bonus_today
      ? h("span", { testid: "bonus-today" }, " ", _("(today's bonus: +{bonus})",
        { bonus: wallet.bonus_today.toLocaleString("en-IN") }))
      : "",
    wallet && wallet.daily_bonus && !wallet.bonus_today
      ? h("button", { type: "button", class: "small", testid: "claim-bonus", onclick: () => claimBonus(guest),
        title: _("Once a day, for wallets below {floor} chips", { floor: wallet.bonus_floor.toLocaleString("en-IN") }) },
      _("Claim today's bonus (+{bonus})", { bonus: wallet.daily_bonus.toLocaleString("en-IN") }))
      : "");
}

/** Claim today's bonus; the server says why not when it refuses (the rule is its own). */
async function claimBonus(guest) {
  try {
    const wallet = await api("POST", "/api/chips/bonus");
    showWho(guest, wallet);
    setStatus(_("Today's bonus: +{bonus} chips.", { bonus: wallet.bonus_today.toLocaleString("en-IN") }));
  } catch (e) {
    setStatus(_("No bonus: {why}", { why: e.message }), true);
  }
}

function showReady(guest) {
  showWho(guest);
  $("guest").hidden = true;
  $("ready").hidden = false;
  setStatus(parts(_("Welcome, {name}."), { name: nameEl(guest.name) }));
  accountPanel($("account"), guest, showReady);
  friendsPanel($("friends"), guest, (game) => (GAMES[game] || { title: game }).title);
  api("GET", "/api/chips").then((w) => showWho(guest, w)).catch(() => {});
}

async function main() {
  register();
  installButton(document.getElementById("install"));
  try {
    GAMES = await games();
  } catch (e) {
    setStatus(e.message, true);
    return;
  }
  fillSelects();
  refreshTables();
  setInterval(refreshTables, 4000);

  const invite = location.pathname.match(/^\/join\/([^/]+)\/?$/);
  if (invite) {
    setStatus(_("Opening the invitation…"));
    const code = decodeURIComponent(invite[1]);
    try {
      const table = await api("GET", `/api/join/${encodeURIComponent(code)}`);
      goToTable(table, code, true);
      return;
    } catch (e) {
      setStatus(_("Invitation {code}: {why}", { code, why: e.message }), true);
    }
  }

  $("table-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("form-error").textContent = "";
    try {
      goToTable(await api("POST", "/api/tables", tableOptions()));
    } catch (e) {
      $("form-error").textContent = e.message;
    }
  });
  $("quick-play").addEventListener("click", async () => {
    $("form-error").textContent = "";
    try {
      goToTable(await api("POST", "/api/quick", tableOptions()));
    } catch (e) {
      $("form-error").textContent = e.message;
    }
  });
  $("play-now").addEventListener("click", startPlayNow);
  $("play-now-cancel").addEventListener("click", stopPlayNow);
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    $("join-error").textContent = "";
    joinCode(event.target.code.value, $("join-error"));
  });

  let guest;
  try {
    guest = await me();
  } catch (e) {
    setStatus(e.message, true);
    return;
  }
  if (!guest) {
    if (!invite) setStatus(_("Choose a name to play."));
    $("guest").hidden = false;
    guest = await Promise.race([
      nameForm($("guest"), { prompt: _("Your name at the table"), submitLabel: _("Continue") }),
      loginForm($("guest"))]);
  }
  showReady(guest);
}

main();
