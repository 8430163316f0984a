"""Comparing the judge's position with a recorded board.

Units, dislodged units (with their retreats where the record lists them) and
SC ownership are compared; unit type and coast must match. A recorded
dislodged unit with no retreat counts as gone (the judge removes such units at
the end of the movement phase, ``shared/games/README.md`` §4).
"""

from __future__ import annotations

from ..rules.position import Position, Unit
from .record import RecordedState


def describe(unit: Unit) -> str:
    """``"England F stp/nc"``."""
    return f"{unit.power} {unit.type} {unit.location}"


def differences(ours: Position, recorded: RecordedState) -> list[str]:
    """One line per difference, empty when the boards agree. Lines read
    ``missing <unit>`` (recorded, not judged), ``unexpected <unit>`` (judged,
    not recorded), the same with ``dislodged``, ``retreats of <unit>: ...`` and
    ``owner of <sc>: recorded <power>, judged <power>``."""
    out = _unit_lines(set(ours.units.values()), set(recorded.units.values()), "")
    rec_disl = {d.unit: d.retreats for d in recorded.dislodged.values() if d.retreats != ()}
    our_disl = {d.unit: d.retreats for d in ours.dislodged.values()}
    out += _unit_lines(set(our_disl), set(rec_disl), "dislodged ")
    for unit in sorted(set(our_disl) & set(rec_disl), key=describe):
        rec = rec_disl[unit]
        if rec is not None and set(rec) != set(our_disl[unit]):
            out.append(f"retreats of dislodged {describe(unit)}: recorded {_list(rec)}, "
                       f"judged {_list(our_disl[unit])}")
    for sc in sorted(set(ours.sc_owners) | set(recorded.sc_owners)):
        a, b = recorded.sc_owners.get(sc), ours.sc_owners.get(sc)
        if a != b:
            out.append(f"owner of {sc}: recorded {a or 'nobody'}, judged {b or 'nobody'}")
    return out


def _unit_lines(ours: set[Unit], recorded: set[Unit], label: str) -> list[str]:
    return [f"missing {label}{describe(u)}" for u in sorted(recorded - ours, key=describe)] + \
        [f"unexpected {label}{describe(u)}" for u in sorted(ours - recorded, key=describe)]


def _list(locations) -> str:
    return ", ".join(sorted(locations)) or "none"
