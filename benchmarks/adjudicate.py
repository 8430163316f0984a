"""Adjudication speed on random legal games (issue 2 targets, 2-core machine).

Plays seeded random games on the standard map from Spring 1901 to Winter 1920:
every phase of the five-phase year (movement; retreats when a unit was
dislodged; SC ownership after Fall; adjustments with builds and removals),
with orders drawn from :func:`judge.rules.legal.possible_orders`. Times only the
adjudication calls, then times ``import judge`` plus loading the standard map in
fresh subprocesses. Prints the figures; asserts nothing.

Targets: movement phase median <= 0.10 ms; import + map <= 100 ms.

    python benchmarks/adjudicate.py [--seed 1] [--games 10] [--last-year 1920]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from dataclasses import replace

from judge.maps import load_map
from judge.rules import (Position, adjudicate_adjustments, adjudicate_movement,
                         adjudicate_retreats, update_ownership)
from judge.rules.adjustments import adjustment_counts
from judge.rules.legal import possible_orders
from judge.rules.orders import Convoy, Hold, Move, Support
from judge.rules.phase import Phase

IMPORT_SNIPPET = ("import time; t = time.perf_counter(); import judge; from judge.maps import load_map; "
                  "load_map('standard'); print((time.perf_counter() - t) * 1000)")


def movement_orders(rng: random.Random, game_map, pos: Position) -> dict[str, list]:
    """Random legal orders: most units move, some support an order actually given
    (a hold or a move), fleets at sea convoy an army that was ordered over sea."""
    choices = {p: possible_orders(game_map, pos, p) for p in game_map.powers}
    chosen: dict[str, object] = {}
    helpers = []
    for power, per_unit in choices.items():
        for prov, options in per_unit.items():
            r = rng.random()
            if r < 0.1:
                chosen[prov] = options[0]            # hold
            elif r < 0.7 or len(options) == 1:
                moves = [o for o in options if isinstance(o, Move)] or options[:1]
                chosen[prov] = rng.choice(moves)
            else:
                helpers.append((power, prov, options))
    for power, prov, options in helpers:
        matching = [o for o in options if _matches(o, chosen)]
        chosen[prov] = rng.choice(matching) if matching else options[0]
    orders: dict[str, list] = {}
    for prov, order in chosen.items():
        orders.setdefault(pos.units[prov].power, []).append(order)
    return orders


def _matches(order, chosen: dict) -> bool:
    """A support or convoy of an order already chosen."""
    if isinstance(order, Support):
        o = chosen.get(order.supported_location.split("/")[0])
        if o is None:
            return False
        if order.destination is None:
            return isinstance(o, Hold)
        return isinstance(o, Move) and o.destination.split("/")[0] == order.destination
    if isinstance(order, Convoy):
        o = chosen.get(order.army_location)
        return isinstance(o, Move) and o.destination == order.destination
    return False


def retreat_orders(rng: random.Random, game_map, pos: Position) -> dict[str, list]:
    orders: dict[str, list] = {}
    for power in game_map.powers:
        for options in possible_orders(game_map, pos, power).values():
            orders.setdefault(power, []).append(rng.choice(options))
    return orders


def adjustment_orders(rng: random.Random, game_map, pos: Position) -> dict[str, list]:
    """Builds on distinct home centres (sometimes fewer than allowed), or removals
    (sometimes too few, leaving the rest to civil disorder)."""
    orders: dict[str, list] = {}
    counts = adjustment_counts(pos, game_map.powers)
    for power in game_map.powers:
        options = possible_orders(game_map, pos, power)
        due = counts[power]
        if due > 0:
            sites = [p for p in options if p is not None]
            rng.shuffle(sites)
            picks = [rng.choice(options[p]) for p in sites[:due]]
            orders[power] = picks if rng.random() < 0.9 else picks[:-1] + options[None]
        elif due < 0:
            units = list(options.values())
            rng.shuffle(units)
            n = -due if rng.random() < 0.9 else -due - 1
            orders[power] = [olist[0] for olist in units[:n]]
    return orders


def timed(times: list[float], fn, *args):
    t = time.perf_counter_ns()
    out = fn(*args)
    times.append((time.perf_counter_ns() - t) / 1e6)
    return out


def play(seed: int, last_year: int, game_map, times: dict[str, list[float]], stats: dict) -> None:
    rng = random.Random(seed)
    pos = Position.start(game_map)
    while True:
        phase = Phase.parse(pos.phase)
        if phase.year > last_year:
            return
        if phase.kind == "M":
            orders = movement_orders(rng, game_map, pos)
            stats["units"].append(len(pos.units))
            out = timed(times["movement"], adjudicate_movement, game_map, pos, orders)
            for r in out.results:
                stats["outcomes"][r.outcome] = stats["outcomes"].get(r.outcome, 0) + 1
            pos = out.position
            if not pos.dislodged:
                pos = replace(pos, phase=str(Phase.parse(pos.phase).next_in_year()))
        elif phase.kind == "R":
            stats["dislodged"] += len(pos.dislodged)
            orders = retreat_orders(rng, game_map, pos)
            pos = timed(times["retreat"], adjudicate_retreats, game_map, pos, orders).position
        else:
            orders = adjustment_orders(rng, game_map, pos)
            pos = timed(times["adjustment"], adjudicate_adjustments, game_map, pos, orders).position
        if pos.phase.startswith("W"):
            pos = update_ownership(game_map, pos)   # after Fall (RULES.md §1)


def import_times(runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        proc = subprocess.run([sys.executable, "-c", IMPORT_SNIPPET], capture_output=True, text=True, check=True)
        out.append(float(proc.stdout))
    return out


def line(name: str, ms: list[float]) -> str:
    if not ms:
        return f"{name:<11} (none)"
    return (f"{name:<11} n={len(ms):<5} median {statistics.median(ms):.4f} ms   "
            f"min {min(ms):.4f} ms   max {max(ms):.4f} ms")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1, help="first game's seed (default 1)")
    ap.add_argument("--games", type=int, default=10, help="games to play (default 10)")
    ap.add_argument("--last-year", type=int, default=1920, help="play through Winter of this year (default 1920)")
    ap.add_argument("--import-runs", type=int, default=7, help="fresh subprocesses for the import time (default 7)")
    args = ap.parse_args(argv)

    game_map = load_map("standard")
    times: dict[str, list[float]] = {"movement": [], "retreat": [], "adjustment": []}
    stats = {"units": [], "dislodged": 0, "outcomes": {}}
    for g in range(args.games):
        play(args.seed + g, args.last_year, game_map, times, stats)
    imports = import_times(args.import_runs)

    print(f"{args.games} random games, seeds {args.seed}..{args.seed + args.games - 1}, "
          f"S1901M to W{args.last_year}A; mean {statistics.mean(stats['units']):.1f} units per movement "
          f"phase, {stats['dislodged']} units dislodged")
    print("movement order results: " + ", ".join(f"{k} {v}" for k, v in sorted(stats["outcomes"].items())))
    print("adjudication time per phase:")
    for name, ms in times.items():
        print("  " + line(name, ms))
    print(f"import judge + load standard map (fresh process, {len(imports)} runs): "
          f"median {statistics.median(imports):.1f} ms   min {min(imports):.1f} ms   max {max(imports):.1f} ms")
    print("targets: movement median <= 0.10 ms; import + map <= 100 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
