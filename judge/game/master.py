"""GM operations (issue 4 §5): deadlines, pause, processing, rollback,
players, settings. Each function changes the game it is given (or raises
:class:`GameError` with the reason, changing nothing) and returns the
:class:`~judge.game.notices.Notice` intents to mail. Used by the GM's mail
commands and by ``judge game gm``.

Settings the GM may change (``key=value``), besides those of
:mod:`judge.game.setting_text` (house rules, victory, scoring):

=====================  ==============================================================
``timezone``           IANA zone of the deadlines (``Europe/Paris``)
``movement``           length of movement phases (``48h``, ``2d``, ``90m``) or a clock
                       time (``20:00``, optionally ``20:00/12h``: at least 12 h away)
``retreat``            the same for retreat phases
``adjustment``         the same for adjustment phases
``days``               weekdays a deadline may fall on (``mon,tue,wed,thu,fri``; ``all``)
``grace``              grace period after the deadline (``24h``; ``0``: none)
``reminders``          hours before the deadline to remind (``24,1``; ``none``)
``early``              ``yes``/``no``: process as soon as all orders are in
``outage``             ``process``/``extend`` after the judge was down past a deadline
``outage_hours``       how far ``extend`` moves the deadline (``24h``)
``pause_limit``        the longest pause (``14d``)
``press``              ``none``, ``white``, ``grey`` or ``both``
``press_private``      ``yes``/``no``: press to some powers only
``press_gm``           ``yes``/``no``: press to the GM
``press_observers``    ``yes``/``no``: observers receive broadcasts
``gunboat``            ``yes``/``no``: nobody's address is shown to other players
``late_notices``       ``yes``/``no``
``abandon_after``      phases missed in a row before a power is abandoned (``0``: never)
``absence_max``        days of absence a player may take (``15``)
=====================  ==============================================================
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta

from ..rules.phase import Phase
from . import turns
from .deadlines import WEEKDAYS, Timing
from .errors import GameError
from .nmr import eject_player, missed_by, replace_player
from .notices import GM, Notice, mailto
from .records import WRITTEN
from .setting_text import change_settings
from .settings import Settings


# ---- deadlines ---------------------------------------------------------------------
def set_deadline(game, when: datetime, now: datetime) -> list[Notice]:
    """``SET DEADLINE``: the current phase's deadline becomes ``when`` (UTC,
    after ``now``); a game without a clock starts its clock. A pause ends."""
    if when <= now:
        raise GameError("the new deadline must be in the future")
    if getattr(game, "finished", False):
        raise GameError(f"game {game.name} is over")
    if not turns.running(game) or game.schedule.phase != str(game.phase):
        turns.open_phase(game, now, when)
    game.schedule = replace(game.schedule, deadline=when, late=False, reminded=(),
                            paused_at=None, pause_until=None, pause_left=0.0)
    return [turns.deadline_notice(game, "deadline", now)]


def extend(game, hours: float, now: datetime) -> list[Notice]:
    """``EXTEND hours``: the deadline moves ``hours`` later (from now, if it
    has passed); a running grace period ends."""
    if hours <= 0:
        raise GameError("extend by a number of hours above 0")
    if not turns.running(game):
        raise GameError(f"game {game.name} has no running clock")
    s = game.schedule
    base = max(s.deadline, now)
    game.schedule = replace(s, deadline=base + timedelta(hours=hours), late=False, reminded=())
    return [turns.deadline_notice(game, "extended", now)]


def process_now(game, now: datetime) -> turns.Step:
    """``PROCESS``: adjudicate the current phase now, whatever is missing."""
    if getattr(game, "finished", False):
        raise GameError(f"game {game.name} is over")
    return turns.process(game, now)


# ---- rollback ----------------------------------------------------------------------
def rollback(game, phase: str, now: datetime) -> list[Notice]:
    """``ROLLBACK phase``: the game goes back to the start of ``phase`` (an
    adjudicated phase): its position, the orders the players had written for
    it, the standing lists carried into it; later history is dropped, a
    finished game runs again, the NMR record forgets later phases. The phase
    gets a fresh deadline if the game has a clock."""
    rec = game.record(phase)
    index = game.history.index(rec)
    kept = game.history[:index]
    game.standing = {}
    for r in kept:           # standing lists carried as the game carried them
        game.orders = _written(r.orders)
        game._carry_standing(r.position_after)
    game.orders = _written(rec.orders)
    game.position = rec.position_before
    game.history = kept
    if getattr(game, "ending", None) is not None:
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
    game.schedule = replace(game.schedule, nmr=nmr, missed=missed)
    if game.schedule.deadline is not None or game.schedule.phase is not None:
        turns.open_phase(game, now)
    return [Notice("rollback", turns.EVERYONE, {
        "game": game.name, "map": game.map_name, "phase": str(game.phase),
        "deadline": game.schedule.deadline, "timezone": game.settings.deadlines.timezone},
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
    out = [Notice("replacing", (GM,), {"game": game.name, "map": game.map_name, "power": power},
                  f"{game.name}:replace:{power}:{now.isoformat()}")]
    if old.addresses:
        out.append(Notice("ejected_player", mailto(old.addresses), {
            "game": game.name, "map": game.map_name, "power": power, "language": old.language},
            f"{game.name}:replace:{power}:{now.isoformat()}"))
    return out


def check_become(game, power: str) -> str:
    """``BECOME power``: the GM may enter orders for a power nobody plays or
    that was abandoned. Returns the power's name; GameError otherwise."""
    power = game.power(power)
    if game.players[power].addresses and power not in game.schedule.abandoned:
        raise GameError(f"{power} has a player; EJECT or REPLACE first")
    return power


