// The replay of a finished match (/r/{id}): every play, forwards and backwards, every hand shown.
// The rules are not re-implemented here: the hands come from the record's deck order (shared/seep-protocol.md)
// less the cards played, and the floor is worked out from the plays' own format.

import { api, h, ruleLabel } from "/static/common.js";
import { cardElement, cardText, sortCards, valueOf } from "/static/cards.js";

const $ = (id) => document.getElementById(id);
const TABLE_ID = decodeURIComponent(location.pathname.split("/")[2] || "");
const HOUSE_NAMES = { 9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king" };

const R = { record: null, steps: [], step: 0 };

function setStatus(text, error = false) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", error);
  s.hidden = !text;
}

const cardsText = (cards) => cards.map(cardText).join(" ");
const houseName = (v) => `${HOUSE_NAMES[v] || v} house`;

/** The cards each seat holds after `done` plays of `deal` (deck order per the protocol), and the floor's first four. */
function dealt(deal, players, done) {
  const deck = deal.deck;
  const hands = Array.from({ length: players }, () => []);
  const bidder = (deal.dealer + 1) % players;
  hands[bidder].push(...deck.slice(0, 4));
  if (done >= 1) {
    if (players === 4) {
      for (let i = 0; i < 11; i++) hands[(bidder + 1 + i) % 4].push(...deck.slice(8 + 4 * i, 12 + 4 * i));
    } else {
      const order = [deal.dealer, bidder, deal.dealer, bidder, deal.dealer];
      order.forEach((seat, i) => hands[seat].push(...deck.slice(8 + 4 * i, 12 + 4 * i)));
      if (done >= 24) {
        hands[bidder].push(...deck.slice(28, 40));
        hands[deal.dealer].push(...deck.slice(40, 52));
      }
    }
  }
  return { hands, floor: deck.slice(4, 8) };
}

/** Apply one play to a floor {loose: [...], houses: Map value -> cards}; returns what it did, in words. */
function applyPlay(floor, play) {
  const take = (cards) => { floor.loose = floor.loose.filter((c) => !cards.includes(c)); };
  if ("capture" in play) {
    const v = valueOf(play.card);
    take(play.capture);
    const parts = [];
    if (play.capture.length) parts.push(cardsText(play.capture));
    if (floor.houses.has(v)) {
      parts.push(`the ${houseName(v)} (${cardsText(floor.houses.get(v))})`);
      floor.houses.delete(v);
    }
    return `captures ${parts.join(" and ")} with ${cardText(play.card)}`;
  }
  if (!("house" in play)) {
    floor.loose.push(play.card);
    return `throws ${cardText(play.card)}`;
  }
  const loose = play.loose || [];
  take(loose);
  const withLoose = loose.length ? ` with ${cardsText(loose)}` : "";
  if ("break" in play) {
    const old = floor.houses.get(play.break) || [];
    floor.houses.delete(play.break);
    const into = floor.houses.get(play.house) || [];
    floor.houses.set(play.house, [...into, ...old, play.card, ...loose]);
    return `breaks the ${houseName(play.break)} into a ${houseName(play.house)}: ${cardText(play.card)}${withLoose}`;
  }
  if (floor.houses.has(play.house)) {
    floor.houses.get(play.house).push(play.card, ...loose);
    return `adds ${cardText(play.card)}${withLoose} to the ${houseName(play.house)}`;
  }
  floor.houses.set(play.house, [play.card, ...loose]);
  return `builds a ${houseName(play.house)} from ${cardText(play.card)}${withLoose}`;
}

/** Every step of the match: before any play, then after each play. */
function buildSteps(record) {
  const steps = [];
  const players = record.players;
  record.deals.forEach((deal, d) => {
    const start = dealt(deal, players, 0);
    const floor = { loose: [...start.floor], houses: new Map() };
    const snapshot = (done, said, seat, card) => {
      const hands = dealt(deal, players, done).hands;
      const played = new Set(deal.plays.slice(0, done).map((p) => p.card));
      steps.push({
        deal: d, done, said, seat, card,
        hands: hands.map((hand) => sortCards(hand.filter((c) => !played.has(c)))),
        loose: [...floor.loose],
        houses: [...floor.houses.entries()].sort((a, b) => a[0] - b[0]).map(([v, cards]) => [v, sortCards(cards)]),
        last: done === deal.plays.length,
      });
    };
    if (d === 0) snapshot(0, "the cards are dealt.", null, null);
    deal.plays.forEach((play, i) => {
      // Who played: whoever held the card just before.
      const before = dealt(deal, players, i + 1).hands;
      const playedBefore = new Set(deal.plays.slice(0, i).map((p) => p.card));
      const seat = before.findIndex((hand) => hand.includes(play.card) && !playedBefore.has(play.card));
      const name = seat >= 0 ? record.names[seat] : "?";
      let said = `${name} ${applyPlay(floor, play)}`;
      snapshot(i + 1, said, seat, play.card);
    });
  });
  return steps;
}

