"""What a results mail tells besides the results themselves (issue 4 §3):
which phases were adjudicated, who sent no orders (NMR), the next phase and
its deadline, as language-neutral data for the ``notices/results.txt``
templates. The orders, results, dislodged units, SC ownership and
adjustments are told by the archive's formatter
(:func:`judge.archive.text.phase_text`), one text for the mail, ``HISTORY``
and the web pages.
"""

from __future__ import annotations

from .deadlines import zone_of
from .nmr import missed_by
from .records import PhaseRecord


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
