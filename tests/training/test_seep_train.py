"""``taash seep train``: a tiny training from recorded expert deals to weights the bot plays with, in seconds; the
recorded data is what the bot sees; bad input is one line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from taash.bots.seep.learned import CANDIDATES, LearnedBot
from taash.seep.game import SeepGame
from tests.cli.test_seep_cli import one_line_error, run

pytest.importorskip("torch")


def test_a_tiny_training_writes_weights_the_bot_plays_with(tmp_path: Path) -> None:
    proc = run("seep", "train", "--deals", "2", "--iterations", "3", "--epochs", "2", "--hidden", "8",
               "--workers", "2", "--seed", "11", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "Trained on" in proc.stdout
    for name in ("data.npz", "learned_weights.npz", "curve.png", "curve.json"):
        assert (tmp_path / name).stat().st_size > 0
    curve = json.loads((tmp_path / "curve.json").read_text())
    assert len(curve["train_loss"]) == 2 and len(curve["held_regret"]) == 2
    bot = LearnedBot(1, weights=str(tmp_path / "learned_weights.npz"))
    state = SeepGame().new_state(4)
    while not state.is_over:
        view = state.view(state.current_player)
        action = bot.choose(view)
        assert action in view.legal_actions()
        state.apply(action)
    # Training again on the recorded data alone (no new deals) works too.
    again = run("seep", "train", "--deals", "0", "--data", str(tmp_path / "data.npz"), "--epochs", "1",
                "--hidden", "8", "--out", str(tmp_path / "again"))
    assert again.returncode == 0, again.stderr


@pytest.mark.parametrize("teacher", ["oracle", "search"])
def test_the_data_holds_the_teachers_values(teacher: str) -> None:
    from taash.training.seep_data import DealJob, play_deal

    data = play_deal(DealJob(seed=7, iterations=3, teacher=teacher))
    # The oracle values every seat's decisions, the search those of its two seats.
    assert len(data) > (40 if teacher == "oracle" else 10)
    assert data.plays.shape[1] == CANDIDATES
    rows = np.arange(len(data))
    assert data.valid[rows, data.chosen].all()  # the teacher chose one of the candidates it valued
    assert (data.valid.sum(axis=1) >= 1).all()
    assert (data.deal == 7).all()
    if teacher == "oracle":  # its choice is its best valued candidate
        best = np.where(data.valid, data.gains, -np.inf).max(axis=1)
        assert (data.gains[rows, data.chosen] == best).all()


def test_a_time_budget_keeps_the_first_deals() -> None:
    from taash.training.seep_data import generate

    data = generate(1000, 40, 1, 1, seconds=0.0001)
    assert set(data.deal.tolist()) <= {40}


@pytest.mark.parametrize(("args", "words"), [
    (("--deals", "0"), "nothing to train on"),
    (("--deals", "0", "--data", "/nonexistent/data.npz"), "cannot read training data"),
    (("--deals", "-1"), "--deals"),
    (("--teacher", "cheat"), "--teacher must be oracle or search"),
])
def test_bad_input_is_one_line(tmp_path: Path, args: tuple[str, ...], words: str) -> None:
    proc = run("seep", "train", "--out", str(tmp_path), *args)
    assert words in one_line_error(proc, 2)
