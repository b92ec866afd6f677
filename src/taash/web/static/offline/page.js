// The offline page (/offline): start a match against bots that runs on this device, resume one in progress, and
// add finished ones to the person's history once online (the server replays each before keeping it).

import { api, formatLabel, games, h, levelLabel, ruleLabel } from "/static/common.js";
import { TEXT } from "/static/texts.js";
import { installButton, register } from "/static/offline/register.js";
import { keep, newId, savedMatches } from "/static/offline/local.js";

const $ = (id) => document.getElementById(id);
let GAMES = [];
/** The bots' levels offered offline (taash.web.offline.engine.LEVELS: expert thinks too long in the browser). */
const OFFLINE_LEVELS = ["easy", "medium", "hard"];

function label() {
  $("offline-title").textContent = TEXT.offlineTitle;
  $("offline-intro").textContent = TEXT.offlineIntro;
  $("game-label").textContent = TEXT.offlineGame;
  $("players-label").textContent = TEXT.offlinePlayers;
  $("level-label").textContent = TEXT.offlineLevel;
  $("length-label").textContent = TEXT.offlineLength;
  $("rules-label").textContent = TEXT.offlineRules;
  $("name-label").textContent = TEXT.offlineName;
  $("offline-play").textContent = TEXT.offlinePlay;
  $("resume-title").textContent = TEXT.offlineResumeTitle;
  $("finished-title").textContent = TEXT.offlineFinishedTitle;
  $("history-title").textContent = TEXT.offlineHistoryTitle;
}

function options(select, values) {
  select.replaceChildren(...values.map(([value, text]) => h("option", { value: String(value) }, text)));
}

function chosenGame() { return GAMES.find((g) => g.name === $("offline-form").game.value) || GAMES[0]; }

function fillChoices() {
  const g = chosenGame();
  options($("offline-form").players, g.players);
  // The rules presets the online table's form offers (the server's list; its first is the game's default).
  options($("offline-form").rules, g.rules.map((r) => [r, ruleLabel(r)]));
  // A game of formats (the registry's) is as long as its format; another, as many wins as chosen (0: one deal).
  options($("offline-form").length, g.formats.length ? g.formats.map((f) => [f, formatLabel(f)])
    : [[1, "1"], [0, TEXT.offlineSingleDeal], [2, "2"], [3, "3"]]);
  const levels = g.levels.filter((l) => OFFLINE_LEVELS.includes(l));
  options($("offline-form").level, levels.map((l) => [l, levelLabel(l)]));
  $("offline-form").level.value = levels.includes("hard") ? "hard" : levels[0];
}

function title(name) { return (GAMES.find((g) => g.name === name) || { title: name }).title; }

async function play(event) {
  event.preventDefault();
  const form = $("offline-form");
  const setup = { game: form.game.value, players: Number(form.players.value), level: form.level.value,
    length: chosenGame().formats.length ? form.length.value : Number(form.length.value), rules: form.rules.value || null, seed: Math.floor(Math.random() * 2 ** 31), name: form.name.value.trim() || "You" };
  const id = newId();
  await keep({ id, setup, save: null, over: false, updated: Date.now(), uploaded: false, refused: null });
  sessionStorage.setItem("taash-offline-clicked", String(Date.now()));
  const params = new URLSearchParams(location.search);
  const delay = params.get("delay"); // the bots' pause (tests make it short)
  // The benchmark's baselines: the engine started from scratch (?snapshot=0), or once the page connects (?early=0).
  const baseline = ["snapshot", "early"].filter((p) => params.get(p) === "0").map((p) => `&${p}=0`).join("");
  location.href = `/offline/play?id=${id}${delay ? `&delay=${Number(delay)}` : ""}${baseline}`;
}

function describe(m) { return TEXT.offlineStarted(title(m.setup.game), levelLabel(m.setup.level)); }

