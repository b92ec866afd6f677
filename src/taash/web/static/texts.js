// The words a player reads in the table's options, sounds, moments and panels (static/feel.js and its modules),
// by key: `TEXT.options`, `TEXT.sweep(name)`. Each is a message of the catalogue (the English here is its msgid,
// `make i18n` extracts it into the .po files, static/i18n.js looks it up in the page's language, and a message not
// yet translated stays English). A function stands for a sentence with a value in it (the whole sentence, never
// fragments). To add one: a key whose value is `_("...")` (or a function of `_`/`ngettext`), then `make i18n` and
// the translations (tests/test_i18n.py lists those missing).

import { _, ngettext } from "/static/i18n.js";

export const TEXT = {
  options: _("Options"),
  optionsTitle: _("Table options"),
  close: _("Close"),
  sound: _("Sound"),
  soundOn: _("Sound on"),
  soundOff: _("Sound off"),
  fourColour: _("Four-colour deck (♦ blue, ♣ green)"),
  largeCards: _("Large cards"),
  notify: _("Tell me when it is my turn in another tab"),
  notifyDenied: _("This browser does not allow notifications for this site."),
  reducedMotion: _("Cards do not move: your system asks for reduced motion."),
  yourTurnTitle: (title) => _("● Your turn · {title}", { title }),
  yourTurnNote: (code) => _("It is your turn at table {code}.", { code }),
  piles: _("Cards taken and the log"),
  pilesTitle: _("Cards taken and the whole log"),
  wholeLog: _("The whole log"),
  logLoading: _("Loading the log…"),
  logFailed: (why) => _("The log could not be loaded: {why}.", { why }),
  lastPlay: _("Last play"),
  sweep: (name) => _("Seep! {name} sweeps the floor", { name }),
  baazi: (name) => _("Baazi! {name} wins a baazi", { name }),
  declared: (name) => _("{name} declares!", { name }),
  wrongDeclaration: (name) => _("{name}: a wrong declaration", { name }),
  team: (t) => (t === 0 ? _("Team A") : _("Team B")),
  teamPile: (team, cards, points) => _("{team}: {cards}, {points}", { team,
    cards: ngettext("{n} card", "{n} cards", cards), points: ngettext("{n} point", "{n} points", points) }),
  noCards: _("No cards yet."),
  discards: (n) => ngettext("The discard pile: {n} card, the top last", "The discard pile: {n} cards, the top last", n),
  discardedBy: (name) => _("discarded by {name}", { name }),
  openCard: _("the open card"),
};
