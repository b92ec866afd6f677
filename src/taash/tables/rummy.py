"""13-card Rummy at a table: its settings, the log's words, and the JSON the browser's Rummy view draws."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import orjson

from taash.cards import CardError
from taash.fairness import Fairness
from taash.games.api import Action, State
from taash.games.registry import plugin
from taash.i18n import N_, _, ngettext, number_word, said_of
from taash.packs import face_name, face_symbol, parse_face, parse_rank, rank_name
from taash.rummy.deal import DealPoints, Declare, Discard, Drop, Phase, Take, Timeout, discardable, kept_reason
from taash.rummy.errors import BadRulesError, RecordError
from taash.rummy.game import RummyState, action_from_json
from taash.rummy.match import FORMATS, DealResult, Match, get_format
from taash.rummy.melds import MeldKind, card_points, group_kind, hand_points, meets_requirement
from taash.rummy.progress import arranged, arranged_after_discard
from taash.rummy.record import check_fairness, record_from_json, record_of, replay, replay_json
from taash.rummy.rules import PRESETS, Rules, rules_from_json
from taash.rummy.solver import shown_best_discard, shown_solve
from taash.rummy.view import view_of, view_to_json
from taash.tables.adapter import TIMEOUT, Dealt, Remembered, SeatResult, Settings, TableError
from taash.tables.split import MOST_SHARING

JSON = Any
#: Turns of the deal every state carries (the last ones; the log tells the rest).
TURNS_SHOWN = 12


def _match(state: State) -> Match:
    assert isinstance(state, RummyState)
    return state.match


def card(face: int) -> str:
    return face_symbol(face)


def result_to_json(r: DealResult, names: Sequence[str]) -> dict[str, JSON]:
    p = r.points
    return {"dealer": r.dealer, "seats": list(r.seats), "winner": p.winner, "declared": p.declared,
            "points": list(p.points), "dropped": list(p.dropped), "wrong": list(p.wrong), "totals": list(r.totals),
            "eliminated": list(r.eliminated),
            "said": _("{name} wins the deal with a valid declaration", name=names[p.winner]) if p.declared
            else _("{name} wins the deal", name=names[p.winner])}


class RummyTables:
    """13-card Rummy's :class:`~taash.tables.adapter.TableGame`."""

    name = "rummy"
    title = plugin("rummy").title
    player_counts = tuple(sorted(plugin("rummy").players))
    presets = tuple(PRESETS)
    formats = tuple(FORMATS)
    move_fields = ("from", "card", "discard", "melds")

    @property
    def offline_calls(self) -> dict[str, Callable[[JSON], JSON]]:
        """The game's own endpoints that need no server, by path, for the offline engine
        (:mod:`taash.web.offline.engine`): the engine's word on a hand in groups, as ``POST /api/rummy/groups``."""
        def groups(body: JSON) -> JSON:
            if not isinstance(body, dict) or not isinstance(body.get("groups"), list):
                raise TableError("groups must be a list of groups of cards")
            return judge_groups(body.get("rules"), str(body.get("wild", "")), body["groups"])
        return {"/api/rummy/groups": groups, "/api/games/rummy/groups": groups}

    def settings(self, players: int, rules: JSON, length: JSON, level: str, public: bool) -> Settings:
        if players not in self.player_counts:
            raise TableError(N_("players must be from 2 to 6 at 13-card Rummy"))
        if not isinstance(length, str) or length not in FORMATS:
            raise TableError(_("format must be one of {formats}", formats=", ".join(FORMATS)))
        try:
            parsed = rules if isinstance(rules, Rules) else rules_from_json(rules)
        except BadRulesError as e:
            raise TableError(said_of(e)) from None
        return Settings("rummy", players, parsed, length, level, public)

    def rules_json(self, settings: Settings) -> JSON:
        rules: Rules = settings.rules or PRESETS["octro"]
        return rules.to_json()

    def summary(self, settings: Settings) -> dict[str, JSON]:
        rules = self.rules_json(settings)
        return {"rules": rules if isinstance(rules, str) else "custom", "format": settings.length}

    def new_state(self, settings: Settings, seed: int, dealt: Sequence[Dealt] = (),
                  fairness: Fairness | None = None) -> State:
        assert isinstance(settings.length, str)
        rules = settings.rules or PRESETS["octro"]
        return RummyState(Match(rules, settings.players, get_format(settings.length), seed, fairness=fairness))

    def dealt(self, state: State) -> list[Dealt]:
        return []  # a Rummy match is its seed (or fair dealing) and its moves: the stock's reshuffles come from it too

    def move_types(self) -> tuple[str, ...]:
        return ("take", "discard", "drop", "declare")

    def action_from(self, state: State, seat: int, message: Mapping[str, JSON]) -> Action:
        kind = message.get("type")
        data: JSON
        if kind == "take":
            data = {"take": message.get("from")}
        elif kind == "discard":
            data = {"discard": message.get("card")}
        elif kind == "drop":
            data = {"drop": True}
        elif kind == "declare":
            data = {"declare": {"discard": message.get("discard"), "melds": message.get("melds")}}
        else:
            raise TableError(_("unknown action {action}", action=repr(str(kind)[:40])))
        try:
            action = action_from_json(data)
        except ValueError as e:
            raise TableError(_("malformed {action}: {why}", action=kind, why=said_of(e)), "malformed") from None
        try:
            _match(state).deal.check(action)
        except ValueError as e:
            raise TableError(_("that is not legal here: {why}", why=said_of(e)), "illegal") from None
        return action

    def action_to(self, action: Action) -> dict[str, JSON]:
        if isinstance(action, Timeout):
            return {"type": TIMEOUT}
        if isinstance(action, Take):
            return {"type": "take", "from": action.source}
        if isinstance(action, Discard):
            return {"type": "discard", "card": face_name(action.card)}
        if isinstance(action, Drop):
            return {"type": "drop"}
        assert isinstance(action, Declare)
        return {"type": "declare", "discard": face_name(action.finish),
                "melds": [[face_name(f) for f in g] for g in action.groups]}

    def clears_score(self, message: Mapping[str, JSON]) -> bool:
        return True

    def ends_turn(self, message: Mapping[str, JSON]) -> bool:
        return message.get("type") != "take"  # a turn is a take and a discard (or a declaration)

    def timeout_action(self, state: State) -> Action | None:
        """Section 2, Time: the stock's card taken and discarded for him (None when the stock is empty and the
        discard pile has no card to refill it: a bot plays that turn)."""
        match = _match(state)
        deal = match.deal
        if match.over or deal.over or (deal.phase is Phase.TAKE and not deal.can_take_stock()):
            return None
        return Timeout()

    def remember(self, state: State) -> Remembered:
        match = _match(state)
        deal = match.deal
        top = deal.pile[-1][0] if deal.pile else None
        return Remembered((len(match.results), deal.to_move in deal.has_taken, top, deal.phase is Phase.TAKE))

    def said(self, state: State, before: Remembered, seat: int, action: Action, names: Sequence[str]) -> list[str]:
        match = _match(state)
        finished, had_taken, top, to_take = before.data
        ended = len(match.results) > finished
        deal = match.past[-1] if ended else match.deal
        name = names[seat]
        if isinstance(action, Take):
            line = (_("{name} takes {card} from the discard pile", name=name, card=card(top))
                    if action.source == "discard" and top is not None else _("{name} takes from the stock", name=name))
        elif isinstance(action, Discard):
            line = _("{name} discards {card}", name=name, card=card(action.card))
        elif isinstance(action, Timeout):
            line = timeout_words(deal, name, to_take)
        elif isinstance(action, Drop):
            dropped = deal.points.get(seat, 0)
            line = (_("{name} drops (middle drop: {points} points)", name=name, points=dropped) if had_taken
                    else _("{name} drops (first drop: {points} points)", name=name, points=dropped))
        else:
            assert isinstance(action, Declare)
            line = (_("{name} declares: a valid declaration!", name=name) if deal.winner == seat and deal.declared
                    else _("{name} declares wrongly ({points} points)", name=name, points=deal.points.get(seat, 0)))
        lines = [line]
        if ended:
            r = match.results[-1]
            points = ", ".join(f"{names[s]} {p}" for s, p in enumerate(r.points.points) if p is not None)
            lines.append(_("Deal over: {name} wins ({points})", name=names[r.points.winner], points=points))
            lines.extend(_("{name} is out of the pool ({points} points)", name=names[s], points=r.totals[s])
                         for s in r.eliminated)
            if match.over:
                winner = match.winner
                lines.append(_("The match is over: {name} wins", name=names[winner]) if winner is not None
                             else _("The match is over"))
            else:
                lines.extend(self.opening(state, names))
        return lines

    def opening(self, state: State, names: Sequence[str]) -> list[str]:
        match = _match(state)
        deal = match.deal
        number, dealer = len(match.past) + 1, names[deal.dealer]
        if deal.wild_card == 52:
            return [_("Deal {number}: {dealer} deals; the wild jokers are aces (a printed joker was turned)",
                      number=number, dealer=dealer)]
        return [_("Deal {number}: {dealer} deals; the wild jokers are {rank}s", number=number, dealer=dealer,
                  rank=rank_name(deal.wild))]

    def finished_deals(self, state: State) -> int:
        return len(_match(state).results)

    def public(self, state: State, names: Sequence[str], last_shown: bool) -> dict[str, JSON]:
        match = _match(state)
        score = {
            "format": match.format.name, "totals": list(match.totals),
            "deals": [result_to_json(r, names) for r in match.results],
            "last": ({**result_to_json(match.results[-1], names), "shown": (shown := shown_after(match.past[-1])),
                      "explained": deal_explained(match.results[-1], match.past[-1], shown, names)}
                     if last_shown and match.results else None),
            # seat -> the deal it went out in; JSON's keys are strings (the client reads them back as numbers)
            "eliminated": {str(seat): deal for seat, deal in sorted(match.tally.eliminated.items())},
            "winner": match.winner if match.over else None,
        }
        deal = match.deal
        view = view_to_json(view_of(deal, deal.seats[0], last_turns=TURNS_SHOWN))
        for own in ("hand", "seat"):
            del view[own]
        view["turns_made"] = len(deal.turns)
        view["number"] = len(match.past) + 1
        view["to_move"] = None if match.over or deal.over else deal.to_move
        view.update({"hand": None, "legal": [], "arrangement": None, "blocked": {}, "forced": None})
        return {"score": score, "deal": view}

    def seat_part(self, state: State, seat: int | None, deal: dict[str, JSON]) -> dict[str, JSON]:
        match = _match(state)
        if seat is None or seat not in match.deal.hands:
            return deal
        if deal["to_move"] != seat:  # his hand alone (a whole view of each seat at every version costs)
            hand = tuple(sorted(match.deal.hands[seat]))
            deal["hand"] = [face_name(f) for f in hand]
            if hand:
                deal["arrangement"] = arrangement_of(hand, match.rules, match.deal.wild, None)
            return deal
        view = view_of(match.deal, seat, last_turns=1)  # the turn in progress is all his moves depend on
        deal["hand"] = [face_name(f) for f in view.hand]
        keep = view.taken_from_pile if view.rules.keep_taken_discard else None
        if view.hand:
            deal["arrangement"] = arrangement_of(tuple(view.hand), view.rules, view.wild, keep)
        legal: list[Action]
        if view.phase is Phase.DISCARD:  # the discards (a declaration is always his to try: not searched for)
            legal = [Discard(f) for f in discardable(view.hand, view.taken_from_pile, view.rules)]
        else:
            legal = [a for a in view.legal_actions() if not isinstance(a, Declare)]
        deal["legal"] = [self.action_to(a) for a in legal]
        kept = view.taken_from_pile
        if view.phase is Phase.DISCARD and kept is not None and Discard(kept) not in legal:
            deal["blocked"] = {face_name(kept): kept_reason(kept)}
        if len(legal) == 1:
            deal["forced"] = _("Your only move: {move}.", move=move_words(legal[0]))
        return deal

    def split_terms(self, state: State) -> dict[int, int]:
        """Pool 101/201: the players not out, each by his points left (the limit less his total); Deals N:
        every player, equally; with 2 or 3 players left (:mod:`taash.tables.split`). Points: no split."""
        match = _match(state)
        fmt = match.format
        if match.over:
            raise TableError(N_("the match is over"), "over")
        if fmt.kind == "points":
            raise TableError(N_("a points match is one deal with no prize pool: it cannot be split"), "no_split")
        left = [s for s in range(match.players) if s not in match.tally.eliminated]
        if not 2 <= (n := len(left)) <= (most := MOST_SHARING):
            raise TableError(_("a split needs 2 to {most} players left, not {n}", most=most, n=n), "no_split")
        if fmt.kind == "pool":
            return {s: fmt.limit - match.totals[s] for s in left}
        return dict.fromkeys(left, 1)

    def seat_results(self, state: State) -> list[SeatResult]:
        match = _match(state)
        returns = state.returns()
        tallies = state.tallies()
        return [SeatResult(seat, match.winner == seat, returns[seat], match.totals[seat],
                           {"drops": tallies["drops"][seat], "wrong_declarations": tallies["wrong declarations"][seat],
                            "valid_declarations": tallies["valid declarations"][seat], "deals": len(match.results)})
                for seat in range(match.players)]

    def record(self, state: State, names: Sequence[str]) -> JSON:
        data = record_of(_match(state), list(names)).to_json()
        data["scores"] = replay_json(dict(data))
        return data

    def replay(self, state: State, names: Sequence[str]) -> JSON:
        """Every turn of the match played again from its seed: after each, every hand, the discard pile's top,
        the stock's size, and what happened in words."""
        assert isinstance(state, RummyState)
        m = state.match
        again = RummyState(Match(m.rules, m.players, m.format, m.seed, fairness=m.fairness))
        deals: list[dict[str, JSON]] = []

        def deal_start() -> None:
            d = again.match.deal
            deals.append({"number": len(again.match.past) + 1, "dealer": d.dealer,
                          "wild_card": face_name(d.wild_card), "wild": rank_name(d.wild), "result": None,
                          "steps": [step(d, self.opening(again, names)[0], None)]})

        def step(d: Any, said: str, seat: int | None) -> dict[str, JSON]:
            return {"said": said, "seat": seat,
                    "hands": [[face_name(f) for f in sorted(d.hands.get(s, []))] for s in range(m.players)],
                    "top": face_name(d.pile[-1][0]) if d.pile else None, "stock": len(d.stock),
                    "status": [d.status[s].value if s in d.status else None for s in range(m.players)]}

        deal_start()
        for action in state.actions:
            seat = again.current_player
            before = self.remember(again)
            again.apply(action)
            lines = self.said(again, before, seat, action, names)
            ended = len(again.match.results) > before.data[0]
            d = again.match.past[-1] if ended else again.match.deal
            deals[-1]["steps"].append(step(d, lines[0], seat))
            if ended:
                deals[-1]["result"] = result_to_json(again.match.results[-1], names)
                if not again.match.over:
                    deal_start()
        rules = m.rules.to_json()
        return {"game": "rummy", "players": m.players, "rules": rules if isinstance(rules, str) else "custom",
                "format": m.format.name, "names": list(names), "deals": deals}

    def verify(self, record: JSON) -> list[str]:
        try:
            rec = record_from_json(record)
            replay(rec)
            return check_fairness(rec)
        except RecordError as e:
            raise TableError(said_of(e), "unfair") from None


