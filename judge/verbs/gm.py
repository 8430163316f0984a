"""The GM's verbs (after ``SIGNON game gm-password``; the judgekeeper's
command line has the GM's powers): SET DEADLINE, START, EXTEND, PAUSE,
RESUME, PROCESS, ROLLBACK, EJECT, REPLACE, BECOME, SET key=value, APPROVE,
REJECT — each over :mod:`judge.game.master` and :mod:`judge.game.turns`.

The verbs that move the game on (PROCESS, ROLLBACK, EXTEND, SET DEADLINE)
are compare-and-set: tied to the phase they name (``PROCESS S1901M``, as
njudge reads it) or, when they name none, to the game as it stood when the
mail was written — a mail identical to one done less than an hour before,
finding the game as that one left it (no orders since), is a repeat (a mail
sent twice) and is refused, naming the phase the game is at (issue 13
point 12; the command line runs each command once, and is not checked for
repeats). Every GM answer ends with where the game stands
(:func:`judge.game.turns.lifecycle`).
"""

from __future__ import annotations

import dataclasses
import hashlib
from datetime import datetime, timedelta

from ..game import GameError, master, turns
from ..game.future import read_phase
from ..game.passwords import hash_password
from ..game.setting_text import hours_of, preset_reply
from .anyone import free_powers, seat
from .session import Letter, Session, names_of

PHASE_COMMANDS = ("process", "rollback", "extend", "deadline")
"""GM verbs that move the game on: compare-and-set (see module doc)."""
RETRY = {"process": "PROCESS {phase}", "rollback": "{line}", "extend": "SET DEADLINE DATE TIME",
         "deadline": "{line}"}
"""What a refusal tells the GM to send to do the command for the current phase."""
REPEAT_WINDOW = timedelta(hours=1)
"""A GM mail identical to one done less than this long ago, finding the game as
that one left it, is a repeat (a mail sent twice): its phase-changing commands
are refused (:func:`_written_for`)."""
ACTED_KEPT = 8


def _gm_command(s: Session, cmd, action: str, run, phase: str | None = None) -> None:
    """Run a GM command: ``run(game) -> (notices, extra result data)``. One
    that moves the game on (:data:`PHASE_COMMANDS`) is compare-and-set (see
    module doc); a refusal names the current phase."""
    game = s.game
    try:
        if action in PHASE_COMMANDS:
            _written_for(s, game, action, cmd, phase)
        notices, extra = run(game)
    except (GameError, ValueError) as e:
        return s.refuse(cmd, e)
    if action in PHASE_COMMANDS and s.asker.role != "keeper":
        _record_act(s, game)
    s.notices += list(notices)
    s.changed(game)
    s.results.append({"kind": "gm", "line": cmd.line, "game": game.name, "map": game.map_name,
                      "action": action, "phase": str(game.phase), "deadline": game.schedule.deadline,
                      "timezone": game.settings.deadlines.timezone, "status": turns.lifecycle(game), **extra})


def _order_count(game) -> int:
    """Order entries written in the current phase (replaced ones too)."""
    return sum(len(es) for es in game.orders.values()) + game.replaced_log.count


def _mail_digest(asker) -> str:
    """Who sent the mail and what it says: the same for a mail sent twice."""
    return hashlib.sha256(f"{asker.address}\0{asker.text.strip()}".encode()).hexdigest()[:24]


def _written_for(s: Session, game, action: str, cmd, phase: str | None) -> None:
    """Raises GameError (``phase_moved``/``repeated``) when the command is
    not for the game as it stands (see module doc). A repeat is the same
    mail from the same GM, less than :data:`REPEAT_WINDOW` after the first
    was done, with the game as the first left it: same phase and deadline,
    and no orders written since — what a mail sent twice finds. (Once
    players have ordered in the new phase, the same words mean it.)"""
    current = str(game.phase)
    retry = RETRY[action].format(phase=current, line=cmd.line)
    if phase is not None:
        if phase != current:
            raise GameError.of("phase_moved", game=game.name, phase=phase, current=current, retry=retry)
        return
    if s.asker.role == "keeper":
        return
    digest, now = _mail_digest(s.asker), s.now
    deadline = game.schedule.deadline.isoformat() if game.schedule.deadline else ""
    for mark, left_at, left_deadline, at, key, orders in game.schedule.acted:
        when = datetime.fromisoformat(at)
        if mark != digest or key == s.asker.key or now - when >= REPEAT_WINDOW:
            continue
        if (left_at, left_deadline, orders) == (current, deadline, _order_count(game)):
            raise GameError.of("repeated", game=game.name, at=when.strftime("%H:%M UTC"), current=current,
                               retry=retry)


def _record_act(s: Session, game) -> None:
    """Note the game as this mail's command left it (see :func:`_written_for`)."""
    kept = tuple(a for a in game.schedule.acted if s.now - datetime.fromisoformat(a[3]) < REPEAT_WINDOW)
    deadline = game.schedule.deadline
    mark = (_mail_digest(s.asker), str(game.phase), deadline.isoformat() if deadline else "",
            s.now.isoformat(), s.asker.key, _order_count(game))
    game.schedule = dataclasses.replace(game.schedule, acted=(kept + (mark,))[-ACTED_KEPT:])


# ---- the clock ------------------------------------------------------------------------
def set_deadline(s: Session, cmd) -> None:
    when = s.time(cmd, " ".join(cmd.args), "SET DEADLINE")
    if when:
        _gm_command(s, cmd, "deadline", lambda game: (master.set_deadline(game, when, s.now), {}))


