// A finished Seep match step by step (/r/{id}): the server plays the record again with the engine and sends every
// step (every hand, the floor, what was captured, what happened in words); this only shows it.

import { _, ngettext, parts } from "/static/i18n.js";
import { h, nameEl, withNames, words } from "/static/common.js";
import { cardElement } from "/static/cards.js";

/** The page's brand while it shows a replay of the game. */
export const brand = _("Seep");

const HOUSE_NAMES = { 9: _("nine"), 10: _("ten"), 11: _("jack"), 12: _("queen"), 13: _("king") };

/** A team's players, "Priya & Arjun", each name isolated (`cut`: cut to its column, see nameEl). */
function teamName(r, t, cut = false) {
  return r.names.filter((_n, i) => (r.players === 4 ? i % 2 === t : i === t))
    .flatMap((n, i) => [i ? " & " : "", nameEl(n, { cut })]);
}

function renderFloor($, r, step) {
  const floor = $("replay-floor");
  floor.replaceChildren();
  if (step.houses.length) {
    const houses = h("div", { class: "houses" });
    for (const house of step.houses) {
      const row = h("div", { class: "house-cards" });
      for (const c of house.cards) row.appendChild(cardElement(c, { small: true }));
      houses.appendChild(h("div", { class: "house" + (house.cemented ? " cemented" : ""), testid: `replay-house-${house.value}` },
        h("div", { class: "house-title" }, h("strong", {}, _("House {value}", { value: house.value })),
          ` ${HOUSE_NAMES[house.value] || ""} · ${house.cemented ? _("cemented") : _("not cemented")}`),
        h("div", { class: "house-owners" }, house.owners.flatMap((s, i) => [i ? ", " : "", nameEl(r.names[s])])),
        row));
    }
    floor.appendChild(houses);
  }
  const loose = h("div", { class: "loose" });
  for (const c of step.loose) loose.appendChild(cardElement(c));
  if (!step.loose.length && !step.houses.length) floor.appendChild(h("div", { class: "floor-note" }, _("The floor is empty.")));
  floor.appendChild(loose);
}

/** Draw `step` of `deal` (the deal's `plays` plays in all) of the replay `r` into the page's boxes. */
export function renderStep($, r, deal, step, plays) {
  $("said").replaceChildren(...parts(_("Deal {deal} ({dealer} deals, {bidder} bids {bid}): {said}"), { deal: deal.number,
    dealer: nameEl(r.names[deal.dealer]), bidder: nameEl(r.names[deal.bidder]), bid: deal.bid,
    said: withNames(words(step.said), r.names) }));
  renderFloor($, r, step);

  const hands = $("hands");
  hands.replaceChildren();
  step.hands.forEach((hand, seat) => {
    const row = h("div", { class: "replay-hand" });
    for (const c of hand) row.appendChild(cardElement(c, { small: true }));
    const mark = [];
    if (seat === deal.dealer) mark.push(h("span", { class: "mark dealer" }, _("dealer")));
    if (seat === deal.bidder) mark.push(h("span", { class: "mark bid" }, _("bid {bid}", { bid: deal.bid })));
    const justPlayed = seat === step.seat && step.card;
    hands.appendChild(h("div", { class: `panel seat-box team-${seat % 2}` + (seat === step.seat ? " turn" : ""),
      testid: `replay-hand-${seat}` },
      h("div", { class: "seat-head" }, h("span", { class: "seat-name" }, nameEl(r.names[seat])),
        h("span", { class: "count" }, ngettext("{n} card", "{n} cards", hand.length)),
        justPlayed ? h("span", { class: "played" }, ...parts(_("played {card}"), { card: cardElement(step.card, { small: true }) }))
          : null),
      h("div", { class: "marks" }, mark), row));
  });

  const score = $("deal-score");
  score.replaceChildren();
  const captured = h("table", { class: "score-table", testid: "replay-captured" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, _("cards")), h("th", {}, _("points")), h("th", {}, _("sweeps")))),
    h("tbody", {}, [0, 1].map((t) => h("tr", { class: `team-${t}` }, h("th", { scope: "row" }, teamName(r, t, true)),
      h("td", {}, String(step.captured[t].cards)), h("td", {}, String(step.captured[t].points)),
      h("td", {}, `${step.captured[t].sweeps}${step.captured[t].sweep_points ? ` (+${step.captured[t].sweep_points})` : ""}`)))));
  score.appendChild(h("h3", {}, _("Captured")));
  score.appendChild(captured);
  const result = deal.result;
  if (step.index === plays && result) {
    score.appendChild(h("h3", { testid: "replay-result" }, _("Deal {deal} over", { deal: deal.number })));
    score.appendChild(h("table", { class: "score-table" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, _("card points")), h("th", {}, _("sweep points")), h("th", {}, _("score")))),
      h("tbody", {}, [0, 1].map((t) => h("tr", { class: `team-${t}` }, h("th", { scope: "row" }, teamName(r, t, true)),
        h("td", {}, String(result.card_points[t])), h("td", {}, String(result.sweep_points[t])),
        h("td", { class: "total" }, String(result.score[t])))))));
    const diff = result.difference;
    const lead = diff === 0 ? "0" : parts(_("{points} to {team}"), { points: Math.abs(diff), team: teamName(r, diff > 0 ? 0 : 1) });
    const baazi = result.baazi !== null && result.baazi !== undefined;
    score.appendChild(h("p", {}, baazi
      ? parts(_("Running difference: {lead} · a baazi to {team}"), { lead, team: teamName(r, result.baazi) })
      : parts(_("Running difference: {lead}"), { lead })));
  }
}
