"""What the archive shows, as plain data in one language: a game's overview
(:func:`game_view`), one phase (:func:`phase_view`) and the list of games
(:func:`index_row`). Web pages (:mod:`.site`) and mail texts (:mod:`.text`)
render these views, so both say the same.

Every function takes ``lang`` (``"en"``, ``"zh-hans"``, ``"zh-hant"``; ValueError
otherwise). Orders of a phase not yet adjudicated are secret: a view of the
current phase shows its position only. When the game is over the current
phase is the one it ended in, never adjudicated (``PhaseView.game_over``);
:mod:`.final` gives the end itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..game import Game, GameError, PhaseRecord
from ..game.codec import time_from_str
from ..game.records import DEFAULT, LIST
from ..game.results import unused_builds
from ..game.sequence import adjustments_due
from ..maps import load_names
from ..notation.format import format_order
from ..notation.names import NameIndex, name_index
from ..rules.orders import FAILS, ILLEGAL, SUCCEEDS, VOID
from ..rules.phase import Phase
from ..rules.position import Position
from ..text import Words, phase_title
from ..text.catalogue import N_, check_lang, gettext

OUTCOMES = {SUCCEEDS: N_("succeeds"), FAILS: N_("fails"), ILLEGAL: N_("illegal"), VOID: N_("void")}
SOURCES = {LIST: N_("from standing list"), DEFAULT: N_("judge's default")}
TIME_FORMAT = "%Y-%m-%d %H:%M UTC"


# ---- view records --------------------------------------------------------------------
@dataclass(frozen=True)
class OrderRow:
    """One order and what became of it: ``text`` canonical in the view's
    language (``"(no order)"`` when the result has none), ``outcome`` one of
    the core's outcomes, ``notes`` translated reasons and remarks."""

    text: str
    outcome: str
    notes: tuple[str, ...]


@dataclass(frozen=True)
class WrittenRow:
    """An order as the player wrote it (``text``; ``""`` when the judge made
    it), read as ``canonical``; ``source`` a translated note or ``""``;
    ``replaced`` when a later order took its place. The time it was received
    is not shown in public (issue 19, point 6)."""

    text: str
    canonical: str
    source: str
    replaced: bool


@dataclass(frozen=True)
class PowerOrders:
    """One power's orders of a phase: results ``rows``, ``written`` entries and
    ``notes`` (unused builds)."""

    power: str
    label: str
    rows: tuple[OrderRow, ...]
    written: tuple[WrittenRow, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class CentreRow:
    """A power's supply centres: ``count``, ``units`` on the board, ``names``."""

    power: str
    label: str
    count: int
    units: int
    names: tuple[str, ...]


@dataclass(frozen=True)
class PressItem:
    """A broadcast as the archive shows it: ``sender`` (the power's name in
    the reader's language, "GM", or "anonymous" for grey press), ``at``
    (UTC; None for grey press, which shows its phase only: a time could name
    its author, issue 19 point 6) and the ``text``."""

    sender: str
    at: datetime | None
    text: str


@dataclass(frozen=True)
class PhaseView:
    """One phase of a game. ``position`` is the board the phase started from
    (what the map draws) and ``results`` its results (empty before
    adjudication); ``after`` the board after it. ``centres`` and ``unowned``
    give the SC ownership after the phase; ``sc_changed`` is true when the
    phase ended a year's Fall (ownership was updated). ``dislodged`` and
    ``adjustments`` are sentences about the board after the phase."""

    game: str
    lang: str
    phase: str
    title: str
    adjudicated: bool
    processed_at: datetime | None
    position: Position
    after: Position
    results: tuple
    orders: tuple[PowerOrders, ...]
    dislodged: tuple[str, ...]
    centres: tuple[CentreRow, ...]
    unowned: tuple[str, ...]
    sc_changed: bool
    adjustments: tuple[tuple[str, str], ...]
    next_phase: str
    next_title: str
    random_seed: str | None = None
    press: tuple = ()
    """Public press (broadcasts) sent during the phase, oldest first:
    :class:`PressItem` each."""
    game_over: bool = False
    """True for the phase a finished game ended in: its position is the final
    one and its orders were never adjudicated."""


@dataclass(frozen=True)
class YearRow:
    """SC counts per power (in the map's power order) at the start of the game
    (``year`` None) or after a year's Fall; ``owners`` ``{power: names}``."""

    year: int | None
    label: str
    counts: tuple[int, ...]
    owners: tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True)
class GameView:
    """A game's overview: ``powers`` ``[(power, label, player)]`` where player is
    a public form of the address of record or ``""`` (vacant); ``phases``
    ``[(phase, title)]``, adjudicated ones then the current one; ``years`` the SC
    history; ``finished`` when the game is over (``phase`` is then the phase
    it ended in)."""

    name: str
    lang: str
    rules: str
    phase: str
    title: str
    powers: tuple[tuple[str, str, str], ...]
    phases: tuple[tuple[str, str], ...]
    years: tuple[YearRow, ...]
    created: datetime
    finished: bool = False


