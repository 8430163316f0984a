"""What a results mail tells (issue 4 §3), as language-neutral data for the
``results.txt`` templates, and the njudge-style English order line.

:func:`results_data` gives, for the phases of one adjudication: every order
with its result and why it failed (and whether the judge's default or a
standing list stood in), who missed the phase (NMR), dislodged units and
where they may retreat, SC ownership with counts per power, the builds and
removals due, the next phase and its deadline. Codes only (powers, provinces,
phases, outcomes, reasons); the templates name them in the reader's language.
"""

from __future__ import annotations

from dataclasses import replace

from ..rules.orders import (
    Build, BuildPriority, Convoy, Disband, DisbandPriority, Hold, Move, Retreat, RetreatPreference,
    Support, Waive,
)
from ..rules.phase import Phase
from .deadlines import zone_of
from .nmr import missed_by
from .records import PhaseRecord
from .sequence import adjustments_due


def results_data(game, records: list[PhaseRecord]) -> dict:
    """The context of a results mail for ``records`` (the phases of ``game``'s
    last adjudication, oldest first). Keys: ``game``, ``map``, ``phases``
    (see :func:`phase_data`), ``next_phase`` (None when the game is over),
    ``deadline`` (UTC or None), ``timezone``, ``finished``."""
    sched = game.schedule
    finished = bool(getattr(game, "finished", False))
    return {
        "game": game.name, "map": game.map_name,
        "phases": [phase_data(game, rec) for rec in records],
        "next_phase": None if finished else str(game.phase),
        "deadline": None if finished else sched.deadline,
        "timezone": game.settings.deadlines.timezone,
        "finished": finished,
    }


def phase_data(game, rec: PhaseRecord) -> dict:
    """One adjudicated phase: ``phase``, ``kind``, ``number`` (its place in the
    game, njudge's ``(game.001)``), ``processed_at``, ``random_seed``,
    ``orders`` ``[{power, orders: [{unit, order, outcome, reason, dislodged,
    destroyed, source}]}]`` in map order, ``missed`` (powers that sent no
    orders), ``dislodged`` ``[{power, unit, retreats}]``, ``centres``
    ``[{power, centres, count, units, adjust}]`` and ``unowned`` (after Fall and
    Winter, else None), ``adjustments`` ``[{power, count}]`` due next (positive:
    builds), ``unused_builds`` ``[{power, count}]``."""
    gm = game.map
    phase = Phase.parse(rec.phase)
    before, after = rec.position_before, rec.position_after
    sources = {}
    for p, es in rec.orders.items():
        for e in es:
            if not e.replaced:
                sources[(p, e.order)] = e.source
    by_power: dict[str, list] = {p: [] for p in gm.powers}
    for r in rec.results:
        by_power.setdefault(r.power, []).append({
            "unit": _unit_of(before, r.order, phase.kind),
            "order": r.order, "outcome": r.outcome, "reason": r.reason,
            "dislodged": r.dislodged, "destroyed": r.destroyed,
            "source": sources.get((r.power, r.order)) if r.order is not None else None,
        })
    number = next((i for i, h in enumerate(game.history, 1) if h.phase == rec.phase), len(game.history))
    out = {
        "phase": rec.phase, "kind": phase.kind, "season": phase.season, "year": phase.year,
        "number": number, "processed_at": rec.processed_at, "random_seed": rec.random_seed,
        "orders": [{"power": p, "orders": os} for p, os in by_power.items() if os],
        "missed": missed_by(rec, gm),
        "dislodged": [{"power": d.unit.power, "unit": (d.unit.type, d.unit.location),
                       "retreats": list(d.retreats)}
                      for _, d in sorted(after.dislodged.items())],
        "centres": None, "unowned": None, "adjustments": [], "unused_builds": [],
    }
    nxt = Phase.parse(after.phase)
    if (phase.season == "F" and nxt.kind != "R") or phase.kind == "A":
        due = adjustments_due(gm, after) if nxt.kind == "A" else {}
        owned: dict[str, list[str]] = {}
        for sc in sorted(gm.supply_centres):
            owned.setdefault(after.sc_owners.get(sc, ""), []).append(sc)
        units = {p: sum(1 for u in after.units.values() if u.power == p) for p in gm.powers}
        out["centres"] = [{"power": p, "centres": owned.get(p, []), "count": len(owned.get(p, [])),
                           "units": units[p], "adjust": due.get(p, 0)}
                          for p in gm.powers if owned.get(p) or units[p]]
        out["unowned"] = owned.get("", [])
    if nxt.kind == "A":
        out["adjustments"] = [{"power": p, "count": n} for p, n in adjustments_due(gm, after).items()]
    if phase.kind == "A":
        for p, n in adjustments_due(gm, before).items():
            used = sum(1 for r in rec.results if r.power == p and r.ok and isinstance(r.order, (Build, Waive)))
            if n > used:
                out["unused_builds"].append({"power": p, "count": n - used})
    return out


