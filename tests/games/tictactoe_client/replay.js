// One step of a tic-tac-toe replay (the tests' game), drawn into the replay page's boxes.

import { h } from "/static/common.js";

export const brand = "Tic-tac-toe";

export function renderStep($, r, deal, step) {
  $("said").textContent = step.said;
  $("replay-floor").replaceChildren(h("div", { class: "tictactoe", testid: "replay-board" },
    ...step.board.map((m, i) => h("span", { testid: `replay-square-${i}` }, m || String(i + 1)))));
  $("hands").replaceChildren();
  $("deal-score").replaceChildren();
}
