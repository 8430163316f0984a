"""The verbs anyone may send: CREATE, JOIN, SIGNON, LIST, OBSERVE, SET
LANGUAGE, SET NAMES, SIGNOFF (HELP is the registry's own).

Identity: the asker is the address in ``From``. A player's password is per
game, kept hashed in the game's :class:`~judge.game.Player`. From an address
on record the password may be left out (as the game's ``auth`` allows:
:mod:`judge.game.access`); from any other address it is needed, and what the
mail did for that power (or as GM) is copied to the address of record. The
GM's address, password hash and language are kept in table ``gm``; a
reader's chosen language and name set in table ``accounts``; JOINs waiting
for the GM's approval in table ``joins`` (game -> {pending: [...]}).

The game's time zone and deadline are the game's own: CREATE takes every
``key=value`` setting of :func:`judge.game.setting_text.change_settings`
and ``deadline=`` (local time, or with an offset) to open the first phase's
clock; without it the clock starts when every power is taken (or at the
GM's START). Taking the last power tells every player and the GM.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import textwrap
from datetime import datetime, timezone

from ..config import LANGUAGES
from ..game import Game, GameError, Player, Settings
from ..game.game import NAME_RE
from ..game.nmr import took_over
from ..game.passwords import hash_password
from ..game.roster import record_change
from ..game.setting_text import change_settings, describe_settings, preset_reply
from ..game import variants
from ..game.turns import lifecycle, open_phase, replacement_joined, running, start, started_notice
from ..maps import load_map
from ..rules.victory import VictorySettings
from ..storage import games_of, save_game, save_gm
from .lockout import WRONG_PER_HOUR, count_wrong, locked_until
from .session import MAX_AHEAD_DAYS, MAX_PASSWORD_CHECKS, Letter, Session, names_of, read_time

_JOIN_KEY = re.compile(r"(?i)^(?:join[-_]?password|加入密码|加入密碼)[=＝](\S+)$")
_LANG_WORDS = {"en": "en", "english": "en", "英文": "en", "英语": "en", "英語": "en",
               "zh-hans": "zh-hans", "zh_hans": "zh-hans", "zh-cn": "zh-hans", "简体": "zh-hans",
               "简体中文": "zh-hans", "中文": "zh-hans", "簡體": "zh-hans", "簡體中文": "zh-hans",
               "zh-hant": "zh-hant", "zh_hant": "zh-hant", "zh-tw": "zh-hant", "繁体": "zh-hant",
               "繁體": "zh-hant", "繁体中文": "zh-hant", "繁體中文": "zh-hant"}
_NAMES_WORDS = {"house": "house", "standard": "standard", "家规": "house", "家規": "house",
                "标准": "standard", "標準": "standard"}


# ---- CREATE ---------------------------------------------------------------------------
def create(s: Session, cmd) -> None:
    args = _time_args(list(cmd.args))
    plain = [a for a in args if "=" not in a]
    if len(plain) < 2 or args[0] != plain[0]:
        return s.usage(cmd)
    if len(plain) > 2 or not NAME_RE.match(plain[0]):     # "CREATE my game pw": a name with spaces
        return s.error(cmd.line, "bad_game_name", text=" ".join(plain[:-1]))
    if not s.asker.address:
        return s.error(cmd.line, "no_sender")
    name, password = plain
    if s.find_game(name) is not None:
        return s.error(cmd.line, "game_exists", game=name)
    if len(password) < 4:
        return s.error(cmd.line, "weak_password")
    is_variant = lambda a: a.partition("=")[0].strip().casefold() in variants.WORDS   # noqa: E731
    options = [a for a in args if "=" in a and not a.lower().startswith("deadline=") and not is_variant(a)]
    variant_text = next((a.partition("=")[2] for a in args if "=" in a and is_variant(a)), "standard")
    try:
        map_name = variants.variant_of(variant_text)
        base = Settings(victory=VictorySettings.for_map(load_map(map_name)))   # the map's SC target (§7)
    except ValueError as e:
        return s.error(cmd.line, "bad_setting", text=f"variant={variant_text}", reason=e)
    deadline_text = next((a.partition("=")[2] for a in args if a.lower().startswith("deadline=")), None)
    # a game created in Chinese writes the rule texts' own names (names=house) unless told otherwise
    chinese = s.language().startswith("zh")
    try:
        settings = change_settings(base, [f"timezone={s.defaults.timezone}"]
                                   + (["names=house"] if chinese else []) + options)
    except ValueError as e:
        return s.error(cmd.line, "bad_setting", text=" ".join(options), reason=e)
    tz = settings.deadlines.timezone
    deadline = None
    if deadline_text is not None:
        try:
            deadline = read_time(deadline_text, tz)
        except ValueError:
            return s.error(cmd.line, "bad_deadline", text=deadline_text, timezone=tz)
        if deadline <= s.now:
            return s.error(cmd.line, "deadline_passed", text=deadline_text, timezone=tz, now=s.now)
        if not s.near(deadline):
            return s.refuse(cmd, GameError("too_far", text=deadline_text[:40], days=MAX_AHEAD_DAYS))
    seed = int(hashlib.sha256(s.asker.key.encode()).hexdigest()[:12], 16)   # the same on a rerun
    try:
        game = Game.create(name, now=s.now, seed=seed, map_name=map_name, settings=settings)
    except GameError as e:
        return s.error(cmd.line, "bad_setting", text=" ".join(options), reason=e)
    if deadline is not None:
        open_phase(game, s.now, deadline.astimezone(timezone.utc))
    s.changed(game)
    save_game(s.db, game)           # the game exists before its GM record refers to it
    save_gm(s.db, game.name, {"address": s.asker.address, "password_hash": hash_password(password),
                              "language": s.language()})
    s.enter(game, None)
    s.with_password = True                      # the GM password was just given
    described = describe_settings(settings)
    if described.get("auth") == "default":           # say what the judge's default is here
        described["auth"] = f"default({s.auth_of(game)})"
    s.results.append({"kind": "created", "line": cmd.line, "game": game.name, "map": game.map_name,
                      "phase": str(game.phase), "timezone": tz, "rules": settings.rules,
                      "deadline": game.schedule.deadline, "movement": described["movement"],
                      "settings": textwrap.wrap(" ".join(f"{k}={v}" for k, v in described.items()), 72),
                      "preset": preset_reply(options, settings),
                      "variant": variants.variant_summary(game.map_name) if game.map_name != "standard" else None})


def _time_args(args: list[str]) -> list[str]:
    """``deadline=2024-01-10 20:00`` written with a space is one argument."""
    out: list[str] = []
    for a in args:
        if out and re.fullmatch(r"\d\d?:\d\d", a) and out[-1].lower().startswith("deadline="):
            out[-1] += " " + a
        else:
            out.append(a)
    return out


# ---- JOIN -----------------------------------------------------------------------------
def join(s: Session, cmd) -> None:
    """JOIN GAME PASSWORD [POWER] [join_password=...]; refused to a mail that
    may not see the game (:meth:`Session.sees`: a private game, a stranger
    not invited), it answers as for a game that does not exist."""
    before = len(s.results)
    name = next((a for a in cmd.args if not _JOIN_KEY.match(a)), None)
    game = s.find_game(name) if name else None
    hidden = game is not None and not s.sees(game)
    try:
        _join(s, cmd)
    except GameError:
        if not hidden:
            raise
        s.error(cmd.line, "refused")
    if hidden and any(r["kind"] == "error" for r in s.results[before:]):
        del s.results[before:]
        s.error(cmd.line, "no_such_game", game=name)


def _join(s: Session, cmd) -> None:
    args = [a for a in cmd.args if not _JOIN_KEY.match(a)]
    key = next((_JOIN_KEY.match(a).group(1) for a in cmd.args if _JOIN_KEY.match(a)), None)
    if len(args) < 2:
        return s.usage(cmd)
    game = s.find_game(args[0])
    if game is None:
        return s.error(cmd.line, "no_such_game", game=args[0])
    game.check_running()                  # GameError: a refusal
    sender = s.asker.address
    if not sender:
        return s.error(cmd.line, "no_sender")
    password = args[1]
    if len(password) < 4:
        return s.error(cmd.line, "weak_password")
    for p, pl in game.players.items():
        if sender in pl.addresses:
            return s.error(cmd.line, "already_playing", game=game.name, map=game.map_name, power=p)
    access = game.settings.access
    if access.access == "invite" and not access.invites(sender):
        return s.error(cmd.line, "not_invited", game=game.name)
    if access.access == "password" and (key is None or not s.verify(key, access.join_password_hash)):
        return s.error(cmd.line, "join_password_needed" if key is None else "bad_join_password", game=game.name)
    power = _power_to_join(s, cmd, game, password, args[2:])
    if power is None:
        return
    account = s.db.get("accounts", sender) or {}
    lang = (s.language_set or account.get("language") or s.stored_language(sender)
            or s.asker.written() or s.defaults.language)
    if access.approve:
        return _ask_gm(s, cmd, game, power, hash_password(password), lang)
    seat(s, cmd.line, game, power, sender, hash_password(password), lang)
    s.enter(game, power)
    s.with_password = True                      # the power's password was just given


def free_powers(game: Game) -> list[str]:
    return [p for p, pl in game.players.items() if not pl.addresses]


def _power_to_join(s: Session, cmd, game: Game, password: str, wanted_words) -> str | None:
    """The free power a JOIN takes (a power the GM opened to a replacement
    only with its password), or None after an error line."""
    free = free_powers(game)
    # a power the GM opened to a replacement (REPLACE) has a password already: only it joins
    reserved = [p for p in free if game.players[p].password_hash]
    if not free:
        return s.error(cmd.line, "game_full", game=game.name)
    if not wanted_words and reserved:
        power = next((p for p in reserved if s.verify(password, game.players[p].password_hash)),
                     None) or next((p for p in free if p not in reserved), None)
        if power is None:
            return s.error(cmd.line, "bad_password", game=game.name)
        return power
    if not wanted_words:
        return next((p for p in free if p not in reserved), free[0])
    text = " ".join(wanted_words)
    wanted = names_of(game).power(text)
    if wanted is None:
        return s.error(cmd.line, "unknown_power", text=text, map=game.map_name, powers=list(game.map.powers))
    if wanted not in free:
        return s.error(cmd.line, "power_taken", game=game.name, map=game.map_name, power=wanted, free=free)
    if wanted in reserved and not s.verify(password, game.players[wanted].password_hash):
        return s.error(cmd.line, "bad_password", game=game.name)
    return wanted


def seat(s: Session, line: str, game: Game, power: str, address: str, password_hash: str, lang: str) -> None:
    """Give ``power`` to ``address``: the roster, a replacement's notice to
    the GM, the start of the game when it was the last free power, and a
    ``joined`` result."""
    game.players[power] = Player((address,), password_hash, lang)
    record_change(game, power, "joined", address, s.now)
    replacing = took_over(game, power, address, s.now)      # a replacement: the GM is told
    s.notices += replacing
    s.notices += replacement_joined(game, s.now)          # a NoNMR game waiting for it goes on
    s.changed(game)
    left = free_powers(game)
    if not left and not game.finished:
        if not running(game):
            s.notices += start(game, s.now)        # every power is taken: the clock starts
        elif not game.history and all(c.event == "joined" for c in game.roster):
            s.notices.append(started_notice(game))       # the clock ran from CREATE: tell everyone all the same
    s.last_game = game.name
    s.results.append({"kind": "joined", "line": line, "game": game.name, "map": game.map_name,
                      "power": power, "free": left, "started": not left, "replacement": bool(replacing),
                      "phase": str(game.phase),
                      "deadline": game.schedule.deadline, "timezone": game.settings.deadlines.timezone})


def _ask_gm(s: Session, cmd, game: Game, power: str, password_hash: str, lang: str) -> None:
    """Keep the JOIN in table ``joins`` (game -> {pending: [{address, power,
    password_hash, language, at}]}) and ask the GM: APPROVE or REJECT."""
    sender = s.asker.address
    row = s.db.get("joins", game.name) or {}
    pending = [j for j in row.get("pending", []) if j["address"] != sender]
    pending.append({"address": sender, "power": power, "password_hash": password_hash, "language": lang,
                    "at": s.now.isoformat()})
    s.db.put("joins", game.name, {"pending": pending})
    s.last_game = game.name
    s.results.append({"kind": "join_pending", "line": cmd.line, "game": game.name, "map": game.map_name,
                      "power": power})
    gm = s.gm_row(game.name)
    if gm.get("address"):
        gm_lang = gm.get("language") if gm.get("language") in LANGUAGES else s.defaults.language
        s.letters.append(Letter(f"join-request:{game.name}:{sender}", gm["address"], gm_lang,
                                f"{game.name}: JOIN {sender}",
                                ({"kind": "join_request", "game": game.name, "map": game.map_name,
                                  "power": power, "address": sender, "copies": ()},), game.name))


# ---- SIGNON ---------------------------------------------------------------------------
def signon(s: Session, cmd) -> None:
    """SIGNON GAME [PASSWORD] (njudge's SIGNON Fgame PASSWORD too). A SIGNON
    that fails ends the session (:meth:`Session.sign_off_failed`); refused
    to a mail that may not see the game (:meth:`Session.sees`) it answers as
    for a game that does not exist."""
    before = len(s.results)
    game, _letter = _named_game(s, cmd.args[0]) if cmd.args else (None, None)
    hidden = game is not None and not s.sees(game)
    _signon(s, cmd)
    if any(r["kind"] == "error" for r in s.results[before:]):
        if hidden:
            del s.results[before:]
            s.error(cmd.line, "no_such_game", game=cmd.args[0])
        s.sign_off_failed()


def _named_game(s: Session, token: str) -> tuple[Game | None, str | None]:
    """The game SIGNON's first word names, and the power letter of njudge's
    ``SIGNON Fgame`` form (None without it)."""
    game = s.find_game(token)
    if game is None and len(token) > 1:          # njudge: SIGNON Fgame password
        game = s.find_game(token[1:])
        return game, (token[0].upper() if game is not None else None)
    return game, None


def _signon(s: Session, cmd) -> None:
    if not cmd.args:
        return s.usage(cmd)
    token, password = cmd.args[0], (cmd.args[1] if len(cmd.args) > 1 else None)
    game, letter = _named_game(s, token)
    if game is None:
        return s.error(cmd.line, "no_such_game", game=token)
    sender = s.asker.address
    gm = s.gm_row(game.name)
    candidates = [p for p in game.map.powers if letter is None or p[0].upper() == letter]
    mine = [p for p in candidates if sender and sender in game.players[p].addresses]
    may_be_gm = letter in (None, "M")
    chosen: str | None | bool = False
    locked: list[datetime] = []
    if password is None:
        if len(mine) == 1:
            chosen = mine[0]
        elif not mine and may_be_gm and sender and gm.get("address") == sender:
            chosen = None
        refusal = _unbelieved(s, game) if chosen is not False else None
        if refusal:
            return s.error(cmd.line, refusal, game=game.name)
    else:
        # a sender on record signs on as its own power (or the GM, checked first; another power
        # with the letter form, SIGNON Fgame); stop at the first match (scrypt is slow on purpose)
        the_gm = may_be_gm and bool(sender) and gm.get("address") == sender
        others = [] if (mine or the_gm) and letter is None else [p for p in candidates if p not in mine]
        order = ([None] if the_gm else []) + mine + others + ([None] if may_be_gm and not the_gm else [])
        tried = []
        for who in order:
            until = locked_until(s.db, game, who, s.now)
            if until is not None and not (who in mine or (who is None and the_gm)):
                locked.append(until)               # locked: not checked, even the right password (but
                continue                           # from its player's own address: lockout.py)
            checks = s.password_checks
            right = s.verify(password, gm.get("password_hash") if who is None else game.players[who].password_hash)
            if s.password_checks > checks:
                tried.append(who)
            if right:
                chosen = who
                break
        if chosen is False and tried:
            s.notices += count_wrong(s.db, game, tried, s.now, sender, s.asker.key)
    if chosen is False:
        former = _former_power(game, sender)
        if former is not None:
            return s.error(cmd.line, "no_longer_playing", game=game.name, map=game.map_name, power=former)
        if locked:
            return s.error(cmd.line, "password_locked", game=game.name, until=max(locked),
                           timezone=game.settings.deadlines.timezone, wrong=WRONG_PER_HOUR)
        if password is not None and s.password_checks >= MAX_PASSWORD_CHECKS:
            return s.error(cmd.line, "password_checks", game=game.name, limit=MAX_PASSWORD_CHECKS)
        return s.error(cmd.line, "password_needed" if password is None else "bad_password", game=game.name)
    s.enter(game, chosen)
    s.with_password = password is not None
    s.results.append({"kind": "signon", "line": cmd.line, "game": game.name, "map": game.map_name,
                      "power": chosen})


def _unbelieved(s: Session, game: Game) -> str | None:
    """Why a SIGNON without a password from an address on record is not
    believed under the game's ``auth``: ``password_required`` (auth=password),
    ``unverified`` (auth=verified and the mail is not verified), or None."""
    auth = s.auth_of(game)
    if auth == "password":
        return "password_required"
    if auth == "verified" and not s.asker.verified():
        return "unverified"
    return None


def _former_power(game: Game, address: str) -> str | None:
    """The power ``address`` played in ``game`` until it resigned or the GM
    removed it, if it plays none now."""
    if not address or any(address in pl.addresses for pl in game.players.values()):
        return None
    for change in reversed(game.roster):
        if change.address == address:
            return change.power if change.event != "joined" else None
    return None


# ---- LIST, OBSERVE --------------------------------------------------------------------
def list_games(s: Session, cmd) -> None:
    sender = s.asker.address
    if not cmd.args and s.game is None:
        games = []
        for name, role in sorted(games_of(s.db, sender).items()):
            game = s.find_game(name) if role["role"] == "player" else None
            games += [{"name": name, "map": game.map_name, "power": p, "phase": str(game.phase),
                       "deadline": game.schedule.deadline, "timezone": game.settings.deadlines.timezone,
                       "state": lifecycle(game)["state"]}
                      for p, pl in (game.players.items() if game else ()) if sender in pl.addresses]
        # a private game (listed=no, or access=invite) is shown to its players and GM only
        # (From only: a Reply-To anyone may write must not open it)
        known = set(games_of(s.db, sender)) if sender else set()
        open_games = sorted(name for name, row in s.db.all("open").items()     # the index, not every game
                            if row.get("listed", True) or name in known)
        s.results.append({"kind": "list", "line": cmd.line, "games": games, "open": open_games})
        return
    game = s.find_game(cmd.args[0]) if cmd.args else s.game
    if game is None or not s.sees(game):
        return s.error(cmd.line, "no_such_game", game=cmd.args[0])
    players = []
    for p, pl in game.players.items():
        if not pl.addresses:
            status = "vacant"
        elif game.phase.kind != "A" and not game.unordered(p):
            status = "complete"
        else:
            status = "playing"
        players.append({"power": p, "status": status})
    units = [(p, sorted((u.type, u.location) for u in game.position.units.values() if u.power == p))
             for p in game.map.powers]
    s.last_game = game.name
    s.results.append({"kind": "list", "line": cmd.line, "game": game.name, "map": game.map_name,
                      "phase": str(game.phase), "deadline": game.schedule.deadline,
                      "timezone": game.settings.deadlines.timezone, "status": lifecycle(game),
                      "players": players, "units": [(p, us) for p, us in units if us]})


def observe(s: Session, cmd) -> None:
    if not cmd.args:
        return s.usage(cmd)
    game = s.find_game(cmd.args[0])
    if game is None or not s.sees(game):
        return s.error(cmd.line, "no_such_game", game=cmd.args[0])
    sender = s.asker.address
    if not sender:
        return s.error(cmd.line, "no_sender")
    # the From address only: a Reply-To must not subscribe someone else (issue 19 point 11);
    # a forged From is told (a copy of the answer goes to it)
    game.observers[sender] = s.language()
    s.changed(game)
    s.last_game = game.name
    s.results.append({"kind": "observe", "line": cmd.line, "game": game.name, "map": game.map_name,
                      "phase": str(game.phase), "deadline": game.schedule.deadline,
                      "timezone": game.settings.deadlines.timezone, "copies": (sender,)})


# ---- a reader's choices ---------------------------------------------------------------
def set_language(s: Session, cmd) -> None:
    lang = _LANG_WORDS.get(" ".join(cmd.args).lower()) if cmd.args else None
    if lang is None:
        return s.error(cmd.line, "bad_language", text=" ".join(cmd.args))
    s.language_set = lang
    sender = s.asker.address
    if sender:
        s.db.put("accounts", sender, dict(s.db.get("accounts", sender) or {}, language=lang))
        for name, role in sorted(games_of(s.db, sender).items()):
            if role["role"] == "gm":
                row = s.gm_row(name)
                if row.get("language") != lang:
                    save_gm(s.db, name, dict(row, language=lang))
                continue
            game = s.find_game(name)
            for p, pl in game.players.items() if game else ():
                if sender in pl.addresses and pl.language != lang:
                    game.players[p] = dataclasses.replace(pl, language=lang)
                    s.changed(game)
    s.results.append({"kind": "language_set", "line": cmd.line, "language": lang})


def set_names(s: Session, cmd) -> None:
    """SET NAMES house|standard: the names the judge writes to the asker
    (table ``accounts``), whatever the game's setting."""
    names = _NAMES_WORDS.get(" ".join(cmd.args).lower()) if cmd.args else None
    if names is None:
        return s.error(cmd.line, "bad_names", text=" ".join(cmd.args))
    s.names_set = names
    if s.asker.address:
        s.db.put("accounts", s.asker.address, dict(s.db.get("accounts", s.asker.address) or {}, names=names))
    s.results.append({"kind": "names_set", "line": cmd.line, "names": names})


def signoff(s: Session, cmd) -> None:
    """SIGNOFF: the rest of the mail is not read."""
    s.results.append({"kind": "signoff", "line": cmd.line})
    s.stop = True


# ---- VARIANTS -------------------------------------------------------------------------
def list_variants(s: Session, cmd) -> None:
    """VARIANTS (and HELP VARIANTS): each variant with its powers, players, SC
    target and designer, and how to create a game on it."""
    s.results.append({"kind": "variants", "line": cmd.line, "variants": variants.variant_list()})