def start(s: Session, cmd) -> None:
    when = None
    if cmd.args:
        when = s.time(cmd, " ".join(cmd.args), "START")
        if not when:
            return
    _gm_command(s, cmd, "start", lambda game: (turns.start(game, s.now, when), {}))


def extend(s: Session, cmd) -> None:
    def run(game):
        return master.extend(game, hours_of(" ".join(cmd.args) or "24h"), s.now), {}
    _gm_command(s, cmd, "extend", run)


def pause(s: Session, cmd) -> None:
    def run(game):
        n = turns.pause(game, s.now, hours_of(" ".join(cmd.args)) if cmd.args else None)
        return [n], {"until": game.schedule.pause_until}
    _gm_command(s, cmd, "pause", run)


def resume(s: Session, cmd) -> None:
    _gm_command(s, cmd, "resume", lambda game: (turns.resume(game, s.now), {}))


def process(s: Session, cmd) -> None:
    def run(game):
        step = master.process_now(game, s.now)
        return step.notices, {"processed": [r.phase for r in step.records]}
    phase = read_phase(" ".join(cmd.args)) if cmd.args else None    # PROCESS S1901M, PROCESS Spring 1901 Movement
    _gm_command(s, cmd, "process", run, phase)


def rollback(s: Session, cmd) -> None:
    def run(game):
        if not cmd.args:
            raise GameError("name_phase")
        return master.rollback(game, read_phase(" ".join(cmd.args)), s.now), {}
    _gm_command(s, cmd, "rollback", run)


# ---- players --------------------------------------------------------------------------
def eject(s: Session, cmd) -> None:
    def run(game):
        power = s.power_arg(game, cmd.args)
        return master.eject(game, power, s.now), {"power": power}
    _gm_command(s, cmd, "eject", run)


def replace(s: Session, cmd) -> None:
    def run(game):
        if len(cmd.args) < 2 or len(cmd.args[-1]) < 4:
            raise GameError.of("short_password")
        power = s.power_arg(game, cmd.args[:-1])
        return master.replace_power(game, power, hash_password(cmd.args[-1]), s.now), {"power": power}
    _gm_command(s, cmd, "replace", run)


def become(s: Session, cmd) -> None:
    game = s.game
    power = master.check_become(game, s.power_arg(game, cmd.args))
    s.power = power
    s.results.append({"kind": "gm", "line": cmd.line, "game": game.name, "map": game.map_name,
                      "action": "become", "power": power, "phase": str(game.phase),
                      "deadline": game.schedule.deadline, "timezone": game.settings.deadlines.timezone})


def set_settings(s: Session, cmd) -> None:
    """``SET key=value ...`` (:mod:`judge.game.setting_text`); on the command
    line, no pairs: the settings as they are (``tz`` option: the zone of an
    ``end_at`` without offset)."""
    if cmd.params.get("bare"):          # a mail's SET alone
        return s.usage(cmd)

    def run(game):
        if not cmd.args:
            return [], {"changes": []}
        notices = master.change(game, list(cmd.args), s.now, cmd.params.get("tz"))
        return notices, {"changes": list(cmd.args), "preset": preset_reply(cmd.args, game.settings)}
    _gm_command(s, cmd, "settings", run)


# ---- joins the GM approves (approve=yes) ----------------------------------------------
def _pending_join(s: Session, cmd):
    """``(game, the pending JOIN named by the command's address or power)``,
    or None after an error line."""
    game = s.game
    if not cmd.args:
        return s.usage(cmd)
    row = s.db.get("joins", game.name) or {}
    text = " ".join(cmd.args).strip("<>").lower()
    power = names_of(game).power(text)
    found = next((j for j in row.get("pending", []) if j["address"] == text or j["power"] == power), None)
    if found is None:
        return s.error(cmd.line, "no_pending_join", game=game.name, text=" ".join(cmd.args))
    return game, found


def _take_join(s: Session, game, join: dict) -> None:
    """Take the answered ``join`` off table ``joins``."""
    pending = (s.db.get("joins", game.name) or {}).get("pending", [])
    s.db.put("joins", game.name, {"pending": [j for j in pending if j is not join]})


def approve(s: Session, cmd) -> None:
    got = _pending_join(s, cmd)
    if got is None:
        return
    game, join = got
    if join["power"] not in free_powers(game):
        return s.error(cmd.line, "power_taken", game=game.name, map=game.map_name, power=join["power"],
                       free=free_powers(game))
    _take_join(s, game, join)
    seat(s, cmd.line, game, join["power"], join["address"], join["password_hash"], join["language"])
    joined = dict(s.results[-1], line=f"JOIN {game.name}", copies=())
    s.results[-1] = dict(s.results[-1], kind="join_approved", address=join["address"])
    s.letters.append(Letter(f"join-approved:{game.name}:{join['address']}", join["address"], join["language"],
                            f"{game.name}: JOIN", (joined,), game.name))


def reject(s: Session, cmd) -> None:
    got = _pending_join(s, cmd)
    if got is None:
        return
    game, join = got
    _take_join(s, game, join)
    s.results.append({"kind": "join_rejected", "line": cmd.line, "game": game.name, "map": game.map_name,
                      "power": join["power"], "address": join["address"]})
    s.letters.append(Letter(f"join-rejected:{game.name}:{join['address']}", join["address"], join["language"],
                            f"{game.name}: JOIN", ({"kind": "join_refused", "game": game.name, "copies": ()},),
                            game.name))
