"""Game settings as ``key=value`` text: what the GM writes on the command line
(``judge game set NAME solo=16 tie=continue``) and in a mail.

Keys (any case, ``-`` or ``_``), their group in :class:`~judge.game.settings.Settings`
and their values:

==========================  ==========================================================
``rules``                   a rule profile: ``datc``, ``droidippy``
``names``                   the name set of the mails: ``house`` (the rule texts' spellings), ``standard``
``retreat_preferences``     ``yes``/``no`` (house rules, ``RULES.md`` §3.1)
``priority_lists``          ``yes``/``no`` (§3.2)
``default_retreat``         ``disband``, ``house`` (§3.3)
``default_disband``         ``datc``, ``house`` (§3.4)
``combined_orders``         ``yes``/``no`` (§3.5)
``solo``                    SCs for a solo, or ``none`` (§4; default 18)
``solo_rule``               ``reach`` (every power with N) or ``most`` (most SCs and N)
``alliance``                combined SCs for a two-power alliance, or ``none``
``end_year``                the game ends after Fall of this year, or ``none``
``end_at``                  ISO 8601 date and time the game ends (``2027-01-01T00:00Z``;
                            without an offset it is read in the game's time zone), or ``none``
``tie``                     ``share`` or ``continue``
``draw_votes``              ``secret`` or ``public``
``draw_members``            ``all_survivors`` or ``any``
``scoring``                 ``house``, ``dss``, ``sum_of_squares``, ``c_diplo`` (§5)
``awards``                  ``gm`` (the GM names them) or ``vote`` (the leaders vote)
``award_tie``               ``gm_decides``, ``share``, ``most_centres``
``timezone``                IANA zone of the deadlines (``Europe/Paris``; issue 4)
``movement``                length of movement phases (``48h``, ``2d``, ``90m``) or a clock
                            time (``20:00``; ``20:00/12h``: at least 12 h after the start)
``retreat``, ``adjustment``  the same for retreat and adjustment phases
``days``                    weekdays a deadline may fall on (``mon,tue,wed``, ``mon-fri``, ``all``)
``grace``                   grace period after the deadline (``24h``; ``0``: none)
``reminders``               hours before the deadline to remind (``24,1``; ``none``)
``early``                   ``yes``/``no``: process as soon as all orders are in
``outage``                  ``process``/``extend`` after the judge was down past a deadline
``outage_hours``            how far ``extend`` moves the deadline (``24h``)
``pause_limit``             the longest pause (``14d``)
``press``                   ``none``, ``white``, ``grey`` or ``both``
``press_private``           ``yes``/``no``: press to some powers only
``press_gm``                ``yes``/``no``: press to the GM
``press_observers``         ``yes``/``no``: observers receive broadcasts
``gunboat``                 ``yes``/``no``: no player's address is shown to another
``late_notices``            ``yes``/``no``: tell late players at the deadline
``abandon_after``           phases missed in a row before a power is abandoned (``0``: never)
``absence_max``             days of absence a player may take (``15``)
==========================  ==========================================================

The field names (``solo_centres``, ``alliance_centres``, ``tie_rule``,
``system``, ``award_tie_rule``) are accepted too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .deadlines import WEEKDAYS, Timing
from .errors import GameError
from .settings import Settings


def _count(text: str, tz: str) -> int | None:
    if text.lower() in ("none", "off", "no", "-"):
        return None
    if not text.isdigit():
        raise GameError("not_whole_or_none", text=text)
    return int(text)


def _flag(text: str, tz: str) -> bool:
    words = {"yes": True, "true": True, "on": True, "1": True,
             "no": False, "false": False, "off": False, "0": False}
    if text.lower() not in words:
        raise GameError("not_yes_no", text=text)
    return words[text.lower()]


def yes_no(text: str) -> bool:
    """``yes``/``no`` (``true``/``false``, ``on``/``off``, ``1``/``0``) -> bool; ValueError."""
    return _flag(text.strip(), "UTC")


def _word(text: str, tz: str = "UTC") -> str:
    return text.lower().replace("-", "_")


def _time(text: str, tz: str) -> datetime | None:
    if text.lower() in ("none", "off", "no", "-"):
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise GameError("not_a_time", what="end_at", text=text) from None
    if moment.tzinfo is None:
        try:
            moment = moment.replace(tzinfo=ZoneInfo(tz))
        except (ZoneInfoNotFoundError, ValueError):
            raise GameError("unknown_zone", text=tz) from None
    return moment.astimezone(timezone.utc)


def hours_of(text: str, tz: str = "UTC") -> float:
    """``"48"``, ``"48h"``, ``"2d"``, ``"90m"``, ``"1d12h"``, ``"30s"`` -> hours.
    ValueError otherwise."""
    t = text.strip().lower().replace(" ", "")
    if re.fullmatch(r"\d+(\.\d+)?", t):
        return float(t)
    parts = re.findall(r"(\d+(?:\.\d+)?)([dhms])", t)
    if not parts or "".join(n + u for n, u in parts) != t:
        raise GameError("not_length", text=text)
    return sum(float(n) * {"d": 24, "h": 1, "m": 1 / 60, "s": 1 / 3600}[u] for n, u in parts)


def length_of(text: str, tz: str = "UTC") -> float:
    """A length with its unit (``48h``, ``2d``, ``90m``, ``1d12h``; ``0``
    alone) -> hours. ValueError for a number without a unit (``5``: hours or
    days?) or anything else."""
    t = text.strip()
    if re.fullmatch(r"\d+(\.\d+)?", t) and float(t) != 0:
        raise GameError("length_unit", text=text, value=t)
    return hours_of(t)


def length_text(hours: float) -> str:
    """Hours as :func:`length_of` reads them: ``10m``, ``1h30m``, ``48h``,
    ``2d12h``, ``14d``; ``0``. Up to 48 hours in hours, beyond in days and hours."""
    secs = round(hours * 3600)
    if secs == 0:
        return "0"
    minutes, s = divmod(secs, 60)
    h, m = divmod(minutes, 60)
    d = 0 if h <= 48 else h // 24
    h -= 24 * d
    return "".join(f"{n}{u}" for n, u in ((d, "d"), (h, "h"), (m, "m"), (s, "s")) if n)


def _hours_list(text: str, tz: str) -> tuple[float, ...]:
    if text.strip().lower() in ("none", "off", "no", "-"):
        return ()
    return tuple(hours_of(h) for h in text.split(",") if h.strip())


def _days_of(text: str, tz: str = "UTC") -> float:
    t = text.strip()
    return float(t) if re.fullmatch(r"\d+(\.\d+)?", t) else hours_of(t) / 24


def _whole(text: str, tz: str) -> int:
    if not text.strip().isdigit():
        raise GameError("not_whole", text=text)
    return int(text)


def _zone(text: str, tz: str) -> str:
    try:
        ZoneInfo(text.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise GameError("unknown_zone", text=text) from None
    return text.strip()


def _timing(settings: Settings, kind: str, text: str) -> Settings:
    old = getattr(settings.deadlines, kind)
    t = text.strip()
    if re.fullmatch(r"\d{1,2}:\d\d(/.+)?", t):
        at, _, least = t.partition("/")
        new = Timing(old.hours, at.zfill(5), length_of(least) if least else 0.0, old.days)
    else:
        new = Timing(length_of(t), None, 0.0, old.days)
    return replace(settings, deadlines=replace(settings.deadlines, **{kind: new}))


def _days(settings: Settings, text: str) -> Settings:
    t = text.strip().lower()
    m = re.fullmatch(r"([a-z]{3})[a-z]*-([a-z]{3})[a-z]*", t)
    if t in ("all", "any", "every"):
        days = WEEKDAYS
    elif m and m.group(1) in WEEKDAYS and m.group(2) in WEEKDAYS:
        a, b = WEEKDAYS.index(m.group(1)), WEEKDAYS.index(m.group(2))
        days = tuple(WEEKDAYS[i % 7] for i in range(a, b + 1 if b >= a else b + 8))
    else:
        days = tuple(d.strip()[:3] for d in t.split(",") if d.strip())
        if not days or any(d not in WEEKDAYS for d in days):
            raise GameError("bad_weekdays", text=text)
    d = settings.deadlines
    return replace(settings, deadlines=replace(d, **{k: replace(getattr(d, k), days=days)
                                                     for k in ("movement", "retreat", "adjustment")}))


_PRESS_MODES = {"none": (False, True, False), "white": (True, True, False),
                "grey": (True, False, True), "gray": (True, False, True), "both": (True, True, True)}


def _press(settings: Settings, text: str) -> Settings:
    mode = _PRESS_MODES.get(text.strip().lower())
    if mode is None:
        raise GameError("bad_press_mode", text=text)
    return replace(settings, press=replace(settings.press, allowed=mode[0], white=mode[1], grey=mode[2]))


SPECIAL = {
    "movement": lambda s, text: _timing(s, "movement", text),
    "retreat": lambda s, text: _timing(s, "retreat", text),
    "adjustment": lambda s, text: _timing(s, "adjustment", text),
    "days": _days,
    "press": _press,
}
"""Keys that set more than one field: key -> change(settings, text)."""


# key -> (group or None for a Settings field, field name, reader(text, time zone))
KEYS = {
    "rules": (None, "rules", _word),
    "names": (None, "names", _word),
    "retreat_preferences": ("house", "retreat_preferences", _flag),
    "priority_lists": ("house", "priority_lists", _flag),
    "default_retreat": ("house", "default_retreat", _word),
    "default_disband": ("house", "default_disband", _word),
    "combined_orders": ("house", "combined_orders", _flag),
    "solo": ("victory", "solo_centres", _count),
    "solo_rule": ("victory", "solo_rule", _word),
    "alliance": ("victory", "alliance_centres", _count),
    "end_year": ("victory", "end_year", _count),
    "end_at": ("victory", "end_at", _time),
    "tie": ("victory", "tie_rule", _word),
    "draw_votes": ("victory", "draw_votes", _word),
    "draw_members": ("victory", "draw_members", _word),
    "scoring": ("scoring", "system", _word),
    "awards": ("scoring", "awards", _word),
    "award_tie": ("scoring", "award_tie_rule", _word),
    "timezone": ("deadlines", "timezone", _zone),
    "grace": ("deadlines", "grace_hours", length_of),
    "reminders": ("deadlines", "reminders", _hours_list),
    "early": ("deadlines", "early", _flag),
    "outage": ("deadlines", "outage", _word),
    "outage_hours": ("deadlines", "outage_hours", length_of),
    "pause_limit": ("deadlines", "pause_limit_hours", length_of),
    "press_private": ("press", "private", _flag),
    "press_gm": ("press", "to_gm", _flag),
    "press_observers": ("press", "observers", _flag),
    "gunboat": ("press", "anonymous", _flag),
    "late_notices": ("nmr", "late_notices", _flag),
    "abandon_after": ("nmr", "abandon_after", _whole),
    "absence_max": ("nmr", "absence_max_days", _days_of),
}
_ALIASES = {"solo_centres": "solo", "alliance_centres": "alliance", "tie_rule": "tie",
            "system": "scoring", "award_tie_rule": "award_tie"}


def _key_of(pair: str) -> str:
    key = _word(pair.partition("=")[0].strip())
    return _ALIASES.get(key, key)


def change_settings(settings: Settings, pairs: Iterable[str], tz: str | None = None) -> Settings:
    """``settings`` with the changes ``pairs`` (``"key=value"`` strings, keys as
    in the module docstring) applied in order, ``timezone=`` first. ``tz``:
    the time zone (IANA name) of an ``end_at`` written without an offset;
    None (the default): the game's own, ``deadlines.timezone`` as these pairs
    leave it (so ``CREATE g pw timezone=Asia/Shanghai end_at=2027-01-01T00:00``
    ends at midnight in Shanghai). Returns new settings; raises GameError
    (a ValueError) with the pair in its params (``pair``) for an unknown
    key, a pair without ``=`` or a bad value (nothing is changed then)."""
    for pair in sorted(pairs, key=lambda pair: _key_of(pair) != "timezone"):
        key, eq, text = pair.partition("=")
        key = _key_of(pair)
        if not eq or (key not in KEYS and key not in SPECIAL):
            raise GameError("bad_key", pair=pair, keys=[*KEYS, *SPECIAL])
        try:
            if key in SPECIAL:
                settings = SPECIAL[key](settings, text.strip())
                continue
            group, name, read = KEYS[key]
            value = read(text.strip(), tz or settings.deadlines.timezone)
            if group is None:
                settings = replace(settings, **{name: value})
            else:
                settings = replace(settings, **{group: replace(getattr(settings, group), **{name: value})})
        except ValueError as e:
            raise GameError.wrap(e, pair=pair) from None
    return settings


def describe_settings(settings: Settings) -> dict[str, str]:
    """``{key: value}`` text for every key of :data:`KEYS` (what
    :func:`change_settings` reads back): ``none`` for an unset number,
    ``yes``/``no``, ``end_at`` in UTC ISO 8601."""
    out = {}
    for key, (group, name, _read) in KEYS.items():
        value = getattr(settings if group is None else getattr(settings, group), name)
        if value is None:
            out[key] = "none"
        elif isinstance(value, bool):
            out[key] = "yes" if value else "no"
        elif isinstance(value, datetime):
            out[key] = value.isoformat()
        elif isinstance(value, tuple):         # reminders: hours
            out[key] = ",".join(length_text(v) for v in value) or "none"
        elif _read in (length_of, hours_of):
            out[key] = length_text(value)
        elif isinstance(value, float):
            out[key] = f"{value:g}"
        else:
            out[key] = str(value)
    d = settings.deadlines
    for kind in ("movement", "retreat", "adjustment"):
        t = getattr(d, kind)
        out[kind] = length_text(t.hours) if t.at is None else t.at + (f"/{length_text(t.min_hours)}" if t.min_hours else "")
    out["days"] = "all" if d.movement.days == WEEKDAYS else ",".join(d.movement.days)
    p = settings.press
    out["press"] = "none" if not p.allowed else {(True, False): "white", (False, True): "grey",
                                                 (True, True): "both"}.get((p.white, p.grey), "none")
    return out
