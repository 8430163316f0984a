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
from ..text import Words, phase_title
from ..text.catalogue import check_lang, gettext
from ..text.reasons import SYSTEMS
from ..text.reports import KINDS, result_sentence
from ..text.catalogue import N_
from .views import TIME_FORMAT, join_list, names_of

ITEMS = {"centres": N_("SCs"), "solo_bonus": N_("solo win"), "alliance_bonus": N_("alliance win"),
         "leader_reward": N_("leader's reward"), "best_strategy": N_("best strategy award"),
         "best_diplomacy": N_("best diplomacy award"), "passive_forfeit": N_("forfeited (passive play)"),
         "passive_fine": N_("fine"), "share": N_("share of the win"), "no_share": N_("not a winner"),
         "solo": N_("solo win"),
         "squares": N_("sum of squares"), "participation": N_("participation"),
         "place_bonus": N_("place bonus"), "advisor": N_("advisor")}
"""Score items (:class:`judge.rules.scoring.ScoreItem` codes)."""
AWARDS = {"best_strategy": N_("Best strategy award"), "best_diplomacy": N_("Best diplomacy award")}


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
    result said in ``lang``), ``reason`` (the same in English, for records),
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
    sentence = result_sentence(data, Words(game.map_name, lang), data["timezone"])

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
                   sentence, result_sentence(data, Words(game.map_name, "en"), "UTC"), data["phase"], phase_title(data["phase"], lang), data["at"],
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
