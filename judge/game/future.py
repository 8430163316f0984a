"""Orders for a later phase (njudge's ``PHASE``): kept, and applied when that
phase opens if they are still legal, with a note to the power either way.

A player writes ``PHASE Fall 1901 Movement`` (or ``PHASE F1901M``, njudge's
words; :func:`read_phase`) and order lines after it. The lines are kept as
written in ``game.future`` — ``{phase: {power: [[line, UTC ISO time], ...]}}``
— nothing is parsed against a position that does not exist yet. When the
game opens that phase (:func:`apply_future`, called by
:func:`judge.game.turns.process`), each power's kept lines are parsed against
the new position and submitted as if written then; the power gets one notice
(``future_orders``) listing the lines taken and those refused, with the
reason. Lines kept for a phase the game passed without opening (a retreat
phase nobody needed) are dropped, with the same notice saying so. A later
``PHASE`` mail for the same phase adds to the lines kept (a later order for
a unit replaces an earlier one when they are applied, ``RULES.md`` §2);
``PHASE ... CLEAR`` drops them.
"""

from __future__ import annotations

import re
from datetime import datetime

from ..maps import load_names
from ..notation.names import name_index
from ..notation.parser import ParseContext, parse_orders
from ..rules.phase import Phase
from .errors import GameError
from .notices import Notice, event_key

SEASONS = {"SPRING": "S", "FALL": "F", "AUTUMN": "F", "WINTER": "W", "SUMMER": "F",
           "春": "S", "春季": "S", "秋": "F", "秋季": "F", "冬": "W", "冬季": "W"}
KINDS = {"MOVEMENT": "M", "MOVEMENTS": "M", "MOVE": "M", "MOVES": "M", "RETREAT": "R", "RETREATS": "R",
         "ADJUSTMENT": "A", "ADJUSTMENTS": "A", "BUILD": "A", "BUILDS": "A", "ADJUST": "A",
         "行动": "M", "行動": "M", "移动": "M", "移動": "M", "撤退": "R", "调整": "A", "調整": "A", "建造": "A"}
MAX_LINES = 100
"""Lines a power may keep for one later phase."""


def read_phase(text: str) -> str:
    """A phase as njudge's users write it -> ``F1901M``: ``F1901M``,
    ``Fall 1901 Movement``, ``Spring 1902 Retreat``, ``Winter 1901
    Adjustment`` (or ``Builds``), ``1901 Fall Movement``, ``S 1901 M``,
    ``1901年秋季行动``. A season without a kind is its movement phase
    (Winter: adjustments). Raises GameError ``bad_phase`` otherwise."""
    raw = text.strip()
    try:
        return str(Phase.parse(raw.replace(" ", "")))
    except ValueError:
        pass
    words = [w for w in re.split(r"[\s,.年]+", raw.upper().replace("季", "季 ")) if w]
    season = kind = year = None
    for w in words:
        if w.isdigit() and len(w) == 4:
            year = int(w)
        elif w in SEASONS or w.rstrip("季") + "季" in SEASONS:
            season = SEASONS.get(w) or SEASONS[w.rstrip("季") + "季"]
        elif w in KINDS:
            kind = KINDS[w]
        elif len(w) == 1 and w in "SFW" and season is None:
            season = w
        elif len(w) == 1 and w in "MRA" and kind is None:
            kind = w
        else:
            raise GameError("bad_phase", text=raw)
    if season is None or year is None:
        raise GameError("bad_phase", text=raw)
    kind = kind or ("A" if season == "W" else "M")
    try:
        return str(Phase.parse(f"{season}{year}{kind}"))
    except ValueError:
        raise GameError("bad_phase", text=raw) from None


def keep_future(game, power: str, phase: str, lines: list[str], now: datetime) -> int:
    """Keep ``lines`` of ``power`` for ``phase`` (see module doc); returns how
    many lines are kept for it now. GameError: the game is over, ``phase`` is
    not later than the current one, or more than :data:`MAX_LINES`."""
    game.check_running()
    if Phase.parse(phase).sort_key() <= game.phase.sort_key():
        raise GameError("phase_not_later", phase=phase, current=str(game.phase))
    kept = list(game.future.get(phase, {}).get(power, ()))
    kept += [[line, now.isoformat()] for line in lines]
    if len(kept) > MAX_LINES:
        raise GameError("too_many_future", limit=MAX_LINES, phase=phase)
    game.future = {**game.future, phase: {**game.future.get(phase, {}), power: kept}}
    return len(kept)


def drop_future(game, power: str, phase: str) -> int:
    """Drop the lines ``power`` kept for ``phase``; how many there were."""
    kept = game.future.get(phase, {})
    n = len(kept.get(power, ()))
    rest = {p: ls for p, ls in kept.items() if p != power}
    game.future = {k: v for k, v in {**game.future, phase: rest}.items() if v}
    return n


def apply_future(game, now: datetime) -> list[Notice]:
    """The game has just opened a phase: the lines kept for it are submitted
    for their powers, and those kept for phases passed are dropped; one
    ``future_orders`` notice to each power concerned (see module doc)."""
    if not game.future:
        return []
    current = str(game.phase)
    notices, keep = [], {}
    names = None
    for phase, by_power in sorted(game.future.items(), key=lambda kv: Phase.parse(kv[0]).sort_key()):
        if Phase.parse(phase).sort_key() > game.phase.sort_key():
            keep[phase] = by_power
            continue
        for power, kept in sorted(by_power.items()):
            data = {"game": game.name, "map": game.map_name, "power": power, "phase": phase,
                    "opened": phase == current, "taken": [], "refused": [], "dropped": []}
            if phase != current or game.finished or power not in game.players:
                data["dropped"] = [line for line, _ in kept]
            else:
                names = names or name_index(game.map, load_names(game.map_name))
                ctx = ParseContext(map=game.map, names=names, phase_kind=game.phase.kind,
                                   position=game.position, power=power)
                parsed = [p for p in parse_orders("\n".join(line for line, _ in kept), ctx) if p.kind != "chatter"]
                for r in game.submit(power, parsed, now):
                    if r.ok:
                        data["taken"].append([r.input, r.order])
                    else:
                        data["refused"].append([r.input, {"code": r.error.code, **dict(r.error.params)}])
            notices.append(Notice("future_orders", (power,), data, event_key(game, current, "future", power, phase)))
    game.future = keep
    return notices