# ---- settings ----------------------------------------------------------------------
_PRESS_MODES = {"none": (False, True, False), "white": (True, True, False),
                "grey": (True, False, True), "gray": (True, False, True), "both": (True, True, True)}


def hours_of(text: str) -> float:
    """``"48"``, ``"48h"``, ``"2d"``, ``"90m"``, ``"1d12h"``, ``"30s"`` -> hours.
    ValueError otherwise."""
    t = text.strip().lower().replace(" ", "")
    if re.fullmatch(r"\d+(\.\d+)?", t):
        return float(t)
    parts = re.findall(r"(\d+(?:\.\d+)?)([dhms])", t)
    if not parts or "".join(n + u for n, u in parts) != t:
        raise ValueError(f"{text!r} is not a length such as 48h, 2d or 90m")
    return sum(float(n) * {"d": 24, "h": 1, "m": 1 / 60, "s": 1 / 3600}[u] for n, u in parts)


def _timing(text: str, old: Timing) -> Timing:
    t = text.strip()
    if re.fullmatch(r"\d{1,2}:\d\d(/.+)?", t):
        at, _, least = t.partition("/")
        return Timing(old.hours, at.zfill(5), hours_of(least) if least else 0.0, old.days)
    return Timing(hours_of(t), None, 0.0, old.days)


def _days(text: str) -> tuple[str, ...]:
    t = text.strip().lower()
    if t in ("all", "any", "every"):
        return WEEKDAYS
    m = re.fullmatch(r"([a-z]{3})[a-z]*-([a-z]{3})[a-z]*", t)
    if m and m.group(1) in WEEKDAYS and m.group(2) in WEEKDAYS:
        a, b = WEEKDAYS.index(m.group(1)), WEEKDAYS.index(m.group(2))
        return tuple(WEEKDAYS[i % 7] for i in range(a, b + 1 if b >= a else b + 8))
    days = tuple(d.strip()[:3] for d in t.split(",") if d.strip())
    if not days or any(d not in WEEKDAYS for d in days):
        raise ValueError(f"{text!r}: name weekdays like mon,tue,wed or mon-fri")
    return days


def _flag(text: str) -> bool:
    words = {"yes": True, "true": True, "on": True, "1": True,
             "no": False, "false": False, "off": False, "0": False}
    if text.strip().lower() not in words:
        raise ValueError(f"{text!r} is not yes or no")
    return words[text.strip().lower()]


