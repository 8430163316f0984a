"""The GM's operations of ``judge game gm NAME ACTION ...`` (see
:mod:`judge.commands.game_gm` for the actions and
:mod:`judge.actions.registry`), the same as the GM's mail commands."""

from __future__ import annotations

from datetime import datetime, timezone

from ..text.words import phase_title
from .registry import game_action, power_arg, results_text


def parse_when(text: str, tz: str) -> datetime:
    """An ISO 8601 date/time; without an offset it is in zone ``tz``. UTC result.
    ValueError otherwise."""
    from ..game.deadlines import local_to_utc, zone_of
    try:
        when = datetime.fromisoformat(text.strip().replace(" ", "T"))
    except ValueError:
        raise ValueError(f"{text!r} is not a date and time such as 2025-03-01T18:00") from None
    if when.tzinfo is None:
        return local_to_utc(when, zone_of(tz))
    return when.astimezone(timezone.utc)


def gm_action(game, action: str, args: list[str], now: datetime):
    """Run one GM ``action`` on ``game``; returns ``(text, notices)``. Raises
    GameError or ValueError with the reason."""
    from ..game import GameError, master, nmr, turns
    from ..game.setting_text import hours_of, yes_no
    tz = game.settings.deadlines.timezone

    def need(n: int, usage: str):
        if len(args) < n:
            raise GameError(f"usage: judge game gm {game.name} {action} {usage}")

    if action == "start":
        notices = turns.start(game, now, parse_when(args[0], tz) if args else None)
        return f"Game {game.name} started; deadline {game.schedule.deadline.isoformat()}.", notices
    if action == "deadline":
        need(1, "WHEN")
        notices = master.set_deadline(game, parse_when(" ".join(args), tz), now)
        return f"Deadline: {game.schedule.deadline.isoformat()}.", notices
    if action == "extend":
        need(1, "LENGTH")
        notices = master.extend(game, hours_of(args[0]), now)
        return f"Deadline: {game.schedule.deadline.isoformat()}.", notices
    if action == "pause":
        notice = turns.pause(game, now, hours_of(args[0]) if args else None)
        return f"Paused until {game.schedule.pause_until.isoformat()} at the latest.", [notice]
    if action == "resume":
        notices = turns.resume(game, now)
        return f"Resumed; deadline {game.schedule.deadline.isoformat()}.", notices
    if action == "process":            # PROCESS [PHASE]: only if the game is at that phase (issue 13 point 12)
        if args and master.phase_name(args[0]) != str(game.phase):
            raise GameError.of("phase_moved", game=game.name, phase=master.phase_name(args[0]),
                               current=str(game.phase), retry=f"judge game gm {game.name} process {game.phase}")
        step = master.process_now(game, now)
        return results_text(game, step.records), step.notices
    if action == "rollback":
        need(1, "PHASE")
        notices = master.rollback(game, master.phase_name(args[0]), now)
        return f"Game {game.name} is back at {game.phase}.", notices
    if action == "eject":
        need(1, "POWER")
        notices = master.eject(game, power_arg(game, args[0]), now)
        return f"{notices[0].data['power']} has no player now.", notices
    if action == "replace":
        need(2, "POWER PASSWORD")
        from ..mail.passwords import hash_password
        if len(args[1]) < 4:
            raise GameError("a password needs at least 4 characters")
        notices = master.replace_power(game, power_arg(game, args[0]), hash_password(args[1]), now)
        return f"{notices[0].data['power']} waits for a replacement.", notices
    if action == "wait":
        need(2, "POWER yes|no")
        turns.set_wait(game, power_arg(game, args[0]), yes_no(args[1]))
        return f"WAIT: {', '.join(sorted(game.schedule.wait)) or 'nobody'}.", []
    if action == "absence":
        need(3, "POWER FROM TO")
        moved = nmr.set_absence(game, power_arg(game, args[0]), parse_when(args[1], tz),
                                parse_when(args[2], tz), now)
        notices = [turns.deadline_notice(game, "deadline", now)] if moved else []
        return f"Absence recorded{'; deadline ' + moved.isoformat() if moved else ''}.", notices
    if action == "set":
        need(1, "KEY=VALUE ...")
        notices = master.change(game, args, now)
        return "Settings changed: " + ", ".join(args), notices
    s = game.schedule
    lines = [f"Game {game.name}: {game.phase} ({phase_title(str(game.phase))})", "state: " + state_text(game),
             f"deadline: {_local(s.deadline, tz) if s.deadline else 'none'}{' (grace running)' if s.late else ''}",
             f"paused: {s.pause_until.isoformat() if s.paused else 'no'}",
             f"waiting: {', '.join(sorted(s.wait)) or 'nobody'}",
             f"abandoned: {', '.join(sorted(s.abandoned)) or 'none'}"]
    lines += [f"missed by {p}: {', '.join(ph)}" for p, ph in sorted(s.missed.items())]
    return "\n".join(lines), []


def state_text(game) -> str:
    """Where the game stands in its life (:func:`judge.game.turns.lifecycle`),
    in one English line: ``running``, ``paused (2d3h left, resumes by itself
    ...)``, ``waiting for the orders of Italy (NoNMR)``, ``finished (alliance,
    after F1903M)``, ``forming (no clock yet)``."""
    from ..game import turns
    st = turns.lifecycle(game)
    if st["state"] == "paused":
        return f"paused ({st['left']} left, resumes by itself {st['until'].isoformat()} at the latest)"
    if st["state"] == "waiting":
        return f"waiting for the orders of {', '.join(st['powers'])} (NoNMR)"
    if st["state"] == "finished":
        awards = f"; award vote open until {st['awards_until'].isoformat()}" if st["awards_until"] else ""
        return f"finished ({st['result']}, {st['ended']} {st['end_phase']}){awards}"
    if st["state"] == "forming":
        return "forming (no clock yet)"
    extra = f"; waiting for a replacement: {', '.join(st['open_to'])}" if st["open_to"] else ""
    return "running" + extra


@game_action("gm")
def gm_work(game, now, args):
    return gm_action(game, args.action, args.args, now)


def _local(when: datetime, tz: str) -> str:
    """``when`` (UTC) in ISO form, and as the mails write it in the game's time zone ``tz`` (not UTC)."""
    from ..text.dates import format_deadline
    return when.isoformat() if tz in ("UTC", "Etc/UTC") else f"{when.isoformat()} ({format_deadline(when, tz, 'en')})"
