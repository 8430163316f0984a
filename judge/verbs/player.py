"""The verbs of a player signed on to a game (the GM too where the record
says ``gm_too``): SET PASSWORD, SET ADDRESS, SET WAIT / SET NOWAIT, SET
ABSENCE, ADVISOR, RESIGN (unconcede, for the command line).

Advisors (Appendix 2): the leader adds and removes them; they get the
power's mail unless NOMAIL, help the leader and score nothing. Only the
leader — who writes from the leader's address, or signs on with the
power's password — may change them. Who a power is — its password and its
address — changes only in a mail signed on with the power's password (the
GM's with the GM password), whatever the game's ``auth`` (issue 19 point 8:
under ``auth=address`` one forged mail took a power for good); the old
address gets a copy of the answer.
"""

from __future__ import annotations

import dataclasses
from email.headerregistry import HeaderRegistry

from ..game import GameError, Player, nmr, turns
from ..game.notices import GM, Notice, mailto
from ..game.passwords import hash_password
from ..game.roster import record_change
from ..storage import save_gm
from .session import Session

ADVISOR_ADD = ("ADD", "添加", "增加", "加入", "加")
ADVISOR_REMOVE = ("REMOVE", "DELETE", "DEL", "删除", "刪除", "移除", "去掉", "除去")
ADVISOR_NO_MAIL = ("NOMAIL", "NO-MAIL", "不收信", "不抄送")
_HEADERS = HeaderRegistry()


def set_password(s: Session, cmd) -> None:
    if len(cmd.args) != 1:
        return s.usage(cmd)
    if not s.with_password:            # who a power is changes only with its password, whatever auth says
        return s.error(cmd.line, "password_to_change", game=s.game.name)
    if len(cmd.args[0]) < 4:
        return s.error(cmd.line, "weak_password")
    game = s.game
    if s.power is None:
        save_gm(s.db, game.name, dict(s.gm_row(game.name), password_hash=hash_password(cmd.args[0])))
    else:
        pl = game.players[s.power]
        game.players[s.power] = dataclasses.replace(pl, password_hash=hash_password(cmd.args[0]))
        s.changed(game)
    s.results.append({"kind": "password_set", "line": cmd.line, "game": game.name})


def set_address(s: Session, cmd) -> None:
    if not s.with_password:            # who a power is changes only with its password, whatever auth says
        return s.error(cmd.line, "password_to_change", game=s.game.name)
    words = cmd.args or (s.asker.address,)     # njudge's SET ADDRESS alone: the address this mail is from
    new = _address(" ".join(words))
    if new is None:
        return s.error(cmd.line, "bad_address", text=" ".join(words)[:80])
    game = s.game
    if s.power is None:
        gm = s.gm_row(game.name)
        old = gm.get("address", "")
        save_gm(s.db, game.name, dict(gm, address=new))
    else:
        if not s.leader_here():
            return s.error(cmd.line, "not_the_leader", power=s.power, map=game.map_name)
        other = _plays_elsewhere(game, new, s.power)
        if other is not None:           # as JOIN and ADVISOR ADD: one address serves one power
            return s.error(cmd.line, "advisor_elsewhere", text=new, power=other, map=game.map_name)
        pl = game.players[s.power]
        old = pl.leader or ""
        # the mail moves: the old address gets no more mail and is no advisor (issue 13 point 4)
        game.players[s.power] = dataclasses.replace(
            pl, addresses=(new,) + tuple(a for a in pl.advisors if a != new),
            no_mail=tuple(a for a in pl.no_mail if a != new))
        s.changed(game)
    s.results.append({"kind": "address_set", "line": cmd.line, "game": game.name,
                      "address": new, "old": old, "copies": (new,)})


def _plays_elsewhere(game, address: str, power: str) -> str | None:
    """The power other than ``power`` that ``address`` serves (leader or
    advisor) in ``game``, or None: one address serves one power."""
    return next((p for p, pl in game.players.items() if p != power and address in pl.addresses), None)


def _address(text: str) -> str | None:
    """``text`` as exactly one mail address (``a@x.org``, ``<a@x.org>``,
    ``Name <a@x.org>``), read by the standard library's address parser
    (:mod:`email.headerregistry`, RFC 5322) — lower case, without the name
    and <> — or None: no address, more than one (``a@x.org,b@evil.test``),
    a group, a parse defect, no domain with a dot (issue 19 point 11)."""
    text = text.strip()
    if not text or any(c in text for c in "\r\n\x00") or len(text) > 320:
        return None
    try:
        header = _HEADERS("To", text)
    except Exception:  # noqa: BLE001 - the parser's errors on hostile text are all "not an address"
        return None
    if header.defects or len(header.groups) != 1 or header.groups[0].display_name is not None:
        return None
    [address] = header.addresses or (None,)
    if address is None or not address.username or "." not in address.domain.strip("."):
        return None
    spec = address.addr_spec.lower()
    return spec if spec.count("@") == 1 and spec.isprintable() and " " not in spec else None


