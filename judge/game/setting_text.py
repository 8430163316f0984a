"""Game settings as ``key=value`` text: what the GM writes on the command line
(``judge game set NAME solo=16 tie=continue``) and in a mail.

Keys (any case, ``-`` or ``_``), their group in :class:`~judge.game.settings.Settings`
and their values:

==========================  ==========================================================
``rules``                   a rule profile: ``datc``, ``droidippy``
``names``                   the name set of the mails: ``house`` (the rule texts' spellings), ``standard``
``map``                     how the mails show the map: ``png`` (inline, the default), ``svg``, ``none``
``retreat_preferences``     ``yes``/``no`` (house rules, ``RULES.md`` §3.1)
``priority_lists``          ``yes``/``no`` (§3.2)
``default_retreat``         ``disband``, ``house`` (§3.3)
``default_disband``         ``datc``, ``house`` (§3.4)
``combined_orders``         ``yes``/``no`` (§3.5)
``extra_removals``          ``yes``/``no``: a power short of centres may remove more units than due
``preset``                  ``house`` (Chinese: ``预设=房规``): every house rule of the
                            simplified-Chinese text (:data:`PRESETS`); pairs after it change it
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
``concession_bonus``        ``yes``/``no``: the house +10 for a power the others concede to
``award_window``            how long the leaders' award vote stays open after the end
                            (``72h``; it closes earlier once every leader voted for both)
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
``nonmr``                   ``yes``/``no``: njudge's NoNMR — a power without orders (late, vacant,
                            waiting for a replacement) holds the phase up; the game waits
``absence_max``             days of absence a player may take (``15``)
``auth``                    ``address``, ``password``, ``verified`` or ``default`` (the
                            judge's): how a player's mail is believed (issue 12)
``access``                  ``open``, ``password`` (JOIN needs the join password) or
                            ``invite`` (only the invited addresses may JOIN)
``join_password``           the join password the GM hands out (kept hashed), or ``none``
``invite``                  addresses that may JOIN: ``a@x.org,b@y.org`` (the list),
                            ``+c@z.org`` (add), ``-a@x.org`` (remove), ``none``
``listed``                  ``yes``/``no``: shown in LIST and the web index to everyone
``approve``                 ``yes``/``no``: each JOIN waits for the GM's APPROVE or REJECT
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
from .passwords import hash_password
from .settings import Settings


def _count(text: str, tz: str) -> int | None:
    if text.lower() in ("none", "off", "no", "-"):
        return None
    if not (text.isascii() and text.isdigit()):
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
    if moment.year > LATEST_YEAR or moment.year < 2000:
        raise GameError("too_far_year", text=text.strip()[:40], first=2000, last=LATEST_YEAR)
    if moment.tzinfo is None:
        try:
            moment = moment.replace(tzinfo=ZoneInfo(tz))
        except (ZoneInfoNotFoundError, ValueError):
            raise GameError("unknown_zone", text=tz) from None
    return moment.astimezone(timezone.utc)


MAX_LENGTH_DAYS = 366
"""The longest length the judge takes (EXTEND, PAUSE, a setting): a year.
Longer ones are refused at the command (issue 19 point 10: ``EXTEND
99999999h`` overflowed a datetime and set the whole mail aside)."""
LATEST_YEAR = 2199
"""The last year an ``end_at`` may fall in (a date beyond it is refused, not carried to an overflow)."""


def hours_of(text: str, tz: str = "UTC") -> float:
    """``"48"``, ``"48h"``, ``"2d"``, ``"90m"``, ``"1d12h"``, ``"30s"`` -> hours.
    GameError (a ValueError) otherwise, or beyond :data:`MAX_LENGTH_DAYS`."""
    t = text.strip().lower().replace(" ", "")
    if re.fullmatch(r"\d+(\.\d+)?", t):
        hours = float(t)
    else:
        parts = re.findall(r"(\d+(?:\.\d+)?)([dhms])", t)
        if not parts or "".join(n + u for n, u in parts) != t:
            raise GameError("not_length", text=text)
        hours = sum(float(n) * {"d": 24, "h": 1, "m": 1 / 60, "s": 1 / 3600}[u] for n, u in parts)
    if hours > MAX_LENGTH_DAYS * 24:
        raise GameError("too_long", text=text.strip()[:40], days=MAX_LENGTH_DAYS)
    return hours


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
    if re.fullmatch(r"\d+(\.\d+)?", t):
        if float(t) > MAX_LENGTH_DAYS:
            raise GameError("too_long", text=t[:40], days=MAX_LENGTH_DAYS)
        return float(t)
    return hours_of(t) / 24


def _whole(text: str, tz: str) -> int:
    if not (text.strip().isascii() and text.strip().isdigit()):
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


def _auth(text: str, tz: str) -> str:
    word = text.strip().lower()
    return "" if word in ("default", "judge", "") else word


def _access(settings: Settings, **changes) -> Settings:
    return replace(settings, access=replace(settings.access, **changes))


def _join_password(settings: Settings, text: str) -> Settings:
    if text.lower() in ("none", "off", "no", "-"):
        return _access(settings, join_password_hash="")
    if len(text) < 4 or any(c.isspace() for c in text):
        raise GameError("weak_join_password")
    return _access(settings, join_password_hash=hash_password(text))


def _invite(settings: Settings, text: str) -> Settings:
    """``a@x,b@y`` (the list), ``+c@z`` (add), ``-a@x`` (remove), ``none``."""
    if text.lower() in ("none", "-"):
        return _access(settings, invited=())
    words = [w.strip().lower() for w in re.split(r"[,\s;，、]+", text) if w.strip()]
    bad = [w for w in words if "@" not in w.lstrip("+-") or w.lstrip("+-").startswith("@")]
    if bad or not words:
        raise GameError("not_addresses", text=", ".join(bad) or text)
    invited = [] if not all(w[0] in "+-" for w in words) else list(settings.access.invited)
    for w in words:
        address = w.lstrip("+-")
        if w.startswith("-"):
            invited = [a for a in invited if a != address]
        elif address not in invited:
            invited.append(address)
    return _access(settings, invited=tuple(invited))


PRESETS = {
    "house": (
        # (key, value, code of the text's rule): the house rules of
        # rules-zh-hans-with-appendices.txt, as that text says them. Where RULES.md
        # reads it otherwise the text wins (GUIDE): see the notes at each line.
        ("solo_rule", "most", "victory_solo"),          # §4 a: 资源点数最多且不少于指定数目的国家，独立获胜
        ("solo", "18", "victory_count"),                # §4 注: the GM names N; the map's majority
        ("alliance", "18", "victory_alliance"),         # §4 b: two-power alliance, most SCs and at least N
        ("tie", "continue", "victory_tie"),             # §4: 游戏以年为单位顺延，直到出现唯一获胜国家或联盟
        # The text's opening says its five-phase online version has no need of the lists
        # (这样也就不存在优先撤退、优先建造、优先解散的概念了), while §10, §11 and Appendix 1
        # keep them as optional orders (选择性命令); RULES.md 3.7 makes them defaults when
        # nothing is ordered in the phase. The text forbids nothing there: the preset keeps
        # them as optional defaults that any order of the phase beats (a GM who wants them
        # gone sets retreat_preferences=no priority_lists=no).
        ("retreat_preferences", "yes", "retreat_lists"),   # §10 and Appendix 1 (选择性命令)
        ("priority_lists", "yes", "priority_lists"),    # §11 and Appendix 1: 优先建造 / 优先解散
        # §10: a list run out: 由GM自主决定 (the GM decides), where RULES.md 3.1 only says the
        # game's default applies; the text wins: the GM is asked (turns.lists_run_out) and the
        # rule (a)-(e) of RULES.md 3.3 stands in if the GM does not decide — never a disband
        ("default_retreat", "house", "gm_retreat"),     # §10: GM decides (a)-(e); a list run out: GM自主决定
        ("default_disband", "house", "gm_disband"),     # §11: GM disbands (a) overseas (b) off SCs (c) random
        # RULES.md 3.5 describes the text's old combined mode (disbands before builds, on the
        # same SC); the text's opening says the online version plays five phases and allows no
        # voluntary disband: the text's online version wins for the preset
        ("combined_orders", "no", "five_phases"),       # opening: 网络版…每年有…五个回合
        ("extra_removals", "yes", "online_removals"),   # opening: 你必须解散一支或多支部队…（当然也可以小于）
        ("scoring", "house", "scoring"),                # Appendix 2: SCs, +10 alone, +6 alliance, 2000k each leader
        ("awards", "vote", "awards"),                   # Appendix 2: 从各国元首中评选 (chosen among the leaders)
        ("award_tie", "gm_decides", "award_tie"),       # Appendix 2 says nothing of ties: the GM decides
    ),
}
"""Settings that come together (``preset=NAME``): ``{name: ((key, value,
rule code), ...)}``; the rule codes name the text's rules in the reply to
CREATE and SET (templates ``parts/created.txt``, ``parts/gm.txt``)."""
PRESET_WORDS = {"house": "house", "房规": "house", "房規": "house", "网络版": "house", "網絡版": "house",
                "網路版": "house", "家规": "house", "家規": "house"}


def preset_of(text: str) -> str:
    """The preset named ``text`` (``house``, ``房规``, ``网络版`` ...); GameError
    ``bad_preset`` (a ValueError) for another."""
    name = PRESET_WORDS.get(text.strip().lower())
    if name is None:
        raise GameError("bad_preset", text=text, presets=list(PRESETS))
    return name


def preset_reply(pairs: Iterable[str], settings: Settings) -> dict | None:
    """What the reply to ``CREATE``/``SET`` says of a ``preset=`` among
    ``pairs``: ``{"name", "lines": [(key, value, rule code)], "end_year"}`` —
    every setting the preset made, with its value in ``settings`` (a later
    pair may have changed it), and whether the text's year condition (§4 c)
    is left for the GM to name. None without a preset (or for a bad one)."""
    for pair in pairs:
        key, eq, text = pair.partition("=")
        if eq and _key_of(pair) == "preset":
            try:
                name = preset_of(text)
            except ValueError:
                return None
            now = describe_settings(settings)
            return {"name": name, "lines": [(k, now[k], code) for k, _v, code in PRESETS[name]],
                    "end_year": settings.victory.end_year is None}
    return None


def _preset(settings: Settings, text: str) -> Settings:
    return change_settings(settings, [f"{k}={v}" for k, v, _code in PRESETS[preset_of(text)]])


SPECIAL = {
    "preset": _preset,
    "join_password": _join_password,
    "invite": _invite,
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
    "map": (None, "map", _word),
    "retreat_preferences": ("house", "retreat_preferences", _flag),
    "priority_lists": ("house", "priority_lists", _flag),
    "default_retreat": ("house", "default_retreat", _word),
    "default_disband": ("house", "default_disband", _word),
    "combined_orders": ("house", "combined_orders", _flag),
    "extra_removals": ("house", "extra_removals", _flag),
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
    "award_window": ("scoring", "award_window_hours", length_of),
    "concession_bonus": ("scoring", "concession_bonus", _flag),
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
    "nonmr": ("nmr", "nonmr", _flag),
    "absence_max": ("nmr", "absence_max_days", _days_of),
    "auth": ("access", "auth", _auth),
    "access": ("access", "access", _word),
    "listed": ("access", "listed", _flag),
    "approve": ("access", "approve", _flag),
}
_ALIASES = {"solo_centres": "solo", "alliance_centres": "alliance", "tie_rule": "tie",
            "system": "scoring", "award_tie_rule": "award_tie", "预设": "preset", "預設": "preset",
            "joinpassword": "join_password", "invited": "invite", "invites": "invite"}


def _key_of(pair: str) -> str:
    key = _word(pair.partition("=")[0].strip())
    return _ALIASES.get(key, key)


SECRET_KEYS = frozenset({"join_password"})
"""Keys whose value is never shown: the GM's pair is told to everyone with it hidden."""