def timeout_words(deal: Any, name: str, to_take: bool) -> str:
    """The log's line for a turn whose time ran out (the deal's last turn): the card discarded for him (public, as
    every discard is; when it was taken in the same timeout, it is the stock's card, seen by all only now), and
    the drop when it was his ``timeouts_to_drop``-th in a row."""
    turn = deal.turns[-1]
    discarded = card(turn.discard)
    if not turn.timed_out_drop:
        return (_("{name} ran out of time: {card} is taken from the stock and discarded for him", name=name,
                  card=discarded) if to_take
                else _("{name} ran out of time: {card} is discarded for him", name=name, card=discarded))
    n = deal.rules.timeouts_to_drop
    values = {"name": name, "card": discarded, "times": number_word(n),
              "points": deal.points.get(turn.seat, 0)}
    if to_take:
        return ngettext("{name} ran out of time: {card} is taken from the stock and discarded for him, and he is "
                        "dropped after {times} turn out of time (middle drop: {points} points)",
                        "{name} ran out of time: {card} is taken from the stock and discarded for him, and he is "
                        "dropped after {times} turns out of time (middle drop: {points} points)", n, **values)
    return ngettext("{name} ran out of time: {card} is discarded for him, and he is dropped after {times} turn out "
                    "of time (middle drop: {points} points)",
                    "{name} ran out of time: {card} is discarded for him, and he is dropped after {times} turns out "
                    "of time (middle drop: {points} points)", n, **values)