function render() {
  const rec = R.record;
  const n = R.steps.length - 1;
  const step = R.steps[R.step];
  $("replay-step").textContent = `play ${R.step}/${n}`;
  $("replay-range").value = String(R.step);
  $("replay-prev").disabled = R.step === 0;
  $("replay-first").disabled = R.step === 0;
  $("replay-next").disabled = R.step === n;
  $("replay-last").disabled = R.step === n;
  const deal = rec.deals[step.deal];
  const bidder = rec.names[(deal.dealer + 1) % rec.players];
  $("said").textContent = `Deal ${step.deal + 1} (${rec.names[deal.dealer]} deals, ${bidder} bids ${deal.bid}), ` +
    `play ${step.done}/${deal.plays.length}: ${step.said}`;

  const floor = $("replay-floor");
  floor.replaceChildren();
  if (step.houses.length) {
    const houses = h("div", { class: "houses" });
    for (const [v, cards] of step.houses) {
      const row = h("div", { class: "house-cards" });
      for (const c of cards) row.appendChild(cardElement(c, { small: true }));
      houses.appendChild(h("div", { class: "house" }, h("div", { class: "house-title" }, h("strong", {}, `House ${v}`),
        ` ${HOUSE_NAMES[v] || ""}`), row));
    }
    floor.appendChild(houses);
  }
  const loose = h("div", { class: "loose" });
  for (const c of step.loose) {
    const e = cardElement(c);
    if (c === step.card) e.classList.add("involved");
    loose.appendChild(e);
  }
  if (!step.loose.length && !step.houses.length) floor.appendChild(h("div", { class: "floor-note" }, "The floor is empty."));
  floor.appendChild(loose);

  const hands = $("hands");
  hands.replaceChildren();
  step.hands.forEach((hand, seat) => {
    const row = h("div", { class: "replay-hand" });
    for (const c of hand) row.appendChild(cardElement(c, { small: true }));
    const mark = [];
    if (seat === deal.dealer) mark.push(h("span", { class: "mark dealer" }, "dealer"));
    if (seat === (deal.dealer + 1) % rec.players) mark.push(h("span", { class: "mark bid" }, `bidder (${deal.bid})`));
    const justPlayed = seat === step.seat && step.card;
    hands.appendChild(h("div", { class: `panel seat-box team-${seat % 2}` + (justPlayed ? " turn" : ""), testid: `replay-hand-${seat}` },
      h("div", { class: "seat-head" }, h("span", { class: "seat-name" }, rec.names[seat]),
        h("span", { class: "count" }, `${hand.length} cards`),
        justPlayed ? h("span", { class: "played" }, "played ", cardElement(step.card, { small: true })) : null),
      h("div", { class: "marks" }, mark), row));
  });

  const score = $("deal-score");
  const result = rec.scores && rec.scores.deals && rec.scores.deals[step.deal];
  score.hidden = !(step.last && result);
  if (!score.hidden) {
    const team = (t) => (rec.players === 4 ? rec.names.filter((_, i) => i % 2 === t).join(" & ") : rec.names[t]);
    score.replaceChildren(h("h3", {}, `Deal ${step.deal + 1} over`),
      h("table", { class: "score-table" },
        h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, "card points"), h("th", {}, "sweep points"), h("th", {}, "score"))),
        h("tbody", {}, [0, 1].map((t) => h("tr", { class: `team-${t}` }, h("th", {}, team(t)),
          h("td", {}, String(result.card_points[t])), h("td", {}, String(result.sweep_points[t])),
          h("td", {}, String(result.score[t])))))),
      h("p", {}, `Running difference: ${result.difference}` +
        (result.baazi !== null && result.baazi !== undefined ? ` · baazi to ${team(result.baazi)}` : "")));
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
  let record;
  try {
    record = await api("GET", url);
  } catch (e) {
    if (e.status === 409) {
      setStatus("The replay is shown once the match is over.", true);
      $("status").appendChild(h("span", {}, " ", h("a", { href: `/t/${TABLE_ID}` }, "Back to the table")));
      setTimeout(main, 10000);
    } else setStatus(e.message, true);
    return;
  }
  R.record = record;
  R.steps = buildSteps(record);
  setStatus("");
  $("info").textContent = `${record.players} players · ${ruleLabel(typeof record.rules === "string" ? record.rules : "custom")} · ` +
    `${record.names.join(", ")}`;
  const dl = $("download");
  dl.href = url;
  dl.setAttribute("download", `seep-${TABLE_ID}.json`);
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
