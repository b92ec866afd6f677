"""Every bot's one-line reason (what the coach and the hint show) reaches a Hindi or Punjabi reader in his own
language, with the cards named as the hard bot names them; an English reader reads what he always read."""

from __future__ import annotations

import random
import re

import pytest

from taash.bots import make_bot
from taash.games import make_game
from taash.i18n import Said, speaking

#: Each game's bots whose reasons were English before (the hard bots' were translated already), with settings
#: that keep the searches short.
BOTS = [("seep", "random"), ("seep", "greedy"), ("seep", "learned"), ("seep", "ismcts:iterations=6"),
        ("rummy", "random"), ("rummy", "greedy"), ("rummy", "ismcts:iterations=2,candidates=2"),
        ("rummy", "ismcts:iterations=2,candidates=2,lookahead=0,play_from=2,drops_from=2")]
#: An English word of three letters or more (a card's name is two: "Ts", "JK", "K♠").
ENGLISH = re.compile(r"[A-Za-z]{3,}")


def reasons(game: str, spec: str, turns: int = 14, seed: int = 3) -> list[Said]:
    """The reasons a bot gives for its own choices over the first ``turns`` turns of a deal."""
    rng = random.Random(seed)
    state = make_game(game, players=2).new_state(seed)
    said: list[Said] = []
    for turn in range(turns):
        if state.is_over:
            break
        view = state.view(state.current_player)
        bot = make_bot(spec, turn, game=game)
        action = bot.choose(view)
        reason = bot.explain(view, action)
        assert isinstance(reason, Said), f"{spec}: {reason!r} is not a catalogue sentence"
        said.append(reason)
        state.apply(action if rng.random() < 0.8 else rng.choice(list(state.legal_actions())))
    return said


@pytest.mark.parametrize(("game", "spec"), BOTS)
def test_a_bots_reasons_are_said_in_hindi_and_punjabi(game: str, spec: str) -> None:
    said = reasons(game, spec)
    assert said
    for reason in said:
        for lang, letters in (("hi", "\u0900-\u097f"), ("pa", "\u0a00-\u0a7f")):
            words = reason.in_(lang)
            assert re.search(f"[{letters}]", words), f"{spec} in {lang}: {words}"
            assert not ENGLISH.search(words), f"{spec} in {lang}: {words}"


@pytest.mark.parametrize("lang", ["hi", "pa"])
def test_a_reason_made_while_a_language_is_spoken_is_in_it(lang: str) -> None:
    with speaking(lang):
        said = reasons("rummy", "greedy", turns=4)
    assert all(not ENGLISH.search(str(s)) for s in said)


def test_english_reasons_are_the_words_they_always_were() -> None:
    seep = [str(s) for s in reasons("seep", "greedy", turns=6)]
    assert seep[0].startswith("Bid ") and seep[0].endswith(": the value held most often, then the highest")
    assert all(re.fullmatch(r".+: (\d+ points?, )?(a sweep, \d+ points?|leaves (a|no) sweep)", s) for s in seep[1:])
    rummy = [str(s) for s in reasons("rummy", "random", turns=3)]
    assert all(s.endswith(": chosen at random") for s in rummy)
    assert rummy[0] in ("Take the top card of the stock: chosen at random", "Drop (first drop): chosen at random") \
        or re.fullmatch(r"Take \w\w from the discard pile: chosen at random", rummy[0])