#: Arrangements already found, least recently used first: ``(hand, wild, keep, id(rules)) -> (rules, its JSON)``
#: (rules are not hashable; the rules object is kept, so that its id cannot be another's). Every seat at every
#: live table asks for its hand's at each version, so the oldest unused one goes when it is full (emptying it all
#: at once would make every table's next messages find every hand again together: a burst under load). Kept as
#: JSON bytes, which the garbage collector never looks into: thousands of small dicts and lists living for minutes
#: would make its collections long pauses of the server.
_ARRANGEMENTS: dict[tuple[tuple[int, ...], int, int | None, int], tuple[Rules, bytes]] = {}
ARRANGEMENTS_KEPT = 16384


def arrangement_of(hand: tuple[int, ...], rules: Rules, wild: int, keep: int | None) -> dict[str, JSON]:
    """:func:`arrangement`, remembered: a seat's hand changes only with his own moves, and every other version
    of the table asks again for the same."""
    key = (hand, wild, keep, id(rules))
    found = _ARRANGEMENTS.pop(key, None)
    if found is not None and found[0] is rules:
        _ARRANGEMENTS[key] = found  # now the most recently used
        shown: dict[str, JSON] = orjson.loads(found[1])
        return shown
    while len(_ARRANGEMENTS) >= ARRANGEMENTS_KEPT:
        del _ARRANGEMENTS[next(iter(_ARRANGEMENTS))]
    out = arrangement(hand, rules, wild, keep)
    _ARRANGEMENTS[key] = (rules, orjson.dumps(out))
    return out


