"""The mail commands of a running game (issue 4): press, WAIT, absences,
observers, and the GM's commands. A mixin of
:class:`~judge.mail.commands.MailCommands`, whose session and helpers it uses.

Players (after ``SIGNON``)::

    PRESS TO <powers> [GREY] ... ENDPRESS     BROADCAST [GREY] ... ENDPRESS
    SET WAIT | SET NOWAIT                     (等待 / 不等待)
    SET ABSENCE FROM <date> TO <date>         dates in the game's time zone
    ADVISOR ADD <address> [NOMAIL]            (幕僚 添加 … [不收信]) the leader adds an advisor
    ADVISOR REMOVE <address>                  (幕僚 删除 …) who gets the power's mail (unless
                                              NOMAIL) and scores nothing (Appendix 2)
    OBSERVE <game>                            (旁观 旁觀): receive results and broadcasts

The GM (``SIGNON game gm-password``)::

    SET DEADLINE <date time>   EXTEND <length>   PAUSE [<length>]   RESUME
    PROCESS [<phase>]   ROLLBACK <phase>   EJECT <power>   REPLACE <power> <password>
    BECOME <power>   (order lines that follow are that power's)
    START [<date time>]   SET key=value ...   (judge.game.master, judge.game.setting_text)

The commands that move the game on (PROCESS, ROLLBACK, EXTEND, SET DEADLINE)
are compare-and-set: tied to the phase they name (``PROCESS S1901M``, as
njudge reads it) or, when they name none, to the game as it stood when the
mail was written — a mail identical to one done less than an hour before,
finding the game as that one left it (no orders since), is a repeat (a mail
sent twice) and is refused, naming the phase the game is at (issue 13 point 12). Every GM reply ends with where the game
stands (:func:`judge.game.turns.lifecycle`).

Every refusal is a reply line with the reason; nothing changes then. What a
command makes the judge tell others (results, new deadline, press) is a
:class:`~judge.game.notices.Notice` turned into mails at the end of the mail.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from datetime import datetime, timedelta

from ..game import GameError, master, nmr, turns
from ..game.deadlines import local_to_utc, zone_of
from ..game.final_report import final_data
from ..game.notices import Notice, mailto, merged
from ..game.press import is_press_end, keep_broadcast, read_press, route
from ..game.setting_text import hours_of, preset_reply
from .registry import usage_of
from ..maps import load_names
from ..notation.names import name_index
from .masking import mask
from .passwords import hash_password

ADVISOR_ADD = ("ADD", "添加", "增加", "加入", "加")
ADVISOR_REMOVE = ("REMOVE", "DELETE", "DEL", "删除", "刪除", "移除", "去掉", "除去")
ADVISOR_NO_MAIL = ("NOMAIL", "NO-MAIL", "不收信", "不抄送")

PHASE_COMMANDS = ("process", "rollback", "extend", "deadline")
"""GM commands that move the game on: compare-and-set (:meth:`GameCommands._gm_command`)."""
RETRY = {"process": "PROCESS {phase}", "rollback": "{line}", "extend": "SET DEADLINE DATE TIME",
         "deadline": "{line}"}
"""What a refusal tells the GM to send to do the command for the current phase."""
REPEAT_WINDOW = timedelta(hours=1)
"""A GM mail identical to one done less than this long ago, finding the game as
that one left it, is a repeat (a mail sent twice): its phase-changing commands
are refused (:meth:`GameCommands._written_for`)."""
ACTED_KEPT = 8


def _order_count(game) -> int:
    """Order entries written in the current phase (replaced ones too)."""
    return sum(len(es) for es in game.orders.values())


def _mail_digest(mail) -> str:
    """Who sent the mail and what it says: the same for a mail sent twice."""
    return hashlib.sha256(f"{mail.sender}\0{mail.text.strip()}".encode()).hexdigest()[:24]

_DATE = re.compile(r"^(\d{4}-\d\d-\d\d)(?:[T ](\d\d?:\d\d))?$")


def read_time(text: str, tz: str, end_of_day: bool = False) -> datetime:
    """``2025-04-01``, ``2025-04-01 18:00`` (local time in zone ``tz``) or ISO
    8601 with an offset (``2025-04-01T18:00+08:00``) -> UTC. A date alone is
    its first moment, or with ``end_of_day`` the first moment of the next day.
    ValueError (with a sentence, never Python's own words) for anything else,
    a month 13 or an hour 25 included."""
    text = text.strip()
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


class GameCommands:
    """See module doc. Methods are named ``_<command>`` as the handler dispatches."""

    # ---- helpers ---------------------------------------------------------------------
    def _player(self, s, cmd):
        if s.game is None or s.power is None:
            self._error(s, cmd.line, "need_signon")
            return None
        return s.game

    def _as_gm(self, s, cmd):
        if s.game is None or not s.gm:
            self._error(s, cmd.line, "gm_only")
            return None
        return s.game

    def _time(self, s, cmd, text: str, command: str, end_of_day: bool = False) -> datetime | None:
        """``text`` read as a time in the game's zone (:func:`read_time`), or
        None after an error line in the reader's language that shows how to
        write it for ``command``."""
        tz = s.game.settings.deadlines.timezone
        try:
            return read_time(text, tz, end_of_day)
        except ValueError:
            self._error(s, cmd.line, "bad_time", text=text.strip(), timezone=tz, **time_examples(command, tz, s.now))
            return None

    def _refused(self, s, cmd, e: Exception) -> None:
        self._error(s, cmd.line, "refused", reason=e)

    def _gm_done(self, s, cmd, game, action: str, notices, **extra) -> None:
        s.notices += list(notices)
        self._changed(s, game)
        s.results.append({"kind": "gm", "line": cmd.line, "game": game.name, "map": game.map_name,
                          "action": action, "phase": str(game.phase), "deadline": game.schedule.deadline,
                          "timezone": game.settings.deadlines.timezone, "status": turns.lifecycle(game),
                          **extra})

    def notice_replies(self, s) -> list:
        """The mails for the notices this mail's commands made (at the end of
        the mail, so recipients are those of the games as they are then). A
        game's final report is one mail made from the game as the mail left it,
        with every ruling and vote of the mail (issue 13 point 3); the results
        of those rulings and votes say so (``report``: ``"sent"`` on the last
        of them, ``"with_last"`` on the others)."""
        from .notices import notice_replies     # it needs commands.Reply: import when used
        out, reported = [], set()
        for n in merged(s.notices):
            game = s.games.get(n.data.get("game"))
            if game is None:
                continue
            if n.kind == "game_over":
                if not game.finished:           # rolled back later in the same mail: no game over
                    continue
                n = dataclasses.replace(n, data=final_data(game))
                reported.add(game.name)
            out += notice_replies(n, game, s.db, self.cfg.judge)
        for name in reported:
            told = [r for r in s.results if r.get("game") == name and r.get("kind") in ("ruling", "vote")
                    and r.get("over")]
            for r in told:
                r["report"] = "sent" if r is told[-1] else "with_last"
        # a setting such as join_password=... reaches every player: never its value
        return [dataclasses.replace(r, context=mask(r.context, s.secrets)) for r in out] if s.secrets else out

    # ---- press -----------------------------------------------------------------------
    def _press_block(self, s, lines: list[str], i: int) -> int:
        """The press block opening at ``lines[i]``; returns the next line to read."""
        line = lines[i]
        if s.game is None:
            self._error(s, line, "need_signon")
            return _after_press(lines, i)
        game = s.game
        try:
            block, nxt = read_press(lines, i, name_index_of(game))
        except GameError as e:
            self._error(s, line, "refused", reason=e)
            return _after_press(lines, i)     # not i + 1: a block of PRESS lines would be read again and again
        sender = None if s.gm and s.power is None else s.power
        try:
            notices = route(game, sender, block, f"{s.mail.key}:{len(s.notices)}")
        except GameError as e:
            self._error(s, line, "press_refused", reason=e)
            return nxt
        s.notices += notices
        keep_broadcast(game, sender, block, s.now)
        self._changed(s, game)
        h = block.header
        s.results.append({"kind": "press", "line": line.strip(), "game": game.name, "map": game.map_name,
                          "broadcast": h.to is None, "to": list(h.to or ()), "to_gm": h.gm, "grey": h.grey,
                          "closed": block.closed})
        return nxt

    # ---- players ---------------------------------------------------------------------
    def _set_wait(self, s, cmd, wait: bool = True) -> None:
        game = self._player(s, cmd)
        if game is None:
            return
        turns.set_wait(game, s.power, wait)
        self._changed(s, game)
        s.results.append({"kind": "wait", "line": cmd.line, "game": game.name, "map": game.map_name,
                          "power": s.power, "wait": wait})

    def _set_nowait(self, s, cmd) -> None:
        self._set_wait(s, cmd, False)

    def _set_absence(self, s, cmd) -> None:
        game = self._player(s, cmd)
        if game is None:
            return
        words = [w.upper() for w in cmd.args]
        if "FROM" not in words or "TO" not in words:
            return self._error(s, cmd.line, "usage", usage=usage_of("set_absence"))
        a, b = words.index("FROM"), words.index("TO")
        tz = game.settings.deadlines.timezone
        start = self._time(s, cmd, " ".join(cmd.args[a + 1:b]), "SET ABSENCE")
        end = start and self._time(s, cmd, " ".join(cmd.args[b + 1:]), "SET ABSENCE", end_of_day=True)
        if end is None:
            return
        try:
            moved = nmr.set_absence(game, s.power, start, end, s.now)
        except (ValueError, GameError) as e:
            return self._refused(s, cmd, e)
        if moved:
            s.notices.append(turns.deadline_notice(game, "deadline", s.now))
        self._changed(s, game)
        s.results.append({"kind": "absence", "line": cmd.line, "game": game.name, "map": game.map_name,
                          "power": s.power, "start": start, "end": end, "timezone": tz,
                          "deadline": game.schedule.deadline})

    def _advisor(self, s, cmd) -> None:
        """``ADVISOR ADD address [NOMAIL]`` / ``ADVISOR REMOVE address`` /
        ``ADVISOR`` (幕僚 添加|删除 ...): the leader's advisors (Appendix 2:
        they help the leader, get the power's mail if the leader wants, and
        score nothing). Only the leader may change them; each advisor added or
        removed is told."""
        game = self._player(s, cmd)
        if game is None:
            return
        words = list(cmd.args)
        if words and not any(words[0].upper() == w or words[0] == w for w in (*ADVISOR_ADD, *ADVISOR_REMOVE)):
            for w in (*ADVISOR_ADD, *ADVISOR_REMOVE):      # 幕僚添加x@y: the word and the address run together
                if words[0].startswith(w) and w[0] > "~":
                    words[:1] = [w, words[0][len(w):]]
                    break
        pl, power = game.players[s.power], s.power
        action = "list"
        if words:
            verb = words[0].upper()
            action = "add" if verb in ADVISOR_ADD or words[0] in ADVISOR_ADD else \
                "remove" if verb in ADVISOR_REMOVE or words[0] in ADVISOR_REMOVE else None
            rest = [w for w in words[1:] if w]
            if action is None or not rest:
                return self._error(s, cmd.line, "usage", usage=usage_of("advisor"))
            if not self._leader_here(s):
                return self._error(s, cmd.line, "not_the_leader", power=power, map=game.map_name)
            address = rest[0].strip("<>").lower()
            local, at, domain = address.partition("@")
            if not (local and at and "." in domain):
                return self._error(s, cmd.line, "bad_address", text=rest[0])
            mail = not any(w.upper() in ADVISOR_NO_MAIL or w in ADVISOR_NO_MAIL for w in rest[1:])
            if action == "add":
                if address == pl.leader:
                    return self._error(s, cmd.line, "advisor_is_leader", power=power, map=game.map_name)
                other = next((p for p, x in game.players.items() if p != power and address in x.addresses), None)
                if other is not None:
                    return self._error(s, cmd.line, "advisor_elsewhere", text=address, power=other,
                                       map=game.map_name)
                pl = dataclasses.replace(pl, addresses=pl.addresses + (() if address in pl.addresses else (address,)),
                                         no_mail=tuple(a for a in pl.no_mail if a != address) + (() if mail else (address,)))
            else:
                if address not in pl.advisors:
                    return self._error(s, cmd.line, "not_an_advisor", text=address, power=power, map=game.map_name)
                pl = dataclasses.replace(pl, addresses=tuple(a for a in pl.addresses if a != address),
                                         no_mail=tuple(a for a in pl.no_mail if a != address))
            game.players[power] = pl
            self._changed(s, game)
            s.notices.append(Notice("advisor", mailto((address,)), {
                "game": game.name, "map": game.map_name, "power": power, "added": action == "add",
                "mail": mail, "leader": pl.leader, "language": pl.language},
                f"{game.name}:advisor:{power}:{address}:{s.mail.key}"))
        s.last_game = game.name
        s.results.append({"kind": "advisor", "line": cmd.line, "game": game.name, "map": game.map_name,
                          "power": power, "action": action,
                          "advisors": [(a, a not in pl.no_mail) for a in pl.advisors]})

    def _observe(self, s, cmd) -> None:
        if not cmd.args:
            return self._error(s, cmd.line, "usage", usage=usage_of("observe"))
        game = self._find_game(s, cmd.args[0])
        if game is None:
            return self._error(s, cmd.line, "no_such_game", game=cmd.args[0])
        game.observers[s.mail.reply_to] = self._language(s)
        self._changed(s, game)
        s.last_game = game.name
        s.results.append({"kind": "observe", "line": cmd.line, "game": game.name, "map": game.map_name,
                          "phase": str(game.phase), "deadline": game.schedule.deadline,
                          "timezone": game.settings.deadlines.timezone})

    # ---- the GM ----------------------------------------------------------------------
    def _gm_command(self, s, cmd, action: str, run, phase: str | None = None) -> None:
        """Run a GM command. One that moves the game on (:data:`PHASE_COMMANDS`)
        is compare-and-set (issue 13 point 12): it is done only for the phase it
        names (``phase``, e.g. ``PROCESS S1901M``) or, unnamed, unless the mail
        repeats one done in the last :data:`REPEAT_WINDOW` after which the game
        moved on (a mail sent twice); a refusal names the current phase."""
        game = self._as_gm(s, cmd)
        if game is None:
            return
        try:
            if action in PHASE_COMMANDS:
                self._written_for(s, game, action, cmd, phase)
            notices, extra = run(game)
        except (GameError, ValueError) as e:
            return self._refused(s, cmd, e)
        if action in PHASE_COMMANDS:
            self._record_act(s, game)
        self._gm_done(s, cmd, game, action, notices, **extra)

    def _written_for(self, s, game, action: str, cmd, phase: str | None) -> None:
        """Raises GameError (``phase_moved``/``repeated``) when the command is
        not for the game as it stands (see :meth:`_gm_command`). A repeat is
        the same mail from the same GM, less than :data:`REPEAT_WINDOW` after
        the first was done, with the game as the first left it: same phase and
        deadline, and no orders written since — what a mail sent twice finds.
        (Once players have ordered in the new phase, the same words mean it.)"""
        current = str(game.phase)
        retry = RETRY[action].format(phase=current, line=cmd.line)
        if phase is not None:
            if phase != current:
                raise GameError.of("phase_moved", game=game.name, phase=phase, current=current, retry=retry)
            return
        digest, now = _mail_digest(s.mail), s.now
        deadline = game.schedule.deadline.isoformat() if game.schedule.deadline else ""
        for mark, left_at, left_deadline, at, key, orders in game.schedule.acted:
            when = datetime.fromisoformat(at)
            if mark != digest or key == s.mail.key or now - when >= REPEAT_WINDOW:
                continue
            if (left_at, left_deadline, orders) == (current, deadline, _order_count(game)):
                raise GameError.of("repeated", game=game.name, at=when.strftime("%H:%M UTC"), current=current,
                                   retry=retry)

    def _record_act(self, s, game) -> None:
        """Note the game as this mail's command left it (see :meth:`_written_for`)."""
        kept = tuple(a for a in game.schedule.acted if s.now - datetime.fromisoformat(a[3]) < REPEAT_WINDOW)
        deadline = game.schedule.deadline
        mark = (_mail_digest(s.mail), str(game.phase), deadline.isoformat() if deadline else "",
                s.now.isoformat(), s.mail.key, _order_count(game))
        game.schedule = dataclasses.replace(game.schedule, acted=(kept + (mark,))[-ACTED_KEPT:])

    def _set_deadline(self, s, cmd) -> None:
        when = self._as_gm(s, cmd) and self._time(s, cmd, " ".join(cmd.args), "SET DEADLINE")
        if when:
            self._gm_command(s, cmd, "deadline", lambda game: (master.set_deadline(game, when, s.now), {}))

    def _start(self, s, cmd) -> None:
        when = None
        if cmd.args:
            when = self._as_gm(s, cmd) and self._time(s, cmd, " ".join(cmd.args), "START")
            if not when:
                return
        self._gm_command(s, cmd, "start", lambda game: (turns.start(game, s.now, when), {}))

    def _extend(self, s, cmd) -> None:
        def run(game):
            return master.extend(game, hours_of(" ".join(cmd.args) or "24h"), s.now), {}
        self._gm_command(s, cmd, "extend", run)

    def _pause(self, s, cmd) -> None:
        def run(game):
            n = turns.pause(game, s.now, hours_of(" ".join(cmd.args)) if cmd.args else None)
            return [n], {"until": game.schedule.pause_until}
        self._gm_command(s, cmd, "pause", run)

    def _resume(self, s, cmd) -> None:
        self._gm_command(s, cmd, "resume", lambda game: (turns.resume(game, s.now), {}))

    def _process(self, s, cmd) -> None:
        def run(game):
            step = master.process_now(game, s.now)
            return step.notices, {"processed": [r.phase for r in step.records]}
        try:
            phase = master.phase_name(cmd.args[0]) if cmd.args else None    # PROCESS S1901M (njudge's form)
        except GameError as e:
            return self._refused(s, cmd, e)
        self._gm_command(s, cmd, "process", run, phase)

    def _rollback(self, s, cmd) -> None:
        def run(game):
            if not cmd.args:
                raise GameError("name_phase")
            return master.rollback(game, master.phase_name(cmd.args[0]), s.now), {}
        self._gm_command(s, cmd, "rollback", run)

    def _eject(self, s, cmd) -> None:
        def run(game):
            power = self._power_arg(game, cmd)
            return master.eject(game, power, s.now), {"power": power}
        self._gm_command(s, cmd, "eject", run)

    def _replace(self, s, cmd) -> None:
        def run(game):
            if len(cmd.args) < 2 or len(cmd.args[-1]) < 4:
                raise GameError.of("short_password")
            power = self._power_arg(game, cmd, cmd.args[:-1])
            return master.replace_power(game, power, hash_password(cmd.args[-1]), s.now), {"power": power}
        self._gm_command(s, cmd, "replace", run)

    def _become(self, s, cmd) -> None:
        game = self._as_gm(s, cmd)
        if game is None:
            return
        try:
            power = master.check_become(game, self._power_arg(game, cmd))
        except GameError as e:
            return self._refused(s, cmd, e)
        s.power = power
        s.results.append({"kind": "gm", "line": cmd.line, "game": game.name, "map": game.map_name,
                          "action": "become", "power": power, "phase": str(game.phase),
                          "deadline": game.schedule.deadline, "timezone": game.settings.deadlines.timezone})

    def _set_settings(self, s, cmd) -> None:
        def run(game):
            notices = master.change(game, list(cmd.args), s.now)
            return notices, {"changes": list(cmd.args), "preset": preset_reply(cmd.args, game.settings)}
        self._gm_command(s, cmd, "settings", run)

    @staticmethod
    def _power_arg(game, cmd, words=None) -> str:
        text = " ".join(words if words is not None else cmd.args)
        if not text:
            raise GameError("name_power")
        return name_index_of(game).power(text) or game.power(text)


def _after_press(lines: list[str], i: int) -> int:
    """The index of the line after the press block opening at ``lines[i]``
    (after its ENDPRESS, or the end of the mail)."""
    j = i + 1
    while j < len(lines) and not is_press_end(lines[j]):
        j += 1
    return j + 1


def name_index_of(game):
    return name_index(game.map, load_names(game.map_name))
