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
from .reasons import SENTENCES, sides_text
from .templates import render_text
from .words import Words

KINDS = {SOLO: N_("Solo victory"), ALLIANCE: N_("Alliance victory"),
         AT_PHASE: N_("Most supply centres after the last year"),
         AT_TIME: N_("Most supply centres at the end time"), DRAW: N_("Draw"), CONCESSION: N_("Concession")}


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


MAP_WORDS = {"army": N_("army"), "fleet": N_("fleet"), "dislodged": N_("dislodged"), "move": N_("move"),
             "support": N_("support"), "convoy": N_("convoy"), "failed": N_("failed"), "hold": N_("hold"),
             "build": N_("build"), "sc": N_("supply centre"),
             "count": N_("%(sc)s supply centres, %(units)s units")}
"""The map picture's legend (``judge.render``)."""


def map_words(phase: str, lang: str) -> dict[str, str]:
    """The words of the map picture of ``phase`` in ``lang``: its legend
    (:data:`MAP_WORDS`) and its ``title``, for :func:`judge.render.render_svg`."""
    w = Words("standard", lang)
    out = {k: w(v) for k, v in MAP_WORDS.items()}
    out["count"] = out["count"].replace("%(sc)s", "{sc}").replace("%(units)s", "{units}")
    out["title"] = w.phase(phase)
    return out