def arrangement(hand: Sequence[int], rules: Rules, wild: int, keep: int | None = None) -> dict[str, JSON]:
    """A hand of 13 (of 14: of the 13 left after the discard named, never ``keep``, the card just taken from the
    discard pile, unless the hand holds its twin) laid out as a player would (:mod:`taash.rummy.progress`): its
    complete melds first, pure runs first (the solver's, even while the hand cannot declare yet), then free
    jokers, then the draws (``draw``: two cards a third would meld, closest first), the loose cards last (kind
    None); the points if the hand were scored now, and whether it could be declared. With 14 cards the discard is
    the solver's best when the hand it leaves meets the declaration requirement, else the one leaving the most
    promising hand. Found by the compiled solver when it is built (its points, validity and discard are the pure
    solver's; among equally good groupings it may show another)."""
    faces = list(hand)
    finish = None
    if len(faces) == 14:
        finish, laid = arranged_after_discard(faces, rules, wild, keep, shown_solve, shown_best_discard)
    else:
        laid = arranged(faces, rules, wild, shown_solve)
    groups: list[dict[str, JSON]] = [{"kind": kind, "cards": [face_name(f) for f in cards]}
                                     for kind, cards in laid.melds]
    groups.extend({"kind": "free", "cards": [face_name(f)]} for f in laid.free)
    groups.extend({"kind": "draw", "cards": [face_name(f) for f in pair]} for pair in laid.draws)
    if laid.loose:
        groups.append({"kind": None, "cards": [face_name(f) for f in laid.loose]})
    return {"points": laid.points, "valid": laid.valid, "groups": groups,
            "discard": None if finish is None else face_name(finish)}


