"""The answer to the judgekeeper's command line, in English: what a verb
did, said as the terminal shows it (:mod:`judge.mail.keeper`). The data are
the verbs' results, the same the mail words for players and GMs
(``templates/mail/parts/``); a result of a kind not worded here is worded
as the mail words it, in English.
"""

from __future__ import annotations

from datetime import datetime

from ..archive.text import history_text
from ..game import turns
from ..notation.format import format_order
from ..text import english
from ..text.dates import format_deadline
from ..text.reasons import tie_reason
from ..text.reports import final_text
from ..text.templates import environment, words_for
from ..text.words import phase_title
from ..game.setting_text import describe_settings
from ..verbs.session import names_of


def answer(results: list[dict], games: dict) -> tuple[int, str, str]:
    """``(exit status, output, error output)`` of a command's ``results``;
    ``games``: the games they name, as the command left them. Status 2: the
    command was refused (nothing changed); 1: done, but not all of it
    (order lines refused), or a game that exists already was not made; 0: done."""
    out, err, status = [], [], 0
    for r in results:
        game = games.get(r.get("game"))
        if r["kind"] == "error":
            if r["code"] == "game_exists":
                err.append(f"a game {r['params']['game']!r} exists{r['params'].get('here', '')} already")
                status = max(status, 1)
            else:
                err.append(_error(r))
                status = 2
            continue
        text = _said(r, game)
        if r["kind"] == "orders" and r["rejected"]:
            status = max(status, 1)
        if text:
            out.append(text)
    return status, "\n".join(out), "; ".join(err)


def _error(r: dict) -> str:
    if r["code"] in ("refused", "press_refused"):
        return english(r["params"]["reason"]) if hasattr(r["params"]["reason"], "code") \
            else str(r["params"]["reason"])
    return _mail_words("{% import 'macros.txt' as m with context %}{{ m.error(r) }}", r)


def _mail_words(source: str, r: dict) -> str:
    """``r`` as the mail words it, in English."""
    return environment("en").from_string(source).render(r=r, words=words_for("en")).strip()


def _said(r: dict, game) -> str:
    kind, action = r["kind"], r.get("action")
    if kind == "gm":
        return _gm(r, game)
    if kind == "vote":
        return _vote(r, game)
    if kind == "ruling":
        return _ruling(r, game)
    if kind == "orders":
        return _orders(r, game)
    if kind == "wait":
        return f"WAIT: {', '.join(sorted(game.schedule.wait)) or 'nobody'}."
    if kind == "absence":
        return f"Absence recorded; deadline {r['deadline'].isoformat()}." if r["moved"] else "Absence recorded."
    if kind == "check":
        if r["result"]:
            return _ended(game, english(r["result"].reason))
        if r["tie"]:
            return english(tie_reason(r["tie"]))
        return f"Game {game.name} goes on: no victory condition is met."
    if kind == "status":
        return status_text(game)
    if kind == "new":
        return "\n".join([f"Game {r['game']} created on map {r['map']}, rules {r['rules']}, seed {r['seed']}.",
                          "Ends by: " + (", ".join(f"{k}={v}" for k, v in r["ends"].items())
                                         or "no victory condition: the GM's END") + ".",
                          f"Phase: {phase_title(r['phase'])} ({r['phase']})."])
    if kind == "taken_in":
        if not r["arrived"]:
            return f"judge archive import: {r['game']}: {r['phases']} phases, now {r['phase']}"
        return (f"Game {r['game']} ({r['phases']} phases, now {r['phase']}) taken in; "
                f"its players and GM write to {r['address'] or 'this judge'} from now on.")
    if kind == "left":
        return f"Game {r['game']} left this judge for {r['to']}."
    if kind == "notices":
        return ""
    return _mail_words("{% import 'macros.txt' as m with context %}{% include 'parts/' ~ r.kind ~ '.txt' %}", r)


_GM = {
    "start": lambda r, game: f"Game {game.name} started; deadline {game.schedule.deadline.isoformat()}.",
    "deadline": lambda r, game: f"Deadline: {game.schedule.deadline.isoformat()}.",
    "extend": lambda r, game: f"Deadline: {game.schedule.deadline.isoformat()}.",
    "pause": lambda r, game: f"Paused until {game.schedule.pause_until.isoformat()} at the latest.",
    "resume": lambda r, game: f"Resumed; deadline {game.schedule.deadline.isoformat()}.",
    "process": lambda r, game: _ended(game, history_text(game, r["processed"][0], r["processed"][-1]), "\n"),
    "rollback": lambda r, game: f"Game {game.name} is back at {game.phase}.",
    "eject": lambda r, game: f"{r['power']} has no player now.",
    "replace": lambda r, game: f"{r['power']} waits for a replacement.",
    "settings": lambda r, game: "\n".join(f"{k}={v}" for k, v in describe_settings(game.settings).items()),
}
"""The GM's verbs' answers (result kind ``gm``), by action."""


