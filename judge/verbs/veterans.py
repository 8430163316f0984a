"""The commands of njudge's and DPjudge's users that have no verb of their
own here: the rare ones answered with this judge's way to do it
(:func:`our_way`), njudge's ``SET NOABSENCE`` and ``DIARY``.

The common ones are other verbs' ``veterans`` words (:mod:`.registry`):
``SET DRAW``, ``SET NO WAIT``, ``TAKEOVER``, ``WATCH``, ``TERMINATE``, ...;
their ``power@game`` forms and ``SIGNON ?game`` are read there too
(:func:`judge.verbs.registry.read_commands`). The README's table lists them all.

``DIARY`` (njudge's): private notes of a power (or the GM) in a game, kept in
table ``diary`` (game -> {writer: [{at, phase, text}, ...]}, writer a power or
``GM``)::

    DIARY [RECORD]      the lines after it, up to ENDDIARY (or ENDPRESS,
                        SIGNOFF, the end of the mail), are one entry
    DIARY LIST          the writer's entries, numbered
    DIARY READ N        entry N in full
    DIARY DELETE N      entry N gone
    DIARY GAME          after the game's end, anyone: every entry, by writer
                        (the diaries go into the game's archive)

Nobody but the writer sees an entry while the game runs.
"""

from __future__ import annotations

from ..game import GameError
from ..game import nmr
from ..text.catalogue import N_
from .session import CommandLine, Session

OURS = {
    "WHOGAME": N_("LIST GAME shows a game's powers, who still has orders to write, and the units; the players' "
                  "addresses stay private here"),
    "WHOIS": N_("the judge keeps no register of players; a game's GM knows its players' addresses"),
    "I AM ALSO": N_("there is no registration: each game knows you by the address you joined with; SET ADDRESS "
                    "NEW@ADDRESS (after SIGNON) moves a power's mail to another address"),
    "REGISTER": N_("there is no registration: JOIN GAME PASSWORD [POWER] is all it takes"),
    "GET": N_("HELP is the list of commands; the README on the judge's web pages has the rest"),
    "MANUAL": N_("HELP is the list of commands; the README on the judge's web pages has the rest"),
    "INFO": N_("HELP is the list of commands; the README on the judge's web pages has the rest"),
    "SET GREY": N_("grey press is the sender's choice here: PRESS TO POWER GREY or BROADCAST GREY (the GM allows it: "
                   "SET press=grey)"),
    "SET NOGREY": N_("grey press is the sender's choice here: PRESS TO POWER GREY or BROADCAST GREY (the GM allows it: "
                     "SET press=grey)"),
    "POSTAL PRESS": N_("press goes out at once here: PRESS TO POWER or BROADCAST ... ENDPRESS"),
    "BECOME MASTER": N_("a game's GM is who created it (CREATE GAME PASSWORD); the GM can hand the game on with "
                        "SET ADDRESS NEW@ADDRESS"),
    "SET MODERATE": N_("every game here has its GM: the one who created it"),
    "SET UNMODERATE": N_("every game here has its GM: the one who created it"),
    "WAIT": N_("the GM stops the clock with PAUSE (RESUME goes on); a player holds the phase to its deadline with "
               "SET WAIT"),
    "UNSTART": N_("the GM can ROLLBACK S1901M (back to the first phase), or PAUSE the game"),
    "PREDICT": N_("the judge adjudicates only at the deadline or at the GM's PROCESS; MAP shows the position"),
    "PREVIEW": N_("the judge adjudicates only at the deadline or at the GM's PROCESS; MAP shows the position"),
    "PROMOTE": N_("an advisor helps a power here: the leader sends ADVISOR ADD ADDRESS; the GM opens a power to a "
                  "new player with REPLACE POWER PASSWORD"),
    "DUMMY": N_("the GM opens a power to a new player with REPLACE POWER PASSWORD, or enters its orders with "
                "BECOME POWER; a power nobody plays holds (civil disorder)"),
    "OFFICIAL": N_("every game here is adjudicated the same way; the GM's settings say how (SET key=value)"),
    "PURGE": N_("the judgekeeper removes games (judge game leave GAME); ask the judgekeeper"),
    "REVEAL": N_("after the game's end, HISTORY and SUMMARY show everything, the diaries too (DIARY GAME)"),
    "ROLLFORWARD": N_("the GM can PROCESS the phase again after a ROLLBACK; the orders written for it stand"),
    "REVIVE": N_("the GM can ROLLBACK a finished game to a phase it played, and it runs again"),
    "RENAME": N_("a game keeps its name here; create a new one with CREATE"),
    "FORM": N_("a game forms from CREATE until every power is taken; the GM can START it earlier"),
    "ACTIVATE": N_("a game forms from CREATE until every power is taken; the GM can START it earlier"),
    "SET LISTED": N_("the GM lists a game with SET listed=yes (SET listed=no: unlisted)"),
    "SET UNLISTED": N_("the GM lists a game with SET listed=yes (SET listed=no: unlisted)"),
    "SET PREFERENCE": N_("powers are chosen in the JOIN line here: JOIN GAME PASSWORD POWER (the first free one "
                         "without)"),
    "IF": N_("conditional orders are not read here; write the orders for this phase, or for a later one after "
             "PHASE Fall 1901 Movement"),
    "PROPOSE": N_("a draw here is every survivor's DRAW [POWERS] (NODRAW withdraws it); a concession is CONCEDE "
                  "POWER"),
    "VOTE DRAW": N_("a draw here is every survivor's DRAW [POWERS] (NODRAW withdraws it); a concession is CONCEDE "
                    "POWER (VOTE is the leaders' award vote: VOTE BEST STRATEGY POWER)"),
    "ADJUST": N_("the judge keeps no dedication ratings; the GM sees each power's NMRs in LIST GAME and the results"),
    "SET DEDICATION": N_("the judge keeps no dedication ratings; the GM sees each power's NMRs in LIST GAME and the "
                         "results"),
    "SET": N_("the GM's game settings are written SET key=value here (SET press=grey movement=48h ...); HELP "
              "lists the commands"),
}
"""A veteran's command without its like here -> this judge's way (a
catalogue sentence). ``SET``: any other njudge ``SET WORD`` of a GM."""


