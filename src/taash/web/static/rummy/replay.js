// A finished Rummy match step by step (/r/{id}): the server plays the record again with the engine and sends
// every step (every hand, the discard pile's top, the stock's size, what happened in words); this only shows it.

import { _, ngettext, parts } from "/static/i18n.js";
import { h, nameEl, withNames, words } from "/static/common.js";
import { cardElement } from "/static/cards.js";

/** The page's brand while it shows a replay of the game. */
export const brand = _("Rummy");

const STATUS_LABEL = { dropped: _("dropped"), wrong: _("wrong declaration"), declared: _("declared") };

/** Draw `step` of `deal` (the deal's `plays` turns in all) of the replay `r` into the page's boxes. */
export function renderStep($, r, deal, step, plays) {
  const turn = { index: step.index, plays };
  $("replay-step").textContent = r.deals.length > 1 ? _("deal {deal} · turn {index}/{plays}", { deal: step.deal + 1, ...turn })
    : _("turn {index}/{plays}", turn);
  $("floor-title").textContent = _("Stock and discard pile");
  $("said").replaceChildren(...parts(_("Deal {deal} ({dealer} deals; jokers: {rank}s and JK): {said}"), { deal: deal.number,
    dealer: nameEl(r.names[deal.dealer]), rank: deal.wild, said: withNames(words(step.said), r.names) }));
  const floor = $("replay-floor");
  floor.replaceChildren(h("div", { class: "rummy-floor" },
    h("div", { class: "pile-button" }, cardElement(null), h("span", { class: "pile-label", testid: "replay-stock" },
      _("Stock {n}", { n: step.stock }))),
    h("div", { class: "wild" }, cardElement(deal.wild_card, { small: true }),
      h("span", { class: "pile-label" }, _("Wild joker"))),
    h("div", { class: "pile-button", testid: "replay-top" },
      step.top ? cardElement(step.top) : h("span", { class: "card empty-pile" }),
      h("span", { class: "pile-label" }, _("Discard pile")))));
  const hands = $("hands");
  hands.replaceChildren();
  step.hands.forEach((hand, seat) => {
    const row = h("div", { class: "replay-hand" });
    for (const c of hand) row.appendChild(cardElement(c, { small: true }));
    const marks = [];
    if (seat === deal.dealer) marks.push(h("span", { class: "mark dealer" }, _("dealer")));
    const status = step.status[seat];
    if (status && STATUS_LABEL[status]) marks.push(h("span", { class: `mark ${status}` }, STATUS_LABEL[status]));
    if (status === null) marks.push(h("span", { class: "mark out" }, _("out")));
    hands.appendChild(h("div", { class: "panel seat-box" + (seat === step.seat ? " turn" : ""),
      testid: `replay-hand-${seat}` },
      h("div", { class: "seat-head" }, h("span", { class: "seat-name" }, nameEl(r.names[seat])),
        h("span", { class: "count" }, ngettext("{n} card", "{n} cards", hand.length))),
      h("div", { class: "marks" }, marks), row));
  });
  const score = $("deal-score");
  score.replaceChildren();
  const result = deal.result;
  if (step.index !== plays || !result) return;
  score.appendChild(h("h3", { testid: "replay-result" }, ...parts(_("Deal {deal} over: {said}"),
    { deal: deal.number, said: withNames(result.said, r.names) })));
  score.appendChild(h("table", { class: "score-table" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, _("points")), h("th", {}, _("total")), h("th", {}, ""))),
    h("tbody", {}, result.seats.map((s) => h("tr", {}, h("th", { scope: "row" }, nameEl(r.names[s], { cut: true })),
      h("td", {}, result.points[s] === null ? "" : String(result.points[s])), h("td", {}, String(result.totals[s])),
      h("td", {}, result.eliminated.includes(s) ? _("out of the pool") : ""))))));
}
