"""Replaying a recorded game through the rules core (``shared/games/README.md``
§4, "Replay unit of comparison").

Starting from the first recorded board, each phase's recorded orders are
adjudicated (movement, retreats, adjustments; SC ownership updated after the
Fall retreats), phases the record skips are run with no orders, and the result
is compared with the next recorded board. A transition is one such step.
By default a game stops at its first difference; with ``keep_going`` the
replay goes on from the recorded board, so each differing transition is
counted once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..rules import (
    RuleOptions, adjudicate_adjustments, adjudicate_movement, adjudicate_retreats,
    update_ownership,
)
from ..rules.map import Map
from ..rules.orders import Order
from ..rules.phase import Phase
from ..rules.position import Position
from .compare import differences
from .droidippy import read_droidippy
from .record import GameRecord, RecordError
from .saved_game import read_saved_game


@dataclass(frozen=True)
class Difference:
    """The judge's board after playing recorded phase ``phase`` (and any skipped
    phases) differs from the record's board at ``reached``; ``lines`` say how."""

    phase: str
    reached: str
    lines: tuple[str, ...]


@dataclass
class GameReplay:
    """The outcome of replaying one game: ``transitions`` compared, the
    ``differences`` found, and the solo ``winner`` of the final record (or None)."""

    name: str
    transitions: int = 0
    differences: list[Difference] = field(default_factory=list)
    winner: str | None = None

    @property
    def passed(self) -> bool:
        return not self.differences


def read_record(path: Path | str, game_map: Map) -> GameRecord:
    """Read a game file by its suffix: ``.txt`` droidippy, ``.json`` MILA/dipcc.
    Raises :class:`RecordError` or ``OSError``."""
    path = Path(path)
    if path.suffix == ".txt":
        return read_droidippy(path, game_map)
    if path.suffix == ".json":
        return read_saved_game(path, game_map)
    raise RecordError(str(path), "-", "unknown format (expected .txt droidippy or .json MILA/dipcc)")


def play_phase(game_map: Map, position: Position, orders: dict[str, list[Order]],
               rules: RuleOptions) -> Position:
    """Adjudicate one phase of any kind and return the next position; SC
    ownership is updated after the Fall retreats (``RULES.md`` §1)."""
    kind = position.phase[-1]
    if kind == "M":
        return adjudicate_movement(game_map, position, orders, rules).position
    if kind == "R":
        after = adjudicate_retreats(game_map, position, orders).position
        return update_ownership(game_map, after) if position.phase[0] == "F" else after
    return adjudicate_adjustments(game_map, position, orders, rules).position


def replay_game(record: GameRecord, game_map: Map, rules: RuleOptions,
                keep_going: bool = False) -> GameReplay:
    """Replay ``record`` (see the module doc). Raises :class:`RecordError` if the
    record's phases are not in game order."""
    phases = record.phases
    report = GameReplay(record.name)
    position = phases[0].state.to_position(game_map, phases[0].name)
    for k, phase in enumerate(phases[:-1]):
        nxt = phases[k + 1]
        if phase.name == "COMPLETED":
            raise RecordError(record.source, nxt.name, "follows the end of the game (COMPLETED)")
        target = _target(phase.name, nxt.name)
        if Phase.parse(target).sort_key() <= Phase.parse(phase.name).sort_key():
            raise RecordError(record.source, nxt.name, f"does not follow {phase.name}")
        position = play_phase(game_map, position, phase.orders, rules)
        while position.phase != target:
            position = play_phase(game_map, position, {}, rules)
        report.transitions += 1
        lines = differences(position, nxt.state)
        winner = _winner(game_map, position.sc_owners)
        if winner and k + 1 < len(phases) - 1:
            lines.append(f"{winner} has {game_map.victory_centres}+ SCs (a solo), "
                         "but the record goes on")
        if lines:
            report.differences.append(Difference(phase.name, nxt.name, tuple(lines)))
            if not keep_going:
                break
            position = nxt.state.to_position(game_map, target, known=position.dislodged)
    report.winner = _winner(game_map, phases[-1].state.sc_owners)
    return report


def _target(played: str, recorded: str) -> str:
    """The phase name the judge must reach: ``COMPLETED`` (dipcc's end after a
    Fall) is the winter of the last played year."""
    if recorded == "COMPLETED":
        return f"W{Phase.parse(played).year}A"
    return recorded


def _winner(game_map: Map, sc_owners: dict[str, str]) -> str | None:
    counts: dict[str, int] = {}
    for power in sc_owners.values():
        counts[power] = counts.get(power, 0) + 1
    return next((p for p, n in counts.items() if n >= game_map.victory_centres), None)
