"""``taash replay`` in Hindi and Punjabi: every line the replay says (each bid, play and turn, the deal's score,
the match so far) is a message of the catalogue, said in the language spoken; English stays as it was (the other
replay tests pin its words)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator

import pytest

from taash.i18n import use
from taash.tui.rummy.replay import RummyReplayApp
from taash.tui.rummy.replay import Timeline as RummyTimeline
from taash.tui.seep.replay import ReplayApp, Timeline
from tests.tui import test_replay, test_rummy_replay
from tests.tui.driver import screen_text

SCRIPTS = {"hi": re.compile(r"[\u0900-\u097f]"), "pa": re.compile(r"[\u0a00-\u0a7f]")}
#: English words of the replay's lines that a translated line must not hold.
ENGLISH = re.compile(r"\b(bids|takes|discards|declares|drops|sweep|deal|play|turn|before|after|wins|the)\b",
                     re.IGNORECASE)


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    use("en")


def screens(app: ReplayApp | RummyReplayApp) -> list[str]:
    """The first position of the first deal, its last, and the last of the second deal."""

    async def run() -> list[str]:
        shown = []
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            shown.append("\n".join(screen_text(app)))
            await pilot.press("end")
            shown.append("\n".join(screen_text(app)))
            await pilot.press("down", "end")
            shown.append("\n".join(screen_text(app)))
        return shown

    return asyncio.run(run())


@pytest.mark.parametrize("lang", ["hi", "pa"])
def test_a_seep_replay_says_every_line_in_the_language(lang: str) -> None:
    record = test_replay.a_record()
    use(lang)
    timeline = Timeline(record)
    said = [step.said for steps in timeline.deals for step in steps]
    assert len(said) > 50
    assert all(SCRIPTS[lang].search(line) and not ENGLISH.search(line) for line in said), \
        [line for line in said if not SCRIPTS[lang].search(line) or ENGLISH.search(line)][:3]
    start, end, _second = screens(ReplayApp(timeline, "r.json"))
    where = next(line for line in start.splitlines() if "r.json" in line)
    assert SCRIPTS[lang].search(where) and not ENGLISH.search(where), where
    assert "Deal score" not in end and ("डील का स्कोर" if lang == "hi" else "ਡੀਲ ਦਾ ਸਕੋਰ") in end
    assert "Match" not in start and "baazis" not in start
    assert not re.search(r"\b(Floor|loose|none|house|owners?|cemented)\b", start + end + _second)


def test_a_rummy_replay_says_every_turn_in_hindi() -> None:
    record = test_rummy_replay.a_record()
    use("hi")
    timeline = RummyTimeline(record)
    said = [step.said for steps in timeline.deals for step in steps]
    assert len(said) > 20
    assert all(SCRIPTS["hi"].search(line) and not ENGLISH.search(line) for line in said), \
        [line for line in said if not SCRIPTS["hi"].search(line) or ENGLISH.search(line)][:3]
    start, end, _second = screens(RummyReplayApp(timeline, "r.json"))
    assert "गड्डी" in start and "वाइल्ड जोकर" in start and "Stock" not in start and "Wild joker" not in start
    assert "इस डील से पहले" in end and "इसके बाद" in end and "Totals" not in end and "After it" not in end
