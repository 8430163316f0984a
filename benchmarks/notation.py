"""Order-reading speed (issue 7: a line should parse in well under 1 ms).

Reads every line of the notation tables (``tests/data/notation/*.tsv``: English,
Chinese, mixed, malformed; and ``zh/orders.tsv``, Chinese as every community
writes it, issue 14) in their contexts, many times over, and prints the median
and 99th percentile time per line, for each set and for all, plus the time to
build the name indexes once. Asserts nothing.

Targets: median <= 0.05 ms (issue 14), p99 <= 1 ms (a line with an unknown name,
which looks for the nearest names, is the slow case).

    python benchmarks/notation.py [--rounds 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from judge.maps import load_map, load_names  # noqa: E402
from judge.notation import parse_line  # noqa: E402
from judge.notation.lexicon import lexicon  # noqa: E402
from judge.notation.names import NameIndex  # noqa: E402
from test_notation import TABLES, make_context, read_table  # noqa: E402
from test_notation_zh import read_rows  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    game_map, raw = load_map("standard"), load_names("standard")
    t = time.perf_counter()
    names = NameIndex(game_map, raw)
    lexicon(names)
    build_ms = (time.perf_counter() - t) * 1000
    sets = {"tables *.tsv": [(c.context, c.input) for p in sorted(TABLES.glob("*.tsv")) for c in read_table(p)],
            "zh/orders.tsv": [(r.context, r.line) for r in read_rows()]}
    sets["all"] = sets["tables *.tsv"] + sets["zh/orders.tsv"]
    contexts = {c: make_context(c, game_map, names) for c, _ in sets["all"]}
    print(f"name indexes built in {build_ms:.1f} ms")
    for label, cases in sets.items():
        times = []
        for _ in range(args.rounds):
            for context, line in cases:
                ctx = contexts[context]
                t = time.perf_counter()
                parse_line(line, ctx)
                times.append(time.perf_counter() - t)
        times.sort()
        ms = [x * 1000 for x in times]
        print(f"{label}: {len(cases)} lines x {args.rounds} rounds: median {statistics.median(ms):.3f} ms, "
              f"p99 {ms[int(len(ms) * 0.99)]:.3f} ms, max {ms[-1]:.3f} ms per line")


if __name__ == "__main__":
    main()
