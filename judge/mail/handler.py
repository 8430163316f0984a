"""The judge's mail handler: reads a mail, hands each command line to its
verb, and words what the verbs did as the replies to send.

:class:`MailHandler` is the judge's :class:`~judge.mail.reply.CommandHandler`:
it takes an :class:`~judge.mail.message.InboundMail`, a
:class:`~judge.mail.staging.Staging` (reads and staged writes of the store)
and ``now`` (UTC), and returns the :class:`~judge.mail.reply.Reply` mails
to send. What the mail's commands do is the verbs' (:mod:`judge.verbs`):
one record each in :mod:`judge.verbs.registry`, run over a
:class:`~judge.verbs.session.Session` made here for the mail. This module
keeps to reading the mail and answering it:

- **lines**: one command a line, any case, njudge's words where njudge has
  them, and Chinese words (:func:`~judge.verbs.registry.read_command`);
  invisible characters (a byte-order mark, zero-width spaces) dropped first
  (:func:`judge.notation.clean_line`); after SIGNON the lines that are no
  command are orders (handed to the ``orders`` verb before the next command);
  a press block (``PRESS``/``BROADCAST`` ... ``ENDPRESS``) goes whole to the
  ``press`` verb; other lines are answered as not a command (at most
  :data:`MAX_NOISE`), or noted as talk; after a SIGNON that failed, no
  line is read but a SIGNON (the answer says how many were not), so the
  lines meant for one game never act on the game signed on before;
- **budgets** (``[limits]``): seconds a mail may take, command and order
  lines, characters a line, lines with a password (:data:`MAX_PASSWORD_LINES`);
- **identity**: the asker is the address in ``From`` (``Reply-To`` is only
  where the answer goes); whether it is verified (DKIM, a trusted server's
  check: :mod:`judge.mail.authenticity`) is found out only when a verb asks;
- **secrets**: no password of the mail is quoted in any mail the judge sends
  (:mod:`judge.mail.masking`);
- **replies**: the answer to the sender, in the reader's language
  (:meth:`Session.language <judge.verbs.session.Session.language>`), a copy
  to each address of record of the results that concern it, the mails of
  the notices the commands made (:mod:`judge.mail.notices`) and the letters
  the verbs wrote to others (a JOIN for the GM to approve).

A mail from a sender on the judgekeeper's deny list (``[senders] deny``) is
not answered; nor is a mail in which no line is a command from a sender
none of whose mails ever did anything and who had such an answer within
``[senders] refused_answer_hours`` (:class:`Unanswered` says why; the
worker keeps it in the ledger). Store tables written here: games
(:func:`judge.storage.save_game`) and ``refused`` (by sender); the verbs
write the others.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from ..config import Config
from ..game.game import NAME_RE
from ..game.notices import merged
from ..game.final_report import final_data
from ..game.press import is_press_end, is_press_start
from ..maps import load_map, load_names
from ..notation.lexicon import clean_line
from ..notation.names import name_index
from ..notation.parser import chatter_note
from ..storage import find_game, save_game
from ..text.templates import words_for
from ..verbs.registry import body_of, command, read_command, read_commands, suggest_command
from ..verbs.session import Asker, Defaults, GameCache, Session
from ..verbs.veterans import DIARY_ENDS
from ..verbs.where import where
from .authenticity import believed_authserv_ids, verified_by
from .language import chinese_script, detect_language
from .masking import mask, secrets_of, words_after_games
from .message import InboundMail
from .notices import notice_replies
from .pictures import map_attachment
from .reply import Reply, Unanswered

log = logging.getLogger("judge.mail")
MAX_NOISE = 20       # lines that are neither commands nor orders, shown before the rest is skipped
LOOKUPS = ("list", "help")   # answered to one sender once in [senders] lookup_seconds (see _asked_again)
MAX_PASSWORD_LINES = 5   # lines with a password read from one mail (CREATE, JOIN, SIGNON, SET PASSWORD, REPLACE)


@dataclass
class _Reading:
    """What the reading of one mail keeps beside its session."""
    mail: InboundMail
    orders: list[str] = field(default_factory=list)    # order lines since the last command
    noise: int = 0                                       # lines that were neither
    counts: dict[str, int] = field(default_factory=dict)  # order and command lines read (see _over)
    notes: list[str] = field(default_factory=list)       # notes on this mail for the reply
    secrets: set[str] = field(default_factory=set)       # passwords in this mail: masked in replies
    password_lines: int = 0                              # lines with a password read so far
    tagged: int = 0                                      # results up to here carry their copies
    skipped: int = 0                                     # lines not read after a failed SIGNON


class MailHandler:
    """The judge's :class:`CommandHandler` (see module doc). ``dnsfunc``: the
    DNS TXT lookups of the DKIM check (None: dkimpy's own)."""

    def __init__(self, cfg: Config, dnsfunc=None):
        self.cfg = cfg
        self.dnsfunc = dnsfunc
        self.games = GameCache()      # games kept decoded between mails

    # ---- entry point ---------------------------------------------------------------
    def handle(self, mail: InboundMail, db, now: datetime) -> list[Reply]:
        if not mail.reply_to:
            return []
        senders = self.cfg.senders
        if senders.denied(mail.sender) or senders.denied(mail.reply_to):
            log.info("mail %s from %s (reply to %s): on the deny list; not answered", mail.key,
                     mail.sender, mail.reply_to)
            return Unanswered("denied")
        s, r = self.session(mail, db, now), _Reading(mail)
        r.secrets |= set(mail.secrets)             # words in a password's place, in any charset (issue 19 point 9)
        lines, i = mail.text.split("\n"), 0
        budget = self.cfg.limits.mail_seconds
        until = time.monotonic() + budget if budget else None
        while i < len(lines):
            line, i = clean_line(lines[i]), i + 1
            if not line.strip():
                continue
            if s.skipping and not _is_signon(line):      # after a failed SIGNON: only a SIGNON is read
                end = _after_press(lines, i - 1) if is_press_start(line) else i
                r.skipped += sum(1 for skipped in lines[i - 1:end] if skipped.strip())
                i = end
                continue
            if until is not None and time.monotonic() > until:      # this mail must not hold the others up
                self._out_of_time(s, r, lines, i - 1, budget)
                break
            if self.cfg.limits.line_chars and len(line) > self.cfg.limits.line_chars:
                if not self._over(s, r, "command_lines", lines, i - 1):
                    quoted = read_command(line[:60])       # refused unread, but a command's password is not quoted
                    if quoted is not None:
                        r.secrets |= secrets_of(quoted.name, quoted.args, quoted.line)
                    s.error(line[:60] + "…", "line_too_long", chars=len(line), limit=self.cfg.limits.line_chars)
                    continue
                break
            if line.lstrip().startswith("//") or is_press_end(line):   # a comment (njudge's); an ENDPRESS alone
                continue
            if is_press_start(line):
                if self._over(s, r, "command_lines", lines, i - 1):
                    break
                self._orders(s, r)
                end = _after_press(lines, i - 1)
                s.perform(command("press", line=line.strip(), body=lines[i - 1:end]))
                i = end
                self._tag(s, r)
                continue
            cmds = read_commands(line)
            if not cmds:
                if s.game is not None and s.power is not None:
                    if self._over(s, r, "order_lines", lines, i - 1):
                        break
                    r.orders.append(line.strip())
                    if len(line.split()) > 2:          # a misspelt SIGNON/JOIN may hold a password
                        r.secrets |= secrets_of(None, (), line) | \
                            _after_games(s, line, damaged_only=_talk(line))
                elif r.noise < MAX_NOISE:
                    r.noise += 1
                    r.secrets |= _after_games(s, line)
                    talk = None if suggest_command(line) else \
                        chatter_note(line, name_index(load_map("standard"), load_names("standard")))   # talk: a note
                    if talk is not None:
                        s.results.append({"kind": "skipped", "line": line.strip(), "note": talk})
                    else:
                        suggestion = suggest_command(line)
                        r.secrets |= secrets_of(None, (), line, suggestion)
                        s.error(line, "unknown_command", suggestion=suggestion)
                continue
            for cmd in cmds:
                if body_of(cmd):                       # PHASE's orders, a DIARY entry: the lines after it
                    body, i = _body(lines, i, body_of(cmd))
                    cmd = dataclasses.replace(cmd, body=body)
                secrets = secrets_of(cmd.name, cmd.args, cmd.line)
                r.secrets |= secrets
                if secrets and cmd.name != "set_settings":
                    r.password_lines += 1                  # each costs scrypt (tens of ms) on purpose
                    if r.password_lines > MAX_PASSWORD_LINES:
                        s.error(cmd.line, "too_many_passwords", limit=MAX_PASSWORD_LINES)
                        break
                if self._over(s, r, "command_lines", lines, i - 1):
                    s.stop = True
                    break
                self._orders(s, r)
                if cmd.name in LOOKUPS and self._asked_again(s, cmd):
                    continue
                s.perform(cmd)
                self._tag(s, r)
                if s.stop:
                    break
            if s.stop:
                break
        self._orders(s, r)
        if r.skipped:
            r.notes.append(f"signon_failed:{r.skipped}")
        r.secrets |= s.checked
        for name in sorted(s.dirty):
            save_game(s.db, s.games[name])
            self.games.keep(name, s.db.get("games", name), s.games[name])
        if not self._answer_refused(s):
            return Unanswered("refused-limit")
        notices = self._notice_replies(s, r)      # first: it tells the results which final report goes out
        return self._replies(s, r) + notices + self._letters(s)

    def session(self, mail: InboundMail, db, now: datetime) -> Session:
        """The session of ``mail``: who asks, and the judge's defaults."""
        cfg = self.cfg

        @_once
        def verified() -> str:
            how = verified_by(mail.raw, mail.sender, believed_authserv_ids(cfg), self.dnsfunc)
            log.info("mail %s from %s: %s", mail.key, mail.sender,
                     f"verified ({how})" if how else "not verified (no DKIM or trusted pass)")
            return how

        asker = Asker(mail.sender, mail.reply_to, mail.key, mail.text, "anyone", verified=verified,
                      written=_once(lambda: detect_language(mail.text, mail.charset)),
                      script=_once(lambda: chinese_script(mail.text)))
        defaults = Defaults(cfg.judge.timezone, cfg.judge.language,
                            cfg.senders.default_auth(cfg.inbound.transport), cfg.templates_dir)
        return Session(db, now, asker, defaults, self.games)

    def _orders(self, s: Session, r: _Reading) -> None:
        """The order lines gathered since the last command, to the ``orders`` verb."""
        if r.orders:
            body, r.orders = r.orders, []
            s.perform(command("orders", line=body[0], body=body, params={"suggest": suggest_command}))
        self._tag(s, r)

    # ---- budgets -------------------------------------------------------------------
    def _out_of_time(self, s: Session, r: _Reading, lines: list[str], i: int, budget: float) -> None:
        """The mail's lines took more than ``budget`` seconds: read no further,
        and say from which line on nothing was read (what came before stands)."""
        rest = sum(1 for line in lines[i + 1:] if line.strip())
        r.notes.append(f"mail_seconds:{budget:g}:{rest}:{clean_line(lines[i]).strip()[:80]}")
        log.warning("mail %s from %s: over %g s; %d line(s) not read", s.asker.key, s.asker.address, budget, rest)

    def _over(self, s: Session, r: _Reading, limit: str, lines: list[str], i: int) -> bool:
        """Count one more line of kind ``limit`` (``order_lines``,
        ``command_lines``: keys of the config's ``[limits]``); True when it is
        over the limit: the mail is read no further, and a note says how many
        lines were left unread from which one on."""
        allowed = getattr(self.cfg.limits, limit)
        r.counts[limit] = r.counts.get(limit, 0) + 1
        if not allowed or r.counts[limit] <= allowed:
            return False
        rest = sum(1 for line in lines[i:] if line.strip())
        r.notes.append(f"{limit}:{allowed}:{rest}:{clean_line(lines[i]).strip()[:80]}")
        log.info("mail %s from %s: more than %d %s; %d line(s) not read", s.asker.key, s.asker.address,
                 allowed, limit.replace("_", " "), rest)
        return True

    def _asked_again(self, s: Session, cmd) -> bool:
        """Whether ``cmd`` (LIST or HELP, :data:`LOOKUPS`) was answered to
        this sender less than ``[senders] lookup_seconds`` ago: then it is
        not done again, the answer says when to ask again (issue 23: LIST
        costs the judge most and needs no password; issue 19: one sender
        asking a hundred times a minute is answered once). The same answer
        is the same line, case and spaces aside: ``LIST demo`` is not
        ``LIST``, nor ``帮助`` (the help in Chinese) ``HELP``. Table
        ``asked``: sender -> {line: UTC ISO time it was last answered} (the
        lines of the last ``lookup_seconds`` only)."""
        seconds = self.cfg.senders.lookup_seconds
        sender = (s.asker.address or s.asker.reply_to or "").lower()
        if not seconds or not sender:
            return False
        window = timedelta(seconds=seconds)
        asked = {}
        for line, at in (s.db.get("asked", sender) or {}).items():
            try:
                when = datetime.fromisoformat(at)
            except (TypeError, ValueError):
                continue
            if timedelta(0) <= s.now - when < window:
                asked[line] = when
        key = " ".join(cmd.line.split()).casefold()
        last = asked.get(key)
        if last is not None:
            again = last + window
            s.error(cmd.line, "asked_again", seconds=max(1, round((again - s.now).total_seconds())),
                    limit=round(seconds))
            log.info("mail %s from %s: %r answered at %s; not again before %s", s.asker.key, sender,
                     key, last.isoformat(), again.isoformat())
            return True
        asked[key] = s.now
        s.db.put("asked", sender, {line: when.isoformat() for line, when in asked.items()})
        return False

    def _answer_refused(self, s: Session) -> bool:
        """Whether to answer this mail: always, unless the judge could make
        nothing of it (no line of it is a command: an auto-responder that
        marks its mail in no way writes such mails) and it comes from a sender
        none of whose mails ever did anything, who had such an answer less
        than ``[senders] refused_answer_hours`` ago (RFC 3834 §2: never answer
        a robot for ever). A mail with a command that was refused (a wrong
        password, say) is always answered: a person wrote it. Table
        ``refused``: sender -> {ok: a mail of theirs did something, answered:
        UTC ISO time of the last answer to a mail the judge made nothing of}."""
        sender = s.asker.address or s.asker.reply_to
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
                     "answered at %s; not answered again within %g h", s.asker.key, sender, last.isoformat(), hours)
            return False
        s.db.put("refused", sender, {"ok": False, "answered": s.now.isoformat()})
        return True

    # ---- the replies ---------------------------------------------------------------
    def _tag(self, s: Session, r: _Reading) -> None:
        """Results since the last call get the address of record of who is
        signed on now (if it is not the sender's) among their ``copies``."""
        for res in s.results[r.tagged:]:
            res["copies"] = tuple(dict.fromkeys(a for a in (*res.get("copies", ()), s.copy_to) if a))
        r.tagged = len(s.results)
        if s.game is None:
            s.copy_to = None

    def _replies(self, s: Session, r: _Reading) -> list[Reply]:
        """The answer to the sender (everything), and to each address of record
        a copy of only the results that concern it."""
        asker = s.asker
        subject = self._subject(r)
        results = mask(s.results, r.secrets)   # no password quoted, in the answer or a copy
        copies: dict[str, list[dict]] = {}
        for res in results:
            for address in res["copies"]:
                if address != asker.reply_to:
                    copies.setdefault(address, []).append(res)
        lang = s.language()
        context = self._context(s, subject, results, lang, asker.address,
                                [mask(n, r.secrets) for n in list(r.mail.notes) + r.notes]
                                + [f"cc_record:{a}" for a in copies])
        game = s.games.get(s.last_game) if s.last_game else None
        if game is not None and any(res["kind"] not in ("archive", "help") for res in results):
            context["standing"] = where(game)          # every answer about a game ends with where it stands
        out = [Reply(purpose="reply", to=(asker.reply_to,), template="reply.txt", lang=lang, context=context,
                     game=s.last_game, attachments=tuple(self._pictures(s)))]
        for address, results in copies.items():
            lang = s.address_language(address)
            games = [res["game"] for res in results if res.get("game")]
            note = f"copy_of:{asker.address or asker.reply_to}" if asker.reply_to == asker.address \
                else f"copy_via:{asker.address} {asker.reply_to}"
            out.append(Reply(purpose=f"copy:{address}", to=(address,), template="reply.txt", lang=lang,
                             context=self._context(s, subject, results, lang, address, [note]),
                             game=games[-1] if games else None, in_reply=False))
        return out

    def _pictures(self, s: Session) -> list:
        """The maps the answer shows and attaches (``MAP``), drawn for the asker."""
        account = s.db.get("accounts", s.asker.address) if s.asker.address else None
        return [map_attachment(s.games[m.game], m.phase, m.lang, m.names, m.svg, account) for m in s.attachments]

    def _subject(self, r: _Reading) -> str:
        """The answer's subject (``Re: ...``), the mail's passwords masked."""
        subject = r.mail.subject or ""
        asked = read_command(subject[3:] if subject.lower().startswith("re:") else subject)
        if asked is not None:                  # "JOIN g1 secret1" as the subject
            r.secrets |= secrets_of(asked.name, asked.args, asked.line)
        re_subject = subject if subject.lower().startswith("re:") else f"Re: {subject or 'judge'}"
        return mask(re_subject, r.secrets)

    def _context(self, s: Session, subject: str, results: list[dict], lang: str, address: str,
                 notes: list[str]) -> dict:
        """The context of ``reply.txt``: ``results`` in ``lang`` for ``address``."""
        return {"re_subject": subject, "judge_name": self.cfg.judge.name, "judge_address": self.cfg.judge.address,
                "results": results, "words": words_for(lang, s.names(address)), "notes": notes}

    def _letters(self, s: Session) -> list[Reply]:
        """The mails the verbs wrote to others (:class:`~judge.verbs.session.Letter`)."""
        return [Reply(purpose=letter.purpose, to=(letter.to,), template="reply.txt", lang=letter.lang,
                      context=self._context(s, letter.subject, list(letter.results), letter.lang, letter.to, []),
                      game=letter.game, in_reply=False)
                for letter in s.letters]

    def _notice_replies(self, s: Session, r: _Reading) -> list[Reply]:
        """The mails for the notices this mail's commands made (at the end of
        the mail, so recipients are those of the games as they are then). A
        game's final report is one mail made from the game as the mail left it,
        with every ruling and vote of the mail (issue 13 point 3); the results
        of those rulings and votes say so (``report``: ``"sent"`` on the last
        of them, ``"with_last"`` on the others)."""
        out, reported = [], set()
        for n in merged(s.notices):
            game = s.games.get(n.data.get("game"))
            if game is None:
                continue
            if n.kind == "results" and any(game.history.find(p) is None for p in n.data["phases"]):
                continue                        # rolled back later in the same mail: those results are gone
            if n.kind == "game_over":
                if not game.finished:           # rolled back later in the same mail: no game over
                    continue
                n = dataclasses.replace(n, data=final_data(game))
                reported.add(game.name)
            out += notice_replies(n, game, s.db, self.cfg.judge)
        for name in reported:
            told = [res for res in s.results if res.get("game") == name and res.get("kind") in ("ruling", "vote")
                    and res.get("over")]
            for res in told:
                res["report"] = "sent" if res is told[-1] else "with_last"
        # a setting such as join_password=... reaches every player: never its value
        return [dataclasses.replace(x, context=mask(x.context, r.secrets)) for x in out] if r.secrets else out