def our_way(s: Session, cmd: CommandLine) -> None:
    """A veteran's rare command: changes nothing; the answer names the
    command as its judge knew it and this judge's way to do it."""
    line = " ".join(cmd.line.upper().split())
    word = cmd.params.get("veteran") or max((k for k in OURS if line == k or line.startswith(k + " ")),
                                            key=len, default="SET")
    s.error(cmd.line, "our_way", word=word, ours=OURS.get(word, OURS["SET"]))


def set_noabsence(s: Session, cmd: CommandLine) -> None:
    """SET NOABSENCE (njudge's): the power's absences not over yet are withdrawn."""
    game = s.game
    n = nmr.clear_absence(game, s.power, s.now)
    s.changed(game)
    s.results.append({"kind": "absence", "line": cmd.line, "game": game.name, "map": game.map_name,
                      "power": s.power, "cleared": n, "timezone": game.settings.deadlines.timezone,
                      "deadline": game.schedule.deadline, "moved": False})


# ---- DIARY ------------------------------------------------------------------------------
DIARY_WORDS = {"RECORD": "record", "LIST": "list", "READ": "read", "DELETE": "delete",
               "记录": "record", "記錄": "record", "列表": "list", "阅读": "read", "閱讀": "read",
               "删除": "delete", "刪除": "delete"}
DIARY_ENDS = ("ENDDIARY", "END DIARY", "ENDPRESS", "END PRESS", "ENDBROADCAST", "日记结束", "日記結束")
"""Lines that end a diary entry (SIGNOFF ends it too, and is read)."""
MAX_ENTRIES = 200


def diary_action(cmd: CommandLine) -> str | None:
    """``record``, ``list``, ``read``, ``delete`` — or None: ``DIARY GAME``."""
    if not cmd.args:
        return "record"
    return DIARY_WORDS.get(cmd.args[0].upper()) or DIARY_WORDS.get(cmd.args[0])


def diary(s: Session, cmd: CommandLine) -> None:
    """DIARY (see module doc); the entry's lines are the command's ``body``."""
    action = diary_action(cmd)
    if action is None:
        return _diary_archive(s, cmd)
    game = s.game
    if game is None or (s.power is None and not s.gm):
        return s.error(cmd.line, "need_signon")
    writer = s.power or "GM"
    row = dict(s.db.get("diary", game.name) or {})
    entries = list(row.get(writer, ()))
    result = {"kind": "diary", "line": cmd.line, "game": game.name, "map": game.map_name, "writer": writer,
              "action": action}
    if action == "record":
        text = "\n".join(cmd.body).strip()
        if not text:
            return s.error(cmd.line, "diary_empty")
        if len(entries) >= MAX_ENTRIES:
            return s.error(cmd.line, "diary_full", limit=MAX_ENTRIES)
        entries.append({"at": s.now.isoformat(), "phase": str(game.phase), "text": text})
        result.update(number=len(entries))
    elif action == "list":
        result.update(entries=[(i + 1, e["phase"], e["text"].split("\n")[0][:60]) for i, e in enumerate(entries)])
    else:
        number = cmd.args[1] if len(cmd.args) > 1 else ""
        if not number.isdigit() or not 1 <= int(number) <= len(entries):
            return s.error(cmd.line, "diary_no_entry", text=number, count=len(entries))
        n = int(number)
        result.update(number=n, phase=entries[n - 1]["phase"], text=entries[n - 1]["text"])
        if action == "delete":
            del entries[n - 1]
    if action in ("record", "delete"):
        row[writer] = entries
        s.db.put("diary", game.name, row)
    s.last_game = game.name
    s.results.append(result)


def _diary_archive(s: Session, cmd: CommandLine) -> None:
    """``DIARY GAME``: every entry of a game that is over, by writer."""
    game = s.find_game(cmd.args[0])
    if game is None or not s.sees(game):          # a private game: as if there were none
        return s.error(cmd.line, "no_such_game", game=cmd.args[0])
    if not game.finished:
        raise GameError("diary_private", game=game.name)
    s.last_game = game.name
    s.results.append(diaries(s, game, cmd.line))


def diaries(s: Session, game, line: str) -> dict:
    """The result showing every diary entry of ``game`` (over), by writer:
    DIARY GAME's answer, and SUMMARY's after the end (the archive)."""
    row = s.db.get("diary", game.name) or {}
    return {"kind": "diary", "line": line, "game": game.name, "map": game.map_name,
            "action": "archive", "writers": [(w, row[w]) for w in sorted(row)]}