def _gm(r: dict, game) -> str:
    said = _GM.get(r["action"])
    if said is not None:
        return said(r, game)
    return _mail_words("{% import 'macros.txt' as m with context %}{% include 'parts/gm.txt' %}", r)


def _vote(r: dict, game) -> str:
    action, d, power = r["action"], r["detail"], r["power"]
    if action == "ally":
        return (f"{power} and {d['other']} are allied." if d["allied"] else
                f"{power} declared an alliance with {d['other']}; it stands once {d['other']} declares {power}.")
    if action == "unally":
        return f"{power} withdrew its alliance with {d['other']}."
    if action == "draw":
        return _ended(game, english(game.ending.result.reason)) if r["over"] else f"{power} voted for a draw."
    if action == "nodraw":
        return f"{power} withdrew its draw vote."
    if action == "concede":
        return _ended(game, english(game.ending.result.reason)) if r["over"] \
            else f"{power} conceded the game to {d['other']}."
    if action == "unconcede":
        return f"{power} withdrew its concession."
    closed = " Every leader has voted: the award vote is closed and everyone is sent the final report." \
        if d.get("closed") else ""
    return f"{power} voted for {d['other']} ({d['award']}).{closed}"


def _ruling(r: dict, game) -> str:
    again = " Everyone is sent the final report again." if r["over"] else ""
    if r["action"] == "end":
        return _ended(game, english(game.ending.result.reason))
    if r["action"] == "passive":
        ruling = f"{r['power']} ruled passive, fined {r['fine']} points" if r["fine"] is not None \
            else f"passive ruling on {r['power']} withdrawn"
        return f"{ruling}. Phases without orders: {', '.join(r['missed']) or 'none'}.{again}"
    if r["action"] == "award_close":
        return "The award vote is closed; everyone is sent the final report with the awards."
    return f"{r['award']} award: {r['power'] or 'withdrawn'}.{again}"


def _ended(game, head: str, gap: str = "\n\n") -> str:
    """``head``, and the final report when the game is over."""
    return f"{head.rstrip()}{gap}{final_text(game)}" if game.finished else head


def _orders(r: dict, game) -> str:
    """How each line was read, the lines refused, and the units still without orders."""
    names = names_of(game)
    lines = [f"Orders for {r['power']}, game {game.name}, {phase_title(r['phase'])} ({r['phase']}):"]
    for x in r["superseded"]:
        lines.append(f"  {x['input'].strip()!s:<32} -> {format_order(x['order'], names)}")
    for o in r["orders"]:
        if not o["new"]:
            continue
        lines.append(f"  {o['input'].strip()!s:<32} -> {format_order(o['order'], names)}")
        gone = list(o["replaces"]) + [x["order"] for x in r["superseded"] if x["by"] == o["order"]]
        for old in gone:
            lines.append(f"  {'':<32}    (replaces {format_order(old, names)})")
    for x in r["rejected"]:
        lines.append(f"  {x['input'].strip()!s:<32} -> ERROR: {english(x['error'])}")
    if r["missing"]:
        lines.append(f"Units without orders: {', '.join(loc for _t, loc in r['missing'])}")
    return "\n".join(lines)


def status_text(game) -> str:
    """Where ``game`` stands, for ``judge game gm NAME status``: state,
    deadline (UTC, and in the game's zone), pause, WAIT flags, NMR record."""
    s, tz = game.schedule, game.settings.deadlines.timezone
    lines = [f"Game {game.name}: {game.phase} ({phase_title(str(game.phase))})", "state: " + state_text(game),
             f"deadline: {_local(s.deadline, tz) if s.deadline else 'none'}{' (grace running)' if s.late else ''}",
             f"paused: {s.pause_until.isoformat() if s.paused else 'no'}",
             f"waiting: {', '.join(sorted(s.wait)) or 'nobody'}",
             f"abandoned: {', '.join(sorted(s.abandoned)) or 'none'}"]
    lines += [f"missed by {p}: {', '.join(ph)}" for p, ph in sorted(s.missed.items())]
    return "\n".join(lines)


def state_text(game) -> str:
    """Where the game stands in its life (:func:`judge.game.turns.lifecycle`),
    in one English line: ``running``, ``paused (2d3h left, resumes by itself
    ...)``, ``waiting for the orders of Italy (NoNMR)``, ``finished (alliance,
    after F1903M)``, ``forming (no clock yet)``."""
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


def _local(when: datetime, tz: str) -> str:
    """``when`` (UTC) in ISO form, and as the mails write it in the game's time zone ``tz`` (not UTC)."""
    return when.isoformat() if tz in ("UTC", "Etc/UTC") else f"{when.isoformat()} ({format_deadline(when, tz, 'en')})"
