#!/usr/bin/env bash
# Train Seep's learned bot on a lent machine with many cores (and a GPU if there is one), from the repository root:
#
#     OUT=/some/dir scripts/train_seep_device.sh            # $OUT is set by the device tool already
#
# It builds the Seep engine's compiled core with gcc when it can (pure Python is far slower), records the
# oracle's values of the heuristic's best plays (taash.training.seep_data) for GEN_SECONDS with one process per core
# (WORKERS), trains the network (on cuda when torch sees a GPU), plays PAIRS duplicate pairs of the arena against
# heuristic and greedy, and writes under $OUT: learned_weights.npz, curve.json, curve.png (when matplotlib is
# there) and log.txt (the arena's lines at its end). Needs Python 3 with numpy and torch; babel (the package's
# message catalogues) is taken from .device_vendor/ when it is not installed (here: mkdir .device_vendor && cp -r
# .venv/lib/python3.*/site-packages/babel .device_vendor/).
# Every setting is an environment variable: GEN_SECONDS (200), WORKERS (cores), EPOCHS (20), SEED (500000),
# HIDDEN (128), PAIRS (1000), EXTRA_DATA (space-separated data.npz files to add).
set -euo pipefail
OUT=${OUT:?set OUT to the folder for the results}
PY=${PYTHON:-python3}
mkdir -p "$OUT"
exec > >(tee "$OUT/log.txt") 2>&1
export PYTHONPATH="src${PYTHONPATH:+:$PYTHONPATH}"
if ! "$PY" -c 'import babel' 2>/dev/null; then
    if [ -d .device_vendor/babel ]; then PYTHONPATH="$PYTHONPATH:.device_vendor"; else
        echo "babel is missing: copy it into .device_vendor/ (see the header)"; exit 2; fi
fi
# The Seep core, built as setup.py builds it (the hash of its source lets taash.seep.core trust it).
HASH=$("$PY" -c 'import hashlib;print(hashlib.sha256(open("src/taash/seep/_core.c","rb").read()).hexdigest()[:16])')
INCLUDE=$("$PY" -c 'import sysconfig;print(sysconfig.get_paths()["include"])')
SUFFIX=$("$PY" -c 'import sysconfig;print(sysconfig.get_config_var("EXT_SUFFIX"))')
gcc -O3 -std=c99 -mpopcnt -shared -fPIC "-DTAASH_CORE_SOURCE=\"$HASH\"" "-I$INCLUDE" src/taash/seep/_core.c \
    -o "src/taash/seep/_core$SUFFIX" || echo "the compiled core did not build: pure Python (slow)"
"$PY" -c 'from taash.seep.core import CORE; print("Seep core:", CORE)'
"$PY" - <<'PYTHON'
import os, time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import torch

from taash.arena.backends import PairJob, play_job
from taash.arena.duplicate import summarise
from taash.training.seep_data import Decisions, generate
from taash.training.seep_train import TrainSettings, save_curve, save_weights, train
from taash.seep.game import SeepGame

out = Path(os.environ["OUT"])
workers = int(os.environ.get("WORKERS", os.cpu_count() or 1))
seconds = float(os.environ.get("GEN_SECONDS", 200))
seed = int(os.environ.get("SEED", 500_000))
parts = [Decisions.load(Path(p)) for p in os.environ.get("EXTRA_DATA", "").split()]
started = time.monotonic()
fresh = generate(10_000_000, seed, 1, workers, teacher="oracle", seconds=seconds)
deals = len(set(fresh.deal.tolist()))
print(f"recorded {len(fresh)} decisions of {deals} deals (seeds {seed} ..) in {time.monotonic() - started:.0f} s "
      f"on {workers} workers", flush=True)
data = Decisions.join([*parts, fresh])
device = "cuda" if torch.cuda.is_available() else "cpu"
settings = TrainSettings(epochs=int(os.environ.get("EPOCHS", 20)), hidden=int(os.environ.get("HIDDEN", 128)),
                         seed=seed, device=device, batch=1024, threads=0)
started = time.monotonic()
def report(epoch, curve):
    print(f"epoch {epoch + 1}: loss {curve.train_loss[-1]:.4f} held {curve.held_loss[-1]:.4f} agreement "
          f"{curve.held_agreement[-1]:.3f} regret {curve.held_regret[-1]:.3f} (heuristic "
          f"{curve.heuristic_regret:.3f}) {time.monotonic() - started:.0f} s", flush=True)
weights, curve = train(data, settings, report)
save_weights(weights, out / "learned_weights.npz")
try:
    save_curve(curve, out / "curve")
except ImportError:
    import json
    (out / "curve.json").write_text(json.dumps(curve.to_json(), indent=1) + "\n")
print(f"trained {settings.epochs} epochs on {len(data)} decisions on {device} in {time.monotonic() - started:.0f} s",
      flush=True)
learned = f"learned:weights={out / 'learned_weights.npz'}"
pairs = int(os.environ.get("PAIRS", 1000))
for other in ("heuristic", "greedy"):
    started = time.monotonic()
    jobs = [PairJob(learned, other, SeepGame(), k) for k in range(pairs)]
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(play_job, jobs, chunksize=8))
    s = summarise("learned", other, results)
    print(f"arena: learned vs {other}, {pairs} pairs from seed 0 (4 players, standard): {s.mean_margin:+.2f} "
          f"+-{s.ci95:.2f} points a deal; deals won {s.a_deals_won}/{s.b_deals_won}; learned "
          f"{s.a_ms_median:.2f} ms a decision (median); {time.monotonic() - started:.0f} s", flush=True)
PYTHON
