// The replay of a finished match (/r/{id}): every bid and play, forwards and backwards, every hand shown.
// The server plays the record again with the engine and sends every step (hands, floor, what happened in words):
// this page only shows them; it knows no rule of the game.

import { api, h, ruleLabel, words } from "/static/common.js";
import { cardElement } from "/static/cards.js";
import { renderStep as rummyStep } from "/static/rummy/replay.js";

const $ = (id) => document.getElementById(id);
const TABLE_ID = decodeURIComponent(location.pathname.split("/")[2] || "");
const HOUSE_NAMES = { 9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king" };

const R = { replay: null, steps: [], step: 0 };

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

function teamName(t) {
  const r = R.replay;
  return r.players === 4 ? r.names.filter((_, i) => i % 2 === t).join(" & ") : r.names[t];
}

function renderFloor(step) {
  const floor = $("replay-floor");
  floor.replaceChildren();
  if (step.houses.length) {
    const houses = h("div", { class: "houses" });
    for (const house of step.houses) {
      const row = h("div", { class: "house-cards" });
      for (const c of house.cards) row.appendChild(cardElement(c, { small: true }));
      houses.appendChild(h("div", { class: "house" + (house.cemented ? " cemented" : ""), testid: `replay-house-${house.value}` },
        h("div", { class: "house-title" }, h("strong", {}, `House ${house.value}`),
          ` ${HOUSE_NAMES[house.value] || ""} · ${house.cemented ? "cemented" : "not cemented"}`),
        h("div", { class: "house-owners" }, house.owners.map((s) => R.replay.names[s]).join(", ")),
        row));
    }
    floor.appendChild(houses);
  }
  const loose = h("div", { class: "loose" });
  for (const c of step.loose) loose.appendChild(cardElement(c));
  if (!step.loose.length && !step.houses.length) floor.appendChild(h("div", { class: "floor-note" }, "The floor is empty."));
  floor.appendChild(loose);
}

function render() {
  const r = R.replay;
  const step = R.steps[R.step];
  const deal = r.deals[step.deal];
  const plays = deal.steps.length - 1;
  $("replay-step").textContent = (r.deals.length > 1 ? `deal ${step.deal + 1} · ` : "") + `play ${step.index}/${plays}`;
  $("replay-range").value = String(R.step);
  const last = R.steps.length - 1;
  $("replay-prev").disabled = R.step === 0;
  $("replay-first").disabled = R.step === 0;
  $("replay-next").disabled = R.step === last;
  $("replay-last").disabled = R.step === last;
  if (r.game === "rummy") {
    $("replay-step").textContent = (r.deals.length > 1 ? `deal ${step.deal + 1} · ` : "") + `turn ${step.index}/${plays}`;
    $("floor-title").textContent = "Stock and discard pile";
    rummyStep($, r, deal, step, plays);
    return;
  }
  $("said").textContent = `Deal ${deal.number} (${r.names[deal.dealer]} deals, ${r.names[deal.bidder]} bids ` +
    `${deal.bid}): ${words(step.said)}`;
  renderFloor(step);

  const hands = $("hands");
  hands.replaceChildren();
  step.hands.forEach((hand, seat) => {
    const row = h("div", { class: "replay-hand" });
    for (const c of hand) row.appendChild(cardElement(c, { small: true }));
    const mark = [];
    if (seat === deal.dealer) mark.push(h("span", { class: "mark dealer" }, "dealer"));
    if (seat === deal.bidder) mark.push(h("span", { class: "mark bid" }, `bid ${deal.bid}`));
    const justPlayed = seat === step.seat && step.card;
    hands.appendChild(h("div", { class: `panel seat-box team-${seat % 2}` + (seat === step.seat ? " turn" : ""),
      testid: `replay-hand-${seat}` },
      h("div", { class: "seat-head" }, h("span", { class: "seat-name" }, r.names[seat]),
        h("span", { class: "count" }, `${hand.length} card${hand.length === 1 ? "" : "s"}`),
        justPlayed ? h("span", { class: "played" }, "played ", cardElement(step.card, { small: true })) : null),
      h("div", { class: "marks" }, mark), row));
  });

  const score = $("deal-score");
  score.replaceChildren();
  const captured = h("table", { class: "score-table", testid: "replay-captured" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, "cards"), h("th", {}, "points"), h("th", {}, "sweeps"))),
    h("tbody", {}, [0, 1].map((t) => h("tr", { class: `team-${t}` }, h("th", { scope: "row" }, teamName(t)),
      h("td", {}, String(step.captured[t].cards)), h("td", {}, String(step.captured[t].points)),
      h("td", {}, `${step.captured[t].sweeps}${step.captured[t].sweep_points ? ` (+${step.captured[t].sweep_points})` : ""}`)))));
  score.appendChild(h("h3", {}, "Captured"));
  score.appendChild(captured);
  const result = deal.result;
  if (step.index === plays && result) {
    score.appendChild(h("h3", { testid: "replay-result" }, `Deal ${deal.number} over`));
    score.appendChild(h("table", { class: "score-table" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, "card points"), h("th", {}, "sweep points"), h("th", {}, "score"))),
      h("tbody", {}, [0, 1].map((t) => h("tr", { class: `team-${t}` }, h("th", { scope: "row" }, teamName(t)),
        h("td", {}, String(result.card_points[t])), h("td", {}, String(result.sweep_points[t])),
        h("td", { class: "total" }, String(result.score[t])))))));
    const diff = result.difference;
    score.appendChild(h("p", {}, `Running difference: ${diff === 0 ? "0" : `${Math.abs(diff)} to ${teamName(diff > 0 ? 0 : 1)}`}` +
      (result.baazi !== null && result.baazi !== undefined ? ` · a baazi to ${teamName(result.baazi)}` : "")));
  }
}

