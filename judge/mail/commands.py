"""Mail commands: what a mail asks for, and the replies it gets.

:class:`MailCommands` is the judge's :class:`~judge.mail.reply.CommandHandler`:
it takes an :class:`~judge.mail.message.InboundMail`, a
:class:`~judge.mail.staging.Staging` (reads and staged writes of the store) and
``now`` (UTC), and returns the :class:`~judge.mail.reply.Reply` mails to send.
Commands, one per line, any case, njudge's words where njudge has them, and
Chinese words: each is a record of :mod:`judge.mail.registry` (its words,
usage and HELP entry), handled by the method ``_<name>`` here or in the
mixins :class:`~judge.mail.game_commands.GameCommands` (players' and the GM's
game commands), :class:`~judge.mail.end_commands.EndCommands` (the end of
the game) and :class:`~judge.mail.archive_commands.ArchiveCommands`.

Invisible characters (a byte-order mark, zero-width spaces) are dropped from
every line first (:func:`judge.notation.clean_line`). The answer to orders
lists the power's orders in force after the mail, one per unit, saying which
earlier order each replaces, with the notes the parser made on a line and
refusals in the reader's language (:meth:`judge.game.game.Receipt.reason`).

Identity: the sender is the address in ``From`` (``Reply-To`` is only where
the answer goes, never who asks). A player's password is per game, kept hashed
in the game's :class:`~judge.game.Player`. From an address on record the
password may be left out; from any other address it is needed, and what the
mail did for that power (or as GM) is copied to the address of record, each
power's part to its own address only. The GM's address, password hash and
language are kept in table ``gm`` (game name -> {address, password_hash,
language}); a reader's chosen language in table ``accounts`` (address ->
{language}).

Language of a reply: SET LANGUAGE in the mail, else the sender's choice in
``accounts``, else the language stored for the player signed on (or for the
sender in any game, or the GM's), else the language the mail is written in
(:func:`detect_language`), else the judge's default. A reader whose language
is Chinese and whose mail is written in Chinese, clearly in the other script
(:func:`chinese_script`), is answered in that script; notices keep the stored one.

The game's time zone and deadline are the game's own
(``settings.deadlines.timezone``, ``schedule.deadline``): CREATE takes every
``key=value`` setting of :func:`judge.game.setting_text.change_settings` and
``deadline=`` (local time, or with an offset) to open the first phase's clock;
without it the clock starts when every power is taken (or at the GM's START).
Taking the last power tells every player and the GM that the game has started.

A mail from a sender on the judgekeeper's deny list (``[senders] deny``) is
not answered; nor is a mail in which no line is a command from a sender
none of whose mails ever did anything and who had such an answer within
``[senders] refused_answer_hours``
(:class:`Unanswered` says why; the worker keeps it in the ledger).

Store tables written: games (:func:`judge.storage.save_game`, :func:`~judge.storage.save_gm`),
``accounts``, ``refused`` (by sender) and ``joins`` (by game: JOINs waiting for the GM).
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import re
import textwrap
import time
import unicodedata
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from ..config import LANGUAGES, Config
from ..game import Game, GameError, Player, Settings
from ..game.game import NAME_RE
from ..game.notices import GM, Notice
from ..game.deadlines import adjustment_status
from ..game.refusals import misspelt_order_word
from ..game.setting_text import change_settings, describe_settings, preset_reply
from ..game.press import is_press_start
from ..game.roster import record_change
from ..game.nmr import took_over
from ..game.turns import lifecycle, open_phase, replacement_joined, running, start, started_notice
from ..maps import load_map, load_names
from ..notation.lexicon import clean_line
from ..notation.names import is_cjk, name_index
from ..notation.parser import ParseContext, chatter_note, parse_orders
from ..text.names import NAME_SETS
from ..text.templates import words_for
from .archive_commands import ArchiveCommands
from .end_commands import EndCommands
from .game_commands import GameCommands, read_time
from .authenticity import believed_authserv_ids, verified_by
from .masking import mask, secrets_of
from .message import InboundMail
from .registry import CommandLine, help_sections, read_command, suggest_command, usage_of
from .reply import Reply, Unanswered
from .passwords import hash_password, verify_password
from ..storage import find_game, games_of, load_game, save_game, save_gm


# ---- reading command lines ---------------------------------------------------------
_JOIN_KEY = re.compile(r"(?i)^(?:join[-_]?password|加入密码|加入密碼)[=＝](\S+)$")
_LANG_WORDS = {"en": "en", "english": "en", "英文": "en", "英语": "en", "英語": "en",
               "zh-hans": "zh-hans", "zh_hans": "zh-hans", "zh-cn": "zh-hans", "简体": "zh-hans",
               "简体中文": "zh-hans", "中文": "zh-hans", "簡體": "zh-hans", "簡體中文": "zh-hans",
               "zh-hant": "zh-hant", "zh_hant": "zh-hant", "zh-tw": "zh-hant", "繁体": "zh-hant",
               "繁體": "zh-hant", "繁体中文": "zh-hant", "繁體中文": "zh-hant"}
_NAMES_WORDS = {"house": "house", "standard": "standard", "家规": "house", "家規": "house",
                "标准": "standard", "標準": "standard"}
log = logging.getLogger("judge.mail")
MAX_NOISE = 20       # lines that are neither commands nor orders, shown before the rest is skipped
MAX_PASSWORD_LINES = 5   # lines with a password read from one mail (CREATE, JOIN, SIGNON, SET PASSWORD, REPLACE)
MAX_PASSWORD_CHECKS = 4  # stored passwords checked for one mail (each costs scrypt, tens of ms, on purpose)
MAX_SHOWN = 20       # order lines replaced by later lines of the same mail, quoted in the answer


def detect_language(text: str, charset: str = "") -> str | None:
    """``zh-hans`` / ``zh-hant`` for a mail written in Chinese, else None.

    Each line counts for Chinese or for English (:func:`line_language`); the
    mail is Chinese when more lines are Chinese than English (on a tie, when
    its first such line is), so a Chinese name on one line of an English mail
    does not make it Chinese. Traditional or simplified: which script has more
    of the characters that exist in only one of them (GB2312 has simplified
    forms only, Big5 traditional ones only); a tie (every character common to
    both, e.g. ``加入``) goes to traditional for a Big5 mail, else simplified."""
    zh = en = 0
    first = None
    for line in text.splitlines():
        lang = line_language(line)
        if lang is not None:
            first = first or lang
            zh, en = zh + (lang == "zh"), en + (lang == "en")
    if not zh or zh < en or (zh == en and first != "zh"):
        return None
    return chinese_script(text) or ("zh-hant" if charset.lower().startswith("big5") else "zh-hans")


def chinese_script(text: str) -> str | None:
    """``zh-hant`` or ``zh-hans``: the script that has more of the Chinese
    characters of ``text`` that exist in only one of them (GB2312 has
    simplified forms only, Big5 traditional ones only); None on a tie (no
    Chinese, or only characters common to both)."""
    simplified = traditional = 0
    for c in text:
        if is_cjk(c):
            gb, big5 = _encodes(c, "gb2312"), _encodes(c, "big5")
            simplified += gb and not big5
            traditional += big5 and not gb
    if traditional == simplified:
        return None
    return "zh-hant" if traditional > simplified else "zh-hans"


_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'_-]*")


def line_language(line: str) -> str | None:
    """``"zh"``, ``"en"`` or None (no words) for one line: a command line by its
    command word (``加入 g1 pw`` is Chinese, ``JOIN g1 pw 法国`` English); any
    other line is Chinese when it has more Chinese characters than Latin words."""
    text = unicodedata.normalize("NFKC", clean_line(line)).strip()
    if not text:
        return None
    if read_command(text) is not None:
        return "zh" if is_cjk(text[0]) else "en"
    cjk = sum(1 for c in text if is_cjk(c))
    latin = len(_LATIN_WORD.findall(text))
    if cjk > latin:
        return "zh"
    return "en" if latin else None


def _encodes(ch: str, charset: str) -> bool:
    try:
        ch.encode(charset)
    except UnicodeEncodeError:
        return False
    return True


# ---- the judge's handler -----------------------------------------------------------
@dataclass
class _Session:
    """What one mail has done so far. Results are language-neutral data (power
    and province codes, phases, order objects, refusal reasons); the templates
    name them in the reader's language. Each result carries ``copies``: the
    addresses of record that get a copy of it (see :meth:`MailCommands._tag`)."""
    mail: InboundMail
    db: object
    now: datetime
    results: list[dict] = field(default_factory=list)
    game: Game | None = None
    power: str | None = None          # None with a game: signed on as GM
    gm: bool = False                  # signed on as the GM (power set after BECOME)
    notices: list = field(default_factory=list)   # game notices to mail (results, press, ...)
    attachments: list = field(default_factory=list)   # (file name, MIME type, text) for the reply
    copy_to: str | None = None        # the address of record of the power (or GM) signed on, if not the sender's
    with_password: bool = False       # signed on with the password (not by an address on record)
    tagged: int = 0                   # results up to here carry their copies
    orders: list[str] = field(default_factory=list)
    language: str | None = None       # set by SET LANGUAGE in this mail
    names: str | None = None          # set by SET NAMES in this mail
    dirty: set[str] = field(default_factory=set)
    noise: int = 0
    last_game: str | None = None
    games: dict[str, Game] = field(default_factory=dict)   # games read or changed by this mail
    counts: dict[str, int] = field(default_factory=dict)   # order and command lines read (see _over)
    notes: list[str] = field(default_factory=list)         # notes on this mail for the reply
    secrets: set[str] = field(default_factory=set)         # passwords in this mail: masked in replies
    password_lines: int = 0                                # lines with a password read so far
    password_checks: int = 0                               # stored hashes checked so far (scrypt each)
    verified: str | None = None                            # how From was verified ("" not; None not checked)
    extra: list = field(default_factory=list)              # mails to others this mail makes (JOIN approval)


GAME_CACHE = 64
"""Games the handler keeps decoded between mails (see :class:`MailCommands`)."""


class MailCommands(GameCommands, EndCommands, ArchiveCommands):
    """The judge's :class:`CommandHandler` (see module doc); the commands of
    a running game are in :class:`~judge.mail.game_commands.GameCommands`."""

    def __init__(self, cfg: Config, dnsfunc=None):
        self.cfg = cfg
        self.dnsfunc = dnsfunc                # DNS TXT lookups of the DKIM check (None: dkimpy's own)
        # game name -> (the stored document, the Game it was made from): a mail that
        # finds exactly that document (same object) takes the Game instead of
        # decoding it again; it is put back only when that mail's handling
        # succeeded. At most GAME_CACHE games, the latest first (a judge of many
        # games must not keep every game it ever read)
        self._games: OrderedDict[str, tuple[dict, Game]] = OrderedDict()

    # ---- entry point ---------------------------------------------------------------
    def handle(self, mail: InboundMail, db, now: datetime) -> list[Reply]:
        if not mail.reply_to:
            return []
        senders = self.cfg.senders
        if senders.denied(mail.sender) or senders.denied(mail.reply_to):
            log.info("mail %s from %s (reply to %s): on the deny list; not answered", mail.key,
                     mail.sender, mail.reply_to)
            return Unanswered("denied")
        s = _Session(mail, db, now)
        lines, i = mail.text.split("\n"), 0
        budget = self.cfg.limits.mail_seconds
        until = time.monotonic() + budget if budget else None
        while i < len(lines):
            line, i = clean_line(lines[i]), i + 1
            if not line.strip():
                continue
            if until is not None and time.monotonic() > until:      # this mail must not hold the others up
                self._out_of_time(s, lines, i - 1, budget)
                break
            if self.cfg.limits.line_chars and len(line) > self.cfg.limits.line_chars:
                if not self._over(s, "command_lines", lines, i - 1):
                    self._error(s, line[:60] + "…", "line_too_long", chars=len(line),
                                limit=self.cfg.limits.line_chars)
                    continue
                break
            if is_press_start(line):
                if self._over(s, "command_lines", lines, i - 1):
                    break
                self._guarded(s, self._flush_orders)
                self._tag(s)
                i = self._press_block(s, lines, i - 1)
                self._tag(s)
                continue
            cmd = read_command(line)
            if cmd is None:
                if s.game is not None and s.power is not None:
                    if self._over(s, "order_lines", lines, i - 1):
                        break
                    s.orders.append(line.strip())
                    if len(line.split()) > 2:          # a misspelt SIGNON/JOIN may hold a password
                        s.secrets |= secrets_of(None, (), line, suggest_command(line))
                elif s.noise < MAX_NOISE:
                    s.noise += 1
                    talk = chatter_note(line, name_index(load_map("standard"), load_names("standard")))   # 各位好: a note
                    if talk is not None:
                        s.results.append({"kind": "skipped", "line": line.strip(), "note": talk})
                    else:
                        suggestion = suggest_command(line)
                        s.secrets |= secrets_of(None, (), line, suggestion)
                        self._error(s, line, "unknown_command", suggestion=suggestion)
                continue
            secrets = secrets_of(cmd.name, cmd.args, cmd.line)
            s.secrets |= secrets
            if secrets and cmd.name != "set_settings":
                s.password_lines += 1                  # each costs scrypt (tens of ms) on purpose
                if s.password_lines > MAX_PASSWORD_LINES:
                    self._error(s, cmd.line, "too_many_passwords", limit=MAX_PASSWORD_LINES)
                    continue
            if self._over(s, "command_lines", lines, i - 1):
                break
            self._guarded(s, self._flush_orders)
            self._tag(s)
            if cmd.name == "signoff":
                s.results.append({"kind": "signoff", "line": cmd.line})
                break
            self._guarded(s, getattr(self, "_" + cmd.name), cmd)
            self._tag(s)
        self._guarded(s, self._flush_orders)
        self._tag(s)
        for name in sorted(s.dirty):
            save_game(s.db, s.games[name])
            self._games[name] = (s.db.get("games", name), s.games[name])
            self._games.move_to_end(name)
            while len(self._games) > GAME_CACHE:
                self._games.popitem(last=False)
        if not self._answer_refused(s):
            return Unanswered("refused-limit")
        notices = self.notice_replies(s)      # first: it tells the results which final report goes out
        return self._replies(s) + notices + s.extra

    def _common(self, s: _Session, subject: str, results: list[dict], lang: str, address: str) -> dict:
        """The context of ``reply.txt`` for a mail of ``results`` (in ``lang``) to ``address``, not the sender."""
        return {"re_subject": subject, "judge_name": self.cfg.judge.name, "judge_address": self.cfg.judge.address,
                "results": results, "words": words_for(lang, self._names(s, address)), "notes": []}

    def _answer_refused(self, s: _Session) -> bool:
        """Whether to answer this mail: always, unless the judge could make
        nothing of it (no line of it is a command: an auto-responder that
        marks its mail in no way writes such mails) and it comes from a sender
        none of whose mails ever did anything, who had such an answer less
        than ``[senders] refused_answer_hours`` ago (RFC 3834 §2: never answer
        a robot for ever). A mail with a command that was refused (a wrong
        password, say) is always answered: a person wrote it. Table
        ``refused``: sender -> {ok: a mail of theirs did something, answered:
        UTC ISO time of the last answer to a mail the judge made nothing of}."""
        sender = s.mail.sender or s.mail.reply_to
        row = s.db.get("refused", sender) or {}
        if any(r["kind"] not in ("error", "skipped") for r in s.results) or s.notices:
            if not row.get("ok"):
                s.db.put("refused", sender, {"ok": True, "answered": ""})
            return True
        if row.get("ok") or any(r.get("code") != "unknown_command" for r in s.results if r["kind"] == "error"):
            return True
        try:
            last = datetime.fromisoformat(row["answered"]) if row.get("answered") else None
        except (TypeError, ValueError):
            last = None
        hours = self.cfg.senders.refused_answer_hours
        if last is not None and timedelta(0) <= s.now - last < timedelta(hours=hours):
            log.info("mail %s from %s: nothing in it could be done, nor in any earlier mail of this sender, "
                     "answered at %s; not answered again within %g h", s.mail.key, sender, last.isoformat(), hours)
            return False
        s.db.put("refused", sender, {"ok": False, "answered": s.now.isoformat()})
        return True

    @staticmethod
    def _verify(s: _Session, password: str, stored: str | None) -> bool:
        """:func:`verify_password`, at most :data:`MAX_PASSWORD_CHECKS` stored
        passwords a mail (scrypt is slow on purpose: a mail must not make the
        judge try every power's password over and over)."""
        if not stored:
            return False
        if s.password_checks >= MAX_PASSWORD_CHECKS:
            return False
        s.password_checks += 1
        return verify_password(password, stored)

    def _out_of_time(self, s: _Session, lines: list[str], i: int, budget: float) -> None:
        """The mail's lines took more than ``budget`` seconds: read no further,
        and say from which line on nothing was read (what came before stands)."""
        rest = sum(1 for line in lines[i + 1:] if line.strip())
        s.notes.append(f"mail_seconds:{budget:g}:{rest}:{clean_line(lines[i]).strip()[:80]}")
        log.warning("mail %s from %s: over %g s; %d line(s) not read", s.mail.key, s.mail.sender, budget, rest)

    def _over(self, s: _Session, limit: str, lines: list[str], i: int) -> bool:
        """Count one more line of kind ``limit`` (``order_lines``,
        ``command_lines``: keys of the config's ``[limits]``); True when it is
        over the limit: the mail is read no further, and a note says how many
        lines were left unread from which one on."""
        allowed = getattr(self.cfg.limits, limit)
        s.counts[limit] = s.counts.get(limit, 0) + 1
        if not allowed or s.counts[limit] <= allowed:
            return False
        rest = sum(1 for line in lines[i:] if line.strip())
        s.notes.append(f"{limit}:{allowed}:{rest}:{clean_line(lines[i]).strip()[:80]}")
        log.info("mail %s from %s: more than %d %s; %d line(s) not read", s.mail.key, s.mail.sender,
                 allowed, limit.replace("_", " "), rest)
        return True

    def _guarded(self, s: _Session, run, cmd: CommandLine | None = None) -> None:
        """``run(s)`` or ``run(s, cmd)``; a GameError it raises (an order or a
        command for a game that is over, say) is a refusal in the reply, on
        the command's line (or the first of the order lines), never a crash."""
        lines = list(s.orders)
        try:
            run(s) if cmd is None else run(s, cmd)
        except GameError as e:
            line = cmd.line if cmd is not None else (lines[0] if lines else "")
            self._error(s, line, "refused", reason=e)

    def _tag(self, s: _Session) -> None:
        """Results since the last call get the address of record of who is
        signed on now (if it is not the sender's) among their ``copies``."""
        for r in s.results[s.tagged:]:
            r["copies"] = tuple(dict.fromkeys(a for a in (*r.get("copies", ()), s.copy_to) if a))
        s.tagged = len(s.results)
        if s.game is None:
            s.copy_to = None

    def _replies(self, s: _Session) -> list[Reply]:
        """The answer to the sender (everything), and to each address of record
        a copy of only the results that concern it."""
        mail = s.mail
        subject = mail.subject or ""
        asked = read_command(subject[3:] if subject.lower().startswith("re:") else subject)
        if asked is not None:                  # "JOIN g1 secret1" as the subject
            s.secrets |= secrets_of(asked.name, asked.args, asked.line)
        re_subject = subject if subject.lower().startswith("re:") else f"Re: {subject or 'judge'}"
        re_subject = mask(re_subject, s.secrets)
        results = mask(s.results, s.secrets)   # no password quoted, in the answer or a copy
        copies: dict[str, list[dict]] = {}
        for r in results:
            for address in r["copies"]:
                if address != mail.reply_to:
                    copies.setdefault(address, []).append(r)
        common = {"re_subject": re_subject, "judge_name": self.cfg.judge.name,
                  "judge_address": self.cfg.judge.address}
        lang = self._language(s)
        names = self._names(s, mail.sender)
        out = [Reply(purpose="reply", to=(mail.reply_to,), template="reply.txt", lang=lang,
                     context=dict(common, results=results, words=words_for(lang, names),
                                  notes=list(mail.notes) + s.notes + [f"cc_record:{a}" for a in copies]),
                     game=s.last_game, attachments=tuple(s.attachments))]
        for address, results in copies.items():
            lang = self._address_language(s, address)
            games = [r["game"] for r in results if r.get("game")]
            out.append(Reply(purpose=f"copy:{address}", to=(address,), template="reply.txt", lang=lang,
                             context=dict(common, results=results, words=words_for(lang, self._names(s, address)),
                                          notes=[f"copy_of:{mail.sender or mail.reply_to}"
                                                 if mail.reply_to == mail.sender
                                                 else f"copy_via:{mail.sender} {mail.reply_to}"]),
                             game=games[-1] if games else None, in_reply=False))
        return out

    def _names(self, s: _Session, address: str | None) -> str | None:
        """The name set of the answer to ``address``: SET NAMES in this mail,
        else the reader's choice (table ``accounts``), else the game's
        (``names=``) of the game signed on or last named, else None (each
        game's own)."""
        if s.names and address == s.mail.sender:
            return s.names
        account = (s.db.get("accounts", address) or {}) if address else {}
        if account.get("names") in NAME_SETS:
            return account["names"]
        game = s.game or (s.games.get(s.last_game) if s.last_game else None)
        return game.settings.names if game is not None else None

    def _language(self, s: _Session) -> str:
        """The language of the answer (see module doc). A reader who chose
        Chinese and writes in the other Chinese script is answered in it."""
        if s.language:
            return s.language
        account = (s.db.get("accounts", s.mail.sender) or {}) if s.mail.sender else {}
        if account.get("language") in LANGUAGES:
            stored = account["language"]
        elif s.game is not None and s.gm:
            stored = self._gm(s, s.game.name).get("language")
        elif s.game is not None and s.power is not None:
            stored = s.game.players[s.power].language
        else:
            stored = self._stored_language(s, s.mail.sender)
        if stored and stored.startswith("zh") and detect_language(s.mail.text, s.mail.charset):
            return chinese_script(s.mail.text) or stored
        return stored or detect_language(s.mail.text, s.mail.charset) or self.cfg.judge.language

    def _stored_language(self, s: _Session, address: str) -> str | None:
        """The language stored for ``address`` as a player or a GM, if any."""
        if not address:
            return None
        roles = sorted(games_of(s.db, address).items(), key=lambda item: (item[1]["role"] != "player", item[0]))
        for name, role in roles:
            game = s.games.get(name)
            if game is not None and role["role"] == "player":
                language = next((pl.language for pl in game.players.values() if address in pl.addresses), None)
            else:
                language = role.get("language")
            if language in LANGUAGES:
                return language
        return None

    def _address_language(self, s: _Session, address: str) -> str:
        """The language of a copy to an address of record."""
        account = s.db.get("accounts", address) or {}
        if account.get("language") in LANGUAGES:
            return account["language"]
        return self._stored_language(s, address) or self.cfg.judge.language

    # ---- helpers -------------------------------------------------------------------
    def _error(self, s: _Session, line: str, code: str, **params) -> None:
        s.results.append({"kind": "error", "line": line.strip(), "code": code, "params": params})

    def _find_game(self, s: _Session, name: str) -> Game | None:
        if name in s.games:
            return s.games[name]
        found = find_game(s.db, name) if NAME_RE.match(name) else None
        if found is None:
            return None
        if found in s.games:
            return s.games[found]
        doc = s.db.get("games", found)
        cached = self._games.pop(found, None)
        if cached is not None and cached[0] is doc:
            game = cached[1]
            game.history.rebind(load_game(s.db, found).history._load)
        else:
            game = load_game(s.db, found)
        s.games[game.name] = game
        return game

    def _changed(self, s: _Session, game: Game) -> None:
        s.games[game.name] = game
        s.dirty.add(game.name)

    def _gm(self, s: _Session, game: str) -> dict:
        return s.db.get("gm", game) or {}

    def _enter(self, s: _Session, game: Game, power: str | None) -> None:
        """Sign on to ``game`` as ``power`` (None: as its GM). What the mail does
        from here on is copied to the address of record if it is not the sender's."""
        s.game, s.power, s.last_game, s.gm = game, power, game.name, power is None
        s.with_password = False
        record = self._record_address(s, game, power)
        # never only to Reply-To: the address of record hears of everything done for its power
        s.copy_to = record if record and record != s.mail.reply_to else None

    def _leader_here(self, s: _Session) -> bool:
        """Whether the mail speaks for the leader of the power signed on: sent
        from the leader's address, or signed on with the power's password (an
        advisor signed on by his address on record is not the leader)."""
        pl = s.game.players[s.power]
        return s.with_password or s.mail.sender == pl.leader or s.mail.sender not in pl.addresses

    @staticmethod
    def _free_powers(game: Game) -> list[str]:
        return [p for p, pl in game.players.items() if not pl.addresses]

    def _record_address(self, s: _Session, game: Game, power: str | None) -> str:
        if power is None:
            return self._gm(s, game.name).get("address", "")
        addresses = game.players[power].addresses
        return addresses[0] if addresses else ""

    @staticmethod
    def _former_power(game: Game, address: str) -> str | None:
        """The power ``address`` played in ``game`` until it resigned or the GM
        removed it, if it plays none now."""
        if not address or any(address in pl.addresses for pl in game.players.values()):
            return None
        for change in reversed(game.roster):
            if change.address == address:
                return change.power if change.event != "joined" else None
        return None

    # ---- commands ------------------------------------------------------------------
    def _help(self, s: _Session, cmd: CommandLine) -> None:
        day = (s.now + timedelta(days=14)).date()          # the examples' dates: in the future
        s.results.append({"kind": "help", "line": cmd.line, "day": day.isoformat(), "sections": help_sections()})

    def _create(self, s: _Session, cmd: CommandLine) -> None:
        args = _time_args(list(cmd.args))
        plain = [a for a in args if "=" not in a]
        if len(plain) < 2 or args[0] != plain[0]:
            return self._error(s, cmd.line, "usage", usage=usage_of("create"))
        if len(plain) > 2 or not NAME_RE.match(plain[0]):     # "CREATE my game pw": a name with spaces
            return self._error(s, cmd.line, "bad_game_name", text=" ".join(plain[:-1]))
        if not s.mail.sender:
            return self._error(s, cmd.line, "no_sender")
        name, password = plain
        if self._find_game(s, name) is not None:
            return self._error(s, cmd.line, "game_exists", game=name)
        if len(password) < 4:
            return self._error(s, cmd.line, "weak_password")
        options = [a for a in args if "=" in a and not a.lower().startswith("deadline=")]
        deadline_text = next((a.partition("=")[2] for a in args if a.lower().startswith("deadline=")), None)
        # a game created in Chinese writes the rule texts' own names (names=house) unless told otherwise
        chinese = self._language(s).startswith("zh")
        try:
            settings = change_settings(Settings(), [f"timezone={self.cfg.judge.timezone}"]
                                       + (["names=house"] if chinese else []) + options)
        except ValueError as e:
            return self._error(s, cmd.line, "bad_setting", text=" ".join(options), reason=e)
        tz = settings.deadlines.timezone
        deadline = None
        if deadline_text is not None:
            try:
                deadline = read_time(deadline_text, tz)
            except ValueError:
                return self._error(s, cmd.line, "bad_deadline", text=deadline_text, timezone=tz)
            if deadline <= s.now:
                return self._error(s, cmd.line, "deadline_passed", text=deadline_text, timezone=tz, now=s.now)
        seed = int(hashlib.sha256(s.mail.key.encode()).hexdigest()[:12], 16)   # the same on a rerun
        try:
            game = Game.create(name, now=s.now, seed=seed, settings=settings)
        except GameError as e:
            return self._error(s, cmd.line, "bad_setting", text=" ".join(options), reason=e)
        if deadline is not None:
            open_phase(game, s.now, deadline.astimezone(timezone.utc))
        self._changed(s, game)
        save_game(s.db, game)           # the game exists before its GM record refers to it
        save_gm(s.db, game.name, {"address": s.mail.sender, "password_hash": hash_password(password),
                                  "language": self._language(s)})
        self._enter(s, game, None)
        described = describe_settings(settings)
        if described.get("auth") == "default":           # say what the judge's default is here
            described["auth"] = f"default({self.auth_of(game)})"
        s.results.append({"kind": "created", "line": cmd.line, "game": game.name, "map": game.map_name,
                          "phase": str(game.phase), "timezone": tz, "rules": settings.rules,
                          "deadline": game.schedule.deadline, "movement": described["movement"],
                          "settings": textwrap.wrap(" ".join(f"{k}={v}" for k, v in described.items()), 72),
                          "preset": preset_reply(options, settings)})

    def _join(self, s: _Session, cmd: CommandLine) -> None:
        args = [a for a in cmd.args if not _JOIN_KEY.match(a)]
        key = next((_JOIN_KEY.match(a).group(1) for a in cmd.args if _JOIN_KEY.match(a)), None)
        if len(args) < 2:
            return self._error(s, cmd.line, "usage", usage=usage_of("join"))
        game = self._find_game(s, args[0])
        if game is None:
            return self._error(s, cmd.line, "no_such_game", game=args[0])
        game.check_running()                  # GameError: a refusal (see _guarded)
        sender = s.mail.sender
        if not sender:
            return self._error(s, cmd.line, "no_sender")
        password = args[1]
        if len(password) < 4:
            return self._error(s, cmd.line, "weak_password")
        for p, pl in game.players.items():
            if sender in pl.addresses:
                return self._error(s, cmd.line, "already_playing", game=game.name, map=game.map_name,
                                   power=p)
        access = game.settings.access
        if access.access == "invite" and not access.invites(sender):
            return self._error(s, cmd.line, "not_invited", game=game.name)
        if access.access == "password" and (key is None or not self._verify(s, key, access.join_password_hash)):
            return self._error(s, cmd.line, "join_password_needed" if key is None else "bad_join_password",
                               game=game.name)
        power = self._power_to_join(s, cmd, game, password, args[2:])
        if power is None:
            return
        account = s.db.get("accounts", sender) or {}
        lang = (s.language or account.get("language") or self._stored_language(s, sender)
                or detect_language(s.mail.text, s.mail.charset) or self.cfg.judge.language)
        if access.approve:
            return self._ask_gm(s, cmd, game, power, hash_password(password), lang)
        self._seat(s, cmd.line, game, power, sender, hash_password(password), lang)
        self._enter(s, game, power)

    def _power_to_join(self, s: _Session, cmd: CommandLine, game: Game, password: str, wanted_words) -> str | None:
        """The free power a JOIN takes (a power the GM opened to a
        replacement only with its password), or None after an error line."""
        free = self._free_powers(game)
        # a power the GM opened to a replacement (REPLACE) has a password already: only it joins
        reserved = [p for p in free if game.players[p].password_hash]
        if not free:
            return self._error(s, cmd.line, "game_full", game=game.name)
        if not wanted_words and reserved:
            power = next((p for p in reserved if self._verify(s, password, game.players[p].password_hash)),
                         None) or next((p for p in free if p not in reserved), None)
            if power is None:
                return self._error(s, cmd.line, "bad_password", game=game.name)
            return power
        if not wanted_words:
            return next((p for p in free if p not in reserved), free[0])
        text = " ".join(wanted_words)
        wanted = name_index(game.map, load_names(game.map_name)).power(text)
        if wanted is None:
            return self._error(s, cmd.line, "unknown_power", text=text, map=game.map_name,
                               powers=list(game.map.powers))
        if wanted not in free:
            return self._error(s, cmd.line, "power_taken", game=game.name, map=game.map_name,
                               power=wanted, free=free)
        if wanted in reserved and not self._verify(s, password, game.players[wanted].password_hash):
            return self._error(s, cmd.line, "bad_password", game=game.name)
        return wanted

    def _seat(self, s: _Session, line: str, game: Game, power: str, address: str, password_hash: str,
              lang: str) -> None:
        """Give ``power`` to ``address``: the roster, a replacement's notice to
        the GM, the start of the game when it was the last free power, and a
        ``joined`` result."""
        game.players[power] = Player((address,), password_hash, lang)
        record_change(game, power, "joined", address, s.now)
        replacing = took_over(game, power, address, s.now)      # a replacement: the GM is told
        s.notices += replacing
        s.notices += replacement_joined(game, s.now)          # a NoNMR game waiting for it goes on
        self._changed(s, game)
        left = self._free_powers(game)
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

    # ---- joins the GM approves (issue 12: approve=yes) ---------------------------------
    def _ask_gm(self, s: _Session, cmd: CommandLine, game: Game, power: str, password_hash: str, lang: str) -> None:
        """Keep the JOIN in table ``joins`` (game -> {pending: [{address, power,
        password_hash, language, at}]}) and ask the GM: APPROVE or REJECT."""
        sender = s.mail.sender
        row = s.db.get("joins", game.name) or {}
        pending = [j for j in row.get("pending", []) if j["address"] != sender]
        pending.append({"address": sender, "power": power, "password_hash": password_hash, "language": lang,
                        "at": s.now.isoformat()})
        s.db.put("joins", game.name, {"pending": pending})
        s.last_game = game.name
        s.results.append({"kind": "join_pending", "line": cmd.line, "game": game.name, "map": game.map_name,
                          "power": power})
        gm = self._gm(s, game.name)
        gm_lang = gm.get("language") if gm.get("language") in LANGUAGES else self.cfg.judge.language
        if gm.get("address"):
            s.extra.append(Reply(purpose=f"join-request:{game.name}:{sender}", to=(gm["address"],),
                                 template="reply.txt", lang=gm_lang,
                                 context=self._common(s, f"{game.name}: JOIN {sender}",
                                                      [{"kind": "join_request", "game": game.name,
                                                        "map": game.map_name, "power": power,
                                                        "address": sender, "copies": ()}], gm_lang,
                                                      gm["address"]),
                                 game=game.name, in_reply=False))

    def _pending_join(self, s: _Session, cmd: CommandLine):
        """``(game, the pending JOIN named by the command's address or power,
        the table row)``, or None after an error line. GM only."""
        game = self._as_gm(s, cmd)
        if game is None:
            return None
        if not cmd.args:
            return self._error(s, cmd.line, "usage", usage=usage_of(cmd.name))
        row = s.db.get("joins", game.name) or {}
        text = " ".join(cmd.args).strip("<>").lower()
        power = name_index(game.map, load_names(game.map_name)).power(text)
        found = next((j for j in row.get("pending", []) if j["address"] == text or j["power"] == power), None)
        if found is None:
            return self._error(s, cmd.line, "no_pending_join", game=game.name, text=" ".join(cmd.args))
        pending = [j for j in row["pending"] if j is not found]
        s.db.put("joins", game.name, {"pending": pending})
        return game, found

    def _approve(self, s: _Session, cmd: CommandLine) -> None:
        got = self._pending_join(s, cmd)
        if got is None:
            return
        game, join = got
        if join["power"] not in self._free_powers(game):
            s.db.put("joins", game.name, {"pending": (s.db.get("joins", game.name) or {}).get("pending", [])
                                          + [join]})
            return self._error(s, cmd.line, "power_taken", game=game.name, map=game.map_name, power=join["power"],
                               free=self._free_powers(game))
        self._seat(s, cmd.line, game, join["power"], join["address"], join["password_hash"], join["language"])
        joined = dict(s.results[-1], line=f"JOIN {game.name}", copies=())
        s.results[-1] = dict(s.results[-1], kind="join_approved", address=join["address"])
        s.extra.append(Reply(purpose=f"join-approved:{game.name}:{join['address']}", to=(join["address"],),
                             template="reply.txt", lang=join["language"],
                             context=self._common(s, f"{game.name}: JOIN", [joined], join["language"],
                                                  join["address"]),
                             game=game.name, in_reply=False))

    def _reject(self, s: _Session, cmd: CommandLine) -> None:
        got = self._pending_join(s, cmd)
        if got is None:
            return
        game, join = got
        s.results.append({"kind": "join_rejected", "line": cmd.line, "game": game.name, "map": game.map_name,
                          "power": join["power"], "address": join["address"]})
        s.extra.append(Reply(purpose=f"join-rejected:{game.name}:{join['address']}", to=(join["address"],),
                             template="reply.txt", lang=join["language"],
                             context=self._common(s, f"{game.name}: JOIN",
                                                  [{"kind": "join_refused", "game": game.name, "copies": ()}],
                                                  join["language"], join["address"]),
                             game=game.name, in_reply=False))

    def _signon(self, s: _Session, cmd: CommandLine) -> None:
        if not cmd.args:
            return self._error(s, cmd.line, "usage", usage=usage_of("signon"))
        token, password = cmd.args[0], (cmd.args[1] if len(cmd.args) > 1 else None)
        game, letter = self._find_game(s, token), None
        if game is None and len(token) > 1:          # njudge: SIGNON Fgame password
            game, letter = self._find_game(s, token[1:]), token[0].upper()
        if game is None:
            return self._error(s, cmd.line, "no_such_game", game=token)
        sender = s.mail.sender
        gm = self._gm(s, game.name)
        candidates = [p for p in game.map.powers if letter is None or p[0].upper() == letter]
        mine = [p for p in candidates if sender and sender in game.players[p].addresses]
        may_be_gm = letter in (None, "M")
        chosen: str | None | bool = False
        if password is None:
            if len(mine) == 1:
                chosen = mine[0]
            elif not mine and may_be_gm and sender and gm.get("address") == sender:
                chosen = None
            refusal = self._unbelieved(s, game) if chosen is not False else None
            if refusal:
                return self._error(s, cmd.line, refusal, game=game.name)
        else:
            # a sender on record signs on as its own power (or the GM; another power with the
            # letter form, SIGNON Fgame); stop at the first match (scrypt is slow on purpose)
            the_gm = may_be_gm and bool(sender) and gm.get("address") == sender
            others = [] if (mine or the_gm) and letter is None else [p for p in candidates if p not in mine]
            if the_gm and self._verify(s, password, gm.get("password_hash")):
                chosen = None                          # the GM from the address on record: checked first
            else:
                chosen = next((p for p in mine + others
                               if self._verify(s, password, game.players[p].password_hash)), False)
                if chosen is False and may_be_gm and not the_gm \
                        and self._verify(s, password, gm.get("password_hash")):
                    chosen = None
        if chosen is False:
            former = self._former_power(game, sender)
            if former is not None:
                return self._error(s, cmd.line, "no_longer_playing", game=game.name, map=game.map_name,
                                   power=former)
            if password is not None and s.password_checks >= MAX_PASSWORD_CHECKS:
                return self._error(s, cmd.line, "password_checks", game=game.name, limit=MAX_PASSWORD_CHECKS)
            return self._error(s, cmd.line, "password_needed" if password is None else "bad_password",
                               game=game.name)
        self._enter(s, game, chosen)
        s.with_password = password is not None
        s.results.append({"kind": "signon", "line": cmd.line, "game": game.name, "map": game.map_name,
                          "power": chosen})

    def auth_of(self, game: Game) -> str:
        """The game's ``auth`` (:mod:`judge.game.access`), or the judge's default for its inbound transport."""
        return game.settings.access.auth or self.cfg.senders.default_auth(self.cfg.inbound.transport)

    def _unbelieved(self, s: _Session, game: Game) -> str | None:
        """Why a SIGNON without a password from an address on record is not
        believed under the game's ``auth``: ``password_required`` (auth=password),
        ``unverified`` (auth=verified and the mail is not verified,
        :func:`judge.mail.authenticity.verified_by`), or None."""
        auth = self.auth_of(game)
        if auth == "password":
            return "password_required"
        if auth == "verified":
            if s.verified is None:
                s.verified = verified_by(s.mail.raw, s.mail.sender, believed_authserv_ids(self.cfg),
                                         self.dnsfunc)
                log.info("mail %s from %s: %s", s.mail.key, s.mail.sender,
                         f"verified ({s.verified})" if s.verified else "not verified (no DKIM or trusted pass)")
            if not s.verified:
                return "unverified"
        return None

    def _list(self, s: _Session, cmd: CommandLine) -> None:
        if not cmd.args and s.game is None:
            games = []
            for name, role in sorted(games_of(s.db, s.mail.sender).items()):
                game = self._find_game(s, name) if role["role"] == "player" else None
                games += [{"name": name, "map": game.map_name, "power": p, "phase": str(game.phase),
                           "deadline": game.schedule.deadline, "timezone": game.settings.deadlines.timezone,
                           "state": lifecycle(game)["state"]}
                          for p, pl in (game.players.items() if game else ()) if s.mail.sender in pl.addresses]
            # an unlisted game (listed=no) is open to its players and GM only
            known = {name for a in {s.mail.sender, s.mail.reply_to} if a for name in games_of(s.db, a)}
            open_games = sorted(name for name, row in s.db.all("catalogue").items()
                                if row.get("free") and row.get("status") != "finished"
                                and (row.get("listed", True) or name in known))
            s.results.append({"kind": "list", "line": cmd.line, "games": games, "open": open_games})
            return
        game = self._find_game(s, cmd.args[0]) if cmd.args else s.game
        if game is None or not self._visible(s, game):
            return self._error(s, cmd.line, "no_such_game", game=cmd.args[0])
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

    def _visible(self, s: _Session, game: Game) -> bool:
        """Whether LIST shows ``game`` to this mail: a listed game to anyone, an
        unlisted one (``listed=no``) to its players and GM only (signed on, or
        writing from their address)."""
        if game.settings.access.listed or (s.game is not None and s.game.name == game.name):
            return True
        who = {a for a in (s.mail.sender, s.mail.reply_to) if a}
        return bool(who & {a for pl in game.players.values() for a in pl.addresses}) or \
            self._gm(s, game.name).get("address") in who

    def _set_password(self, s: _Session, cmd: CommandLine) -> None:
        if s.game is None:
            return self._error(s, cmd.line, "need_signon")
        if len(cmd.args) != 1:
            return self._error(s, cmd.line, "usage", usage=usage_of("set_password"))
        if len(cmd.args[0]) < 4:
            return self._error(s, cmd.line, "weak_password")
        game = s.game
        if s.power is None:
            save_gm(s.db, game.name, dict(self._gm(s, game.name), password_hash=hash_password(cmd.args[0])))
        else:
            pl = game.players[s.power]
            game.players[s.power] = dataclasses.replace(pl, password_hash=hash_password(cmd.args[0]))
            self._changed(s, game)
        s.results.append({"kind": "password_set", "line": cmd.line, "game": game.name})

    def _set_address(self, s: _Session, cmd: CommandLine) -> None:
        if s.game is None:
            return self._error(s, cmd.line, "need_signon")
        if len(cmd.args) != 1:
            return self._error(s, cmd.line, "usage", usage=usage_of("set_address"))
        new = cmd.args[0].strip("<>").lower()
        local, at, domain = new.partition("@")
        if not (local and at and "." in domain):
            return self._error(s, cmd.line, "bad_address", text=cmd.args[0])
        game = s.game
        if s.power is None:
            gm = self._gm(s, game.name)
            old = gm.get("address", "")
            save_gm(s.db, game.name, dict(gm, address=new))
        else:
            if not self._leader_here(s):
                return self._error(s, cmd.line, "not_the_leader", power=s.power, map=game.map_name)
            pl = game.players[s.power]
            old = pl.leader or ""
            # the mail moves: the old address gets no more mail and is no advisor (issue 13 point 4)
            game.players[s.power] = dataclasses.replace(
                pl, addresses=(new,) + tuple(a for a in pl.advisors if a != new),
                no_mail=tuple(a for a in pl.no_mail if a != new))
            self._changed(s, game)
        s.results.append({"kind": "address_set", "line": cmd.line, "game": game.name,
                          "address": new, "old": old, "copies": (new,)})

    def _set_language(self, s: _Session, cmd: CommandLine) -> None:
        lang = _LANG_WORDS.get(" ".join(cmd.args).lower()) if cmd.args else None
        if lang is None:
            return self._error(s, cmd.line, "bad_language", text=" ".join(cmd.args))
        s.language = lang
        sender = s.mail.sender
        if sender:
            s.db.put("accounts", sender, dict(s.db.get("accounts", sender) or {}, language=lang))
            for name, role in sorted(games_of(s.db, sender).items()):
                if role["role"] == "gm":
                    row = self._gm(s, name)
                    if row.get("language") != lang:
                        save_gm(s.db, name, dict(row, language=lang))
                    continue
                game = self._find_game(s, name)
                for p, pl in game.players.items() if game else ():
                    if sender in pl.addresses and pl.language != lang:
                        game.players[p] = dataclasses.replace(pl, language=lang)
                        self._changed(s, game)
        s.results.append({"kind": "language_set", "line": cmd.line, "language": lang})

    def _set_names(self, s: _Session, cmd: CommandLine) -> None:
        """SET NAMES house|standard: the names the judge writes to the sender
        (table ``accounts``), whatever the game's setting."""
        names = _NAMES_WORDS.get(" ".join(cmd.args).lower()) if cmd.args else None
        if names is None:
            return self._error(s, cmd.line, "bad_names", text=" ".join(cmd.args))
        s.names = names
        if s.mail.sender:
            s.db.put("accounts", s.mail.sender, dict(s.db.get("accounts", s.mail.sender) or {}, names=names))
        s.results.append({"kind": "names_set", "line": cmd.line, "names": names})

    def _resign(self, s: _Session, cmd: CommandLine) -> None:
        if s.game is None or s.power is None:
            return self._error(s, cmd.line, "need_signon")
        game, power = s.game, s.power
        record_change(game, power, "left", (game.players[power].addresses or ("",))[0], s.now)
        game.players[power] = Player()
        self._changed(s, game)
        s.notices.append(Notice("resigned", (GM,), {"game": game.name, "map": game.map_name, "power": power,
                                                    "phase": str(game.phase)},
                                f"{game.name}:{game.phase}:resigned:{power}:{s.mail.key}"))
        s.results.append({"kind": "resigned", "line": cmd.line, "game": game.name, "map": game.map_name,
                          "power": power})
        s.game, s.power = None, None

    # ---- orders --------------------------------------------------------------------
    def _flush_orders(self, s: _Session) -> None:
        """Parse and submit the order lines gathered since the last command; the
        result lists the power's orders in force for each unit after this mail."""
        if not s.orders:
            return
        game, power, lines = s.game, s.power, s.orders
        s.orders = []
        names = name_index(game.map, load_names(game.map_name))
        ctx = ParseContext(map=game.map, names=names, phase_kind=game.phase.kind,
                           position=game.position, power=power)
        parsed = parse_orders("\n".join(lines), ctx)
        notes = {p.input: tuple(getattr(p, "notes", ())) for p in parsed}
        receipts = game.submit(power, parsed, s.now)
        self._changed(s, game)
        entries, taken = game.orders.get(power, ()), [r for r in receipts if r.ok]
        before = len(entries) - len(taken)          # each order taken is one new entry at the end
        replaced_by = _replaced_by(entries, before, taken)
        final = list(range(len(entries)))    # the entry that holds each one's unit now, after replacements
        for j in sorted(replaced_by, reverse=True):
            final[j] = final[replaced_by[j]]
        replaces: dict[int, list] = {}
        for j in range(before):
            if j in replaced_by:
                replaces.setdefault(final[j], []).append(entries[j].order)
        orders = []
        for i, e in enumerate(entries):
            if e.replaced:
                continue
            orders.append({"order": e.order, "input": e.text, "new": i >= before,
                           "notes": notes.get(e.text, ()) if i >= before else (),
                           "replaces": replaces.get(i, [])})
        superseded = [{"input": entries[j].text, "order": entries[j].order, "by": entries[final[j]].order}
                      for j in range(before, len(entries)) if entries[j].replaced and final[j] != j]
        rejected = []
        for r in receipts:
            if not r.ok:       # a diagnostic names the places it guesses; a misspelt command is named here
                command = None if r.order is not None else suggest_command(r.input)
                word = None if r.order is not None or command else \
                    misspelt_order_word(r.input, game.phase.kind, names)
                rejected.append({"input": r.input, "error": word or r.error,
                                 "suggestions": [command] if command else []})
        missing = []
        for loc in game.unordered(power):
            prov = loc.partition("/")[0]
            unit = game.position.units[prov] if game.phase.kind == "M" else game.position.dislodged[prov].unit
            missing.append((unit.type, unit.location))
        adjust = None
        if game.phase.kind == "A":
            due, ordered, listed = adjustment_status(game, power)
            adjust = {"due": due, "ordered": ordered, "left": max(abs(due) - ordered, 0), "listed": listed}
        skipped = [{"input": p.input, "note": p.notes[0]} for p in parsed if p.kind == "chatter"]   # talk
        s.results.append({"kind": "orders", "game": game.name, "map": game.map_name, "power": power,
                          "phase": str(game.phase), "orders": orders, "taken": len(entries) - before,
                          "adjust": adjust, "skipped": skipped,
                          "superseded": superseded[:MAX_SHOWN],
                          "superseded_more": max(len(superseded) - MAX_SHOWN, 0), "rejected": rejected,
                          "missing": missing, "deadline": game.schedule.deadline,
                          "forming": lifecycle(game)["state"] == "forming",
                          "timezone": game.settings.deadlines.timezone})


def _replaced_by(entries, before: int, taken) -> dict[int, int]:
    """``{index of a replaced entry: index of the entry that replaced it}``;
    ``taken``: the receipts of the entries from ``entries[before]`` on, in
    order. Linear in the entries: each replaced entry is found through an
    index of the replaced ones by value, earliest first."""
    marked: dict = {}
    for j, e in enumerate(entries):
        if e.replaced:
            marked.setdefault(e, deque()).append(j)
    out: dict[int, int] = {}
    for k, receipt in enumerate(taken):
        i = before + k
        for gone in receipt.replaced:
            queue = marked.get(dataclasses.replace(gone, replaced=True))
            if queue and queue[0] < i:
                out[queue.popleft()] = i
    return out


def _time_args(args: list[str]) -> list[str]:
    """``deadline=2024-01-10 20:00`` written with a space is one argument."""
    out: list[str] = []
    for a in args:
        if out and re.fullmatch(r"\d\d?:\d\d", a) and out[-1].lower().startswith("deadline="):
            out[-1] += " " + a
        else:
            out.append(a)
    return out
