"""Replays of real recorded games through the rules core (``judge replay``).

Readers for the droidippy text format (:mod:`.droidippy`) and the MILA/dipcc
JSON (:mod:`.saved_game`) give a :class:`GameRecord`; :func:`replay_game`
adjudicates it phase by phase and lists where the judge's board differs from
the record (``shared/games/README.md``).
"""

from .record import GameRecord, RecordedPhase, RecordedState, RecordError
from .run import Difference, GameReplay, play_phase, read_record, replay_game

__all__ = [
    "GameRecord", "RecordedPhase", "RecordedState", "RecordError", "Difference",
    "GameReplay", "play_phase", "read_record", "replay_game",
]
