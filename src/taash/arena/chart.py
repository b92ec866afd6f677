"""The arena's picture: margins per pairing with their 95% intervals, and the ratings."""

from __future__ import annotations

from pathlib import Path

from taash.arena.duplicate import DuplicateSummary


def draw(summaries: list[DuplicateSummary], ratings: dict[str, tuple[float, float]], path: Path, title: str,
         margin: str = "points per deal") -> None:
    """Write a PNG with two panels: the margin (A - B) with 95% intervals, and rating mu +- 2 sigma; ``margin`` names
    the margin's unit ("points per deal"; a match's result in the formats that play matches)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, max(3.0, 0.6 * len(summaries) + 1.5)))
    labels = [f"{s.bot_a} vs {s.bot_b}" for s in summaries]
    ys = range(len(summaries))
    left.barh(ys, [s.mean_margin for s in summaries], xerr=[s.ci95 for s in summaries], color="#3b7dd8",
              capsize=4)
    left.set_yticks(list(ys), labels)
    left.axvline(0, color="black", linewidth=0.8)
    left.set_xlabel(f"{margin}, A minus B (95% interval)")
    left.invert_yaxis()
    names = sorted(ratings, key=lambda n: -ratings[n][0])
    ry = range(len(names))
    right.errorbar([ratings[n][0] for n in names], list(ry), xerr=[2 * ratings[n][1] for n in names], fmt="o",
                   color="#d8553b", capsize=4)
    right.set_yticks(list(ry), names)
    right.invert_yaxis()
    right.set_xlabel("OpenSkill rating (mu, bars: 2 sigma)")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