def _apply(settings: Settings, key: str, text: str) -> Settings:
    d, p, n = settings.deadlines, settings.press, settings.nmr
    if key == "timezone":
        return replace(settings, deadlines=replace(d, timezone=text.strip()))
    if key in ("movement", "retreat", "adjustment"):
        return replace(settings, deadlines=replace(d, **{key: _timing(text, getattr(d, key))}))
    if key == "days":
        days = _days(text)
        return replace(settings, deadlines=replace(d, **{k: replace(getattr(d, k), days=days)
                                                         for k in ("movement", "retreat", "adjustment")}))
    if key == "grace":
        return replace(settings, deadlines=replace(d, grace_hours=hours_of(text)))
    if key == "reminders":
        hours = () if text.strip().lower() in ("none", "off", "no") else \
            tuple(hours_of(h) for h in text.split(",") if h.strip())
        return replace(settings, deadlines=replace(d, reminders=hours))
    if key == "early":
        return replace(settings, deadlines=replace(d, early=_flag(text)))
    if key == "outage":
        return replace(settings, deadlines=replace(d, outage=text.strip().lower()))
    if key == "outage_hours":
        return replace(settings, deadlines=replace(d, outage_hours=hours_of(text)))
    if key == "pause_limit":
        return replace(settings, deadlines=replace(d, pause_limit_hours=hours_of(text)))
    if key == "press":
        mode = _PRESS_MODES.get(text.strip().lower())
        if mode is None:
            raise ValueError(f"{text!r}: use none, white, grey or both")
        return replace(settings, press=replace(p, allowed=mode[0], white=mode[1], grey=mode[2]))
    flags = {"press_private": ("press", "private"), "press_gm": ("press", "to_gm"),
             "press_observers": ("press", "observers"), "gunboat": ("press", "anonymous"),
             "late_notices": ("nmr", "late_notices")}
    if key in flags:
        group, name = flags[key]
        return replace(settings, **{group: replace(getattr(settings, group), **{name: _flag(text)})})
    if key == "abandon_after":
        if not text.strip().isdigit():
            raise ValueError(f"{text!r} is not a whole number")
        return replace(settings, nmr=replace(n, abandon_after=int(text)))
    if key == "absence_max":      # days; or a length such as 360h
        t = text.strip()
        days = float(t) if re.fullmatch(r"\d+(\.\d+)?", t) else hours_of(t) / 24
        return replace(settings, nmr=replace(n, absence_max_days=days))
    raise KeyError(key)


CLOCK_KEYS = ("timezone", "movement", "retreat", "adjustment", "days", "grace", "reminders", "early",
              "outage", "outage_hours", "pause_limit", "press", "press_private", "press_gm",
              "press_observers", "gunboat", "late_notices", "abandon_after", "absence_max")


def change_game_settings(settings: Settings, pairs, tz: str | None = None) -> Settings:
    """``settings`` with ``key=value`` ``pairs`` applied in order: the keys of
    this module's table and those of :func:`judge.game.setting_text.change_settings`.
    Returns new settings; raises ValueError naming the pair (nothing changes)."""
    for pair in pairs:
        key, eq, text = pair.partition("=")
        key = key.strip().lower().replace("-", "_")
        if eq and key in CLOCK_KEYS:
            try:
                settings = _apply(settings, key, text)
            except (ValueError, TypeError) as e:
                raise ValueError(f"{pair!r}: {e}") from None
        else:
            settings = change_settings(settings, [pair], tz or settings.deadlines.timezone)
    return settings


def change(game, pairs, now: datetime) -> list[Notice]:
    """GM ``SET key=value ...``: change the game's settings (see module doc).
    A new clock setting applies from the next phase on. Returns the notice
    telling the GM and players what changed. GameError for a bad pair."""
    try:
        game.settings = change_game_settings(game.settings, pairs)
    except ValueError as e:
        raise GameError(str(e)) from None
    return [Notice("settings", turns.EVERYONE, {"game": game.name, "map": game.map_name,
                                                "changes": list(pairs)},
                   f"{game.name}:settings:{now.isoformat()}")]


def phase_name(text: str) -> str:
    """A phase name as the GM wrote it (``s1901m``) -> ``S1901M``; GameError."""
    try:
        return str(Phase.parse(text))
    except ValueError as e:
        raise GameError(str(e)) from None
