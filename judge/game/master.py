"""GM operations (issue 4 §5): deadlines, pause, processing, rollback,
players, settings, and the GM's end-of-game rulings (``RULES.md`` §4-5).
Each function changes the game it is given (or raises :class:`GameError`
with the reason, changing nothing) and returns the
:class:`~judge.game.notices.Notice` intents to mail. Used by the GM's mail
commands and by ``judge game gm`` / ``judge game end|passive|award``.

The settings the GM may change (``SET key=value``) are those of
:mod:`judge.game.setting_text`: house rules, victory, scoring, deadlines,
press and NMR.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from ..rules.phase import Phase
from . import turns
from .deadlines import orders_needed, whole_minute
from .errors import GameError
from .final_report import game_over_notice
from .nmr import eject_player, missed_by, missing_powers, replace_player
from .notices import GM, Notice, mailto
from .replaced import ReplacedLog
from .records import WRITTEN
from .roster import record_change
from .setting_text import change_settings, shown_pairs


# ---- deadlines ---------------------------------------------------------------------
def set_deadline(game, when: datetime, now: datetime) -> list[Notice]:
    """``SET DEADLINE``: the current phase's deadline becomes ``when`` (UTC,
    after ``now``); a game without a clock starts its clock. A pause ends
    (and a NoNMR game's wait). A deadline inside the reminder window reminds
    the players whose orders are incomplete at once
    (:func:`~judge.game.turns.reminders_now`)."""
    if when <= now:
        raise GameError.of("deadline_past")
    game.check_running()
    free = [p for p, pl in game.players.items() if not pl.addresses]
    if not turns.running(game) and free:
        # the clock of a forming game starts when every power is taken, or at START (issue 22)
        raise GameError.of("forming_deadline", game=game.name, powers=free, map=game.map_name)
    if not turns.running(game) or game.schedule.phase != str(game.phase):
        turns.open_phase(game, now, when)
    game.schedule = replace(game.schedule, deadline=when, late=False, reminded=(), waiting=False,
                            paused_at=None, pause_until=None, pause_left=0.0)
    return [turns.deadline_notice(game, "deadline", now)] + turns.reminders_now(game, now)


def extend(game, hours: float, now: datetime) -> list[Notice]:
    """``EXTEND hours``: the deadline moves ``hours`` later (from now, if it
    has passed); a running grace period ends. Reminders as for
    :func:`set_deadline`."""
    if hours <= 0:
        raise GameError("extend_hours")
    turns.check_clock(game)
    s = game.schedule
    base = s.deadline if s.deadline >= now else whole_minute(now)
    game.schedule = replace(s, deadline=base + timedelta(hours=hours), late=False, reminded=(), waiting=False)
    return [turns.deadline_notice(game, "extended", now)] + turns.reminders_now(game, now)


def process_now(game, now: datetime) -> turns.Step:
    """``PROCESS``: adjudicate the current phase now, whatever is missing."""
    game.check_running()
    return turns.process(game, now)


# ---- rollback ----------------------------------------------------------------------
def rollback(game, phase: str, now: datetime) -> list[Notice]:
    """``ROLLBACK phase``: the game goes back to the start of ``phase`` (an
    adjudicated phase): its position, the orders the players had written for
    it, the standing lists carried into it; later history is dropped, a
    finished game runs again, the NMR record forgets later phases. The phase
    gets a fresh deadline if the game has a clock; it is adjudicated at that
    deadline, or earlier only once every power that must order has sent its
    orders again or ``SET NOWAIT`` (``schedule.to_confirm``). The results,
    reminders and final report of the phases played again are new mails
    (``schedule.rollbacks``, :func:`judge.game.notices.event_key`)."""
    rec = game.record(phase)
    index = next(i for i in range(len(game.history) - 1, -1, -1) if game.history[i] is rec)
    kept = game.history[:index]
    game.standing = {}
    for r in kept:           # standing lists carried as the game carried them
        game.orders = _written(r.orders)
        game._carry_standing(r.position_after)
    game.orders = _written(rec.orders)
    game.replaced_log = ReplacedLog()      # the record holds them: the phase's log starts again
    game.position = rec.position_before
    game.press = rec.press             # the phase's broadcasts are the phase's again
    game.history.truncate(index)
    game.ending = replace(game.ending, result=None, tie=None, votes=type(game.ending.votes)())
    nmr, missed = {}, {}
    for r in kept:
        lost = missed_by(r, game.map)
        for p in game.map.powers:
            if p in lost:
                nmr[p] = nmr.get(p, 0) + 1
                missed[p] = missed.get(p, ()) + (r.phase,)
            elif p in r.orders:
                nmr.pop(p, None)
    game.schedule = replace(game.schedule, nmr=nmr, missed=missed, rollbacks=game.schedule.rollbacks + 1)
    if game.schedule.deadline is not None or game.schedule.phase is not None:
        turns.open_phase(game, now)
    # the orders restored stand, but the phase is not processed early on them: every
    # power that must order sends its orders again (or SET NOWAIT) first (issue 13 point 1)
    game.schedule = replace(game.schedule, to_confirm=frozenset(
        p for p in game.map.powers if orders_needed(game, p)))
    return [Notice("rollback", turns.EVERYONE, {
        "game": game.name, "map": game.map_name, "phase": str(game.phase),
        "deadline": game.schedule.deadline, "timezone": game.settings.deadlines.timezone,
        "early": game.settings.deadlines.early},
        f"{game.name}:{game.phase}:rollback:{now.isoformat()}")]


def _written(orders: dict) -> dict:
    out = {}
    for p, es in orders.items():
        kept = tuple(e for e in es if e.source == WRITTEN)
        if kept:
            out[p] = kept
    return out


# ---- players -----------------------------------------------------------------------
def eject(game, power: str, now: datetime) -> list[Notice]:
    """``EJECT power``: the player is removed; the power is vacant (its units
    take the game's defaults) until the GM replaces it."""
    power = game.power(power)
    old = eject_player(game, power)
    record_change(game, power, "ejected", old.addresses[0], now)
    return [Notice("ejected", (GM,), {"game": game.name, "map": game.map_name, "power": power},
                   f"{game.name}:eject:{power}:{now.isoformat()}"),
            Notice("ejected_player", mailto(old.addresses), {"game": game.name, "map": game.map_name,
                                                             "power": power, "language": old.language},
                   f"{game.name}:eject:{power}:{now.isoformat()}")]


def replace_power(game, power: str, password_hash: str, now: datetime) -> list[Notice]:
    """``REPLACE power password``: the power waits for a replacement, who takes
    it with ``JOIN game password power``. The password is given hashed."""
    power = game.power(power)
    old = game.players[power]
    replace_player(game, power, password_hash)
    record_change(game, power, "replaced", old.addresses[0] if old.addresses else "", now)
    out = [Notice("replacing", (GM,), {"game": game.name, "map": game.map_name, "power": power},
                  f"{game.name}:replace:{power}:{now.isoformat()}")]
    if old.addresses:
        out.append(Notice("ejected_player", mailto(old.addresses), {
            "game": game.name, "map": game.map_name, "power": power, "language": old.language},
            f"{game.name}:replace:{power}:{now.isoformat()}"))
    return out


def check_become(game, power: str) -> str:
    """``BECOME power``: the GM may enter orders for a power nobody plays, that
    was abandoned, that a NoNMR game waits for, or whose standing retreat list
    ran out in this retreat phase (the GM decides, text §10). Returns the
    power's name; GameError otherwise."""
    power = game.power(power)
    waited_for = game.schedule.waiting and power in missing_powers(game)   # NoNMR: the game waits for it
    asked = game.phase.kind == "R" and power in turns.gm_decides(game)     # its retreat list ran out
    if game.players[power].addresses and power not in game.schedule.abandoned and not (waited_for or asked):
        raise GameError.of("has_player", power=power, map=game.map_name)
    return power


# ---- settings ----------------------------------------------------------------------
def change(game, pairs, now: datetime, tz: str | None = None) -> list[Notice]:
    """GM ``SET key=value ...``: change the game's settings (the keys of
    :mod:`judge.game.setting_text`; an ``end_at`` without an offset is in
    zone ``tz``, else the game's, after a ``timezone=`` of the same command).
    A new clock setting applies from the next phase on. Returns the notice
    telling the GM and players what changed. GameError for a bad pair or
    for settings the game's map cannot have (``solo=40`` on a map of 34
    SCs): checked before anything changes (issue 22 point 3)."""
    try:
        settings = change_settings(game.settings, pairs, tz)
        settings.check_map(game.map)
    except ValueError as e:
        raise GameError.wrap(e) from None
    game.settings = settings
    return [Notice("settings", turns.EVERYONE, {"game": game.name, "map": game.map_name,
                                                "changes": shown_pairs(pairs)},   # no join password
                   f"{game.name}:settings:{now.isoformat()}")]


# ---- the end of the game (RULES.md §4-5) ---------------------------------------------
def end_game(game, now: datetime, members=None) -> list[Notice]:
    """``END``: the GM ends the game as a draw of ``members`` (default: every
    survivor; :meth:`Game.gm_end`); the clock stops and everyone is sent the
    final report. GameError when the game is over or a member is not a survivor."""
    game.gm_end(now, members)
    return turns.ended(game)


def rule_passive(game, power: str, fine: int | None, now: datetime) -> list[Notice]:
    """``PASSIVE power fine``: the GM rules ``power``'s player passive with a
    fine in points (None withdraws the ruling; Appendix 2,
    :meth:`Game.gm_rule_passive`). After the end of the game everyone is sent
    the final report again, with the ruling. GameError."""
    game.gm_rule_passive(power, fine)
    return _report_again(game, now)


def name_award(game, award: str, power: str | None, now: datetime) -> list[Notice]:
    """``AWARD STRATEGY|DIPLOMACY power``: the GM names the winner of an award
    (None withdraws; :meth:`Game.gm_award`). After the end of the game
    everyone is sent the final report again. GameError."""
    game.gm_award(award, power)
    return _report_again(game, now)


def _report_again(game, now: datetime) -> list[Notice]:
    """The final report once more (a key of its own), if the game is over."""
    if not game.finished:
        return []
    notice = game_over_notice(game)
    return [replace(notice, key=f"{notice.key}:{now.isoformat()}")]


def phase_name(text: str) -> str:
    """A phase name as the GM wrote it (``s1901m``) -> ``S1901M``; GameError."""
    try:
        return str(Phase.parse(text))
    except ValueError as e:
        raise GameError.wrap(e) from None
