"""Training Seep's learned bot on a teacher's values of the candidate plays
(:mod:`taash.training.seep_data`), with PyTorch on the CPU, or a GPU when there is one.

The network (:func:`make_net`, the same layers as :class:`taash.bots.seep.learned.PlayScorer`) scores each of a
decision's candidate plays; the loss is the squared error between its scores and the teacher's values, both
taken relative to their mean over the decision's candidates (only the differences between plays decide), in
units of :data:`POINTS` points. Trained on the oracle's values, whose hidden cards the network never sees, it
learns each play's expected value given the view. The decisions of a tenth of the deals are held out; each
epoch's curve point is the loss on both, how often the network's best play is the teacher's, and its *regret*: the
points a decision it gives up, by the teacher's values, against the teacher's best candidate (the heuristic's
regret, choosing its own best play, is the line to beat).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from taash.bots.seep.learned import LAYERS, PLAY_FEATURES
from taash.training.seep_data import Decisions

#: The network's unit of score, in points.
POINTS = 10.0


def torch_module() -> Any:
    """PyTorch, or one sentence saying how to get it."""
    try:
        import torch
    except ImportError:
        raise ValueError("training needs PyTorch: pip install 'taash[learn]'") from None
    return torch


@dataclass(frozen=True, slots=True)
class TrainSettings:
    epochs: int = 30
    batch: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    hidden: int = 128
    seed: int = 0
    device: str = "cpu"
    #: PyTorch's CPU threads (0: its default).
    threads: int = 1


@dataclass(slots=True)
class Curve:
    """One point per epoch: losses, agreement with the search and regret (points a decision), held-out."""

    train_loss: list[float] = field(default_factory=list)
    held_loss: list[float] = field(default_factory=list)
    held_agreement: list[float] = field(default_factory=list)
    held_regret: list[float] = field(default_factory=list)
    heuristic_regret: float = 0.0
    heuristic_agreement: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def make_net(torch: Any, observation: int, hidden: int) -> Any:
    """The network: two layers over the observation, one over each play, a joint layer and a score."""
    nn = torch.nn

    class PlayNet(nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.obs1 = nn.Linear(observation, 2 * hidden)
            self.obs2 = nn.Linear(2 * hidden, hidden)
            self.play1 = nn.Linear(PLAY_FEATURES, hidden)
            self.joint_obs = nn.Linear(hidden, hidden)
            self.joint_play = nn.Linear(hidden, hidden)
            self.joint2 = nn.Linear(hidden, hidden // 2)
            self.score = nn.Linear(hidden // 2, 1)

        def forward(self, obs: Any, plays: Any) -> Any:
            relu = torch.relu
            state = relu(self.obs2(relu(self.obs1(obs))))
            play = relu(self.play1(plays))
            joint = relu(self.joint_play(play) + self.joint_obs(state).unsqueeze(1))
            return self.score(relu(self.joint2(joint))).squeeze(-1)

    return PlayNet()


def centred(values: Any, valid: Any) -> Any:
    """``values`` less their mean over the valid candidates of each decision (0 where not valid)."""
    count = valid.sum(dim=1, keepdim=True).clamp(min=1)
    mean = (values * valid).sum(dim=1, keepdim=True) / count
    return (values - mean) * valid


def split(data: Decisions, held_share: float = 0.1) -> tuple[np.ndarray, np.ndarray]:
    """Row indices of the training and held-out decisions: the held-out ones are whole deals."""
    deals = np.unique(data.deal)
    held = deals[: max(1, round(len(deals) * held_share))] if len(deals) > 1 else deals[:0]
    mask = np.isin(data.deal, held)
    return np.flatnonzero(~mask), np.flatnonzero(mask)


def regret(choice: np.ndarray, data: Decisions, rows: np.ndarray) -> float:
    """Mean points a decision that ``choice`` gives up against the search's best candidate (by its gains)."""
    if not len(rows):
        return math.nan
    gains = np.where(data.valid[rows], data.gains[rows], -np.inf)
    return float((gains.max(axis=1) - gains[np.arange(len(rows)), choice]).mean())


