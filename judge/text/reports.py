"""The long texts: the results of a phase and the end of a game, from the
templates ``templates/mail/results/phase.txt`` and ``results/final.txt``
fed with plain data (:func:`judge.game.results.phase_data`,
:func:`judge.game.final_report.final_data`); and the result of a game in a
sentence (:func:`result_sentence`, the same in the mail and on the web).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from ..game.final_report import final_data
from ..game.results import phase_data
from ..rules.victory import ALLIANCE, AT_PHASE, AT_TIME, CONCESSION, DRAW, SOLO
from .catalogue import N_
from .templates import render_text
from .words import Words

SENTENCES = {
    SOLO: N_("%(winners)s wins alone with %(n)s supply centres."),
    SOLO + "+": N_("%(winners)s reached %(need)s supply centres at the same time and share the win."),
    ALLIANCE: N_("The alliance of %(winners)s wins jointly with %(n)s supply centres."),
    ALLIANCE + "+": N_("The alliances %(winners)s met the alliance condition at the same time and share the win."),
    AT_PHASE: N_("The game ended after Fall %(year)s; %(winners)s has the most supply centres (%(n)s) and wins."),
    AT_PHASE + "+": N_("The game ended after Fall %(year)s; %(winners)s share the most supply centres (%(n)s) "
                       "and the win."),
    AT_TIME: N_("The game's end time (%(end)s) has come; %(winners)s has the most supply centres (%(n)s) and wins."),
    AT_TIME + "+": N_("The game's end time (%(end)s) has come; %(winners)s share the most supply centres (%(n)s) "
                      "and the win."),
    DRAW: N_("The game is drawn between %(winners)s."),
    CONCESSION: N_("The other powers conceded the game to %(winners)s, who wins."),
}
"""The result of a game in a sentence, by kind (``+``: tied sides share the win)."""
KINDS = {SOLO: N_("Solo victory"), ALLIANCE: N_("Alliance victory"),
         AT_PHASE: N_("Most supply centres after the last year"),
         AT_TIME: N_("Most supply centres at the end time"), DRAW: N_("Draw"), CONCESSION: N_("Concession")}


def sides_text(sides, w: Words) -> str:
    """Winning sides: ``England, France and Italy``; sides of two or more
    powers each: ``England and France; Italy and Turkey``."""
    if len(sides) == 1 or all(len(s) == 1 for s in sides):
        return w.join(w.powers([p for s in sides for p in s]), "and")
    return w("; ").join(w.join(w.powers(s), "and") for s in sides)


def result_sentence(n: dict, w: Words, tz: str = "UTC") -> str:
    """The result of a game in a sentence: ``n`` is :func:`final_data`'s
    (``result``, ``counts``, ``solo_centres``, ``end_year``, ``end_at``)."""
    result, sides = n["result"], n["result"]["sides"]
    kind = result["kind"]
    key = kind + ("+" if result.get("shared") and kind in (SOLO, ALLIANCE, AT_PHASE, AT_TIME) else "")
    end = n.get("end_at")
    return w(SENTENCES[key], winners=sides_text(sides, w), n=sum(n["counts"][p] for p in sides[0]),
             need=n.get("solo_centres") or 0, year=n.get("end_year"),
             end=w.deadline(end, tz) if isinstance(end, datetime) else "")


def phase_text(game, phase: str, w: Words, overrides: Path | None = None) -> str:
    """The results of ``game``'s adjudicated ``phase`` in ``w``'s words
    (``results/phase.txt``). Raises GameError for a phase not adjudicated."""
    return render_text("results/phase.txt", w.lang, overrides, phase=phase_data(game, game.record(phase)),
                       w=w).strip("\n")


def final_text(game, lang: str = "en", tz: str | None = None, names: str | None = None,
               overrides: Path | None = None) -> str:
    """The end of a finished ``game`` in ``lang`` (``results/final.txt``),
    times in the zone ``tz`` (default: the game's). Raises GameError while
    the game is running."""
    data = final_data(game)
    return render_final(data, Words(data["map"], lang, names), tz or data["timezone"], overrides)


def render_final(data: dict, w: Words, tz: str, overrides: Path | None = None) -> str:
    """:func:`final_data`'s ``data`` in ``w``'s words (``results/final.txt``)."""
    return render_text("results/final.txt", w.lang, overrides, n=data, w=w, tz=tz).strip("\n") + "\n"
