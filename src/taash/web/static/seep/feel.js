// What a new Seep state changed, for the table's motion, sounds and moments (static/feel.js): who played, which
// cards came onto the floor (the last play, marked until the next), which left it for a team's pile, a sweep, a
// baazi; and the captured piles, shown on request. Everything is read from the two states the server sent: no
// rule of the game is worked out here.

import { h, nameEl } from "/static/common.js";
import { cardElement, sortCards } from "/static/cards.js";
import { TEXT } from "/static/texts.js";

function floorCards(d) {
  return new Set([...(d.loose || []), ...(d.houses || []).flatMap((x) => x.cards)]);
}

function seatName(st, seat) {
  const s = st.seats[seat];
  return s && !s.empty ? s.name : `Seat ${seat}`;
}

/** A team as the score names it: the player at two, both partners at four. */
function teamWords(st, t) {
  return st.seats.filter((s) => s.seat % 2 === t).map((s) => seatName(st, s.seat)).join(" & ");
}

/** The seat whose hand shrank between deals `a` and `b` of one deal (the one who played), or null. */
function mover(a, b) {
  const seat = b.hand_sizes.findIndex((n, s) => n < a.hand_sizes[s]);
  return seat < 0 ? null : seat;
}

function baaziEvents(prev, st) {
  const before = (prev.score && prev.score.deals.length) || 0;
  const deals = (st.score && st.score.deals) || [];
  const r = deals.length > before ? deals[deals.length - 1] : null;
  if (!r || r.baazi === null || r.baazi === undefined) return [];
  return [{ sound: "declare", moment: TEXT.baazi(teamWords(st, r.baazi)), kind: "baazi" }];
}

/** What changed from state `prev` to `st`: `{from, to, events, last}` (see static/feel.js). */
export function changes(prev, st) {
  const a = prev && prev.deal;
  const b = st.deal;
  const out = { from: null, to: null, events: [], last: null };
  if (!prev || !b) return out;
  out.events.push(...baaziEvents(prev, st));
  if (!a || a.number !== b.number || b.phase === "bid") return out;
  const seat = mover(a, b);
  if (seat === null) return out;
  const before = floorCards(a);
  const added = [...floorCards(b)].filter((c) => !before.has(c));
  out.last = { seat, cards: added };
  if (seat !== st.you) out.from = document.querySelector(`[data-testid="seat-box-${seat}"]`);
  const t = seat % 2;
  if (b.captured[t].cards > a.captured[t].cards) {
    out.to = document.querySelector(`[data-testid="team-${t}"]`);
    const swept = b.captured[t].sweeps > a.captured[t].sweeps;
    out.events.push(swept ? { sound: "sweep", moment: TEXT.sweep(seatName(st, seat)), kind: "sweep" }
      : { sound: "capture" });
  }
  return out;
}

/** The captured piles, for the panel: each team's cards, their count and points. */
export function piles(st) {
  const d = st.deal;
  if (!d) return [h("p", { class: "muted" }, TEXT.noCards)];
  return [0, 1].map((t) => {
    const c = d.captured[t];
    const cards = sortCards(c.pile || []);
    const label = st.players === 4 ? TEXT.team(t) : seatName(st, t);
    return h("section", { class: "pile-list", testid: `pile-${t}` },
      h("h3", {}, TEXT.teamPile(label, c.cards, c.points)),
      st.players === 4 ? h("p", { class: "muted" }, st.seats.filter((s) => s.seat % 2 === t)
        .flatMap((s, i) => [i ? " & " : "", nameEl(seatName(st, s.seat))])) : null,
      h("div", { class: "pile-cards" }, cards.length ? cards.map((x) => cardElement(x, { small: true }))
        : h("p", { class: "muted" }, TEXT.noCards)));
  });
}