def _after_games(s: Session, line: str, damaged_only: bool = False) -> set[str]:
    """The words after a game's name in ``line`` (a line no command: the
    password of a sign-on line damaged beyond reading, ``SI<junk>GNON fz pw``),
    masked in every answer whether the line is talk or an order line; with
    ``damaged_only`` (talk among orders) only after a name with damage inside
    it (``f\\x00z pw``: :func:`~judge.mail.masking.words_after_games`)."""
    return words_after_games(line, lambda name: bool(NAME_RE.match(name)) and find_game(s.db, name) is not None,
                             damaged_only)


def _talk(line: str) -> bool:
    """A line among a player's orders that starts with a plain word (``I think
    fz is fun``): talk that names a game, its words no password (issue 18);
    a damaged sign-on word (``SI\ufffdGN``, ``登\ufffd``) is not plain."""
    first = line.split()[0] if line.split() else ""
    return first.isascii() and first.isalpha() and not read_commands(first)


def _once(make):
    """``make`` called at the first call only, its result kept (``functools.cache``
    without the wrapper it builds: three a mail, issue 23)."""
    kept = []

    def once():
        if not kept:
            kept.append(make())
        return kept[0]
    return once


def _is_signon(line: str) -> bool:
    cmd = read_command(line)
    return cmd is not None and cmd.name == "signon"