def set_wait(s: Session, cmd, wait: bool = True) -> None:
    game = s.game
    turns.set_wait(game, s.power, wait)
    s.changed(game)
    s.results.append({"kind": "wait", "line": cmd.line, "game": game.name, "map": game.map_name,
                      "power": s.power, "wait": wait})


def set_nowait(s: Session, cmd) -> None:
    set_wait(s, cmd, False)


def set_absence(s: Session, cmd) -> None:
    game = s.game
    words = [w.upper() for w in cmd.args]
    if not words:
        return s.usage(cmd)
    # njudge's SET ABSENCE date [TO date] (FROM optional; one date: that day)
    a = words.index("FROM") if "FROM" in words else -1
    b = words.index("TO") if "TO" in words else len(words)
    tz = game.settings.deadlines.timezone
    start = s.time(cmd, " ".join(cmd.args[a + 1:b]), "SET ABSENCE")
    last = " ".join(cmd.args[b + 1:]) if b < len(words) else " ".join(cmd.args[a + 1:b])
    end = start and s.time(cmd, last, "SET ABSENCE", end_of_day=True)
    if end is None:
        return
    try:
        moved = nmr.set_absence(game, s.power, start, end, s.now)
    except (ValueError, GameError) as e:
        return s.refuse(cmd, e)
    if moved:
        s.notices.append(turns.deadline_notice(game, "deadline", s.now))
    s.changed(game)
    s.results.append({"kind": "absence", "line": cmd.line, "game": game.name, "map": game.map_name,
                      "power": s.power, "start": start, "end": end, "timezone": tz,
                      "deadline": game.schedule.deadline, "moved": bool(moved)})


def advisor(s: Session, cmd) -> None:
    """``ADVISOR ADD address [NOMAIL]`` / ``ADVISOR REMOVE address`` /
    ``ADVISOR`` (幕僚 添加|删除 ...): the leader's advisors (see module doc);
    each advisor added or removed is told."""
    game = s.game
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
            return s.usage(cmd)
        if not s.leader_here():
            return s.error(cmd.line, "not_the_leader", power=power, map=game.map_name)
        address = _address(rest[0])
        if address is None:
            return s.error(cmd.line, "bad_address", text=rest[0])
        mail = not any(w.upper() in ADVISOR_NO_MAIL or w in ADVISOR_NO_MAIL for w in rest[1:])
        if action == "add":
            if address == pl.leader:
                return s.error(cmd.line, "advisor_is_leader", power=power, map=game.map_name)
            other = _plays_elsewhere(game, address, power)
            if other is not None:
                return s.error(cmd.line, "advisor_elsewhere", text=address, power=other, map=game.map_name)
            pl = dataclasses.replace(pl, addresses=pl.addresses + (() if address in pl.addresses else (address,)),
                                     no_mail=tuple(a for a in pl.no_mail if a != address) + (() if mail else (address,)))
        else:
            if address not in pl.advisors:
                return s.error(cmd.line, "not_an_advisor", text=address, power=power, map=game.map_name)
            pl = dataclasses.replace(pl, addresses=tuple(a for a in pl.addresses if a != address),
                                     no_mail=tuple(a for a in pl.no_mail if a != address))
        game.players[power] = pl
        s.changed(game)
        s.notices.append(Notice("advisor", mailto((address,)), {
            "game": game.name, "map": game.map_name, "power": power, "added": action == "add",
            "mail": mail, "leader": pl.leader, "language": pl.language},
            f"{game.name}:advisor:{power}:{address}:{s.asker.key}"))
    s.last_game = game.name
    s.results.append({"kind": "advisor", "line": cmd.line, "game": game.name, "map": game.map_name,
                      "power": power, "action": action,
                      "advisors": [(a, a not in pl.no_mail) for a in pl.advisors]})


def resign(s: Session, cmd) -> None:
    game, power = s.game, s.power
    record_change(game, power, "left", (game.players[power].addresses or ("",))[0], s.now)
    game.players[power] = Player()
    s.changed(game)
    s.notices.append(Notice("resigned", (GM,), {"game": game.name, "map": game.map_name, "power": power,
                                                "phase": str(game.phase)},
                            f"{game.name}:{game.phase}:resigned:{power}:{s.asker.key}"))
    s.results.append({"kind": "resigned", "line": cmd.line, "game": game.name, "map": game.map_name,
                      "power": power})
    s.game, s.power = None, None
