"""The learned bot: its shipped weights load and are small, its NumPy network is the trained one, it ranks the
same candidates as the search, and it refuses a weights file it cannot read in one sentence. (Legal plays in every
preset: test_every_preset.py; hidden cards: test_fairness.py.)"""

from __future__ import annotations

import random

import numpy as np
import pytest

from taash.bots import make_bot
from taash.bots.seep.heuristic import HeuristicBot
from taash.bots.seep.ismcts import IsmctsBot
from taash.bots.seep.learned import CANDIDATES, PLAY_FEATURES, WEIGHTS, LearnedBot, PlayScorer, candidates, observe
from taash.seep.deal import Deal
from taash.seep.rules import PRESETS
from taash.seep.view import view_of


def positions(count: int, seed: int = 3) -> list[Deal]:
    """Positions of random 4-player deals of standard Seep, each with several legal plays."""
    rng = random.Random(seed)
    found: list[Deal] = []
    while len(found) < count:
        deal = Deal.shuffled(PRESETS["standard"], 4, rng.randrange(4), rng)
        deal.make_bid(rng.choice(deal.legal_bids()))
        while not deal.over and len(found) < count:
            if len(deal.legal_plays()) > 2:
                found.append(deal.clone())
            deal.play(rng.choice(deal.legal_plays()))
    return found


def test_the_shipped_weights_are_small_and_load() -> None:
    assert WEIGHTS.stat().st_size <= 5 * 1024 * 1024
    bot = make_bot("learned", 1)
    assert isinstance(bot, LearnedBot)
    deal = positions(1)[0]
    view = view_of(deal, deal.to_move)
    assert bot.choose(view) in view.legal_plays()


def test_its_candidates_are_the_searchs_in_the_searchs_order() -> None:
    judge = HeuristicBot(0)
    for deal in positions(12):
        view = view_of(deal, deal.to_move)
        plays, features = candidates(view, judge)
        search = IsmctsBot(5, iterations=2)
        search.choose_play(view)
        assert plays == list(search.last_stats)
        assert features.shape == (len(plays), PLAY_FEATURES) and len(plays) <= CANDIDATES
        assert observe(view).shape == (626,)


def test_the_level_learned_seats_the_shipped_network_and_the_bot_learned_takes_settings() -> None:
    # Regression: with Seep's level named as its bot, "learned:weights=..." was refused as a level's settings.
    assert make_bot("learned", 1).name == "learned"
    assert make_bot(f"learned:weights={WEIGHTS}", 1).name == "learned"
    with pytest.raises(ValueError, match="a level \\(hard\\) takes no settings"):
        make_bot("hard:candidates=3", 1)


def test_a_weights_file_it_cannot_read_is_one_sentence(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="weights"):
        make_bot(f"learned:weights={tmp_path / 'none.npz'}", 1)
    bad = tmp_path / "bad.npz"
    np.savez(bad, something=np.zeros(3))
    with pytest.raises(ValueError, match="cannot read the learned bot's weights"):
        PlayScorer.load(bad)


def test_the_numpy_network_is_the_trained_one() -> None:
    """The NumPy inference gives the PyTorch network's scores, from the weights as they are exported."""
    torch = pytest.importorskip("torch")
    from taash.training.seep_train import LAYERS, make_net

    torch.manual_seed(0)
    net = make_net(torch, 626, 16)
    weights = {f"{name}.{part}": getattr(getattr(net, name), part).detach().numpy()
               for name in LAYERS for part in ("weight", "bias")}
    obs = np.random.default_rng(1).random(626, dtype=np.float32)
    plays = np.random.default_rng(2).random((5, PLAY_FEATURES), dtype=np.float32)
    expected = net(torch.tensor(obs)[None], torch.tensor(plays)[None])[0].detach().numpy()
    assert np.allclose(PlayScorer(weights).scores(obs, plays), expected, atol=1e-5)
