// Each game's leaderboard by rating, and the board of chips (people by their wallets, a page at a time).
import { _ } from "/static/i18n.js";
import { accountMark, api, chipsText, games, h, nameEl } from "/static/common.js";

// People a page of the board of chips shows.
const CHIPS_PAGE = 25;

function person(p) {
  return [h("a", { href: `/p/${encodeURIComponent(p.player)}` }, nameEl(p.name)), accountMark(p.account)];
}

function table(headings, rows) {
  return h("table", { class: "history" },
    h("thead", {}, h("tr", {}, ...headings.map((t) => h("th", {}, t)))),
    h("tbody", {}, ...rows));
}

/** The board of chips from `offset`, with the buttons to the pages before and after. */
async function showChips(section, offset) {
  let board;
  try {
    board = await api("GET", `/api/leaderboard/chips?limit=${CHIPS_PAGE}&offset=${offset}`);
  } catch (e) {
    section.replaceChildren(h("h2", {}, _("Chips")), h("p", {}, e.message));
    return;
  }
  const body = board.players.length
    ? table(["#", _("Player"), _("Chips"), _("Won at tables"), _("Staked matches")], board.players.map((p) => h("tr", {
      "data-testid": "chips-row" },
    h("td", {}, String(p.rank)),
    h("td", {}, person(p)),
    h("td", {}, p.balance.toLocaleString("en-IN")),
    h("td", { class: p.won > 0 ? "chips-won" : p.won < 0 ? "chips-lost" : "" }, chipsText(p.won)),
    h("td", {}, String(p.matches)))))
    : h("p", {}, _("Nobody has chips yet."));
  const pages = h("div", { class: "board-pages" },
    h("button", { type: "button", testid: "chips-prev", disabled: offset === 0,
      onclick: () => showChips(section, Math.max(0, offset - CHIPS_PAGE)) }, _("Previous")),
    h("span", {}, board.total ? _("{first}–{last} of {total}",
      { first: offset + 1, last: offset + board.players.length, total: board.total }) : ""),
    h("button", { type: "button", testid: "chips-next", disabled: offset + board.players.length >= board.total,
      onclick: () => showChips(section, offset + CHIPS_PAGE) }, _("Next")));
  section.replaceChildren(h("h2", {}, _("Chips")), body, pages);
}

async function main() {
  const boards = document.getElementById("boards");
  const chips = h("section", { class: "panel", "data-testid": "board-chips" }, h("h2", {}, _("Chips")));
  boards.append(chips);
  await showChips(chips, 0);
  let offered = {};
  try {
    offered = await games();
  } catch (e) {
    boards.append(h("p", {}, e.message));
  }
  for (const { name: game, title } of Object.values(offered)) {
    const section = h("section", { class: "panel", "data-testid": `board-${game}` }, h("h2", {}, title));
    boards.append(section);
    let board;
    try {
      board = await api("GET", `/api/leaderboard/${game}`);
    } catch (e) {
      section.append(h("p", {}, e.message));
      continue;
    }
    if (!board.players.length) {
      section.append(h("p", {}, _("No finished match yet.")));
      continue;
    }
    const rows = board.players.map((p) => h("tr", {},
      h("td", {}, String(p.rank)),
      h("td", {}, p.bot ? [nameEl(p.name), ` ${_("(bot)")}`] : person(p)),
      h("td", {}, p.rating.toFixed(1)),
      h("td", {}, String(p.matches)),
      h("td", {}, String(p.wins))));
    section.append(table(["#", _("Player"), _("Rating"), _("Matches"), _("Won")], rows));
  }
}

main();