def _unit_of(position, order, kind: str) -> tuple[str, str] | None:
    """(type, location) of the unit an order is for, from the position before."""
    loc = getattr(order, "location", None)
    if loc is None:
        return None
    prov = loc.partition("/")[0]
    if kind == "R" and prov in position.dislodged:
        u = position.dislodged[prov].unit
    elif kind == "A" and isinstance(order, Build):
        return (order.unit_type or "A", order.location)
    else:
        u = position.units.get(prov)
    if u is None:
        return (order.unit_type or "A", loc) if order.unit_type else None
    return (u.type, u.location)


# ---- njudge-style English ---------------------------------------------------------
def order_line(order, unit, words) -> str:
    """``order`` as njudge writes it in results, e.g. ``Army Budapest -> Serbia``,
    ``Fleet Trieste SUPPORT Army Budapest -> Serbia``, ``Fleet North Sea CONVOY
    Army London -> Norway``, ``Build Fleet St Petersburg (north coast)``.
    ``unit``: ``(type, location)`` of the ordered unit or None; ``words``: a
    names helper with ``unit((type, loc))`` and ``location(loc)`` in English.
    Standing lists and Chinese use the canonical form (``words.order``)."""
    def u(t, loc):
        return words.unit((t or "A", loc))

    head = u(unit[0], unit[1]) if unit else (u(getattr(order, "unit_type", None), order.location)
                                             if hasattr(order, "location") else "")
    if isinstance(order, Hold):
        return f"{head} HOLD"
    if isinstance(order, Move):
        path = " -> ".join(words.location(p) for p in (*order.route, order.destination))
        return f"{head} -> {path}"
    if isinstance(order, Support):
        target = u(order.supported_type, order.supported_location)
        if order.destination is None:
            return f"{head} SUPPORT {target}"
        return f"{head} SUPPORT {target} -> {words.location(order.destination)}"
    if isinstance(order, Convoy):
        return (f"{head} CONVOY {u(order.army_type or 'A', order.army_location)} -> "
                f"{words.location(order.destination)}")
    if isinstance(order, Retreat):
        return f"{head} -> {words.location(order.destination)}"
    if isinstance(order, Disband):
        return f"{head} DISBAND"
    if isinstance(order, Build):
        return f"Build {u(order.unit_type, order.location)}"
    if isinstance(order, Waive):
        return "Build waived"
    if isinstance(order, (RetreatPreference, BuildPriority, DisbandPriority)):
        return words.order(order)
    raise TypeError(f"not an order: {order!r}")


def canonical_line(order, unit, words) -> str:
    """``order`` in the canonical form of ``words``' language, with the unit
    type filled in from ``unit`` when the player left it out."""
    if unit and getattr(order, "unit_type", "x") is None:
        order = replace(order, unit_type=unit[0])
    return words.order(order)


def njudge_time(when, tz: str) -> str:
    """``when`` (aware) in zone ``tz`` as njudge writes dates in its ``::``
    header lines: ``Tue Jan 06 2004 23:30:00 +0100`` (English day and month
    names whatever the reader's language, for mapper tools)."""
    local = when.astimezone(zone_of(tz))
    days = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
    months = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
    return (f"{days[local.weekday()]} {months[local.month - 1]} {local.day:02d} {local.year} "
            f"{local:%H:%M:%S} {local:%z}")
