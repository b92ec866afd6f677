// The replay of a finished match (/r/{id}): every bid and play, forwards and backwards, every hand shown.
// The server plays the record again with the engine and sends every step (hands, floor, what happened in words):
// this page only shows them; it knows no rule of the game.

import { _, ngettext } from "/static/i18n.js";
import { lineElement, loadCatalogue, mutedPeople } from "/static/chat.js";
import { api, games, h, joinNames, ruleLabel } from "/static/common.js";
import "/static/options.js"; // the deck as the person chose it at the table (four colours, large cards)
import { TEXT } from "/static/texts.js";

const $ = (id) => document.getElementById(id);
const TABLE_ID = decodeURIComponent(location.pathname.split("/")[2] || "");

/** The replay, its steps, the step shown, and its game's module drawing a step (its `replay_view`). */
const R = { replay: null, steps: [], step: 0, player: null, drawing: null };

function setStatus(text, error = false) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", error);
  s.hidden = !text;
}

/** Every step of the match, deal after deal: [{deal, index, ...step}]. */
function flatten(replay) {
  const steps = [];
  replay.deals.forEach((deal, d) => deal.steps.forEach((step, i) => steps.push({ ...step, deal: d, index: i })));
  return steps;
}

function render() {
  const r = R.replay;
  const step = R.steps[R.step];
  const deal = r.deals[step.deal];
  const plays = deal.steps.length - 1;
  const at = { index: step.index, plays };
  $("replay-step").textContent = r.deals.length > 1 ? _("deal {deal} · play {index}/{plays}", { deal: step.deal + 1, ...at })
    : _("play {index}/{plays}", at);
  $("replay-range").value = String(R.step);
  const last = R.steps.length - 1;
  $("replay-prev").disabled = R.step === 0;
  $("replay-first").disabled = R.step === 0;
  $("replay-next").disabled = R.step === last;
  $("replay-last").disabled = R.step === last;
  R.drawing.renderStep($, r, deal, step, plays);
}

/** Ask the server to check the record against its fair dealing (the commitment published from the start, and
 * every deal against the secret revealed), and show its answer: a line per deal, or what is wrong. */
async function verifyFairness() {
  const box = $("fairness");
  box.hidden = false;
  box.replaceChildren(h("p", {}, _("Checking every deal against the secret…")));
  let answer;
  try {
    answer = await api("GET", `/api/tables/${TABLE_ID}/verify`);
  } catch (e) {
    box.replaceChildren(h("p", { class: "error", testid: "fairness-result" }, e.message));
    return;
  }
  const f = answer.fairness || {};
  const head = answer.ok ? _("Every deal matches the commitment made before the match: the dealing was fair.")
    : _("The record does not check: {why}", { why: answer.error });
  const lines = (answer.deals || []).map((line) => h("li", { testid: "fairness-deal" }, line));
  box.replaceChildren(
    h("p", { class: answer.ok ? "ok" : "error", testid: "fairness-result" }, head),
    h("ul", {}, ...lines),
    h("p", { class: "small" }, _("{algorithm} · commitment {commitment}", { algorithm: f.algorithm || "",
      commitment: f.commitment || "" })),
  );
}

function go(step) {
  R.step = Math.max(0, Math.min(R.steps.length - 1, step));
  render();
}

/** Auto-play: a play every so often (the speed chosen), until the last play or a pause. */
function showPlaying() {
  const playing = R.player !== null;
  $("replay-play").textContent = playing ? _("❚❚ Pause") : _("▶ Play");
  $("replay-play").setAttribute("aria-pressed", String(playing));
}

function pause() {
  clearInterval(R.player);
  R.player = null;
  showPlaying();
}

function play() {
  pause();
  if (R.step === R.steps.length - 1) go(0); // from the start again
  R.player = setInterval(() => {
    if (R.step >= R.steps.length - 1) pause();
    else go(R.step + 1);
  }, Number($("replay-speed").value));
  showPlaying();
}

async function main() {
  if (!/^[0-9a-f]{16}$/.test(TABLE_ID)) {
    setStatus(_("No such table."), true);
    return;
  }
  const url = `/api/tables/${TABLE_ID}/record`;
  let replay;
  try {
    replay = await api("GET", `/api/tables/${TABLE_ID}/replay`);
  } catch (e) {
    if (e.status === 409) {
      setStatus(_("The replay is shown once the match is over."), true);
      $("status").appendChild(h("span", {}, " ", h("a", { href: `/t/${TABLE_ID}` }, _("Back to the table"))));
      setTimeout(main, 10000);
    } else setStatus(e.message, true);
    return;
  }
  // A replay without a game is the default game's (the registry's first).
  let game;
  try {
    const offered = await games();
    game = offered[replay.game] || Object.values(offered)[0];
    R.drawing = await import(game.replay_view);
  } catch (e) {
    setStatus(e.message || String(e), true);
    return;
  }
  R.replay = replay;
  R.steps = flatten(replay);
  setStatus("");
  const format = game.formats.length ? `${game.title} · ${replay.format} · ` : "";
  const players = ngettext("{n} player", "{n} players", replay.players);
  $("info").replaceChildren(`${format}${players} · ${ruleLabel(replay.rules)} · `, ...joinNames(replay.names));
  document.querySelector(".brand span").textContent = R.drawing.brand || game.title;
  const dl = $("download");
  dl.href = url;
  dl.setAttribute("download", `${game.name}-${TABLE_ID}.json`);
  const range = $("replay-range");
  range.max = String(R.steps.length - 1);
  range.addEventListener("input", () => go(Number(range.value)));
  $("replay-next").addEventListener("click", () => go(R.step + 1));
  $("replay-prev").addEventListener("click", () => go(R.step - 1));
  $("replay-first").addEventListener("click", () => go(0));
  $("replay-last").addEventListener("click", () => go(R.steps.length - 1));
  $("verify").addEventListener("click", verifyFairness);
  $("replay-play").addEventListener("click", () => (R.player === null ? play() : pause()));
  $("replay-speed").addEventListener("change", () => { if (R.player !== null) play(); });
  document.addEventListener("keydown", (event) => {
    if (event.target && (event.target.tagName === "INPUT" || event.target.tagName === "SELECT")) return;
    if (event.key === "ArrowRight") go(R.step + 1);
    else if (event.key === "ArrowLeft") go(R.step - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(R.steps.length - 1);
    else return;
    event.preventDefault();
  });
  $("replay").hidden = false;
  render();
  showChat();
}

/** The players' chat of the match, for those who played it (the server answers 403 to anyone else: nothing is
 * shown); the people this browser muted stay muted. */
async function showChat() {
  let got;
  try {
    got = await api("GET", `/api/tables/${TABLE_ID}/chat`);
    await loadCatalogue();
  } catch (e) {
    return;
  }
  const muted = mutedPeople();
  const lines = got.lines.filter((m) => !(m.from && m.from in muted));
  if (!lines.length) return;
  const box = $("replay-chat");
  box.replaceChildren(h("h2", { class: "minor-title" }, TEXT.replayChat),
    h("ol", { class: "chat-lines", testid: "chat-lines" }, ...lines.map((m) => lineElement(m))));
  box.hidden = false;
}

main();
