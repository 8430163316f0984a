"""Game settings as ``key=value`` text: what the GM writes on the command line
(``judge game set NAME solo=16 tie=continue``) and in a mail.

Keys (any case, ``-`` or ``_``), their group in :class:`~judge.game.settings.Settings`
and their values:

==========================  ==========================================================
``rules``                   a rule profile: ``datc``, ``droidippy``
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
==========================  ==========================================================

The field names (``solo_centres``, ``alliance_centres``, ``tie_rule``,
``system``, ``award_tie_rule``) are accepted too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .settings import Settings


def _count(text: str, tz: str) -> int | None:
    if text.lower() in ("none", "off", "no", "-"):
        return None
    if not text.isdigit():
        raise ValueError(f"{text!r} is not a whole number (or none)")
    return int(text)


def _flag(text: str, tz: str) -> bool:
    words = {"yes": True, "true": True, "on": True, "1": True,
             "no": False, "false": False, "off": False, "0": False}
    if text.lower() not in words:
        raise ValueError(f"{text!r} is not yes or no")
    return words[text.lower()]


def _word(text: str, tz: str = "UTC") -> str:
    return text.lower().replace("-", "_")


def _time(text: str, tz: str) -> datetime | None:
    if text.lower() in ("none", "off", "no", "-"):
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r} is not an ISO 8601 date and time such as 2027-01-01T00:00Z") from None
    if moment.tzinfo is None:
        try:
            moment = moment.replace(tzinfo=ZoneInfo(tz))
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {tz!r}") from None
    return moment.astimezone(timezone.utc)


# key -> (group or None for a Settings field, field name, reader(text, time zone))
KEYS = {
    "rules": (None, "rules", _word),
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
}
_ALIASES = {"solo_centres": "solo", "alliance_centres": "alliance", "tie_rule": "tie",
            "system": "scoring", "award_tie_rule": "award_tie"}


def change_settings(settings: Settings, pairs: Iterable[str], tz: str = "UTC") -> Settings:
    """``settings`` with the changes ``pairs`` (``"key=value"`` strings, keys as
    in the module docstring) applied in order. ``tz``: the game's time zone
    (IANA name), for an ``end_at`` written without an offset. Returns new
    settings; raises ValueError naming the pair for an unknown key, a pair
    without ``=`` or a bad value (nothing is changed then)."""
    for pair in pairs:
        key, eq, text = pair.partition("=")
        key = _word(key.strip())
        key = _ALIASES.get(key, key)
        if not eq or key not in KEYS:
            raise ValueError(f"{pair!r}: write key=value with a key among {', '.join(KEYS)}")
        group, name, read = KEYS[key]
        try:
            value = read(text.strip(), tz)
            if group is None:
                settings = replace(settings, **{name: value})
            else:
                settings = replace(settings, **{group: replace(getattr(settings, group), **{name: value})})
        except ValueError as e:
            raise ValueError(f"{pair!r}: {e}") from None
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
        else:
            out[key] = str(value)
    return out
