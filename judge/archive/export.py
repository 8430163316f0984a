"""A game as public JSON (``/games/NAME.json``, ``judge archive export``) and
the check that the export is complete (:func:`check_export`).

Shape (``"format": "judge-archive/1"``)::

    {"format", "game", "map", "rules", "settings" (without the join password's
                                                     hash and the invitations),
     "created",
     "players": {power: "al…@example.org", "" (vacant) or null (hidden: gunboat)},
     "phases": [{"phase": "S1901M", "title": "Spring 1901 Movement",
                 "processed_at": ISO 8601 UTC,
                 "position": position before the phase,
                 "orders": {power: [{"text": as written, "order": order dict,
                                     "canonical": "A Par - Bur", "source", "replaced"}]},
                 "results": [{"power", "order", "canonical", "outcome", "reason",
                              "dislodged", "destroyed"}],
                 "position_after": ..., "sc_counts": {power: n},
                 "random_seed": str or null,
                 "press": [{"sender": power or null, "gm", "grey", "text",
                            "at": ISO 8601 UTC to the minute, signed press only}]}, ...],
     "current": {"phase", "position", "sc_counts", "press"},
     "result": null while the game runs, else
               {"kind": "solo" | "alliance" | "most_centres_at_phase" |
                        "most_centres_at_time" | "draw" | "concession",
                "sides": [[power, ...], ...]   winning sides (a draw: one side, its members),
                "winners": [power, ...]        every power of the sides, sorted,
                "shared": bool                 more than one side shares the win,
                "reason": {"code": ..., params}  why (judge.rules.reasons, a victory kind),
                "phase": the phase the game ended in (the current phase; never adjudicated),
                "at": ISO 8601 UTC},
     "scores": null while the game runs, else
               {power: {"points": number, "coins": int (thousands),
                        "items": [{"code", "points", "coins"}]}}}

Positions, orders and results use the storage codec's forms
(:mod:`judge.game.codec`; a result's ``reason`` is a code with its params,
``{"code": "bounced"}``); SC ownership is each position's ``sc_owners``.
``result`` and ``scores`` are those of the end-of-game mail
(:func:`judge.game.final_report.final_data`, ``RULES.md`` §4-5): scores under
the game's ``settings.scoring.system``, with the GM's passive rulings and the
awards given so far.
Nothing secret is exported (issue 19, points 2 and 6): no orders of the
current phase, no password hash (the join password's included), no
invitation list, no time an order was received, no time of grey press (it
belongs to its phase, no finer: a stamp would name its author); player
addresses are shortened (:func:`~judge.archive.views.public_address`) and, in
a gunboat game (``settings.press.anonymous``), not given at all.
"""

from __future__ import annotations

from ..game import Game
from ..game.codec import (order_from_dict, position_from_dict, position_to_dict,
                          result_to_dict, time_from_str, time_to_str)
from ..game.final_report import final_data
from ..game.game import ADJUSTMENT_ORDERS, MOVEMENT_ORDERS
from ..game.resolve import remove_units
from ..game.settings import Settings
from ..maps import load_map
from ..notation.format import format_order
from ..text import phase_title
from ..replay import play_phase
from ..rules.orders import Disband, Move, Retreat
from ..rules.phase import Phase
from ..rules.position import Position
from .views import names_of, public_address

FORMAT = "judge-archive/1"
PHASE_ORDERS = {"M": MOVEMENT_ORDERS, "R": (Retreat, Disband, Move), "A": ADJUSTMENT_ORDERS}
"""The order types a phase of each kind adjudicates, as the game takes them
(standing lists are not orders)."""


def export_game(game: Game) -> dict:
    """``game`` as JSON-ready data (see the module doc)."""
    names = names_of(game)
    end = final_data(game) if game.finished else None
    return {
        "format": FORMAT, "game": game.name, "map": game.map_name, "rules": game.settings.rules,
        "settings": public_settings(game.settings), "created": time_to_str(game.created),
        "players": {p: _player(game, p) for p in game.map.powers},
        "phases": [{
            "phase": rec.phase, "title": phase_title(rec.phase, "en"),
            "processed_at": time_to_str(rec.processed_at),
            "position": position_to_dict(rec.position_before),
            "orders": {p: [{**_entry(e), "canonical": format_order(e.order, names)} for e in es]
                       for p, es in rec.orders.items()},
            "results": [{**result_to_dict(r),
                         "canonical": None if r.order is None else format_order(r.order, names)}
                        for r in rec.results],
            "position_after": position_to_dict(rec.position_after),
            "sc_counts": rec.position_after.centre_counts(),
            "random_seed": rec.random_seed,
            "press": public_press(rec.press),
        } for rec in game.history],
        "current": {"phase": game.position.phase, "position": position_to_dict(game.position),
                    "sc_counts": game.position.centre_counts(), "press": public_press(game.press)},
        "result": None if end is None else {
            "kind": end["result"]["kind"], "sides": end["result"]["sides"],
            "winners": sorted({p for side in end["result"]["sides"] for p in side}),
            "shared": end["result"]["shared"], "reason": end["result"]["reason"],
            "phase": game.ending.result.phase, "at": time_to_str(end["at"])},
        "scores": None if end is None else end["scores"],
    }


