// The client's words in the player's language: the catalogue the server makes from the Babel .po files (GET
// /api/i18n/{lang}), loaded once before any page module runs (this module awaits it), so that `_("...")` answers
// at once. English is the messages as written; a message a catalogue lacks stays English. The language is the one
// the switch remembered (localStorage), else the first of the browser's (navigator.languages) taash speaks.

const STORED = "taash.lang";
const DEFAULT = "en";

/** The browser's languages as taash codes ("pa-IN" -> "pa"), in its order of preference. */
function browserLanguages() {
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  return wanted.filter(Boolean).map((l) => String(l).toLowerCase().split("-")[0]);
}

export function storedLanguage() {
  try {
    return localStorage.getItem(STORED);
  } catch (e) {
    return null;  // storage refused (a private window): the browser's language
  }
}

async function fetchCatalogue(code) {
  const response = await fetch(`/api/i18n/${encodeURIComponent(code)}`, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`no catalogue for ${code}`);
  return response.json();
}

/** The catalogue of the language asked for, else of the browser's first one we have, else English's (the list of
 * languages and no messages); nothing at all when the server cannot be reached (English, no switch). */
async function loadCatalogue() {
  const wanted = [storedLanguage(), ...browserLanguages()].filter(Boolean);
  let first;
  try {
    first = await fetchCatalogue(wanted[0] || DEFAULT);
  } catch (e) {
    try {
      first = await fetchCatalogue(DEFAULT);
    } catch (e2) {
      return { lang: DEFAULT, languages: { [DEFAULT]: "English" }, plural: "(n != 1)", messages: {} };
    }
  }
  const known = first.languages || {};
  const code = wanted.find((l) => l in known) || DEFAULT;
  return code === first.lang ? first : fetchCatalogue(code).catch(() => first);
}

// -- the .po's plural rule (a C expression of n), read without eval: the page's CSP allows none -----------------

const TOKEN = /\s*(\d+|n|\|\||&&|==|!=|<=|>=|[-+*/%<>!?:()])/y;

/** A function of n from a gettext plural expression ("n != 1", "(n > 1)", "n%10==1 && n%100!=11 ? 0 : 1"). */
export function pluralRule(expression) {
  const tokens = [];
  TOKEN.lastIndex = 0;
  const text = String(expression).trim().replace(/;$/, "");
  while (TOKEN.lastIndex < text.length) {
    const m = TOKEN.exec(text);
    if (!m) throw new Error(`bad plural rule: ${expression}`);
    tokens.push(m[1]);
  }
  let at = 0;
  const BINARY = { "||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, ">": 4, "<=": 4, ">=": 4, "+": 5, "-": 5, "*": 6,
    "/": 6, "%": 6 };
  const apply = (op, a, b) => ({ "||": () => +(a || b), "&&": () => +(a && b), "==": () => +(a === b),
    "!=": () => +(a !== b), "<": () => +(a < b), ">": () => +(a > b), "<=": () => +(a <= b), ">=": () => +(a >= b),
    "+": () => a + b, "-": () => a - b, "*": () => a * b, "/": () => Math.trunc(a / b), "%": () => a % b })[op]();
  function primary() {
    const t = tokens[at++];
    if (t === "(") {
      const inner = conditional();
      at++;  // ")"
      return inner;
    }
    if (t === "!") {
      const operand = primary();
      return (n) => +!operand(n);
    }
    if (t === "n") return (n) => n;
    const value = Number(t);
    return () => value;
  }
  function binary(min) {
    let left = primary();
    while (tokens[at] in BINARY && BINARY[tokens[at]] >= min) {
      const op = tokens[at++];
      const right = binary(BINARY[op] + 1);
      const l = left;
      left = (n) => apply(op, l(n), right(n));
    }
    return left;
  }
  function conditional() {
    const test = binary(1);
    if (tokens[at] !== "?") return test;
    at++;
    const yes = conditional();
    at++;  // ":"
    const no = conditional();
    return (n) => (test(n) ? yes(n) : no(n));
  }
  const rule = conditional();
  return (n) => Number(rule(n));
}

const catalogue = await loadCatalogue();
const plural = pluralRule(catalogue.plural || "(n != 1)");