def _after_press(lines: list[str], i: int) -> int:
    """The index of the line after the press block opening at ``lines[i]``
    (after its ENDPRESS or ENDBROADCAST; a SIGNOFF line ends it too, and is
    read next, as njudge has it; else the end of the mail)."""
    j = i + 1
    while j < len(lines) and not is_press_end(lines[j]):
        if _is_signoff(lines[j]):
            return j
        j += 1
    return j + 1


def _is_signoff(line: str) -> bool:
    cmd = read_command(line)
    return cmd is not None and cmd.name == "signoff" and not cmd.args


def _body(lines: list[str], i: int, takes: str) -> tuple[tuple[str, ...], int]:
    """``(the body, the index of the line to read after it)`` of a command
    whose line is ``lines[i - 1]`` (:func:`~judge.verbs.registry.body_of`):
    ``lines``: up to the next line that is a command or opens press;
    ``block``: up to an end line (:data:`~judge.verbs.veterans.DIARY_ENDS`,
    taken; a SIGNOFF, read next) or the end of the mail. Blank lines and
    ``//`` comments are left out of ``lines``."""
    body, j = [], i
    while j < len(lines):
        line = clean_line(lines[j])
        if takes == "block":
            if " ".join(line.upper().split()).rstrip(".") in DIARY_ENDS:
                return tuple(body), j + 1
            if _is_signoff(line):
                break
            body.append(line.rstrip())
        else:
            if line.strip() and (read_commands(line) or is_press_start(line)):
                break
            if line.strip() and not line.lstrip().startswith("//"):
                body.append(line.strip())
        j += 1
    return tuple(body), j