PRIVATE_ACCESS = ("join_password_hash", "invited")
"""The ``access`` settings never shown in public (issue 19, point 2)."""


def public_settings(settings: Settings) -> dict:
    """``settings.to_dict()`` without :data:`PRIVATE_ACCESS` (what
    :meth:`Settings.from_dict` reads back with their defaults)."""
    data = settings.to_dict()
    data["access"] = {k: v for k, v in data["access"].items() if k not in PRIVATE_ACCESS}
    return data


def public_press(items) -> list[dict]:
    """Broadcasts as shown in public: signed ones with their time to the
    minute, grey ones with none (see the module doc)."""
    out = []
    for item in items:
        public = {k: v for k, v in item.items() if k != "at"}
        at = None if item.get("grey") else time_from_str(item.get("at"))
        if at is not None:
            public["at"] = time_to_str(at.replace(second=0, microsecond=0))
        out.append(public)
    return out


def _entry(entry) -> dict:
    """An order entry without the time it was received."""
    return {k: v for k, v in entry.to_dict().items() if k != "received"}


def _player(game: Game, power: str) -> str | None:
    addresses = game.players[power].addresses
    if addresses and game.settings.press.anonymous:
        return None
    return public_address(addresses)


def check_export(data: dict) -> list[str]:
    """Replay an export's orders through the rules core and compare.

    From the first exported position, each phase's orders (those not
    replaced, of the kinds the phase adjudicates, the judge's own included)
    are adjudicated, and phases with nothing to do are run with no orders
    (SC ownership updated after Fall, ``RULES.md`` §1) until the phase of the
    next exported position. Every exported position (before and after each
    phase, and the current one) is compared with the replayed one; after a
    difference the replay goes on from the exported position. In
    combined-order mode removals are made before builds (``RULES.md`` §3.5).
    A finished game's ``result`` must name the current phase as the one it
    ended in. Returns one ``"S1901M: ..."`` line per difference, empty when the export
    reproduces itself. Raises KeyError/ValueError for data that is not an export."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} export")
    game_map = load_map(data["map"])
    settings = Settings.from_dict(data["settings"])
    rules, combined = settings.rule_options, settings.house.combined_orders
    out: list[str] = []
    pos = None
    for phase in data["phases"]:
        pos = _reach(game_map, pos, position_from_dict(phase["position"]), rules, out,
                     f"{phase['phase']}: position before the phase")
        kinds = PHASE_ORDERS[Phase.parse(pos.phase).kind]
        orders = {p: [o for o in (order_from_dict(e["order"]) for e in es if not e["replaced"])
                      if isinstance(o, kinds)]
                  for p, es in phase["orders"].items()}
        pos = _play(game_map, pos, orders, rules, combined)
        pos = _reach(game_map, pos, position_from_dict(phase["position_after"]), rules, out,
                     f"{phase['phase']}: position after the phase")
    _reach(game_map, pos, position_from_dict(data["current"]["position"]), rules, out,
           f"{data['current']['phase']}: current position")
    result = data.get("result")
    if result is not None and result["phase"] != data["current"]["phase"]:
        out.append(f"{data['current']['phase']}: the result says the game ended in {result['phase']}")
    return out


def _reach(game_map, pos: Position | None, goal: Position, rules, out: list[str], what: str) -> Position:
    """Play phases with no orders from ``pos`` up to ``goal``'s phase; note a
    difference in ``out``. Returns ``goal`` (the exported position)."""
    if pos is None:
        return goal
    while Phase.parse(pos.phase).sort_key() < Phase.parse(goal.phase).sort_key():
        pos = play_phase(game_map, pos, {}, rules)
    if pos != goal:
        out.append(f"{what} ({goal.phase}) differs from the replay ({pos.phase})")
    return goal


def _play(game_map, before: Position, orders: dict, rules, combined: bool) -> Position:
    if combined and before.phase.endswith("A"):
        removals = {p: [o for o in os if isinstance(o, Disband)] for p, os in orders.items()}
        before, _ = remove_units(before, removals)
        orders = {p: [o for o in os if not isinstance(o, Disband)] for p, os in orders.items()}
    return play_phase(game_map, before, orders, rules)
