// The tournaments: the list with a form to make one (/tournaments), and one tournament with its live standings,
// its matches (each table to watch), the buttons to register or withdraw, and its chat (/tournaments/ID). Every
// rule is the server's: the page shows what the API says, pushed over the tournament's websocket at every change
// (docs/web-protocol.md); while that socket is down, it asks again every few seconds.
import { tableChat } from "/static/chat.js";
import { api, games, h, me, nameEl } from "/static/common.js";
import { lang } from "/static/i18n.js";
import { TEXT } from "/static/texts.js";

// Seconds between two looks at a tournament while its websocket is down, and before connecting it again.
const REFRESH = 3;

function field(label, input) {
  return h("label", {}, label, " ", input);
}

async function listPage(main, status) {
  const offered = await games().catch(() => ({}));
  const list = h("section", { class: "panel", "data-testid": "tournament-list" }, h("h2", {}, TEXT.tournaments));
  const found = await api("GET", "/api/tournaments");
  if (!found.length) list.append(h("p", {}, TEXT.tournamentNone));
  for (const t of found) {
    list.append(h("p", { "data-testid": "tournament-row" },
      h("a", { href: `/tournaments/${t.id}` }, t.name), ` · ${(offered[t.game] || { title: t.game }).title} · `,
      `${TEXT[t.kind] || t.kind} · ${TEXT.tournamentEntrants(t.entrants, t.capacity)} · `,
      TEXT.tournamentStatus(t.status, t.round)));
  }
  const game = h("select", { name: "game" }, ...Object.values(offered).map((g) => h("option", { value: g.name }, g.title)));
  const form = h("form", { class: "table-form", "data-testid": "tournament-form" },
    field(TEXT.tournamentName, h("input", { name: "name", required: true, maxlength: "60" })),
    field(TEXT.tournamentGame, game),
    field(TEXT.tournamentKind, h("select", { name: "kind" }, h("option", { value: "knockout" }, TEXT.knockout),
      h("option", { value: "swiss" }, TEXT.swiss), h("option", { value: "arena" }, TEXT.arena))),
    field(TEXT.tournamentMinutes, h("input", { name: "minutes", type: "number", min: "1", max: "1440", value: "30" })),
    field(TEXT.tournamentSeats, h("input", { name: "players", type: "number", min: "2", max: "6", value: "2" })),
    field(TEXT.tournamentCapacity, h("input", { name: "capacity", type: "number", min: "2", max: "64", value: "8" })),
    field(TEXT.tournamentFee, h("input", { name: "fee", type: "number", min: "0", value: "0" })),
    field(TEXT.tournamentBots, h("input", { name: "bots", type: "checkbox", checked: true })),
    h("button", { type: "submit" }, TEXT.tournamentCreate));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    try {
      const made = await api("POST", "/api/tournaments", {
        name: data.get("name"), game: data.get("game"), kind: data.get("kind"),
        players: Number(data.get("players")), capacity: Number(data.get("capacity")),
        ...(data.get("kind") === "arena" ? { minutes: Number(data.get("minutes")) } : {}),
        fee: Number(data.get("fee")), bots: data.get("bots") === "on" });
      location.href = `/tournaments/${made.id}`;
    } catch (e) {
      status.textContent = e.message;
    }
  });
  main.append(list, h("section", { class: "panel" }, h("h2", {}, TEXT.tournamentNew), form));
}

function standingsTable(t) {
  const rows = t.standings.map((s) => h("tr", { "data-testid": "standing" },
    h("td", {}, String(s.place)),
    h("td", {}, s.bot ? s.name : h("a", { href: `/p/${encodeURIComponent(s.id)}` }, nameEl(s.name))),
    h("td", {}, String(s.score)),
    h("td", {}, s.prize ? s.prize.toLocaleString("en-IN") : "")));
  return h("table", { class: "history" }, h("thead", {}, h("tr", {},
    ...[TEXT.tournamentPlace, TEXT.tournamentPlayer, TEXT.tournamentScore, TEXT.tournamentPrize]
      .map((x) => h("th", {}, x)))), h("tbody", {}, ...rows));
}

function matchLine(m) {
  return h("li", { "data-testid": "tournament-match" }, `${TEXT.tournamentRound(m.round)}: `,
    ...m.seats.flatMap((s, i) => [i ? ", " : "", nameEl(s)]),
    m.goers.length ? ` — ${TEXT.tournamentGoesOn(m.goers.join(", "))}` : "",
    m.table ? [" · ", h("a", { href: `/t/${m.table}` }, TEXT.tournamentWatch)] : "");
}

