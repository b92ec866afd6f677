"""Issue 14's command-line items: bounded work, rules checked as a whole, one-line errors for what used to be a
traceback, short echoes of long values, a bounded arena, numbering from 1, and the help."""

from __future__ import annotations

import json
import time
from pathlib import Path

from tests.cli.test_seep_cli import one_line_error, run


def test_legal_refuses_a_floor_that_cannot_arise_at_once() -> None:
    # 20 loose cards took 11 s and 1.6 MB of answer; 24 no answer in a minute.
    for count in (20, 24):
        loose = [f"{r}{s}" for r in "A23456" for s in "shdc"][:count]
        start = time.perf_counter()
        line = one_line_error(run("seep", "legal", stdin=json.dumps({"seat": 0, "hand": ["Ks"], "loose": loose})), 2)
        assert f"at most 16 loose cards, not {count}" in line and time.perf_counter() - start < 10


def test_legal_answers_the_biggest_floor_play_can_make(conformance_dir: Path) -> None:
    loose = ["Ks", "Kh", "Kd", "Kc", *[f"{r}s" for r in "QJT98765432A"]]
    proc = run("seep", "legal", stdin=json.dumps({"seat": 0, "hand": [f"{r}h" for r in "A23456789TJQ"],
                                                  "loose": loose}))
    assert proc.returncode == 0, proc.stderr
    assert len(json.loads(proc.stdout)) > 100


def test_a_rules_file_that_would_redeal_forever_is_refused_by_every_command(tmp_path: Path) -> None:
    rules = tmp_path / "forever.json"
    rules.write_text(json.dumps({"floor_redeal_cards": [f"{r}{s}" for r in "A23456789TJQK" for s in "shdc"]}))
    for command in (["seep", "simulate", "--deals", "1"], ["seep", "arena", "random", "greedy", "--deals", "2"],
                    ["play"]):
        line = one_line_error(run(*command, "--rules", str(rules)), 2)
        assert "floor_redeal_cards names at most 12 cards, not 52" in line
