"""The text of a results mail for one or more adjudicated phases (issue 4 §3):
every order with its result and why it failed, dislodged units and where they
may retreat, SC ownership and counts, adjustments due, and the next phase.
English for now; the mail templates will carry the other languages.
"""

from __future__ import annotations

from ..maps import load_names
from ..notation.format import format_order
from ..notation.names import name_index
from ..rules.orders import FAILS, ILLEGAL, SUCCEEDS, VOID, Build, Waive
from ..rules.phase import Phase
from .game import Game
from .records import DEFAULT, LIST, PhaseRecord
from .sequence import adjustments_due

_SOURCE_NOTES = {LIST: "from standing list", DEFAULT: "judge's default"}


def results_text(game: Game, records: list[PhaseRecord]) -> str:
    """The results of ``records`` (phases of ``game``, oldest first) as text."""
    names = name_index(game.map, load_names(game.map_name))
    parts = [_phase_text(game, rec, names) for rec in records]
    nxt = Phase.parse(records[-1].position_after.phase)
    parts.append(f"Next phase: {nxt.long_name} ({nxt})")
    return "\n\n".join(parts) + "\n"


def latest_records(game: Game) -> list[PhaseRecord]:
    """The records made by the game's last adjudication (several in
    combined-order mode), or [] before the first."""
    if not game.history:
        return []
    last = game.history[-1].processed_at
    return [r for r in game.history if r.processed_at == last]


def _phase_text(game: Game, rec: PhaseRecord, names) -> str:
    gm = game.map
    phase = Phase.parse(rec.phase)
    when = rec.processed_at.strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"Game {game.name}: {phase.long_name} ({phase}), adjudicated {when}"]
    if rec.random_seed:
        lines.append(f"Random choices seeded with {rec.random_seed!r}.")
    lines += ["", "Orders:"]
    told = []
    sources = {(p, e.order): e.source for p, es in rec.orders.items() for e in es if not e.replaced}
    width = max(len(p) for p in gm.powers) + 1
    for r in sorted(rec.results, key=lambda r: gm.powers.index(r.power)):
        text = format_order(r.order, names) if r.order is not None else "(no order)"
        notes = _result_notes(r)
        src = _SOURCE_NOTES.get(sources.get((r.power, r.order)))
        if src:
            notes.append(src)
        told.append(f"{r.power + ':':<{width}} {text}." + (f"  ({'; '.join(notes)})" if notes else ""))
    if phase.kind == "A":
        for power, n in adjustments_due(gm, rec.position_before).items():
            used = sum(1 for r in rec.results if r.power == power and r.ok
                       and isinstance(r.order, (Build, Waive)))
            if n > used:
                told.append(f"{power + ':':<{width}} {n - used} build(s) not used.")
    lines += told or ["(none)"]
    after = rec.position_after
    if after.dislodged:
        lines += ["", "Dislodged units:"]
        for prov, d in sorted(after.dislodged.items()):
            where = ", ".join(_loc_name(gm, loc) for loc in d.retreats)
            lines.append(f"{d.unit.power + ':':<{width}} {'A' if d.unit.type == 'A' else 'F'} "
                         f"{_loc_name(gm, d.unit.location)} may retreat to {where}.")
    if phase.season == "F" and Phase.parse(after.phase).kind != "R" or phase.kind == "A":
        lines += ["", "Supply centres:"]
        owned: dict[str, list[str]] = {}
        for sc in sorted(gm.supply_centres, key=lambda s: gm.english_names.get(s, s)):
            owned.setdefault(after.sc_owners.get(sc, ""), []).append(gm.english_names.get(sc, sc))
        for power in list(gm.powers) + [""]:
            if owned.get(power):
                label = power or "Unowned"
                lines.append(f"{label + ':':<{width}} {len(owned[power]):2}  {', '.join(owned[power])}")
    if Phase.parse(after.phase).kind == "A":
        lines += ["", "Adjustments due:"]
        for power, n in adjustments_due(gm, after).items():
            lines.append(f"{power + ':':<{width}} {'builds' if n > 0 else 'removes'} {abs(n)}")
    return "\n".join(lines)


def _result_notes(r) -> list[str]:
    notes = []
    if r.outcome == FAILS:
        notes.append(r.reason or "fails")
    elif r.outcome in (ILLEGAL, VOID):
        notes.append(f"{r.outcome}: {r.reason}" if r.reason else r.outcome)
    elif r.outcome == SUCCEEDS and r.reason:
        notes.append(r.reason)
    if r.dislodged:
        notes.append("dislodged")
    if r.destroyed:
        notes.append("destroyed")
    return notes


def _loc_name(gm, loc: str) -> str:
    prov, _, coast = loc.partition("/")
    name = gm.english_names.get(prov, prov)
    return f"{name} ({coast})" if coast else name
