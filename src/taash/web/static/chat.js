// The chat at a table (docs/web-protocol.md, "Chat"): text, quick phrases and emotes over the table's websocket,
// the recent lines when the page connects, mute (this browser remembers whom), report, and the word filter a
// private table's creator may switch off. Everything people typed is shown with textContent (h() makes text
// nodes), never as markup. The server decides who may say what and who hears it; this page only shows it.

import { api, h, toast } from "/static/common.js";
import { TEXT } from "/static/texts.js";

const MUTED_KEY = "taash-muted";
const MAX_TEXT = 200; // the server's limit too (it refuses longer lines itself)

/** The people this browser has muted: {guest id: name}. */
export function mutedPeople() {
  try {
    const found = JSON.parse(localStorage.getItem(MUTED_KEY) || "{}");
    return found && typeof found === "object" ? found : {};
  } catch (e) {
    return {};
  }
}

function setMuted(id, name, on) {
  const people = mutedPeople();
  if (on) people[id] = name;
  else delete people[id];
  localStorage.setItem(MUTED_KEY, JSON.stringify(people));
}

/** The quick phrases and emotes in this page's language, from the server (their ids are defined there once). */
let catalogue = null;
export async function loadCatalogue() {
  if (catalogue) return catalogue;
  const lang = (document.documentElement.lang || navigator.language || "en").slice(0, 2);
  try {
    const got = await api("GET", `/api/chat/phrases?lang=${encodeURIComponent(lang)}`);
    catalogue = {
      phrases: Object.fromEntries(got.phrases.map((p) => [p.id, p])),
      emotes: Object.fromEntries(got.emotes.map((e) => [e.id, e])),
    };
  } catch (e) {
    catalogue = { phrases: {}, emotes: {} };
  }
  return catalogue;
}

/** What a line says, as nodes: a text as text, a phrase in words, an emote as its symbol and words. */
function said(m) {
  if (typeof m.text === "string") return h("span", { class: "chat-text", testid: "chat-text" }, m.text);
  if (typeof m.phrase === "string") {
    const p = catalogue && catalogue.phrases[m.phrase];
    return h("span", { class: "chat-phrase", testid: "chat-phrase" }, p ? p.words : m.phrase);
  }
  const e = catalogue && catalogue.emotes[m.emote];
  return h("span", { class: "chat-emote", testid: "chat-emote", dataset: { emote: String(m.emote) } },
    h("span", { "aria-hidden": "true" }, e ? e.symbol : ""), " ", h("em", {}, e ? e.words : String(m.emote)));
}

/** One line of the chat: who (a name is text too) and what, with mute and report beside someone else's. */
export function lineElement(m, { mine = false, onMute = null, onReport = null } = {}) {
  const li = h("li", { class: "chat-line", testid: "chat-line", dataset: { line: String(m.line || "") } },
    h("strong", { class: "chat-name", testid: "chat-name" }, String(m.name || "")), m.bot ? ` ${TEXT.chatBot}` : "",
    ": ", said(m));
  if (!mine && m.from && onMute) {
    li.append(" ", h("button", { type: "button", class: "link-button", testid: "chat-mute",
      onclick: () => onMute(m) }, TEXT.chatMute));
  }
  if (!mine && m.line && onReport) {
    li.append(" ", h("button", { type: "button", class: "link-button", testid: "chat-report",
      onclick: () => onReport(m) }, TEXT.chatReport));
  }
  return li;
}

