// Tic-tac-toe's view of a table (the tests' game: tests/games/tictactoe_plugin.py), drawn in the table page's
// shell (static/table.js). The server says whose turn it is and which squares are legal; this only draws them.

import { h, nameEl } from "/static/common.js";

let T = null;

export const brand = "Tic-tac-toe";

export function init(table) { T = table; }

export function myTurn(st) {
  const d = st && st.deal;
  return Boolean(st && st.status === "playing" && d && st.you !== null && d.legal.length);
}

export function info(st) { return `${st.players} players · one game`; }

export function seatsNote() { return "Tic-tac-toe: three in a row wins."; }

export function statusText(st) {
  const d = st.deal;
  if (d.to_move === null || d.to_move === undefined) return "";
  return [nameEl(T.seatName(d.to_move)), ` to mark (${d.x === d.to_move ? "X" : "O"}).`];
}

export function turnText(st) {
  const d = st.deal;
  if (myTurn(st)) return "Your turn";
  return d && d.to_move !== null && d.to_move !== undefined ? [T.seatNameEl(d.to_move), " to mark"] : "";
}

export function onState() {}

function mark(square) {
  T.send({ type: "mark", square, version: T.S.version, id: T.nextId() });
}

export function render(st) {
  const d = st.deal;
  const legal = new Set(d.legal);
  const grid = h("div", { class: "tictactoe", testid: "tictactoe-board", role: "grid" },
    ...d.board.map((m, i) => h("button", {
      type: "button", testid: `square-${i}`, disabled: !legal.has(i) || Boolean(T.S.pending),
      "aria-label": m ? `square ${i + 1}: ${m}` : `square ${i + 1}: empty`, onclick: () => mark(i),
    }, m || "\u00a0")));
  T.$("floor").replaceChildren(grid);
  for (const id of ["bids", "plays", "hand", "scores"]) T.$(id).replaceChildren();
  for (const slot of ["top", "left", "right", "bottom"]) T.$(`slot-${slot}`).replaceChildren();
}

export function winnerText(st) {
  const w = st.score && st.score.winner;
  return w === null || w === undefined ? ["A draw."] : [T.seatNameEl(w), " wins."];
}

export function sheet() { return []; }

export function onKey() { return false; }