def shown_after(deal: Any) -> list[dict[str, JSON]]:
    """The hands a finished deal shows everyone (section 7): the valid declarer's groups as he declared them, and
    every other hand still in, in the solver's best groups (the engine scores it so, ruling R8), each with its
    points. Empty when the deal ended without a valid declaration (the last player left shows nothing)."""
    view = view_of(deal, deal.seats[0])
    out: list[dict[str, JSON]] = []
    declared = next((t for t in reversed(deal.turns) if t.declare is not None and t.seat == deal.winner), None)
    if deal.declared and declared is not None and declared.declare is not None:
        out.append({"seat": deal.winner, "points": 0,
                    "groups": [{"kind": group_kind(g, deal.rules, deal.wild), "cards": [face_name(f) for f in g]}
                               for g in declared.declare[1]]})
    for seat, hand in view.shown_hands:
        if seat != deal.winner:
            groups = arrangement(hand, deal.rules, deal.wild)["groups"]
            out.append({"seat": seat, "points": deal.points.get(seat), "groups": groups})
    return out


#: The kinds of group whose cards a hand's points leave out.
MELDED = ("pure", "impure", "set", "free")


def move_words(action: Action) -> str:
    """A move of the seat to move in a player's words (for a forced one)."""
    if isinstance(action, Take):
        return _("take the stock's top card") if action.source == "stock" else _("take the discard pile's top card")
    if isinstance(action, Discard):
        return _("discard {card}", card=face_symbol(action.card))
    return _("drop")