function go(step) {
  R.step = Math.max(0, Math.min(R.steps.length - 1, step));
  render();
}

async function main() {
  if (!/^[0-9a-f]{16}$/.test(TABLE_ID)) {
    setStatus("No such table.", true);
    return;
  }
  const url = `/api/tables/${TABLE_ID}/record`;
  let replay;
  try {
    replay = await api("GET", `/api/tables/${TABLE_ID}/replay`);
  } catch (e) {
    if (e.status === 409) {
      setStatus("The replay is shown once the match is over.", true);
      $("status").appendChild(h("span", {}, " ", h("a", { href: `/t/${TABLE_ID}` }, "Back to the table")));
      setTimeout(main, 10000);
    } else setStatus(e.message, true);
    return;
  }
  R.replay = replay;
  R.steps = flatten(replay);
  setStatus("");
  const game = replay.game === "rummy" ? `13-card Rummy · ${replay.format} · ` : "";
  $("info").textContent = `${game}${replay.players} players · ${ruleLabel(replay.rules)} · ${replay.names.join(", ")}`;
  document.querySelector(".brand span").textContent = replay.game === "rummy" ? "Rummy" : "Seep";
  const dl = $("download");
  dl.href = url;
  dl.setAttribute("download", `${replay.game || "seep"}-${TABLE_ID}.json`);
  const range = $("replay-range");
  range.max = String(R.steps.length - 1);
  range.addEventListener("input", () => go(Number(range.value)));
  $("replay-next").addEventListener("click", () => go(R.step + 1));
  $("replay-prev").addEventListener("click", () => go(R.step - 1));
  $("replay-first").addEventListener("click", () => go(0));
  $("replay-last").addEventListener("click", () => go(R.steps.length - 1));
  document.addEventListener("keydown", (event) => {
    if (event.target && event.target.tagName === "INPUT") return;
    if (event.key === "ArrowRight") go(R.step + 1);
    else if (event.key === "ArrowLeft") go(R.step - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(R.steps.length - 1);
    else return;
    event.preventDefault();
  });
  $("replay").hidden = false;
  render();
}

main();
