// The learn page of a game (/learn/{game}): what the game is, its first deal as steps the server's engine checks
// (POST /api/learn/{game}/step: never a rule in this file), and each variant's rules from the rules data.

import { _ } from "/static/i18n.js";
import { cardElement, cardText, spokenParts } from "/static/cards.js";
import { api, h, words } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const GAME = decodeURIComponent(location.pathname.split("/")[2] || "");
/** A row of cards (a hand, the floor) as a labelled list. */
function cardRow(label, cards, testid, blocked = {}) {
  return h("div", { class: "learn-row" },
    h("span", { class: "learn-label" }, label),
    h("ul", { class: "learn-cards", "aria-label": label, testid },
      cards.map((c) => {
        const e = cardElement(c, { testid: `${testid}-${c}` });
        if (blocked[c]) {
          e.classList.add("dim");
          e.title = words(`${cardText(c)}: ${blocked[c]}`);
        }
        return h("li", {}, e);
      })));
}

/** A step's position, drawn with the client's own cards. */
function position(p) {
  const parts = [];
  if (p.wild) parts.push(cardRow(_("Wild card (every card of its rank is a joker)"), [p.wild], "wild"));
  if (p.pile) parts.push(cardRow(_("Discard pile"), [p.pile], "pile"));
  if (p.face_down) {
    parts.push(h("div", { class: "learn-row" }, h("span", { class: "learn-label" }, _("Floor (face down)")),
      h("div", { class: "learn-cards" }, Array.from({ length: p.face_down }, () => cardElement(null)))));
  }
  if (p.loose && p.loose.length) parts.push(cardRow(_("Floor"), p.loose, "floor"));
  for (const house of p.houses || []) {
    const label = house.cemented ? _("Cemented house of {value} (yours)", { value: house.value })
      : _("House of {value} (yours)", { value: house.value });
    parts.push(cardRow(label, house.cards,
      `house-${house.value}`));
  }
  parts.push(cardRow(_("Your hand"), p.hand, "hand", p.blocked || {}));
  return h("div", { class: "learn-position" }, parts);
}

/** One step: what it teaches, its position, the moves to try and the engine's verdict. */
function stepItem(step, index) {
  const said = h("p", { class: "verdict", role: "status", "aria-live": "polite", testid: `verdict-${index}` });
  const tryMove = async (option, button) => {
    said.textContent = _("Checking…");
    try {
      const v = await api("POST", `/api/learn/${GAME}/step`, { step: index, action: option.action });
      said.textContent = words(v.verdict === "refused" ? _("Refused: {why}", { why: v.said }) : v.said);
      said.dataset.verdict = v.verdict;
      said.className = `verdict ${v.verdict}`;
      button.dataset.verdict = v.verdict;
    } catch (e) {
      said.textContent = e.message;
      said.className = "verdict error";
    }
  };
  const options = h("div", { class: "learn-options", role: "group", "aria-label": _("Moves to try") },
    step.options.map((option, i) => {
      const b = h("button", { type: "button", testid: `try-${index}-${i}` }, spokenParts(words(option.label)));
      b.addEventListener("click", () => tryMove(option, b));
      return b;
    }));
  return h("li", { class: "learn-step", testid: `step-${index}` },
    h("h3", {}, step.title), h("p", {}, step.teach), position(step.position), options, said);
}

function presetsBlock(presets) {
  return h("dl", { class: "learn-presets" }, presets.map((p, i) => [
    h("dt", {}, i === 0 ? _("{rules} (the default)", { rules: p.name }) : p.name),
    h("dd", {}, h("ul", {}, p.rules.map((line) => h("li", {}, words(line)))))]));
}

async function main() {
  let page;
  try {
    page = await api("GET", `/api/learn/${encodeURIComponent(GAME)}`);
  } catch (e) {
    $("status").textContent = e.message;
    return;
  }
  document.title = _("taash · learn {game}", { game: page.title });
  $("title").textContent = _("Learn {game}", { game: page.title });
  $("brand-game").textContent = _("Learn {game}", { game: page.title });
  $("about").replaceChildren(...page.about.map((p) => h("p", {}, p)));
  $("steps").replaceChildren(...page.steps.map(stepItem));
  $("presets").replaceChildren(presetsBlock(page.presets));
  $("status").textContent = "";
  document.body.dataset.ready = "1";
}

main();
