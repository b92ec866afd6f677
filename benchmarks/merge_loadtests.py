"""Merge the figures of load tests that ran side by side, each with ``taash web loadtest --latencies FILE``, into
one line of JSON (taash.web.loadtest_merge.merged says how; benchmarks/cluster_load.sh runs it with LOADTESTS=K):

    python benchmarks/merge_loadtests.py FILE...
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from taash.web.loadtest_merge import merged


def main(paths: list[str]) -> int:
    if not paths:
        print("usage: python benchmarks/merge_loadtests.py FILE... (written by taash web loadtest --latencies)",
              file=sys.stderr)
        return 2
    records = []
    for path in paths:
        try:
            records.append(json.loads(Path(path).read_text()))
        except (OSError, ValueError) as e:
            print(f"merge_loadtests.py: cannot read {path}: {e}", file=sys.stderr)
            return 1
    try:
        print(json.dumps(merged(records)))
    except ValueError as e:
        print(f"merge_loadtests.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
