"""Mail text from Jinja2 templates, in the reader's language.

Templates live in ``templates/<lang>/`` (``lang`` one of ``en``, ``zh-hans``,
``zh-hant``); a template missing in a language falls back to ``templates/en/``.
A template's first line is ``Subject: ...``, then a blank line, then the body.
Filters: ``when(dt, tz)`` formats a UTC datetime in a time zone (IANA name),
in the template's language; ``utc(dt)`` in UTC; ``deadline(dt, tz)`` both, or
UTC once when the zone is UTC (:func:`format_deadline`).
"""

from __future__ import annotations

from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from ..config import LANGUAGES

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"

_WEEKDAYS = {
    "en": ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
    "zh-hans": ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日"),
    "zh-hant": ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日"),
}
_MONTHS_EN = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def format_time(dt: datetime, tz: str, lang: str) -> str:
    """``dt`` (aware; naive is taken as UTC) shown in zone ``tz`` in ``lang``:
    en ``Tue 06 Jan 2004 23:30 Asia/Shanghai (UTC+08:00)``,
    zh ``2004年1月6日 星期二 23:30 Asia/Shanghai (UTC+08:00)``.
    An unknown zone is shown as UTC."""
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    try:
        zone = ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        zone, tz = ZoneInfo("UTC"), "UTC"
    local = dt.astimezone(zone)
    off = local.strftime("%z")
    offset = f"UTC{off[:3]}:{off[3:]}" if off else "UTC"
    wd = _WEEKDAYS.get(lang, _WEEKDAYS["en"])[local.weekday()]
    if lang.startswith("zh"):
        text = f"{local.year}年{local.month}月{local.day}日 {wd} {local:%H:%M}"
    else:
        text = f"{wd} {local.day:02d} {_MONTHS_EN[local.month - 1]} {local.year} {local:%H:%M}"
    return text if tz == "UTC" else f"{text} {tz} ({offset})"


def format_deadline(dt: datetime, tz: str, lang: str) -> str:
    """``dt`` in zone ``tz`` and in UTC: en ``Sat 06 Jan 2024 23:30
    Asia/Shanghai (UTC+08:00) = Sat 06 Jan 2024 15:30 UTC``, zh ``...，即 UTC
    ...``; when ``tz`` is UTC (or unknown) the time is written once: ``... UTC``."""
    local, utc = format_time(dt, tz, lang), format_time(dt, "UTC", lang)
    if local == utc:
        return f"{utc} UTC"
    return f"{local}，即 UTC {utc}" if lang.startswith("zh") else f"{local} = {utc} UTC"


@lru_cache(maxsize=None)
def environment(lang: str, root: Path = TEMPLATES_DIR) -> Environment:
    """The Jinja2 environment for ``lang`` (cached); ValueError for another language."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; use one of {', '.join(LANGUAGES)}")
    dirs = [str(root / lang)] + ([str(root / "en")] if lang != "en" else [])
    env = Environment(loader=FileSystemLoader(dirs), autoescape=False, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["when"] = lambda dt, tz="UTC": format_time(dt, tz, lang)
    env.filters["utc"] = lambda dt: format_time(dt, "UTC", lang)
    env.filters["deadline"] = lambda dt, tz="UTC": format_deadline(dt, tz, lang)
    env.filters["reason"] = lambda e: e.message(lang) if hasattr(e, "message") else str(e)
    env.globals["lang"] = lang
    return env


def render(name: str, lang: str, **context) -> tuple[str, str]:
    """Render template ``name`` (e.g. ``"reply.txt"``) -> (subject, body).

    Raises jinja2.TemplateNotFound, jinja2.UndefinedError (a context key is
    missing) and ValueError (no ``Subject:`` first line)."""
    text = environment(lang).get_template(name).render(**context)
    first, _, body = text.partition("\n")
    if not first.startswith("Subject:"):
        raise ValueError(f"template {lang}/{name}: the first line must be 'Subject: ...'")
    return first.removeprefix("Subject:").strip(), body.lstrip("\n").rstrip() + "\n"
