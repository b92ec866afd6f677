"""Rules as data, read the same way for every game (taash.rulebook): presets, objects of parameters, files."""

from __future__ import annotations

from pathlib import Path

import pytest

from taash.rummy import rules as rummy
from taash.seep import rules as seep


@pytest.mark.parametrize("game", [seep, rummy], ids=["seep", "rummy"])
def test_presets_objects_and_files_read_alike(game: object, tmp_path: Path) -> None:
    presets = game.PRESETS  # type: ignore[attr-defined]
    read, load = game.rules_from_json, game.load_rules  # type: ignore[attr-defined]
    name = list(presets)[1]
    assert read(name) is presets[name] and load(name) is presets[name]
    assert read(None) is presets[next(iter(presets))]
    assert read({"preset": name}) == presets[name]
    (tmp_path / "house.toml").write_text(f'preset = "{name}"\n')
    (tmp_path / "house.json").write_text(f'{{"preset": "{name}"}}')
    assert load(str(tmp_path / "house.toml")) == presets[name] == load(str(tmp_path / "house.json"))
    for bad, words in (("nosuch", "unknown rules preset 'nosuch'"), ({"preset": 3}, "rule preset must be"),
                       ({"nosuch": 1}, "unknown rule parameter 'nosuch'"), (7, "rules must be a preset name")):
        with pytest.raises(ValueError, match=words):
            read(bad)
    (tmp_path / "broken.toml").write_text("preset = ")
    for spec, words in ((str(tmp_path / "broken.toml"), "is not valid TOML"), ("nofile", "and no such file"),
                        (str(tmp_path / "missing.json"), "cannot read rules file")):
        with pytest.raises(ValueError, match=words):
            load(spec)


def test_a_rummy_packs_object_changes_only_the_player_counts_it_names() -> None:
    rules = rummy.rules_from_json({"preset": "octro", "packs": {"2": [1, 2]}})
    assert rules.packs[2] == (1, 2) and rules.packs[6] == rummy.PRESETS["octro"].packs[6]
    assert rules.to_json() == {"preset": "octro", "packs": {**{str(k): list(v) for k, v in rules.packs.items()}}}
    for bad, words in (({"packs": [2, 4]}, "rule packs maps"), ({"packs": {"2": [9, 4]}}, "1 to 4 packs"),
                       ({"ace_points": 11}, "ace_points must be a whole number from 0 to 10"),
                       ({"pure_runs_required": 3}, "cannot exceed"), ({"long_run": 1}, "true or false")):
        with pytest.raises(rummy.BadRulesError, match=words):
            rummy.rules_from_json(bad)