/** The language the page speaks ("en", "hi", "pa"), and every language taash has, each named in itself. */
export const lang = catalogue.lang || DEFAULT;
export const LANGUAGES = catalogue.languages || { [DEFAULT]: "English" };
document.documentElement.lang = lang;

function fill(said, values) {
  return values ? said.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole)) : said;
}

/** `message` in the page's language, its `{placeholders}` filled from `values`. */
export function _(message, values = undefined) {
  const said = catalogue.messages && catalogue.messages[message];
  return fill(typeof said === "string" && said ? said : message, values);
}

/** Words the server said that are a message of the catalogue (a socket's close reason, a game's title), in the
 * page's language when the catalogue has them, else as said. */
export function translated(said) {
  const found = catalogue.messages && catalogue.messages[said];
  return typeof found === "string" && found ? found : said;
}

/** The sentence for `n` things (`{n}` is filled with it), by the language's own plural rule. */
export function ngettext(singular, plural_, n, values = undefined) {
  const forms = catalogue.messages && catalogue.messages[singular];
  const all = { n, ...(values || {}) };
  if (Array.isArray(forms) && forms.every(Boolean)) return fill(forms[Math.min(plural(n), forms.length - 1)], all);
  return fill(n === 1 ? singular : plural_, all);
}

/** A translated sentence whose placeholders are elements (a name in a <bdi>, a link): the parts in their order,
 * for h() or replaceChildren; the sentence is translated whole, never assembled from fragments:
 * `parts(_("Welcome, {name}."), { name: nameEl(n) })` (written so, `_` marks the message for the catalogue). */
export function parts(said, values) {
  // A value may itself be parts (a sentence within a sentence): its pieces are spliced in, never joined by commas.
  return said.split(/\{(\w+)\}/).flatMap((part, i) => (i % 2 ? (part in values ? values[part] : `{${part}}`) : part))
    .filter((part) => part !== "");
}

/** Translate the static words of a page: every element with `data-i18n` gets its English text (the msgid) in the
 * page's language, and `data-i18n-attr="placeholder title"` translates those attributes too. */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    const message = el.dataset.i18n || el.textContent.trim().replace(/\s+/g, " ");
    el.dataset.i18n = message;
    el.textContent = _(message);
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const name of el.dataset.i18nAttr.split(/\s+/).filter(Boolean)) {
      const kept = `data-i18n-was-${name}`; // the English, kept so that translating again starts from it
      if (!el.hasAttribute(kept)) el.setAttribute(kept, el.getAttribute(name) || "");
      el.setAttribute(name, _(el.getAttribute(kept)));
    }
  }
}

/** Speak `code` from now on: remembered in this browser (and the account's, when the page passes `save`), and the
 * page is drawn again in it. */
export async function useLanguage(code, save = null) {
  try {
    localStorage.setItem(STORED, code);
  } catch (e) {
    // storage refused: the choice lasts this page only
  }
  if (save) await save(code).catch(() => {});
  location.reload();
}

/** The language switch every page shows: a <select> of the languages, each named in itself. */
export function languageSwitch() {
  const select = document.createElement("select");
  select.dataset.testid = "language";
  select.setAttribute("aria-label", _("Language"));
  select.className = "language-switch";
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    option.selected = code === lang;
    select.appendChild(option);
  }
  select.addEventListener("change", () => useLanguage(select.value, saveToAccount));
  return select;
}

/** Keep `code` as the signed-in account's language (PUT /api/me/language); a guest with no account is refused
 * (409), and his browser alone remembers his choice. */
async function saveToAccount(code) {
  await fetch("/api/me/language", { method: "PUT", credentials: "same-origin",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify({ language: code }) });
}

/** A signed-in person's own language (`language` of GET /api/me or of the login's answer), spoken in this
 * browser too: remembered here and the page drawn again in it, unless it is already the one spoken. True when the
 * page is being drawn again. */
export function adoptLanguage(code) {
  if (!code || code === lang || !(code in LANGUAGES)) return false;
  useLanguage(code);
  return true;
}

/** Put the switch on the page (in its `#language` slot, else at the end of its first header) and translate its
 * static words. */
export function setUpPage() {
  translatePage();
  if (Object.keys(LANGUAGES).length < 2 || document.querySelector("[data-testid=language]")) return;
  const slot = document.getElementById("language") || document.querySelector("header") || document.body;
  slot.appendChild(languageSwitch());
}

setUpPage();
