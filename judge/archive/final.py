"""What the archive shows of a finished game (``RULES.md`` §4-5): how it
ended, the final SC table, the scores, the awards and the GM's passive
rulings, in one language (:func:`end_view`).

The data is :func:`judge.game.final_report.final_data` (the same the
end-of-game mail is made from); only the words are the archive's own
(its gettext catalogues, :mod:`.i18n`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..game import Game
from ..game.final_report import final_data
from ..render import phase_title
from ..rules.scoring import C_DIPLO, DSS, HOUSE, SUM_OF_SQUARES
from ..rules.victory import ALLIANCE, AT_PHASE, AT_TIME, CONCESSION, DRAW, SOLO
from .i18n import check_lang, gettext
from .views import N_, TIME_FORMAT, join_list, names_of

KINDS = {SOLO: N_("Solo victory"), ALLIANCE: N_("Alliance victory"),
         AT_PHASE: N_("Most supply centres after the last year"),
         AT_TIME: N_("Most supply centres at the end time"), DRAW: N_("Draw"),
         CONCESSION: N_("Concession")}
SENTENCES = {
    SOLO: N_("%(winners)s wins alone with %(n)d supply centres."),
    SOLO + "+": N_("%(winners)s reached %(need)d supply centres at the same time and share the win."),
    ALLIANCE: N_("The alliance of %(winners)s wins jointly with %(n)d supply centres."),
    ALLIANCE + "+": N_("The alliances %(winners)s met the alliance condition at the same time "
                       "and share the win."),
    AT_PHASE: N_("The game ended after Fall %(year)d; %(winners)s has the most supply centres "
                 "(%(n)d) and wins."),
    AT_PHASE + "+": N_("The game ended after Fall %(year)d; %(winners)s share the most supply "
                       "centres (%(n)d) and the win."),
    AT_TIME: N_("The game's end time has come; %(winners)s has the most supply centres (%(n)d) "
                "and wins."),
    AT_TIME + "+": N_("The game's end time has come; %(winners)s share the most supply centres "
                      "(%(n)d) and the win."),
    DRAW: N_("The game is drawn between %(winners)s."),
    CONCESSION: N_("The other powers conceded the game to %(winners)s, who wins."),
}
"""The result in a sentence, by kind (``+``: tied sides share the win)."""
SYSTEMS = {HOUSE: N_("house rules, Appendix 2"), DSS: N_("draw-size scoring"),
           SUM_OF_SQUARES: N_("sum of squares"), C_DIPLO: "C-Diplo"}
"""Scoring systems (``C-Diplo`` is a name: the same in every language)."""
ITEMS = {"centres": N_("SCs"), "solo_bonus": N_("solo win"), "alliance_bonus": N_("alliance win"),
         "leader_reward": N_("leader's reward"), "best_strategy": N_("best strategy"),
         "best_diplomacy": N_("best diplomacy"), "passive_forfeit": N_("forfeited (passive)"),
         "passive_fine": N_("fine"), "share": N_("share of the win"), "no_share": N_("not a winner"),
         "solo": N_("solo"),
         "squares": N_("sum of squares"), "participation": N_("participation"),
         "place_bonus": N_("place bonus"), "advisor": N_("advisor")}
"""Score items (:class:`judge.rules.scoring.ScoreItem` codes)."""
AWARDS = {"best_strategy": N_("Best strategy"), "best_diplomacy": N_("Best diplomacy")}


@dataclass(frozen=True)
class ScoreRow:
    """A power at the end: ``centres`` (SC names), ``units``, ``points`` and
    ``coins`` (k) as shown, ``items`` the score's parts; ``winner`` when it is
    on a winning side (or in the draw)."""

    power: str
    label: str
    count: int
    centres: tuple[str, ...]
    units: int
    points: str
    coins: int
    items: tuple[str, ...]
    winner: bool


@dataclass(frozen=True)
class EndView:
    """How a finished game ended, in ``lang``: ``kind`` (a
    :data:`judge.rules.victory.KINDS` code) and its ``kind_label``,
    ``winners`` (power labels; draw members for a draw), ``sentence`` (the
    result said in ``lang``), ``reason`` (the judge's English record of it),
    ``phase``/``title`` (the phase it ended in) and ``at`` (UTC), the scoring
    ``system`` label, ``rows`` (map order), ``unowned`` SC names, ``awards``
    ``[(award, text)]`` and ``passive`` sentences."""

    kind: str
    kind_label: str
    winners: tuple[str, ...]
    sentence: str
    reason: str
    phase: str
    title: str
    at: datetime
    system: str
    rows: tuple[ScoreRow, ...]
    unowned: tuple[str, ...]
    awards: tuple[tuple[str, str], ...]
    passive: tuple[str, ...]


def end_view(game: Game, lang: str = "en") -> EndView | None:
    """The end of ``game`` in ``lang``; None while the game runs. Raises
    ValueError for an unknown language."""
    _ = gettext(check_lang(lang))
    if not game.finished:
        return None
    data = final_data(game)
    names = names_of(game)
    result, counts = data["result"], data["counts"]

    def powers(items) -> str:
        return join_list((names.power_name(p, lang) for p in items), lang)

    sides = result["sides"]
    winners = [p for side in sides for p in side]
    shared = "+" if result["shared"] and result["kind"] in (SOLO, ALLIANCE, AT_PHASE, AT_TIME) else ""
    sentence = _(SENTENCES[result["kind"] + shared]) % {
        "winners": powers(winners) if len(sides) == 1 or all(len(s) == 1 for s in sides)
        else ("; " if lang == "en" else "；").join(powers(s) for s in sides),
        "n": sum(counts[p] for p in sides[0]), "need": data["solo_centres"] or 0,
        "year": data["end_year"]}

    def place_names(power: str) -> tuple[str, ...]:
        return tuple(sorted(names.province_name(sc, lang) for sc in data["centres"].get(power, ())))

    rows = tuple(ScoreRow(
        p, names.power_name(p, lang), counts[p], place_names(p), len(data["units"][p]),
        _number(data["scores"][p]["points"]), data["scores"][p]["coins"],
        tuple(_item(i, lang) for i in data["scores"][p]["items"]), p in winners)
        for p in data["powers"])
    awards = tuple((_(AWARDS[a]), _award(o, powers, lang)) for a, o in data["awards"].items())
    passive = tuple(_("%(power)s: forfeits all points, coins and awards and is fined %(fine)d points "
                      "(no orders in: %(phases)s).") % {
        "power": names.power_name(p, lang), "fine": r["fine"],
        "phases": join_list(r["missed"], lang) or _("none")} for p, r in data["passive"].items())
    return EndView(result["kind"], _(KINDS[result["kind"]]), tuple(names.power_name(p, lang) for p in winners),
                   sentence, result["reason"], data["phase"], phase_title(data["phase"], lang), data["at"],
                   _(SYSTEMS[data["scoring"]]), rows, place_names(""), awards, passive)


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"


def _item(item: dict, lang: str) -> str:
    _ = gettext(lang)
    parts = []
    if item["code"] in ("centres", "participation"):
        parts.append(_number(item["points"]))
    elif item["points"]:
        parts.append(("+" if item["points"] > 0 else "") + _number(item["points"]))
    if item["coins"]:
        parts.append(f"{'+' if item['coins'] > 0 else ''}{item['coins']}k")
    label = _(ITEMS[item["code"]]) if item["code"] in ITEMS else item["code"]
    return f"{label} {' '.join(parts)}".rstrip()


def _award(outcome: dict, powers, lang: str) -> str:
    _ = gettext(lang)
    notes = []
    if outcome["votes"]:
        notes.append(_("votes: %(tally)s") % {"tally": join_list(
            (f"{powers([p])} {n}" for p, n in sorted(outcome["votes"].items(), key=lambda pn: (-pn[1], pn[0]))),
            lang)})
    if outcome["tied"]:
        notes.append(_("tied: %(powers)s") % {"powers": powers(outcome["tied"])})
    if outcome["by_gm"]:
        notes.append(_("named by the GM"))
    if outcome.get("open_until"):            # nothing is shown before the vote closes (issue 13 point 5)
        return _("the leaders vote until %(when)s") % {"when": outcome["open_until"].strftime(TIME_FORMAT)}
    head = powers(outcome["winners"]) if outcome["winners"] else _("to be named by the GM")
    if not notes:
        return head
    return f"{head} ({'; '.join(notes)})" if lang == "en" else f"{head}（{'；'.join(notes)}）"