# ---- builders ------------------------------------------------------------------------
def names_of(game: Game) -> NameIndex:
    return name_index(game.map, load_names(game.map_name))


def phases(game: Game) -> list[str]:
    """Phase names of the game in order: those adjudicated, then the current one."""
    return [r.phase for r in game.history] + [game.position.phase]


def phase_view(game: Game, phase: str, lang: str = "en") -> PhaseView:
    """The view of ``phase`` (an adjudicated phase or the current one). Raises
    :class:`~judge.game.GameError` for another phase, ValueError for a bad lang."""
    check_lang(lang)
    names = names_of(game)
    try:
        wanted = str(Phase.parse(phase))
    except ValueError as e:
        raise GameError.wrap(e) from None
    if wanted == game.position.phase:
        pos = game.position
        centres, unowned = _centres(game, pos, names, lang)
        return PhaseView(
            game=game.name, lang=lang, phase=wanted, title=phase_title(wanted, lang),
            adjudicated=False, processed_at=None, position=pos, after=pos, results=(), orders=(),
            dislodged=_dislodged(pos, names, lang), centres=centres, unowned=unowned,
            sc_changed=False, adjustments=(), next_phase=wanted, next_title=phase_title(wanted, lang),
            press=_press(game.press, names, lang), game_over=game.finished)
    rec = game.record(wanted)
    after = rec.position_after
    centres, unowned = _centres(game, after, names, lang)
    return PhaseView(
        game=game.name, lang=lang, phase=rec.phase, title=phase_title(rec.phase, lang),
        adjudicated=True, processed_at=rec.processed_at, position=rec.position_before, after=after,
        results=tuple(rec.results), orders=_orders(game, rec, names, lang),
        dislodged=_dislodged(after, names, lang), centres=centres, unowned=unowned,
        sc_changed=_ends_fall(rec),
        # the game ended after this phase: no Winter is played, so no adjustments are due
        adjustments=_adjustments(game, after, names, lang)
        if after.phase.endswith("A") and not (game.finished and rec is game.history[-1]) else (),
        next_phase=after.phase, next_title=phase_title(after.phase, lang), random_seed=rec.random_seed,
        press=_press(rec.press, names, lang))


def game_view(game: Game, lang: str = "en") -> GameView:
    """The overview of ``game`` in ``lang``."""
    check_lang(lang)
    names = names_of(game)
    powers = tuple((p, names.power_name(p, lang), player_label(game, game.players[p].addresses))
                   for p in game.map.powers)
    return GameView(game.name, lang, game.settings.rules, game.position.phase,
                    phase_title(game.position.phase, lang), powers,
                    tuple((ph, phase_title(ph, lang)) for ph in phases(game)),
                    sc_history(game, lang), game.created, game.finished)


def sc_history(game: Game, lang: str = "en") -> tuple[YearRow, ...]:
    """SC ownership at the start and after each year's Fall (when ownership
    changes, ``RULES.md`` §1), oldest first."""
    _ = gettext(check_lang(lang))
    names = names_of(game)
    start = game.history[0].position_before if game.history else game.position
    rows = [_year_row(game, None, _("Start"), start, names, lang)]
    for rec in game.history:
        if _ends_fall(rec):
            year = Phase.parse(rec.phase).year
            rows.append(_year_row(game, year, str(year), rec.position_after, names, lang))
    return tuple(rows)


def public_address(addresses: tuple[str, ...]) -> str:
    """The address of record as shown in public (``"al…@example.org"``), ``""``
    for a vacant power."""
    if not addresses:
        return ""
    local, at, domain = addresses[0].partition("@")
    return f"{local[:2]}…{at}{domain}" if at else f"{local[:2]}…"


def player_label(game: Game, addresses: tuple[str, ...]) -> str:
    """How a player is shown in public: :func:`public_address`, or ``"—"`` in
    a gunboat game (``settings.press.anonymous``: no address is shown at all)."""
    if addresses and game.settings.press.anonymous:
        return "—"
    return public_address(addresses)


def unit_text(unit_type: str | None, location: str, names: NameIndex, lang: str) -> str:
    """``"A Ser"`` / ``"塞尔维亚陆军"``."""
    if lang == "en":
        return f"{unit_type} {names.location_abbr(location)}" if unit_type else names.location_abbr(location)
    word = {"A": ("陆军", "陸軍"), "F": ("舰队", "艦隊")}.get(unit_type or "", ("", ""))
    return names.location_name(location, lang) + word[lang == "zh-hant"]


def join_list(items, lang: str) -> str:
    return ("、" if lang != "en" else ", ").join(items)


