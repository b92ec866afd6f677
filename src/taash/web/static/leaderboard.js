// Each game's leaderboard by rating.
import { api, h } from "/static/common.js";

const GAMES = [["seep", "Seep"], ["rummy", "13-card Rummy"]];

async function main() {
  const boards = document.getElementById("boards");
  for (const [game, title] of GAMES) {
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
      section.append(h("p", {}, "No finished match yet."));
      continue;
    }
    const rows = board.players.map((p) => h("tr", {},
      h("td", {}, String(p.rank)),
      h("td", {}, p.bot ? `${p.name} (bot)` : h("a", { href: `/p/${encodeURIComponent(p.player)}` }, p.name)),
      h("td", {}, p.rating.toFixed(1)),
      h("td", {}, String(p.matches)),
      h("td", {}, String(p.wins))));
    section.append(h("table", { class: "history" },
      h("thead", {}, h("tr", {}, ...["#", "Player", "Rating", "Matches", "Won"].map((t) => h("th", {}, t)))),
      h("tbody", {}, ...rows)));
  }
}

main();
