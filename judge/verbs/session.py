"""The typed session a verb runs over: who asks, what they are signed on
to, in which language, and what the commands did — results and notices.

A :class:`Session` is made by the mail (one per mail) or by the command line
(one per ``judge game ...`` command, :attr:`Asker.role` ``keeper``) and
handed, with each :class:`CommandLine`, to :meth:`Session.perform`, which
runs the line's :class:`~judge.verbs.registry.Verb`:

1. who may send it: ``anyone``; ``player`` (signed on as a power, or as the
   GM too where the verb says ``gm_too``); ``gm`` (signed on as the GM);
   ``keeper`` (the judge's own command line). A refusal names the real reason
   (``need_signon``, ``gm_only``).
2. validate, then apply: a verb checks what it is asked before it changes
   anything (the game layer raises :class:`~judge.game.GameError` first); as
   a safety net, a refused command (an ``error`` result, or a GameError) is
   undone — every game it touched (:meth:`Game.checkpoint`), the staged store
   rows (``savepoint``/``rollback`` of the staging), the notices and mails it
   made — so it leaves everything exactly as it was.

Results are language-neutral data (power and province codes, phases, order
objects, refusal codes); the mail words them in the reader's language
(``templates/mail/parts/<kind>.txt``), the command line in English. Nothing
here imports :mod:`judge.mail`: what the verbs need of the mail (verified or
not, the language it is written in) comes in on the :class:`Asker`.

Store tables read: ``games``/``phases`` (:mod:`judge.storage.games`), ``gm``
(game -> {address, password_hash, language}), ``accounts`` (address ->
{language, names}), ``addresses`` (the index of who plays what).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Callable

from ..config import LANGUAGES
from ..game import Game, GameError
from ..game.deadlines import local_to_utc, zone_of
from ..game.game import NAME_RE
from ..game.when import veteran_time
from ..game.passwords import verify_password
from ..maps import load_names
from ..notation.names import name_index
from ..storage import find_game, games_of, load_game
from ..storage.games import rebind
from ..text.names import NAME_SETS

MAX_PASSWORD_CHECKS = 4
"""Stored passwords checked for one mail (each costs scrypt, tens of ms, on purpose)."""
MAX_AHEAD_DAYS = 366
"""How far from now a date a command takes may be (SET DEADLINE, START,
SET ABSENCE, CREATE deadline=): a year; farther is refused (issue 19 point 10)."""
GAME_CACHE = 64
"""Games kept decoded between sessions (see :class:`GameCache`)."""


@dataclass(frozen=True)
class Asker:
    """Who asks. ``address``: the sender (``From``, lower case; "" when there
    is none) — who asks, never ``reply_to`` (only where the answer goes);
    ``key``: the inbound mail's key (or the command's), which seeds a new
    game and makes notice keys unique; ``text``: what the mail says (a mail
    sent twice says the same); ``role``: ``anyone`` (a mail) or ``keeper``
    (the judge's command line). Asked only when a verb needs them:
    ``verified()``, how the sender's address was verified (``""``: not;
    :mod:`judge.mail.authenticity`), ``written()``, the language the mail is
    written in (None: no clear one), ``script()``, the Chinese script it is
    clearly written in (None: neither)."""
    address: str
    reply_to: str
    key: str
    text: str = ""
    role: str = "anyone"
    verified: Callable[[], str] = lambda: ""
    written: Callable[[], str | None] = lambda: None
    script: Callable[[], str | None] = lambda: None


@dataclass(frozen=True)
class Defaults:
    """The judge's own settings a verb needs: its time zone (a new game's),
    language (a reader's without one), the ``auth`` of games that set none
    (:mod:`judge.game.access`), and the folder of the judgekeeper's template
    copies (the archive's texts)."""
    timezone: str = "UTC"
    language: str = "en"
    auth: str = "password"
    templates: Path | None = None


@dataclass(frozen=True)
class CommandLine:
    """One command: ``name`` of its verb (``"signon"``), ``args`` (the words
    after the command word), ``line`` as written, the ``verb`` record
    (:class:`~judge.verbs.registry.Verb`), ``body``: the lines it carries (a
    press block, order lines), ``params``: the command line's options (a
    ``judge game`` command's)."""
    name: str
    args: tuple[str, ...]
    line: str
    verb: object = None
    body: tuple[str, ...] = ()
    params: dict = field(default_factory=dict)


@dataclass(frozen=True)
class MapShown:
    """A map the answer shows and attaches (``MAP``): of ``game`` at ``phase``
    (None: the current board), attached as SVG too when ``svg``, in
    ``lang`` and name set ``names``. The mail draws it
    (:func:`judge.mail.pictures.map_attachment`)."""
    game: str
    phase: str | None
    svg: bool
    lang: str
    names: str | None


@dataclass(frozen=True)
class Letter:
    """A mail a verb makes to someone other than who asks (a JOIN for the GM
    to approve, the answer to it): ``to`` (one address), in ``lang``, about
    ``game``; ``subject``; ``results`` worded as the answer's are;
    ``purpose`` tells it from the others of the mail."""
    purpose: str
    to: str
    lang: str
    subject: str
    results: tuple[dict, ...]
    game: str


class GameCache:
    """Games kept decoded between sessions: game name -> (the stored document,
    the Game made from it). A session that finds that document (the same
    object, or an equal one: the store's copy after the commit) takes the
    Game instead of decoding it again; a game is put
    back only when its session's work was kept. At most ``size`` games, the
    latest first (a judge of many games must not keep every game it read)."""

    def __init__(self, size: int = GAME_CACHE):
        self.size = size
        self.games: OrderedDict[str, tuple[dict, Game]] = OrderedDict()

    def take(self, name: str, doc: dict) -> Game | None:
        cached = self.games.pop(name, None)
        return cached[1] if cached is not None and (cached[0] is doc or cached[0] == doc) else None

    def keep(self, name: str, doc: dict, game: Game) -> None:
        self.games[name] = (doc, game)
        self.games.move_to_end(name)
        while len(self.games) > self.size:
            self.games.popitem(last=False)


@dataclass
class Session:
    """What one mail (or command) has done so far; see the module doc. A
    verb reads ``asker`` and the sign-on (``game``, ``power``, ``gm``), and
    adds ``results``, ``notices`` (:class:`~judge.game.notices.Notice` to
    mail), ``attachments`` (:class:`MapShown`) and ``letters``.
    Each result may carry ``copies``: addresses of record that get a copy."""
    db: object
    now: datetime
    asker: Asker
    defaults: Defaults = field(default_factory=Defaults)
    cache: GameCache | None = None
    # signed on
    game: Game | None = None
    power: str | None = None          # None with a game: signed on as GM
    gm: bool = False                  # signed on as the GM (power set after BECOME)
    copy_to: str | None = None        # the address of record of who is signed on, if not the asker's
    with_password: bool = False       # signed on with the password (not by an address on record)
    last_game: str | None = None      # the game named last (the answer's thread)
    # asked for in this mail
    language_set: str | None = None   # SET LANGUAGE
    names_set: str | None = None      # SET NAMES
    stop: bool = False                # SIGNOFF: read no further
    skipping: bool = False            # a SIGNON failed: read no line but a SIGNON until one succeeds
    # what it did
    results: list[dict] = field(default_factory=list)
    notices: list = field(default_factory=list)
    attachments: list = field(default_factory=list)
    letters: list[Letter] = field(default_factory=list)
    games: dict[str, Game] = field(default_factory=dict)   # games read or changed
    dirty: set[str] = field(default_factory=set)           # games to save
    password_checks: int = 0
    checked: set[str] = field(default_factory=set)        # passwords tried: masked in every reply
    _loading: dict | None = field(default=None, init=False, repr=False)   # checkpoints of the command running

    # ---- running a verb --------------------------------------------------------------
    def perform(self, cmd: CommandLine) -> bool:
        """Run ``cmd``'s verb (see module doc); False when it was refused (and undone)."""
        verb = cmd.verb
        refusal = self._not_allowed(verb)
        if refusal:
            self.error(cmd.line, refusal)
            return False
        undo = self._undo_point() if verb.changes else None
        before = len(self.results)
        try:
            verb.run(self, cmd)
        except GameError as e:
            self.refuse(cmd, e)
        finally:
            self._loading = None
        refused = any(r["kind"] == "error" for r in self.results[before:])
        if refused and undo is not None:
            undo()
        return not refused

    def _not_allowed(self, verb) -> str | None:
        if verb.who == "keeper" and self.asker.role != "keeper":
            return "keeper_only"
        if verb.who == "gm" and (self.game is None or not self.gm):
            return "gm_only"
        if verb.who == "player" and self.game is not None and self.gm and self.power is None and not verb.gm_too:
            return "players_only"         # the GM is signed on, but this is a power's (BECOME POWER first)
        if verb.who == "player" and (self.game is None or (self.power is None and not (verb.gm_too and self.gm))):
            return "need_signon"
        return None

    def _undo_point(self) -> Callable[[], None]:
        """A function that undoes what the command about to run changes (see module doc)."""
        games = {name: game.checkpoint() for name, game in self.games.items()}
        dirty, named = set(self.dirty), set(self.games)
        notices, letters, attachments = len(self.notices), len(self.letters), len(self.attachments)
        saved = self.db.savepoint() if hasattr(self.db, "savepoint") else None
        signed = {k: getattr(self, k) for k in _SIGNED_ON}
        self._loading = games          # games loaded while it runs are checkpointed as they load

        def undo() -> None:
            for restore in games.values():
                restore()
            for name in set(self.games) - named:
                if name not in games:
                    del self.games[name]
            self.dirty = dirty
            del self.notices[notices:], self.letters[letters:], self.attachments[attachments:]
            if saved is not None:
                self.db.rollback(saved)
            for k, v in signed.items():
                setattr(self, k, v)
        return undo

    # ---- results -----------------------------------------------------------------------
    def error(self, line: str, code: str, **params) -> None:
        """A refusal of ``line``: ``code`` (worded by the mail's ``error`` part) and its params."""
        self.results.append({"kind": "error", "line": line.strip(), "code": code, "params": params})

    def refuse(self, cmd: CommandLine, e: Exception) -> None:
        """``cmd`` refused for the game layer's reason ``e`` (a GameError)."""
        self.error(cmd.line, "refused", reason=e)

    def usage(self, cmd: CommandLine) -> None:
        """``cmd`` refused with its verb's usage line."""
        self.error(cmd.line, "usage", usage=cmd.verb.usage)

    # ---- games -------------------------------------------------------------------------
    def find_game(self, name: str) -> Game | None:
        """The game ``name`` (any letter case) as this session has it, or None."""
        if name in self.games:
            return self.games[name]
        found = find_game(self.db, name) if NAME_RE.match(name) else None
        if found is None:
            return None
        if found in self.games:
            return self.games[found]
        doc = self.db.get("games", found)
        game = self.cache.take(found, doc) if self.cache is not None else None
        if game is not None:               # its history and replaced orders read from this session's db
            rebind(self.db, game)
        else:
            game = load_game(self.db, found)
        self.games[game.name] = game
        loading = getattr(self, "_loading", None)
        if loading is not None:
            loading[game.name] = game.checkpoint()
        return game

    def changed(self, game: Game) -> None:
        """``game`` is to be saved when the session's work is kept."""
        self.games[game.name] = game
        self.dirty.add(game.name)

    def gm_row(self, game: str) -> dict:
        """Game ``game``'s row of table ``gm`` ({} if none)."""
        return self.db.get("gm", game) or {}

    def enter(self, game: Game, power: str | None) -> None:
        """Sign on to ``game`` as ``power`` (None: as its GM). What the mail does
        from here on is copied to the address of record if it is not the asker's."""
        self.game, self.power, self.last_game, self.gm = game, power, game.name, power is None
        self.with_password, self.skipping = False, False
        record = self.record_address(game, power)
        # never only to Reply-To: the address of record hears of everything done for its power
        self.copy_to = record if record and record != self.asker.reply_to else None

    def sign_off_failed(self) -> None:
        """A SIGNON failed: the mail is signed on to nothing, and its lines are
        not read until a SIGNON succeeds (issue 19 point 4: the lines after a
        mistyped SIGNON must not act on the game signed on before it)."""
        self.game, self.power, self.gm, self.copy_to, self.with_password = None, None, False, None, False
        self.skipping = True

    def sees(self, game: Game) -> bool:
        """Whether this mail may see ``game`` (README, "Private games"): any
        game that is not private (:attr:`AccessSettings.private
        <judge.game.access.AccessSettings.private>`); a private one only from
        the address (``From``) of one of its players (leader or advisor), of
        its GM or of an invited address, or signed on to it; the judgekeeper
        every game. Who else asks is answered as for a game that does not exist."""
        access = game.settings.access
        if not access.private or self.asker.role == "keeper" or (self.game is not None and self.game.name == game.name):
            return True
        who = self.asker.address
        return bool(who) and (any(who in pl.addresses for pl in game.players.values()) or access.invites(who)
                              or self.gm_row(game.name).get("address") == who)

    def record_address(self, game: Game, power: str | None) -> str:
        """The address of record of ``power`` in ``game`` (None: of its GM), or ""."""
        if power is None:
            return self.gm_row(game.name).get("address", "")
        addresses = game.players[power].addresses
        return addresses[0] if addresses else ""

    def leader_here(self) -> bool:
        """Whether the mail speaks for the leader of the power signed on: sent
        from the leader's address, or signed on with the power's password (an
        advisor signed on by his address on record is not the leader)."""
        pl = self.game.players[self.power]
        sender = self.asker.address
        return self.with_password or sender == pl.leader or sender not in pl.addresses

    def verify(self, password: str, stored: str | None) -> bool:
        """Whether ``password`` is the one ``stored`` (hashed), checking at most
        :data:`MAX_PASSWORD_CHECKS` stored passwords a session (scrypt is slow
        on purpose: a mail must not make the judge try every power's password
        over and over)."""
        self.checked.add(password)                 # a password tried is never quoted back (issue 19 point 9)
        if not stored or self.password_checks >= MAX_PASSWORD_CHECKS:
            return False
        self.password_checks += 1
        return verify_password(password, stored)

    def auth_of(self, game: Game) -> str:
        """The game's ``auth`` (:mod:`judge.game.access`), or the judge's default."""
        return game.settings.access.auth or self.defaults.auth

    # ---- reading what a command names --------------------------------------------------
    def power_arg(self, game: Game, words) -> str:
        """The power ``words`` name (English or Chinese, any case); GameError."""
        text = " ".join(words)
        if not text:
            raise GameError("name_power")
        return names_of(game).power(text) or game.power(text)

    def time(self, cmd: CommandLine, text: str, command: str, end_of_day: bool = False) -> datetime | None:
        """``text`` read as a time in the game's zone (:func:`read_time`), or
        None after an error line that shows how to write it for ``command``."""
        tz = self.game.settings.deadlines.timezone
        try:
            when = read_time(text, tz, end_of_day)
        except ValueError:
            when = veteran_time(text, tz, self.now, end_of_day)     # njudge's "Mon Jan 13 2025 20:00"
            if when is not None:
                return when
            self.error(cmd.line, "bad_time", text=text.strip(), timezone=tz, **time_examples(command, tz, self.now))
            return None
        if not self.near(when):
            self.refuse(cmd, GameError("too_far", text=text.strip()[:40], days=MAX_AHEAD_DAYS))
            return None
        return when

    def near(self, when: datetime) -> bool:
        """Whether ``when`` (UTC) is at most :data:`MAX_AHEAD_DAYS` ahead: a
        date a command takes (issue 19 point 10: nothing beyond it reaches the
        clock's arithmetic; a past date is each command's own refusal)."""
        return when - self.now <= timedelta(days=MAX_AHEAD_DAYS)

    # ---- the reader's language and names -----------------------------------------------
    def language(self) -> str:
        """The language of the answer: SET LANGUAGE in this mail, else the
        asker's choice (table ``accounts``), else the language stored for
        who is signed on (or for the asker in any game, or as a GM), else
        the language the mail is written in, else the judge's. A reader whose
        language is Chinese and who writes clearly in the other script is
        answered in that script; a mail clearly written in Chinese from a
        reader who joined in English is answered in Chinese (in its script),
        unless the reader chose English with SET LANGUAGE (issue 22)."""
        if self.language_set:
            return self.language_set
        address = self.asker.address
        account = (self.db.get("accounts", address) or {}) if address else {}
        if account.get("language") in LANGUAGES:
            stored = account["language"]
        elif self.game is not None and self.gm:
            stored = self.gm_row(self.game.name).get("language")
        elif self.game is not None and self.power is not None:
            stored = self.game.players[self.power].language
        else:
            stored = self.stored_language(address)
        written = self.asker.written()
        if stored and stored.startswith("zh") and written:
            return self.asker.script() or stored
        if written and account.get("language") not in LANGUAGES:
            return written          # a mail in Chinese is answered in Chinese, unless the reader chose (SET LANGUAGE)
        return stored or written or self.defaults.language

    def stored_language(self, address: str) -> str | None:
        """The language stored for ``address`` as a player or a GM, if any."""
        if not address:
            return None
        roles = sorted(games_of(self.db, address).items(), key=lambda item: (item[1]["role"] != "player", item[0]))
        for name, role in roles:
            game = self.games.get(name)
            if game is not None and role["role"] == "player":
                language = next((pl.language for pl in game.players.values() if address in pl.addresses), None)
            else:
                language = role.get("language")
            if language in LANGUAGES:
                return language
        return None

    def address_language(self, address: str) -> str:
        """The language of a mail to ``address``, an address of record."""
        account = self.db.get("accounts", address) or {}
        if account.get("language") in LANGUAGES:
            return account["language"]
        return self.stored_language(address) or self.defaults.language

    def names(self, address: str | None) -> str | None:
        """The name set of a mail to ``address``: SET NAMES in this mail (to
        the asker), else the reader's choice (table ``accounts``), else the
        game's (``names=``) of the game signed on or named last, else None
        (each game's own)."""
        if self.names_set and address == self.asker.address:
            return self.names_set
        account = (self.db.get("accounts", address) or {}) if address else {}
        if account.get("names") in NAME_SETS:
            return account["names"]
        game = self.game or (self.games.get(self.last_game) if self.last_game else None)
        return game.settings.names if game is not None else None


_SIGNED_ON = ("game", "power", "gm", "copy_to", "with_password", "last_game", "language_set", "names_set", "stop",
              "skipping")
"""The session's fields a refused command must leave as they were."""


def names_of(game: Game):
    """The name index of ``game``'s map (English and Chinese names, the map's own)."""
    return name_index(game.map, load_names(game.map_name))


_DATE = re.compile(r"^(\d{4}-\d\d-\d\d)(?:[T ](\d\d?:\d\d))?$")


def read_time(text: str, tz: str, end_of_day: bool = False) -> datetime:
    """``2025-04-01``, ``2025-04-01 18:00`` (local time in zone ``tz``) or ISO
    8601 with an offset (``2025-04-01T18:00+08:00``) -> UTC. A date alone is
    its first moment, or with ``end_of_day`` the first moment of the next day.
    ValueError (with a sentence, never Python's own words) for anything else,
    a month 13 or an hour 25 included, and a date beyond the calendar."""
    text = text.strip()
    try:
        return _read_time(text, tz, end_of_day)
    except OverflowError:          # 9999-12-31 and a day, 0001-01-01 east of UTC
        raise ValueError(f"{text!r} is beyond the dates the judge takes") from None


def _read_time(text: str, tz: str, end_of_day: bool) -> datetime:
    m = _DATE.match(text)
    try:
        if m:
            day = datetime.fromisoformat(m.group(1))
            if m.group(2):
                h, mi = m.group(2).split(":")
                return local_to_utc(day.replace(hour=int(h), minute=int(mi)), zone_of(tz))
            return local_to_utc(day + timedelta(days=1 if end_of_day else 0), zone_of(tz))
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a date such as 2025-04-01 or 2025-04-01 18:00") from None
    return local_to_utc(when, zone_of(tz)) if when.tzinfo is None else when.astimezone(zone_of("UTC"))


def time_examples(command: str, tz: str, now: datetime) -> dict[str, str | None]:
    """How to write a time for ``command`` (``SET DEADLINE``, ``START``,
    ``SET ABSENCE``), with dates two days after ``now`` (UTC) in zone ``tz``:
    ``{"example": local form, "example_offset": the same with its UTC offset,
    or None for SET ABSENCE (whole days)}``."""
    local = (now.astimezone(zone_of(tz)) + timedelta(days=2)).replace(hour=20, minute=0, second=0, microsecond=0)
    day = local.date().isoformat()
    if command == "SET ABSENCE":
        return {"example": f"SET ABSENCE FROM {day} TO {(local + timedelta(days=4)).date().isoformat()}",
                "example_offset": None}
    offset = local.isoformat(timespec="minutes")
    return {"example": f"{command} {day} 20:00", "example_offset": f"{command} {offset}"}
