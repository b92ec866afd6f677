// The learn page of a game (/learn/{game}): what the game is, its first deal as steps the server's engine checks
// (POST /api/learn/{game}/step: never a rule in this file), and each variant's rules from the rules data.

import { cardElement, cardText } from "/static/cards.js";
import { api, h, words } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const GAME = decodeURIComponent(location.pathname.split("/")[2] || "");
const TITLES = { seep: "Seep", rummy: "13-card Rummy" };

// How each game goes, in plain words (the rules themselves, and what each move does, come from the server).
const ABOUT = {
  seep: [
    "Seep (Sweep) is a capturing game for two players, or four in two teams of partners sitting opposite.",
    "The player after the dealer sees four cards and bids a value from 9 to king (13) that he holds; four cards " +
      "are turned up on the floor, he makes the first play, and everyone is dealt twelve cards.",
    "Each turn you play one card: capture the floor cards that add up to its value, build a house (a pile of 9 " +
      "to 13 that only a card of its value takes), add to a house to cement it, or throw the card loose.",
    "Spades, aces and the ten of diamonds score; a capture that clears the floor is a sweep (seep). A running " +
      "lead of 100 points wins a baazi.",
  ],
  rummy: [
    "13-card Rummy (Indian Rummy) is for two to six players, each on his own, with two or more packs and jokers.",
    "Each turn you take a card, from the face-down stock or the open discard pile, and discard one, arranging " +
      "your thirteen cards into sequences (runs of one suit) and sets (one rank, different suits).",
    "A card of the deal's wild rank is a joker and may stand in for any card; a pure sequence has none. A " +
      "declaration needs a pure sequence and a second sequence; the first to declare validly wins the deal.",
    "The others score the points of the cards left outside their melds; the lowest total wins.",
  ],
};

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
  if (p.wild) parts.push(cardRow("Wild card (every card of its rank is a joker)", [p.wild], "wild"));
  if (p.pile) parts.push(cardRow("Discard pile", [p.pile], "pile"));
  if (p.face_down) {
    parts.push(h("div", { class: "learn-row" }, h("span", { class: "learn-label" }, "Floor (face down)"),
      h("div", { class: "learn-cards" }, Array.from({ length: p.face_down }, () => cardElement(null)))));
  }
  if (p.loose && p.loose.length) parts.push(cardRow("Floor", p.loose, "floor"));
  for (const house of p.houses || []) {
    parts.push(cardRow(`${house.cemented ? "Cemented house" : "House"} of ${house.value} (yours)`, house.cards,
      `house-${house.value}`));
  }
  parts.push(cardRow("Your hand", p.hand, "hand", p.blocked || {}));
  return h("div", { class: "learn-position" }, parts);
}

/** One step: what it teaches, its position, the moves to try and the engine's verdict. */
function stepItem(step, index) {
  const said = h("p", { class: "verdict", role: "status", "aria-live": "polite", testid: `verdict-${index}` });
  const tryMove = async (option, button) => {
    said.textContent = "Checking…";
    try {
      const v = await api("POST", `/api/learn/${GAME}/step`, { step: index, action: option.action });
      said.textContent = words(v.verdict === "refused" ? `Refused: ${v.said}` : v.said);
      said.dataset.verdict = v.verdict;
      said.className = `verdict ${v.verdict}`;
      button.dataset.verdict = v.verdict;
    } catch (e) {
      said.textContent = e.message;
      said.className = "verdict error";
    }
  };
  const options = h("div", { class: "learn-options", role: "group", "aria-label": "Moves to try" },
    step.options.map((option, i) => {
      const b = h("button", { type: "button", testid: `try-${index}-${i}` }, words(option.label));
      b.addEventListener("click", () => tryMove(option, b));
      return b;
    }));
  return h("li", { class: "learn-step", testid: `step-${index}` },
    h("h3", {}, step.title), h("p", {}, step.teach), position(step.position), options, said);
}

function presetsBlock(presets) {
  return h("dl", { class: "learn-presets" }, presets.map((p, i) => [
    h("dt", {}, p.name + (i === 0 ? " (the default)" : "")),
    h("dd", {}, h("ul", {}, p.rules.map((line) => h("li", {}, words(line)))))]));
}

async function main() {
  const title = TITLES[GAME];
  if (!title) {
    $("status").textContent = "No such game to learn.";
    return;
  }
  document.title = `taash · learn ${title}`;
  $("title").textContent = `Learn ${title}`;
  $("brand-game").textContent = `Learn ${title}`;
  $("about").replaceChildren(...ABOUT[GAME].map((p) => h("p", {}, p)));
  let page;
  try {
    page = await api("GET", `/api/learn/${encodeURIComponent(GAME)}`);
  } catch (e) {
    $("status").textContent = e.message;
    return;
  }
  $("steps").replaceChildren(...page.steps.map(stepItem));
  $("presets").replaceChildren(presetsBlock(page.presets));
  $("status").textContent = "";
  document.body.dataset.ready = "1";
}

main();
