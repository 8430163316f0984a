"""Dates as njudge's and DPjudge's users write them (njudge manual §2.4):
``Mon Jan 13 2025 20:00``, ``Jan 13 20:00``, ``13 Jan 2025 8pm``,
``Monday 20:00``, ``tomorrow 18:00``, ``Jan 13, 2025``. The judge's own form
(``2025-01-13 20:00``, ISO 8601) is read by
:func:`judge.verbs.session.read_time`; this is its fallback."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from .deadlines import local_to_utc, zone_of

MONTHS = {m: i + 1 for i, m in enumerate(("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT",
                                          "NOV", "DEC"))}
WEEKDAYS = {d: i for i, d in enumerate(("MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"))}
_TIME = re.compile(r"^(\d{1,2})(?::(\d\d))?(?::\d\d)?(AM|PM)?$")


def veteran_time(text: str, tz: str, now: datetime, end_of_day: bool = False) -> datetime | None:
    """``text`` (see module doc) in zone ``tz`` -> UTC, or None when it is
    not such a date. A date without a year is the next one from ``now`` (UTC);
    a weekday alone the next such day; a date without a time its first moment
    (``end_of_day``: the first moment of the next day); ``today`` and
    ``tomorrow`` count in the game's zone."""
    zone = zone_of(tz)
    today = now.astimezone(zone).date()
    words = [w for w in re.split(r"[\s,]+", text.strip().upper().replace(".", " ")) if w and w != "AT"]
    if not words:
        return None
    month = day = year = weekday = relative = hour = minute = None
    for i, w in enumerate(words):
        if i + 1 < len(words) and words[i + 1] in ("AM", "PM") and w.replace(":", "").isdigit():
            w, words[i + 1] = w + words[i + 1], ""          # "8 pm", "8:30 PM"
        if not w:
            continue
        m = _TIME.match(w)
        if w.isalpha() and w[:3] in MONTHS:
            month = MONTHS[w[:3]]
        elif w.isalpha() and w[:3] in WEEKDAYS:
            weekday = WEEKDAYS[w[:3]]
        elif w in ("TODAY", "TOMORROW"):
            relative = 0 if w == "TODAY" else 1
        elif w.isdigit() and len(w) == 4:
            year = int(w)
        elif w.isdigit() and len(w) <= 2 and day is None:
            day = int(w)
        elif m and (":" in w or m.group(3)):
            hour, minute = int(m.group(1)), int(m.group(2) or 0)
            if m.group(3) == "PM" and hour < 12:
                hour += 12
            elif m.group(3) == "AM" and hour == 12:
                hour = 0
        else:
            return None
    try:
        if relative is not None:
            when = today + timedelta(days=relative)
        elif month is not None and day is not None:
            when = date(year or today.year, month, day)
            if year is None and when < today:
                when = date(today.year + 1, month, day)
        elif weekday is not None and month is None and day is None and year is None:
            when = today + timedelta(days=(weekday - today.weekday()) % 7 or (7 if hour is None else 0))
        else:
            return None
        if hour is not None and not (0 <= hour <= 23 and 0 <= minute <= 59):
            return None
        local = datetime(when.year, when.month, when.day, hour or 0, minute or 0)
    except ValueError:
        return None
    if hour is None and end_of_day:
        local += timedelta(days=1)
    return local_to_utc(local, zone)
