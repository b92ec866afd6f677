"""A rules preset is shown by its name in the reader's language (the terminal's help and status, the browser's lobby
and table); its code stays as typed on the command line and in JSON."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from taash.games.registry import plugins
from taash.i18n import client_catalogue, speaking
from taash.rummy.match import FORMATS
from taash.rummy.rules import PRESET_NAMES as RUMMY_NAMES
from taash.rummy.rules import PRESETS as RUMMY_PRESETS
from taash.seep.rules import PRESET_NAMES as SEEP_NAMES
from taash.seep.rules import PRESETS as SEEP_PRESETS
from taash.seep.rules import preset_name
from taash.tables.adapter import adapter
from taash.tui.rummy.help import help_lines as rummy_help
from taash.tui.seep.help import help_lines as seep_help

COMMON_JS = Path(__file__).parents[2] / "src" / "taash" / "web" / "static" / "common.js"


def browser_names() -> dict[str, str]:
    """The browser's name of each preset (common.js's RULE_NAMES: code -> catalogue message)."""
    block = re.search(r"const RULE_NAMES = \{(.*?)\};", COMMON_JS.read_text(encoding="utf-8"), re.S)
    assert block, "common.js names the presets in RULE_NAMES"
    return dict(re.findall(r"(\w+): _\(\"([^\"]+)\"\)", block[1]))


def test_every_preset_of_every_game_has_a_name_and_the_browser_gives_it_the_same() -> None:
    assert set(SEEP_NAMES) == set(SEEP_PRESETS) and set(RUMMY_NAMES) == set(RUMMY_PRESETS)
    shown = browser_names()
    assert shown == {**SEEP_NAMES, **RUMMY_NAMES}
    for game in plugins():
        if game.tables is not None:
            assert set(adapter(game.name).presets) <= set(shown), game.name


@pytest.mark.parametrize(("lang", "word"), [("hi", "पंजाब 30"), ("pa", "ਪੰਜਾਬ 30")])
def test_the_browsers_catalogue_names_every_preset_and_format(lang: str, word: str) -> None:
    messages = client_catalogue(lang)["messages"]
    assert all(name in messages for name in browser_names().values())
    assert messages["punjab 30"] == word
    assert all(isinstance(messages.get(label), str) for label in ("pool 101", "pool 201", "2 deals"))
    assert set(FORMATS) == {"points", "pool101", "pool201", "deals2", "deals3", "deals6"}  # common.js's FORMAT_NAMES


def test_the_terminals_help_names_the_rules_in_play_in_the_readers_language() -> None:
    with speaking("hi"):
        assert preset_name("punjab_30_qasim") == "पंजाब 30 क़ासिम" and preset_name("house_rules") == "house_rules"
        seep = "\n".join(seep_help(SEEP_PRESETS["punjab_30"]))
        rummy = "\n".join(rummy_help(RUMMY_PRESETS["classic"], FORMATS["pool101"]))
    in_play = next(line for line in seep.splitlines() if "पंजाब 30" in line)  # "The rules in play: ..."
    assert "punjab_30" not in in_play
    assert "classic" not in next(line for line in rummy.splitlines() if "क्लासिक" in line)
    with speaking("pa"):
        assert "ਮਿਆਰੀ" in "\n".join(seep_help(SEEP_PRESETS["standard"]))