def train(data: Decisions, settings: TrainSettings, on_epoch: Callable[[int, Curve], None] | None = None
          ) -> tuple[dict[str, np.ndarray], Curve]:
    """Train on ``data``; the weights (NumPy arrays by layer, as the bot reads them) and the curve."""
    torch = torch_module()
    torch.manual_seed(settings.seed)
    if settings.threads:
        torch.set_num_threads(settings.threads)
    rng = np.random.default_rng(settings.seed)
    device = settings.device
    train_rows, held_rows = split(data)
    obs = torch.tensor(data.observation.astype(np.float32), device=device)
    plays = torch.tensor(data.plays.astype(np.float32), device=device)
    valid = torch.tensor(data.valid, device=device)
    gains = torch.tensor(data.gains.astype(np.float32) / POINTS, device=device)
    target = centred(gains.nan_to_num(0.0), valid)
    net = make_net(torch, obs.shape[1], settings.hidden).to(device)
    optimiser = torch.optim.AdamW(net.parameters(), lr=settings.learning_rate, weight_decay=settings.weight_decay)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, max(1, settings.epochs))
    curve = Curve(heuristic_regret=regret(np.zeros(len(held_rows), dtype=np.int64), data, held_rows),
                  heuristic_agreement=float((data.chosen[held_rows] == 0).mean()) if len(held_rows) else math.nan)

    def loss_of(rows: Any) -> tuple[Any, Any]:
        scores = net(obs[rows], plays[rows])
        error = (centred(scores, valid[rows]) - target[rows]) ** 2
        loss = error.sum() / valid[rows].sum().clamp(min=1)
        return loss, scores.masked_fill(~valid[rows], -1e9)

    for epoch in range(settings.epochs):
        net.train()
        order = rng.permutation(train_rows)
        total = 0.0
        for start in range(0, len(order), settings.batch):
            rows = torch.tensor(order[start:start + settings.batch], device=device)
            loss, _ = loss_of(rows)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += float(loss.detach()) * len(rows)
        schedule.step()
        curve.train_loss.append(total / max(1, len(order)))
        net.eval()
        with torch.no_grad():
            if len(held_rows):
                held_loss, logits = loss_of(torch.tensor(held_rows, device=device))
                choice = logits.argmax(dim=1).cpu().numpy()
                curve.held_loss.append(float(held_loss))
                curve.held_agreement.append(float((choice == data.chosen[held_rows]).mean()))
                curve.held_regret.append(regret(choice, data, held_rows))
        if on_epoch:
            on_epoch(epoch, curve)
    weights = {f"{name}.{part}": getattr(getattr(net, name), part).detach().cpu().numpy().astype(np.float32)
               for name in LAYERS for part in ("weight", "bias")}
    return weights, curve


def save_weights(weights: dict[str, np.ndarray], path: Path) -> None:
    np.savez_compressed(path, **weights)  # type: ignore[arg-type]


def save_curve(curve: Curve, path: Path) -> None:
    """The curve as JSON and as a PNG beside it (``path`` without its suffix)."""
    path.with_suffix(".json").write_text(json.dumps(curve.to_json(), indent=1) + "\n")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    epochs = range(1, len(curve.train_loss) + 1)
    left.plot(epochs, curve.train_loss, label="training")
    if curve.held_loss:
        left.plot(epochs, curve.held_loss, label="held out")
    left.set_xlabel("epoch")
    left.set_ylabel(f"squared error of the play values (units of {POINTS:g} points)")
    left.legend()
    if curve.held_regret:
        right.plot(epochs, curve.held_regret, label="learned")
        right.axhline(curve.heuristic_regret, color="grey", linestyle="--", label="heuristic's best play")
    right.set_xlabel("epoch")
    right.set_ylabel("points a decision given up (held out)")
    right.legend()
    fig.suptitle("Seep's learned bot: the values of the heuristic's best plays, learned")
    fig.tight_layout()
    fig.savefig(path.with_suffix(".png"), dpi=100)
    plt.close(fig)
