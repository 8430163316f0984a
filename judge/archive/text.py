"""The archive by mail: the texts and picture the ``HISTORY``, ``SUMMARY`` and
``MAP`` commands answer with, in the reader's language (``"en"``,
``"zh-hans"``, ``"zh-hant"``). Pure functions of a :class:`~judge.game.Game`.
"""

from __future__ import annotations

from pathlib import Path

from ..game import Game, GameError
from ..render import render_svg
from ..rules.phase import Phase
from ..text import Words
from ..text.catalogue import N_, check_lang, gettext
from ..text.names import drawn_names
from ..text.reports import map_words, phase_text
from .final import end_view
from .views import game_view, join_list, names_of, phase_view, player_label

CHANGES = {"joined": N_("joined"), "left": N_("left the game"), "ejected": N_("removed by the GM"),
           "replaced": N_("opened to a replacement by the GM")}


def history_text(game: Game, from_phase: str | None = None, to_phase: str | None = None,
                 lang: str = "en", names: str | None = None, templates: Path | None = None) -> str:
    """The results of the adjudicated phases from ``from_phase`` to ``to_phase``
    (inclusive; phase names like ``S1901M``; default the first and the last) as
    the results mails said them (the template ``results/phase.txt``: a
    judgekeeper's copy in ``templates`` is taken first), names in the name set
    ``names`` (default: the game's), oldest first. Raises
    :class:`~judge.game.GameError` for a bad phase name or an empty range,
    ValueError for an unknown language."""
    check_lang(lang)
    if not game.history:
        raise GameError("no_phase_yet", game=game.name, current=str(game.phase))
    w = Words(game.map_name, lang, names or game.settings.names)
    lo, hi = (_phase_key(p) if p else None for p in (from_phase, to_phase))
    picked = [r.phase for r in game.history
              if (lo is None or Phase.parse(r.phase).sort_key() >= lo)
              and (hi is None or Phase.parse(r.phase).sort_key() <= hi)]
    if not picked:
        raise GameError("no_phase_range", game=game.name)
    parts = [phase_text(game, p, w, templates) for p in picked]
    last = game.record(picked[-1]).position_after.phase
    if game.finished and picked[-1] == game.history[-1].phase:
        parts.append(w(N_("Game over")))          # no next phase after the last one of a finished game
    else:
        parts.append(w(N_("Next phase: %(title)s (%(phase)s)"), title=w.phase(last), phase=last))
    return "\n\n".join(parts) + "\n"


def summary_text(game: Game, lang: str = "en") -> str:
    """The game in brief: rule profile and current phase (or, when it is
    over, the phase it ended in and the result), the players and who played
    each power when (:attr:`Game.roster`), and the SC counts and ownership at
    the start and after each year."""
    _ = gettext(check_lang(lang))
    view, end = game_view(game, lang), end_view(game, lang)
    colon = ": " if lang == "en" else "："
    sep = ", " if lang == "en" else "，"
    facts = {"game": game.name, "title": view.title, "phase": view.phase, "rules": view.rules}
    if end:
        lines = [_("Game %(game)s: over, ended in %(title)s (%(phase)s); rules: %(rules)s.") % facts,
                 _("Game over (%(kind)s): %(result)s") % {"kind": end.kind_label, "result": end.sentence}]
    else:
        lines = [_("Game %(game)s: now %(title)s (%(phase)s); rules: %(rules)s.") % facts]
    lines += ["", _("Players") + colon.rstrip()]
    lines += [f"{label}{colon}{player or _('(vacant)')}" for _p, label, player in view.powers]
    if game.roster:             # who played each power when
        labels_of = {p: label for p, label, _pl in view.powers}
        lines += ["", _("Player changes") + colon.rstrip()]
        lines += [f"{c.phase} {labels_of[c.power]}{colon}{_(CHANGES[c.event])}"
                  + (f" {player_label(game, (c.address,))}" if c.address else "")
                  for c in game.roster]
    lines += ["", _("Supply centres at the start and after each year") + colon.rstrip()]
    labels = [label for _p, label, _pl in view.powers]
    for row in view.years:
        counts = sep.join(f"{label} {n}" for label, n in zip(labels, row.counts))
        lines.append(f"{row.label}{colon}{counts}")
        names = dict(zip((p for p, _l, _pl in view.powers), labels))
        lines += [f"  {names[p]}{colon}{join_list(owned, lang)}" for p, owned in row.owners]
    return "\n".join(lines) + "\n"


def map_svg(game: Game, phase: str | None = None, lang: str = "en", width: int = 800,
            names: str | None = None) -> str:
    """The map picture (SVG text) of ``phase``: an adjudicated phase with its
    orders and results drawn, or (default) the current position; Chinese
    labels in name set ``names`` (default the map's standard names). Raises
    :class:`~judge.game.GameError` for a phase the game has not reached."""
    view = phase_view(game, phase or game.position.phase, lang)
    return render_svg(game.map, names_of(game), view.position, view.results, lang, width,
                      words=map_words(view.position.phase, lang),
                      own_names=drawn_names(game.map_name, lang, names) if names else None)


def _phase_key(name: str) -> tuple[int, int]:
    try:
        return Phase.parse(name).sort_key()
    except ValueError as e:
        raise GameError.wrap(e) from None