# ---- parts ---------------------------------------------------------------------------
def _ends_fall(rec: PhaseRecord) -> bool:
    """True when ``rec`` is the last Fall phase of its year (SC ownership was
    updated on leaving it)."""
    p, nxt = Phase.parse(rec.phase), Phase.parse(rec.position_after.phase)
    return p.season == "F" and (nxt.kind == "A" or nxt.year > p.year)


def _orders(game: Game, rec: PhaseRecord, names: NameIndex, lang: str) -> tuple[PowerOrders, ...]:
    _ = gettext(lang)
    w = Words(game.map_name, lang)
    gm = game.map
    sources = {(p, e.order): e.source for p, es in rec.orders.items() for e in es if not e.replaced}
    rows: dict[str, list[OrderRow]] = {}
    for r in rec.results:
        text = format_order(r.order, names, lang) if r.order is not None else _("(no order)")
        notes = _result_notes(r, w)
        src = SOURCES.get(sources.get((r.power, r.order)))
        if src:
            notes.append(_(src))
        rows.setdefault(r.power, []).append(OrderRow(text, r.outcome, tuple(notes)))
    unused = {p: _("%(n)d build(s) not used") % {"n": n} for p, n in unused_builds(gm, rec).items()}
    out = []
    for power in gm.powers:
        written = tuple(
            WrittenRow(e.text, format_order(e.order, names, lang), _(SOURCES[e.source]) if e.source in SOURCES else "",
                       e.replaced)
            for e in rec.orders.get(power, ()))
        if rows.get(power) or written or power in unused:
            out.append(PowerOrders(power, names.power_name(power, lang), tuple(rows.get(power, ())),
                                   written, (unused[power],) if power in unused else ()))
    return tuple(out)


def _result_notes(r, w: Words) -> list[str]:
    _ = w.gettext
    notes = []
    reason = w.reason(r.reason) if r.reason is not None else None
    if r.outcome == FAILS:
        notes.append(reason or _("fails"))
    elif r.outcome in (ILLEGAL, VOID):
        label = _(OUTCOMES[r.outcome])
        notes.append(_("%(outcome)s: %(reason)s") % {"outcome": label, "reason": reason} if reason else label)
    elif reason:
        notes.append(reason)
    if r.dislodged:
        notes.append(_("dislodged"))
    if r.destroyed:
        notes.append(_("destroyed"))
    return notes


def _dislodged(after: Position, names: NameIndex, lang: str) -> tuple[str, ...]:
    _ = gettext(lang)
    out = []
    for prov, d in sorted(after.dislodged.items()):
        out.append(_("%(power)s: %(unit)s may retreat to %(places)s.") % {
            "power": names.power_name(d.unit.power, lang),
            "unit": unit_text(d.unit.type, d.unit.location, names, lang),
            "places": join_list((names.location_name(loc, lang) for loc in d.retreats), lang)})
    return tuple(out)


def _owned(game: Game, pos: Position, names: NameIndex, lang: str) -> dict[str, tuple[str, ...]]:
    gm = game.map
    owned: dict[str, list[str]] = {}
    for sc in sorted(gm.supply_centres, key=lambda s: names.province_name(s, "en")):  # same order in every language
        owned.setdefault(pos.sc_owners.get(sc, ""), []).append(names.province_name(sc, lang))
    return {p: tuple(v) for p, v in owned.items()}


def _centres(game: Game, pos: Position, names: NameIndex, lang: str):
    owned = _owned(game, pos, names, lang)
    units: dict[str, int] = {}
    for u in pos.units.values():
        units[u.power] = units.get(u.power, 0) + 1
    rows = tuple(CentreRow(p, names.power_name(p, lang), len(owned.get(p, ())), units.get(p, 0),
                           owned.get(p, ()))
                 for p in game.map.powers)
    return rows, owned.get("", ())


def _year_row(game: Game, year: int | None, label: str, pos: Position, names: NameIndex,
              lang: str) -> YearRow:
    owned = _owned(game, pos, names, lang)
    return YearRow(year, label, tuple(len(owned.get(p, ())) for p in game.map.powers),
                   tuple((p, owned[p]) for p in game.map.powers if owned.get(p)))


def _adjustments(game: Game, pos: Position, names: NameIndex, lang: str) -> tuple[tuple[str, str], ...]:
    _ = gettext(lang)
    return tuple((names.power_name(p, lang),
                  (_("builds %(n)d") if n > 0 else _("removes %(n)d")) % {"n": abs(n)})
                 for p, n in adjustments_due(game.map, pos).items())


def _press(items, names, lang: str) -> tuple[PressItem, ...]:
    _ = gettext(lang)
    out = []
    for p in items:
        who = _("anonymous") if p.get("grey") else _("the GM") if p.get("sender") is None \
            else names.power_name(p["sender"], lang)
        out.append(PressItem(who, None if p.get("grey") else time_from_str(p.get("at")), p.get("text", "")))
    return tuple(out)
