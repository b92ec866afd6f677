// A player's page: his chips, his statistics per game and his finished matches, each with its replay and the chips
// it moved for him.
import { _, ngettext } from "/static/i18n.js";
import { accountMark, api, chipsText, games, h, levelLabel, me, nameEl } from "/static/common.js";
import { personButtons } from "/static/friends.js";
import { TEXT } from "/static/texts.js";

/** A total of the statistics, counted ("3 sweeps"). */
const TOTAL_NAMES = {
  sweeps: (n) => ngettext("{n} sweep", "{n} sweeps", n),
  baazis: (n) => ngettext("{n} baazi", "{n} baazis", n),
  valid_declarations: (n) => ngettext("{n} valid declaration", "{n} valid declarations", n),
  drops: (n) => ngettext("{n} drop", "{n} drops", n),
  wrong_declarations: (n) => ngettext("{n} wrong declaration", "{n} wrong declarations", n),
};

async function main() {
  const status = document.getElementById("status");
  const id = decodeURIComponent(location.pathname.split("/").pop());
  let person;
  try {
    person = await api("GET", `/api/people/${encodeURIComponent(id)}`);
  } catch (e) {
    status.textContent = e.message;
    return;
  }
  status.hidden = true;
  document.title = `taash · ${person.name}`;
  document.getElementById("name").replaceChildren(nameEl(person.name), accountMark(person.account) || "");
  me().then((visitor) => personButtons(document.getElementById("person-social"), visitor, { ...person, id }))
    .catch(() => {});
  if (person.balance !== null) {
    const balance = document.getElementById("balance");
    balance.textContent = ngettext("{n} chip in the wallet", "{n} chips in the wallet", person.balance,
      { n: person.balance.toLocaleString("en-IN") });
    balance.hidden = false;
  }
  const offered = await games().catch(() => ({}));
  const title = (game) => (offered[game] || { title: game }).title;
  const stats = document.getElementById("stats");
  for (const [game, s] of Object.entries(person.stats)) {
    const totals = Object.entries(s.totals).map(([k, v]) => (TOTAL_NAMES[k] ? TOTAL_NAMES[k](v) : `${v} ${k}`));
    const line = _("{game}: {matches}, {won}, {points} points a match", { game: title(game),
      matches: ngettext("{n} match", "{n} matches", s.matches), won: ngettext("{n} won", "{n} won", s.wins),
      points: s.average_points });
    stats.append(h("p", { "data-testid": `stats-${game}` }, line + (totals.length ? `; ${totals.join(", ")}` : "")));
  }
  stats.hidden = Object.keys(person.stats).length === 0;
  const body = document.getElementById("matches");
  if (!person.matches.length) body.append(h("tr", {}, h("td", { colspan: "7" }, _("No finished match yet."))));
  for (const m of person.matches) {
    const seats = m.seats.flatMap((s, i) => [i ? ", " : "", nameEl(s.name), accountMark(s.account),
      s.seat === m.seat ? ` ${_("(here)")}` : ""]);
    body.append(h("tr", {},
      h("td", {}, title(m.game)),
      h("td", {}, new Date(m.finished_at).toLocaleString()),
      h("td", {}, ...seats),
      h("td", { "data-testid": "match-result", class: m.rated === false ? "muted" : "" },
        m.counts_as || (m.won ? _("won") : _("lost"))),
      h("td", {}, String(m.points)),
      h("td", { "data-testid": "match-chips", class: m.chips > 0 ? "chips-won" : m.chips < 0 ? "chips-lost" : "" },
        chipsText(m.chips)),
      h("td", {}, h("a", { href: m.replay }, _("replay")))));
  }
  showOffline(id, title);
  showTournaments(id);
}

/** His offline matches against the computer, uploaded once online: apart from the rest, each marked offline. */
async function showOffline(id, title) {
  const found = await api("GET", `/api/people/${encodeURIComponent(id)}/offline`).catch(() => []);
  const section = document.getElementById("offline");
  section.hidden = found.length === 0;
  document.getElementById("offline-matches").replaceChildren(...found.map((m) => {
    const mine = m.summary.seats[0];
    const seats = m.summary.seats.flatMap((s, i) => [i ? ", " : "", nameEl(s.name),
      s.bot ? ` (${_("{level} bot", { level: levelLabel(m.summary.level) })})` : ""]);
    return h("tr", { "data-testid": "person-offline-match" },
      h("td", {}, title(m.game), " ", h("span", { class: "badge", "data-testid": "offline-mark" }, _("offline"))),
      h("td", {}, new Date(m.uploaded_at).toLocaleString()),
      h("td", {}, ...seats),
      h("td", {}, mine.won ? _("won") : _("lost")),
      h("td", {}, String(mine.points)),
      h("td", { class: "muted" }, _("not rated")));
  }));
}

/** The tournaments he entered, with his place and prize once each is over. */
async function showTournaments(id) {
  const entered = await api("GET", `/api/people/${encodeURIComponent(id)}/tournaments`).catch(() => []);
  const section = document.getElementById("tournaments");
  section.hidden = entered.length === 0;
  section.replaceChildren(h("h3", {}, TEXT.tournamentHistory), h("ul", {}, ...entered.map((t) => h("li", {
    "data-testid": "person-tournament" }, h("a", { href: `/tournaments/${t.id}` }, t.name), " · ",
  TEXT.tournamentStatus(t.status, 0), t.place ? ` · ${TEXT.tournamentPlaced(t.place, t.prize)}` : ""))));
}

main();
