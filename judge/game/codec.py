"""Plain-data (JSON-ready) forms of orders, positions and results.

``order_to_dict(Move("A", "par", "bur"))`` ->
``{"type": "Move", "unit_type": "A", "location": "par", "destination": "bur",
"via_convoy": False, "route": []}``; :func:`order_from_dict` inverts it exactly
(sequences come back as tuples, nested orders as orders). Decoders raise
:class:`ValueError` on unknown types or keys.
"""

from __future__ import annotations

import dataclasses
import functools
from datetime import datetime, timezone

from ..rules import orders as o
from ..rules.position import DislodgedUnit, Position, Unit
from ..rules.reasons import Reason

ORDER_TYPES = {cls.__name__: cls for cls in (
    o.Hold, o.Move, o.Support, o.Convoy, o.Retreat, o.Disband, o.Build, o.Waive,
    o.RetreatPreference, o.BuildPriority, o.DisbandPriority)}


_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(cls) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls)) if dataclasses.is_dataclass(cls) \
            else cls._fields   # a NamedTuple
    return names


def _encode(value):
    if type(value).__name__ in ORDER_TYPES:
        return order_to_dict(value)
    if isinstance(value, (tuple, list)):
        return [_encode(v) for v in value]
    return value


def _decode(value):
    if isinstance(value, dict):
        return order_from_dict(value)
    if isinstance(value, list):
        return tuple(_decode(v) for v in value)
    return value


def order_to_dict(order) -> dict:
    """Any order or standing order -> ``{"type": class name, field: value, ...}``."""
    cls = type(order)
    if ORDER_TYPES.get(cls.__name__) is not cls:
        raise ValueError(f"not an order: {order!r}")
    return {"type": cls.__name__, **{n: _encode(getattr(order, n)) for n in _field_names(cls)}}


def order_from_dict(data: dict):
    """Inverse of :func:`order_to_dict`. Raises ValueError on an unknown type or field."""
    cls = ORDER_TYPES.get(data.get("type"))
    if cls is None:
        raise ValueError(f"unknown order type {data.get('type')!r}")
    names = set(_field_names(cls))
    extra = set(data) - names - {"type"}
    if extra:
        raise ValueError(f"unknown field(s) for {cls.__name__}: {', '.join(sorted(extra))}")
    return cls(**{k: _decode(v) for k, v in data.items() if k != "type"})


def position_to_dict(pos: Position) -> dict:
    return {
        "phase": pos.phase,
        "units": {p: [u.power, u.type, u.location] for p, u in pos.units.items()},
        "sc_owners": dict(pos.sc_owners),
        "dislodged": {p: {"unit": [d.unit.power, d.unit.type, d.unit.location],
                          "attacker_origin": d.attacker_origin, "retreats": list(d.retreats)}
                      for p, d in pos.dislodged.items()},
    }


def position_from_dict(data: dict) -> Position:
    return Position(
        data["phase"],
        {p: Unit(*u) for p, u in data["units"].items()},
        dict(data["sc_owners"]),
        {p: DislodgedUnit(Unit(*d["unit"]), d["attacker_origin"], tuple(d["retreats"]))
         for p, d in data.get("dislodged", {}).items()},
    )


def result_to_dict(r: o.Result) -> dict:
    return {"power": r.power, "order": None if r.order is None else order_to_dict(r.order),
            "outcome": r.outcome, "reason": reason_to_data(r.reason), "dislodged": r.dislodged,
            "destroyed": r.destroyed}


def result_from_dict(data: dict) -> o.Result:
    order = data.get("order")
    return o.Result(data["power"], None if order is None else order_from_dict(order),
                    data["outcome"], reason_from_data(data.get("reason")), data.get("dislodged", False),
                    data.get("destroyed", False))


_OLD_WORDS = {"bounced": o.BOUNCED, "cut": o.CUT, "dislodged": o.DISLODGED, "disrupted": o.DISRUPTED,
              "no convoy": o.NO_CONVOY, "no order": o.NO_ORDER, "civil disorder": o.CIVIL_DISORDER}


def reason_to_data(reason: Reason | None) -> dict | None:
    """A result's reason as JSON-ready data: ``{"code": ..., param: value}``."""
    return None if reason is None else reason.to_dict()


def reason_from_data(data) -> Reason | None:
    """Inverse of :func:`reason_to_data`. Games stored before reasons were
    codes hold a word (``"bounced"``, ``"no order"``: the code it was) or an
    English sentence, kept as ``Reason("unworded", text=...)`` (shown as it
    was written: the judge does not read sentences back)."""
    if data is None or isinstance(data, dict):
        return None if data is None else Reason.from_dict(data)
    return _OLD_WORDS.get(data) or Reason("unworded", text=data)


def time_to_str(when: datetime | None) -> str | None:
    """A UTC ISO 8601 string (``2025-01-31T12:00:00+00:00``), or None."""
    if when is not None and when.tzinfo is timezone.utc:
        return _utc_iso(when)
    return None if when is None else when.astimezone(timezone.utc).isoformat()


@functools.lru_cache(maxsize=4096)
def _utc_iso(when: datetime) -> str:
    """``when.isoformat()`` of a time in UTC (the judge's own, and every one
    read back), kept: a game's order entries are written again with every
    mail, their times unchanged (issue 23: ~40 a mail, 1.3 µs each)."""
    return when.isoformat()


def time_from_str(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)