/** The chat panel of a table page: `table` gives send, nextId and who this page is (`guestId()`). */
export function tableChat(table) {
  const C = { lines: [], filter: true, shown: false, filterAsked: false };
  const list = h("ol", { class: "chat-lines", testid: "chat-lines", "aria-live": "polite",
    "aria-label": TEXT.chatTitle });
  const input = h("input", { type: "text", maxlength: String(MAX_TEXT), testid: "chat-input",
    "aria-label": TEXT.chatPlaceholder, placeholder: TEXT.chatPlaceholder, autocomplete: "off" });
  const form = h("form", { class: "chat-form", testid: "chat-form" }, input,
    h("button", { type: "submit", testid: "chat-send" }, TEXT.chatSend));
  const quick = h("div", { class: "chat-quick", testid: "chat-quick" });
  const filterBox = h("label", { class: "chat-filter", testid: "chat-filter", hidden: true });
  const mutedBox = h("p", { class: "muted chat-muted", testid: "chat-muted" });
  const panel = h("section", { id: "chat", class: "panel chat", testid: "chat", hidden: true },
    h("h2", { class: "minor-title" }, TEXT.chatTitle), list, form, quick, filterBox, mutedBox);

  function say(message) {
    table.send({ type: "chat", id: table.nextId(), ...message });
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (text.length > MAX_TEXT) {
      toast(TEXT.chatTooLong(MAX_TEXT), "error");
      return;
    }
    say({ text });
    input.value = "";
  });

  async function fillQuick() {
    const cat = await loadCatalogue();
    quick.replaceChildren(
      ...Object.values(cat.phrases).map((p) => h("button", { type: "button", class: "chat-chip",
        testid: `chat-phrase-${p.id}`, onclick: () => say({ phrase: p.id }) }, p.words)),
      ...Object.values(cat.emotes).map((e) => h("button", { type: "button", class: "chat-chip emote",
        testid: `chat-emote-${e.id}`, title: e.words, "aria-label": e.words, onclick: () => say({ emote: e.id }) },
      e.symbol)));
    render();
  }

  function mute(m) {
    setMuted(m.from, m.name, true);
    toast(TEXT.chatMuted(m.name));
    render();
  }

  async function report(m) {
    try {
      await api("POST", "/api/chat/report", { line: m.line });
      toast(TEXT.chatReported);
    } catch (e) {
      toast(e.message || String(e), "error");
    }
  }

  function renderMuted() {
    const people = Object.entries(mutedPeople());
    mutedBox.replaceChildren(...(people.length ? [TEXT.chatMutedList, " "] : []),
      ...people.map(([id, name]) => h("button", { type: "button", class: "link-button", testid: "chat-unmute",
        onclick: () => { setMuted(id, name, false); render(); } }, TEXT.chatUnmute(name))));
  }

  function render() {
    const muted = mutedPeople();
    const me = table.guestId();
    list.replaceChildren(...C.lines.filter((m) => !(m.from && m.from in muted)).map((m) => lineElement(m,
      { mine: m.from === me, onMute: mute, onReport: me ? report : null })));
    list.scrollTop = list.scrollHeight;
    renderMuted();
  }

  function renderFilter(mayswitch) {
    filterBox.hidden = !mayswitch;
    if (!mayswitch) return;
    const box = h("input", { type: "checkbox", testid: "chat-filter-on", checked: C.filter,
      onchange: () => table.send({ type: "chat_filter", on: box.checked, id: table.nextId() }) });
    filterBox.replaceChildren(box, " ", TEXT.chatFilter);
  }

  async function askFilter() {
    try {
      const got = await api("GET", `/api/tables/${table.tableId}/chat-filter`);
      C.filter = got.on;
      renderFilter(got.may_switch);
    } catch (e) {
      renderFilter(false);
    }
  }

  return {
    panel,
    /** Show the panel when this page may chat: a seated player, or a watcher of a public table. */
    showFor(state) {
      const may = (state.you !== null && state.you !== undefined) || state.public;
      panel.hidden = !may;
      if (may && !C.shown) {
        C.shown = true;
        fillQuick();
      }
      if (may && !state.public && !C.filterAsked) {
        C.filterAsked = true;
        askFilter();
      }
    },
    /** A chat message of the websocket (chat, chat_history, chat_filter): true when it was one. */
    onMessage(m) {
      if (m.type === "chat") C.lines.push(m);
      else if (m.type === "chat_history") {
        C.lines = m.lines.slice();
        C.filter = m.filter;
      } else if (m.type === "chat_filter") {
        C.filter = m.on;
        toast(m.on ? TEXT.chatFilterOn : TEXT.chatFilterOff);
        if (!filterBox.hidden) renderFilter(true);
      } else return false;
      if (C.lines.length > 200) C.lines = C.lines.slice(-200);
      render();
      return true;
    },
  };
}
