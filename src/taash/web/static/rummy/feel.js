// What a new 13-card Rummy state changed, for the table's motion, sounds and moments (static/feel.js): a card
// taken from the stock or the discard pile flies to the hand that took it, a discard flies to the pile, the last
// discard stays marked, a declaration gets its moment; and the whole discard pile, shown on request. Everything is
// read from the two states the server sent: no rule of the game is worked out here.

import { h } from "/static/common.js";
import { cardElement, cardText } from "/static/cards.js";
import { TEXT } from "/static/texts.js";

function seatName(st, seat) {
  const s = st.seats[seat];
  return s && !s.empty ? s.name : `Seat ${seat}`;
}

function seatBox(seat) { return document.querySelector(`[data-testid="seat-box-${seat}"]`); }

/** A declaration: a wrong one while the deal goes on, or the valid one that ended the deal. */
function declarations(prev, st) {
  const events = [];
  const a = prev.deal;
  const b = st.deal;
  if (a && b && a.number === b.number) {
    b.status.forEach((s, seat) => {
      if (s === "wrong" && a.status[seat] !== "wrong") {
        events.push({ sound: "declare", moment: TEXT.wrongDeclaration(seatName(st, seat)), kind: "wrong" });
      }
    });
  }
  const before = (prev.score && prev.score.deals.length) || 0;
  const deals = (st.score && st.score.deals) || [];
  const r = deals.length > before ? deals[deals.length - 1] : null;
  if (r && r.declared) events.push({ sound: "declare", moment: TEXT.declared(seatName(st, r.winner)), kind: "declare" });
  return events;
}

/** What changed from state `prev` to `st`: `{from, to, events, last}` (see static/feel.js). */
export function changes(prev, st) {
  const out = { from: null, to: null, events: [], last: null };
  if (!prev || !st.deal) return out;
  out.events = declarations(prev, st);
  const a = prev.deal;
  const b = st.deal;
  if (!a || a.number !== b.number) return out;
  const seat = b.hand_sizes.findIndex((n, s) => n !== a.hand_sizes[s]);
  if (seat < 0) return out;
  const took = b.hand_sizes[seat] > a.hand_sizes[seat];
  if (took && seat === st.you && b.stock_size < a.stock_size) out.from = document.querySelector('[data-testid="stock"]');
  else if (took && seat !== st.you && b.pile.length < a.pile.length) out.to = seatBox(seat);
  else if (!took && seat !== st.you) out.from = seatBox(seat);
  const top = b.pile.length ? b.pile[b.pile.length - 1] : null;
  if (!took && top) out.last = { seat, cards: [top.card] };
  return out;
}

/** The whole discard pile, for the panel: every card, the first discarded first, each with who discarded it. */
export function piles(st) {
  const pile = (st.deal && st.deal.pile) || [];
  if (!pile.length) return [h("p", { class: "muted" }, TEXT.noCards)];
  return [h("section", { class: "pile-list", testid: "pile-discards" },
    h("h3", {}, TEXT.discards(pile.length)),
    h("ol", { class: "discard-list" }, pile.map((p) => h("li", {},
      cardElement(p.card, { small: true }),
      h("span", { class: "muted" }, ` ${cardText(p.card)} · `,
        p.by === null || p.by === undefined ? TEXT.openCard : TEXT.discardedBy(seatName(st, p.by)))))))];
}
