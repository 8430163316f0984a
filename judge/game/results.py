"""What a results mail tells, as language-neutral data (codes, numbers,
orders, reasons, UTC datetimes; no words): :func:`results_data` — which
phases were adjudicated, who sent no orders (NMR), the next phase and its
deadline — and :func:`phase_data` — one phase's orders and results, the
dislodged units, SC ownership and the adjustments due. The words are the
templates' (``templates/mail/notices/results.txt`` and
``templates/mail/results/phase.txt``, :mod:`judge.text`), one text for the
results mail and ``HISTORY``.
"""

from __future__ import annotations

from ..maps import load_names
from ..rules.orders import Build, Waive
from ..rules.phase import Phase
from .deadlines import zone_of
from .nmr import missed_by
from .records import PhaseRecord
from .sequence import adjustments_due


def results_data(game, records: list[PhaseRecord]) -> dict:
    """The context of a results mail for ``records`` (the phases of ``game``'s
    last adjudication, oldest first): ``game``, ``map``, ``phases`` (names),
    ``missed`` (``{phase: [powers that sent no orders]}``), ``next_phase``
    (None when the game is over), ``deadline`` (UTC or None), ``timezone``,
    ``finished``."""
    finished = game.finished
    return {
        "game": game.name, "map": game.map_name,
        "phases": [rec.phase for rec in records],
        "missed": {rec.phase: missed_by(rec, game.map) for rec in records},
        "next_phase": None if finished else str(game.phase),
        "deadline": None if finished else game.schedule.deadline,
        "timezone": game.settings.deadlines.timezone,
        "finished": finished,
    }


def njudge_time(when, tz: str) -> str:
    """``when`` (aware) in zone ``tz`` as njudge writes dates in its ``::``
    header lines: ``Tue Jan 06 2004 23:30:00 +0100`` (English day and month
    names whatever the reader's language, for mapper tools)."""
    local = when.astimezone(zone_of(tz))
    days = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
    months = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
    return (f"{days[local.weekday()]} {months[local.month - 1]} {local.day:02d} {local.year} "
            f"{local:%H:%M:%S} {local:%z}")


def unused_builds(game_map, record: PhaseRecord) -> dict[str, int]:
    """``{power: builds it could make and did not}`` in an adjustment phase
    (nothing in another phase)."""
    unused: dict[str, int] = {}
    if Phase.parse(record.phase).kind == "A":
        for power, n in adjustments_due(game_map, record.position_before).items():
            used = sum(1 for r in record.results if r.power == power and r.ok
                       and isinstance(r.order, (Build, Waive)))
            if n > used:
                unused[power] = n - used
    return unused


def phase_data(game, record: PhaseRecord) -> dict:
    """One adjudicated phase of ``game`` as plain data: ``game``, ``map``,
    ``phase``, ``processed_at`` (UTC), ``random_seed``; ``orders``: per power
    with something in the phase, in map order, ``{power, results: [{order
    (None for a unit without one), outcome, reason (a Reason or None),
    dislodged, destroyed, source ("written", "list", "default" or None)}],
    unused_builds}``; ``dislodged``: ``[{power, unit: (type, location),
    retreats: [locations]}]``; ``sc_changed`` (the phase ended a year's
    Fall), ``adjustment`` (the phase was an adjustment phase);
    ``centres``: ``[{power, count, centres}]`` after the phase and
    ``unowned`` (SC codes ordered by English name); ``adjustments``:
    ``[{power, n}]`` due in the next phase (builds > 0, removals < 0;
    none after the phase that ended the game);
    ``units``: ``[{power, units: [(type, location)]}]`` as they stand after
    the phase, per power with units, in map order."""
    gm, after = game.map, record.position_after
    sources = {(p, e.order): e.source for p, es in record.orders.items() for e in es if not e.replaced}
    rows: dict[str, list[dict]] = {}
    for r in record.results:
        rows.setdefault(r.power, []).append({
            "order": r.order, "outcome": r.outcome, "reason": r.reason, "dislodged": r.dislodged,
            "destroyed": r.destroyed, "source": sources.get((r.power, r.order))})
    unused = unused_builds(gm, record)
    english = load_names(game.map_name).get("provinces", {})
    owned: dict[str, list[str]] = {}
    for sc in sorted(gm.supply_centres, key=lambda c: english.get(c, {}).get("en", c)):
        owned.setdefault(after.sc_owners.get(sc, ""), []).append(sc)
    p, nxt = Phase.parse(record.phase), Phase.parse(after.phase)
    return {
        "game": game.name, "map": game.map_name, "phase": record.phase,
        "processed_at": record.processed_at, "random_seed": record.random_seed,
        "orders": [{"power": power, "results": rows.get(power, []), "unused_builds": unused.get(power, 0)}
                   for power in gm.powers if rows.get(power) or power in unused],
        "dislodged": [{"power": d.unit.power, "unit": (d.unit.type, d.unit.location), "retreats": list(d.retreats)}
                      for _prov, d in sorted(after.dislodged.items())],
        "sc_changed": p.season == "F" and (nxt.kind == "A" or nxt.year > p.year),
        "adjustment": record.phase.endswith("A"),
        "centres": [{"power": power, "count": len(owned.get(power, ())), "centres": owned.get(power, [])}
                    for power in gm.powers],
        "unowned": owned.get("", []),
        # a game that ended after this phase plays no Winter: no adjustments are due (issue 13 point 8)
        "adjustments": [{"power": power, "n": n} for power, n in adjustments_due(gm, after).items()]
        if after.phase.endswith("A") and not _ended_after(game, record) else [],
        "units": [{"power": power, "units": [(u.type, u.location) for u in sorted(
            after.units_of(power), key=lambda u: u.location)]} for power in gm.powers if after.units_of(power)],
    }


def _ended_after(game, record: PhaseRecord) -> bool:
    """Whether ``game`` is over and ``record`` is its last adjudicated phase."""
    return game.finished and len(game.history) > 0 and game.history[-1].phase == record.phase


def rules_data(game) -> dict:
    """What a game-start mail restates of ``game``'s rules, as plain data:
    ``solo`` (SCs, or None) with ``solo_rule``, ``alliance`` (SCs or None),
    ``end_year``, ``end_at`` (UTC or None), ``tie`` (``RULES.md`` §4);
    ``scoring`` (a system code) and ``awards`` (``gm``/``vote``, §5);
    ``press``: ``{allowed, white, grey, private, to_gm, observers}``;
    ``units``: ``[{power, units: [(type, location)]}]`` at the start."""
    v, sc, pr, pos = game.settings.victory, game.settings.scoring, game.settings.press, game.position
    return {"solo": v.solo_centres, "solo_rule": v.solo_rule, "alliance": v.alliance_centres,
            "end_year": v.end_year, "end_at": v.end_at, "tie": v.tie_rule, "scoring": sc.system,
            "awards": sc.awards,
            "press": {"allowed": pr.allowed, "white": pr.white, "grey": pr.grey, "private": pr.private,
                      "to_gm": pr.to_gm, "observers": pr.observers},
            "units": [{"power": p, "units": [(u.type, u.location) for u in sorted(pos.units_of(p),
                                                                                key=lambda u: u.location)]}
                      for p in game.map.powers if pos.units_of(p)]}