/** The tournament's websocket: `onMessage` gets each message; `onDown` is told when it closes (it reconnects). */
function tournamentSocket(id, onMessage, onDown) {
  const T = { ws: null, counter: 0 };
  const connect = () => {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = lang !== "en" ? `?lang=${encodeURIComponent(lang)}` : "";
    const ws = new WebSocket(`${proto}//${location.host}/ws/tournaments/${encodeURIComponent(id)}${q}`);
    T.ws = ws;
    ws.onmessage = (event) => {
      try {
        onMessage(JSON.parse(event.data));
      } catch (e) {
        /* not JSON: ignored */
      }
    };
    ws.onclose = () => {
      if (T.ws !== ws) return;
      T.ws = null;
      onDown();
      setTimeout(connect, REFRESH * 1000);
    };
  };
  connect();
  return {
    open: () => T.ws !== null && T.ws.readyState === WebSocket.OPEN,
    send: (m) => { if (T.ws && T.ws.readyState === WebSocket.OPEN) T.ws.send(JSON.stringify(m)); },
    nextId: () => `t${++T.counter}`,
  };
}

async function onePage(main, status, id) {
  const view = h("section", { class: "panel", "data-testid": "tournament" });
  const guest = await me().catch(() => null);
  let socket = null;
  const chat = tableChat({ send: (m) => socket.send(m), nextId: () => socket.nextId(), tableId: null,
    guestId: () => (guest ? guest.id : null) });
  main.append(view, chat.panel);
  let timer = null;
  const poll = async () => {
    clearTimeout(timer);
    if (socket && socket.open()) return;
    let t;
    try {
      t = await api("GET", `/api/tournaments/${encodeURIComponent(id)}`);
    } catch (e) {
      status.textContent = e.message;
      return;
    }
    show(t);
    if (!["finished", "cancelled"].includes(t.status)) timer = setTimeout(poll, REFRESH * 1000);
  };
  const show = (t) => {
    document.title = `taash · ${t.name}`;
    const act = async (what) => {
      try {
        await api("POST", `/api/tournaments/${t.id}/${what}`);
        status.textContent = "";
      } catch (e) {
        status.textContent = e.message;
      }
      poll();
    };
    const buttons = t.status !== "open" ? [] : [t.registered
      ? h("button", { type: "button", "data-testid": "withdraw", onclick: () => act("withdraw") }, TEXT.tournamentWithdraw)
      : h("button", { type: "button", "data-testid": "register", onclick: () => act("register") }, TEXT.tournamentRegister)];
    view.replaceChildren(h("h2", {}, t.name),
      h("p", { "data-testid": "tournament-status" }, `${TEXT[t.kind] || t.kind} · `,
        TEXT.tournamentStatus(t.status, t.round), " · ", TEXT.tournamentEntrants(t.entrants, t.capacity)),
      h("p", {}, TEXT.tournamentFeeWords(t.fee, t.pool)),
      t.kind === "arena" ? h("p", { "data-testid": "arena-window" }, t.ends_at
        ? TEXT.arenaEnds(new Date(t.ends_at * 1000).toLocaleTimeString()) : TEXT.arenaLasts(t.minutes)) : "",
      t.status === "cancelled" ? h("p", { "data-testid": "tournament-cancelled" }, TEXT.tournamentCancelled) : "",
      ...buttons,
      h("h3", {}, TEXT.tournamentStandings),
      t.standings.length ? standingsTable(t) : h("ul", {}, ...t.people.map((p) => h("li", {}, nameEl(p.name)))),
      h("h3", {}, TEXT.tournamentMatches), h("ul", {}, ...t.matches.map(matchLine)));
    chat.showFor({ you: t.registered ? 0 : null, public: true });
  };
  socket = tournamentSocket(id, (m) => {
    if (m.type === "tournament") show(m.tournament);
    else if (m.type === "error") status.textContent = m.message;
    else chat.onMessage(m);
  }, poll);
  await poll();
}

async function main() {
  const main = document.getElementById("tournaments");
  const status = document.getElementById("status");
  try {
    // One page for the list (/tournaments) and for one tournament (/tournaments/{id}): the path says which.
    const id = location.pathname.replace(/\/+$/, "").split("/").slice(2).join("/");
    if (!id) await listPage(main, status);
    else await onePage(main, status, decodeURIComponent(id));
  } catch (e) {
    status.textContent = e.message;
  }
}

main();