def shown_pairs(pairs: Iterable[str]) -> list[str]:
    """``pairs`` as they may be shown to players: the value of a
    :data:`SECRET_KEYS` key replaced by ``********`` (``join_password=********``)."""
    return [pair.partition("=")[0] + "=********" if _key_of(pair) in SECRET_KEYS and "=" in pair else pair
            for pair in pairs]


def change_settings(settings: Settings, pairs: Iterable[str], tz: str | None = None) -> Settings:
    """``settings`` with the changes ``pairs`` (``"key=value"`` strings, keys as
    in the module docstring) applied in order, ``timezone=`` first. ``tz``:
    the time zone (IANA name) of an ``end_at`` written without an offset;
    None (the default): the game's own, ``deadlines.timezone`` as these pairs
    leave it (so ``CREATE g pw timezone=Asia/Shanghai end_at=2027-01-01T00:00``
    ends at midnight in Shanghai). Returns new settings; raises GameError
    (a ValueError) with the pair in its params (``pair``) for an unknown
    key, a pair without ``=`` or a bad value (nothing is changed then)."""
    # timezone= first, then preset= (so pairs after it change what it set), then the rest in order
    for pair in sorted(pairs, key=lambda pair: {"timezone": 0, "preset": 1}.get(_key_of(pair), 2)):
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
    a = settings.access
    out["auth"] = a.auth or "default"
    out["join_password"] = "set" if a.join_password_hash else "none"   # never the hash
    out["invite"] = ",".join(a.invited) or "none"
    p = settings.press
    out["press"] = "none" if not p.allowed else {(True, False): "white", (False, True): "grey",
                                                 (True, True): "both"}.get((p.white, p.grey), "none")
    return out