async function showSaved() {
  const all = (await savedMatches()).sort((a, b) => b.updated - a.updated);
  const going = all.filter((m) => !m.over);
  $("resume").replaceChildren(...(going.length ? going.map((m) => h("li", {},
    `${describe(m)} · `, h("a", { href: `/offline/play?id=${m.id}`, testid: "offline-resume-link" }, TEXT.offlineResume)))
    : [h("li", { class: "muted" }, TEXT.offlineNone)]));
  const done = all.filter((m) => m.over);
  $("finished").replaceChildren(...(done.length ? done.map((m) => h("li", { testid: "offline-finished-match" },
    `${describe(m)} · `, h("span", { class: "muted" }, m.uploaded ? TEXT.offlineUploaded
      : m.refused ? TEXT.offlineRefused(m.refused) : m.needsName ? TEXT.offlineNeedsName : TEXT.offlineWaiting)))
    : [h("li", { class: "muted" }, TEXT.offlineNone)]));
  return done;
}

/** The first wait before sending again what could not be sent, and the longest (doubled after each failure). */
const RETRY_FIRST_MS = 2000;
const RETRY_MOST_MS = 60000;
let retryMs = RETRY_FIRST_MS;
let retryTimer = null;
let sending = null;

/**
 * Add the finished matches to the history: now, on the page's load, whenever the browser says it is back online
 * ('online'), and again on a timer that doubles its wait (2 s to a minute) while any is still waiting (the
 * network down, the server busy, no name chosen yet). One sending at a time: a call during one runs after it.
 */
function uploadSoon() {
  clearTimeout(retryTimer);
  retryTimer = null;
  sending = (sending || Promise.resolve()).then(upload).then((waiting) => {
    document.body.dataset.uploads = waiting ? "waiting" : "done";
    if (!waiting) retryMs = RETRY_FIRST_MS;
    else if (retryTimer === null) {
      retryTimer = setTimeout(uploadSoon, retryMs);
      retryMs = Math.min(retryMs * 2, RETRY_MOST_MS);
    }
  });
  return sending;
}

/** Send each finished match not yet in the history, then show the history's offline matches; whether any is
 * still waiting to be sent. */
async function upload() {
  const done = await showSaved();
  if (!navigator.onLine) return done.some((m) => !m.uploaded && !m.refused);
  let waiting = false;
  for (const m of done) {
    if (m.uploaded || m.refused) continue;
    try {
      await api("POST", "/api/offline/matches", { save: m.save });
      await keep({ ...m, uploaded: true, needsName: false });
    } catch (e) {
      if (e.status >= 400 && e.status < 500 && ![401, 408, 429].includes(e.status)) {
        await keep({ ...m, refused: e.message }); // the server's engine would not replay it: never again
        continue;
      }
      waiting = true;
      if (e.status === 401) await keep({ ...m, needsName: true });
      else break; // the network or the server: another time
    }
  }
  await showSaved();
  await showHistory();
  return waiting;
}

async function showHistory() {
  try {
    const rows = await api("GET", "/api/offline/matches");
    $("history").replaceChildren(...rows.map((r) => h("li", { testid: "offline-history-match" },
      `${title(r.game)} · ${levelLabel(r.summary.level)} · `,
      r.summary.seats.map((s) => `${s.name} ${s.points}${s.won ? ` (${TEXT.offlineWon})` : ""}`).join(", "))));
    $("history-box").hidden = false;
  } catch (e) {
    $("history-box").hidden = true;
  }
}

async function main() {
  // Listened for first: the browser may say it is back online while the page is still loading.
  window.addEventListener("online", () => { retryMs = RETRY_FIRST_MS; uploadSoon(); });
  register();
  installButton($("install"));
  label();
  try {
    GAMES = Object.values(await games());
  } catch (e) {
    $("status").textContent = TEXT.offlineNotReady;
    return;
  }
  options($("offline-form").game, GAMES.map((g) => [g.name, g.title]));
  fillChoices();
  $("offline-form").game.addEventListener("change", fillChoices);
  $("offline-form").addEventListener("submit", play);
  await uploadSoon();
  document.body.dataset.ready = "true";
}

main();