def deal_explained(result: DealResult, deal: Any, shown: Sequence[Mapping[str, JSON]],
                   names: Sequence[str]) -> list[str]:
    """Where each seat's points of a finished deal came from, one line a seat: the declaration, a drop, a wrong
    declaration, or the cards of his hand left outside melds (from the hands the deal shows everyone)."""
    points: DealPoints = result.points
    lines = []
    groups = {int(hand["seat"]): hand["groups"] for hand in shown}
    for seat in deal.seats:
        name, got = names[seat], points.points[seat]
        if seat == points.winner:
            lines.append(_("{name} declared: 0 points.", name=name) if points.declared
                         else _("{name} was the last one left in the deal: 0 points.", name=name))
        elif seat in points.dropped:
            lines.append(_("{name} dropped: {points} points.", name=name, points=got))
        elif seat in points.wrong:
            lines.append(_("{name} declared wrongly: {points} points.", name=name, points=got))
        elif seat in groups:
            outside = [c for g in groups[seat] if g["kind"] not in MELDED for c in g["cards"]]
            counted = min(deal.rules.max_points,
                          sum(card_points(parse_face(c), deal.rules, deal.wild) for c in outside))
            lines.append(_("{name}: {points} points, the cards outside his melds: {cards}.", name=name, points=got,
                           cards=" ".join(face_symbol(parse_face(c)) for c in outside)) if counted == got
                         else _("{name}: {points} points: his hand lacks the sequences a declaration needs, so every "
                                "card counts.", name=name, points=got))
    return lines


#: The most cards a hand shown in groups may hold (13, or 14 just after taking).
MOST_CARDS = 14


def judge_groups(rules: JSON, wild: JSON, groups: JSON) -> dict[str, JSON]:
    """What the engine makes of a hand arranged in ``groups`` (card names) in a deal whose wild rank is ``wild``
    (``"7"``): each group's kind (``pure``, ``impure``, ``set``, ``free`` jokers or ``invalid``), whether the
    groups would make a valid declaration, and the points they would score if another player declared now (the
    cards outside melds when the melds meet the declaration's requirement, every card otherwise; at most
    ``max_points``). ``TableError`` names the first thing wrong with the input."""
    try:
        parsed_rules = rules_from_json(rules)
        wild_rank = parse_rank(wild)
    except (BadRulesError, CardError) as e:
        raise TableError(said_of(e)) from None
    if not isinstance(groups, list) or not all(isinstance(g, list) for g in groups):
        raise TableError(N_("groups must be a list of lists of cards"))
    if sum(len(g) for g in groups) > MOST_CARDS:
        raise TableError(_("a hand holds at most {most} cards", most=MOST_CARDS))
    try:
        faces = [[parse_face(c) for c in g] for g in groups]
    except CardError as e:
        raise TableError(said_of(e)) from None
    kinds = [group_kind(g, parsed_rules, wild_rank) if g else "invalid" for g in faces]
    melds: list[tuple[MeldKind, int]] = [(k, len(g)) for k, g in zip(kinds, faces, strict=True)
                                         if k in ("pure", "impure", "set")]
    meets = meets_requirement([k for k, _ in melds], [n for _, n in melds], parsed_rules)
    counted = [f for k, g in zip(kinds, faces, strict=True) if not (meets and k != "invalid") for f in g]
    valid = meets and "invalid" not in kinds and sum(len(g) for g in faces) == MOST_CARDS - 1
    return {"kinds": kinds, "valid": valid, "points": hand_points(counted, parsed_rules, wild_rank)}


ADAPTER = RummyTables()
