"""The archive by mail: the texts and picture the ``HISTORY``, ``SUMMARY`` and
``MAP`` commands answer with, in the reader's language (``"en"``,
``"zh-hans"``, ``"zh-hant"``). Pure functions of a :class:`~judge.game.Game`.
"""

from __future__ import annotations

from ..game import Game, GameError
from ..render import render_svg
from ..rules.phase import Phase
from .final import end_view
from .i18n import check_lang, gettext
from .views import (TIME_FORMAT, N_, PhaseView, game_view, join_list, names_of, phase_view,
                    player_label)

CHANGES = {"joined": N_("joined"), "left": N_("left the game"), "ejected": N_("removed by the GM"),
           "replaced": N_("opened to a replacement by the GM")}


def history_text(game: Game, from_phase: str | None = None, to_phase: str | None = None,
                 lang: str = "en") -> str:
    """The results of the adjudicated phases from ``from_phase`` to ``to_phase``
    (inclusive; phase names like ``S1901M``; default the first and the last) as
    the results mails said them, oldest first. Raises
    :class:`~judge.game.GameError` for a bad phase name or an empty range,
    ValueError for an unknown language."""
    _ = gettext(check_lang(lang))
    lo, hi = (_phase_key(p) if p else None for p in (from_phase, to_phase))
    picked = [r.phase for r in game.history
              if (lo is None or Phase.parse(r.phase).sort_key() >= lo)
              and (hi is None or Phase.parse(r.phase).sort_key() <= hi)]
    if not picked:
        raise GameError(_("game %(game)s has no adjudicated phase in that range") % {"game": game.name})
    views = [phase_view(game, p, lang) for p in picked]
    parts = [phase_text(v) for v in views]
    last = views[-1]
    if game.finished and picked[-1] == game.history[-1].phase:
        parts.append(_("Game over"))          # no next phase after the last one of a finished game
    else:
        parts.append(_("Next phase: %(title)s (%(phase)s)") % {"title": last.next_title, "phase": last.next_phase})
    return "\n\n".join(parts) + "\n"


def phase_text(view: PhaseView) -> str:
    """One adjudicated phase as text: orders with results and reasons,
    dislodged units and their retreats, SC ownership after a Fall, adjustments due."""
    _, lang = gettext(view.lang), view.lang
    colon = ": " if lang == "en" else "："
    lines = [_("Game %(game)s: %(title)s (%(phase)s), adjudicated %(when)s") % {
        "game": view.game, "title": view.title, "phase": view.phase,
        "when": view.processed_at.strftime(TIME_FORMAT)}]
    if view.random_seed:
        lines.append(_("Random choices seeded with %(seed)s.") % {"seed": repr(view.random_seed)})
    lines += ["", _("Orders") + colon.rstrip()]
    for po in view.orders:
        for row in po.rows:
            notes = ("  (" + "; ".join(row.notes) + ")" if lang == "en" else "（" + "；".join(row.notes) + "）") \
                if row.notes else ""
            lines.append(f"{po.label}{colon}{row.text}{'.' if lang == 'en' else '。'}{notes}")
        lines += [f"{po.label}{colon}{note}" for note in po.notes]
    if not view.orders:
        lines.append(_("(none)"))
    if view.dislodged:
        lines += ["", _("Dislodged units") + colon.rstrip()] + list(view.dislodged)
    if view.sc_changed or view.phase.endswith("A"):
        lines += ["", _("Supply centres") + colon.rstrip()]
        for row in view.centres:
            if row.count:
                lines.append(f"{row.label}{colon}{row.count:2}  {join_list(row.names, lang)}")
        if view.unowned:
            lines.append(f"{_('Unowned')}{colon}{len(view.unowned):2}  {join_list(view.unowned, lang)}")
    if view.adjustments:
        lines += ["", _("Adjustments due") + colon.rstrip()]
        lines += [f"{label}{colon}{text}" for label, text in view.adjustments]
    return "\n".join(lines)


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


def map_svg(game: Game, phase: str | None = None, lang: str = "en", width: int = 800) -> str:
    """The map picture (SVG text) of ``phase``: an adjudicated phase with its
    orders and results drawn, or (default) the current position. Raises
    :class:`~judge.game.GameError` for a phase the game has not reached."""
    view = phase_view(game, phase or game.position.phase, lang)
    return render_svg(game.map, names_of(game), view.position, view.results, lang, width)


def _phase_key(name: str) -> tuple[int, int]:
    try:
        return Phase.parse(name).sort_key()
    except ValueError as e:
        raise GameError(str(e)) from None

