// The score sheet's words for the running difference, from the deals' results as the server sends them
// (docs/web-protocol.md, DealResult). No rule of the game here: a baazi, and whether the minimum rule won it,
// are the server's word; this only says them. Each returns the parts of a sentence (text, and the names that
// `name(team)` gives, elements that keep a right-to-left name apart from the words around it) for h().
import { _, parts } from "/static/i18n.js";

/** `diff` (team 0 minus team 1) in words: "0", or "116 to Team A" (`name(team)` names a team). */
export function leadText(diff, name) {
  return diff === 0 ? ["0"] : parts(_("{points} to {team}"), { points: Math.abs(diff), team: name(diff > 0 ? 0 : 1) });
}

/** The lead the running count reached with deal `i`: the difference before it plus the deal's own; for a deal
 * that won a baazi, the lead that won it (the server's `difference` is then already back to 0). */
export function leadReached(deals, i) {
  const before = i > 0 ? deals[i - 1].difference : 0;
  return before + deals[i].score[0] - deals[i].score[1];
}

function wonBaazi(r) {
  return r.baazi !== null && r.baazi !== undefined;
}

/** The history's "diff." cell of deal `i`. */
export function differenceCell(deals, i, name) {
  const r = deals[i];
  if (!wonBaazi(r)) return leadText(r.difference, name);
  if (r.minimum_rule) return [_("minimum rule: a baazi, back to 0")];
  return parts(_("{lead}: a baazi, back to 0"), { lead: leadText(leadReached(deals, i), name) });
}

/** The sheet's line on the running difference after deal `i`. */
export function differenceLine(deals, i, name) {
  const r = deals[i];
  if (!wonBaazi(r)) return parts(_("Running difference: {lead}"), { lead: leadText(r.difference, name) });
  if (r.minimum_rule) {
    return parts(_("{team} won the baazi by the minimum rule; the running difference starts again from 0"),
      { team: name(r.baazi) });
  }
  return parts(_("The lead of {lead} won the baazi; the running difference starts again from 0"),
    { lead: leadText(leadReached(deals, i), name) });
}
