"""Times and lengths of time in the reader's language (Babel dates).

``format_time(dt, "Asia/Shanghai", "en")`` -> ``Tue 06 Jan 2004 23:30
Asia/Shanghai (UTC+08:00)``; in Chinese ``2004年1月6日 星期二 23:30
Asia/Shanghai (UTC+08:00)``. The ``::`` header lines of njudge keep their
own English form (:func:`judge.game.results.njudge_time`), for mapper tools.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_datetime, format_timedelta

from .catalogue import BABEL_LOCALES, gettext, lang_of

_PATTERNS = {"en": "EEE dd MMM yyyy HH:mm", "zh-hans": "y年M月d日 EEEE HH:mm", "zh-hant": "y年M月d日 EEEE HH:mm"}


def _zone(tz: str) -> tuple[ZoneInfo, str]:
    try:
        return ZoneInfo(tz), tz
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC"), "UTC"


@lru_cache(maxsize=4096)
def format_time(dt: datetime, tz: str, lang: str) -> str:
    """``dt`` (aware; naive is taken as UTC) shown in zone ``tz`` (IANA name;
    an unknown one is shown as UTC) in ``lang``."""
    lang = lang_of(lang)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    zone, tz = _zone(tz)
    local = dt.astimezone(zone)
    text = format_datetime(local, _PATTERNS[lang], tzinfo=zone, locale=BABEL_LOCALES[lang])
    if tz == "UTC":
        return text
    off = local.strftime("%z")
    return f"{text} {tz} (UTC{off[:3]}:{off[3:]})"


@lru_cache(maxsize=4096)
def format_deadline(dt: datetime, tz: str, lang: str) -> str:
    """``dt`` in zone ``tz`` and in UTC (``... = Sat 06 Jan 2024 15:30 UTC``);
    when ``tz`` is UTC (or unknown) the time is written once: ``... UTC``.
    Both kept per argument: the same deadline is in every answer of a game
    (Babel's formatting was about a seventh of an answer's template in
    py-spy's samples, issue 23)."""
    local, utc = format_time(dt, tz, lang), format_time(dt, "UTC", lang)
    _ = gettext(lang_of(lang))
    if local == utc:
        return _("%(time)s UTC") % {"time": utc}
    return _("%(local)s = %(utc)s UTC") % {"local": local, "utc": utc}


def format_length(seconds: float, lang: str) -> str:
    """A length of time in words, rounded to its largest unit that fits
    (``6 minutes``, ``2 hours``, ``3 days``; ``6分钟``)."""
    return format_timedelta(timedelta(seconds=seconds), threshold=1.5,
                            locale=BABEL_LOCALES[lang_of(lang)])


def format_date(dt: datetime, tz: str = "UTC") -> str:
    """``2024-01-06 23:30 UTC`` style stamp in zone ``tz`` (the same in every
    language: the results' "adjudicated at")."""
    zone, tz = _zone(tz)
    local = dt.astimezone(zone)
    return f"{local:%Y-%m-%d %H:%M} {tz}"
