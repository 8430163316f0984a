"""What a player writes to the game's phase: order lines and press.

``orders``: the order lines a mail holds after SIGNON (the command's
``body``; ``params["suggest"]``: the mail's reader of a misspelt command
word, :func:`judge.verbs.registry.suggest_command`), parsed (:mod:`judge.notation`) and handed to
:meth:`judge.game.Game.submit`. The answer lists the power's orders in
force after the mail, one per unit, saying which earlier order each
replaces, the lines of the mail a later line replaced, every refused line
with its reason (a misspelt command or order word named), the units still
without orders and, in an adjustment phase, the builds or removals left.

``press``: a press block (``PRESS TO ...`` / ``BROADCAST`` ... ``ENDPRESS``,
the command's ``body``), routed to its readers by the game's press rules
(:mod:`judge.game.press`); the GM's press is signed by the GM.
"""

from __future__ import annotations

import dataclasses
from collections import deque

from ..game import GameError
from ..game.deadlines import adjustment_status
from ..game.future import drop_future, keep_future, read_phase
from ..game.press import keep_broadcast, read_press, route
from ..game.refusals import misspelt_order_word
from ..game.turns import lifecycle
from ..notation.diagnostics import diagnostic
from ..notation.parser import ParseContext, parse_orders
from ..rules.phase import Phase
from .anyone import list_games
from .session import Session, names_of

MAX_SHOWN = 20
"""Order lines replaced by later lines of the same mail, quoted in the answer."""


def orders(s: Session, cmd) -> None:
    game, power = s.game, s.power
    names = names_of(game)
    ctx = ParseContext(map=game.map, names=names, phase_kind=game.phase.kind, position=game.position, power=power)
    suggest = cmd.params.get("suggest") or (lambda line: None)    # the mail's: the command a line misspells
    parsed = [dataclasses.replace(p, error=diagnostic("unknown_word", names, text=p.input.strip()), notes=())
              if p.kind == "chatter" and suggest(p.input) else p      # a misspelt command: an error, not talk
              for p in parse_orders("\n".join(cmd.body), ctx)]
    receipts = game.submit(power, parsed, s.now)
    s.changed(game)
    _answer(s, cmd, power, parsed, receipts, suggest, names)


def standing(s: Session, cmd) -> None:
    """STATUS (DPjudge's, njudge's): signed on as a power, its orders as they
    stand, the units still without orders and the deadline (the orders
    answer, nothing written); else the game's listing (LIST GAME)."""
    if s.game is not None and s.power is not None and not cmd.args:
        return _answer(s, cmd, s.power, [], [], lambda line: None, names_of(s.game), asked=True)
    list_games(s, cmd)


def clear(s: Session, cmd) -> None:
    """CLEAR (njudge's, DPjudge's): every order of the power for the current
    phase is withdrawn (standing retreat and build lists stay); the answer
    shows the units now without orders."""
    game = s.game
    game.check_running()
    game.orders.pop(s.power, None)
    s.changed(game)
    _answer(s, cmd, s.power, [], [], lambda line: None, names_of(game), asked="cleared")


def phase_orders(s: Session, cmd) -> None:
    """``PHASE Fall 1901 Movement`` (njudge's) and the order lines after it
    (the command's ``body``): orders for a later phase, kept and applied when
    it opens (:mod:`judge.game.future`); for the current phase, orders now.
    ``PHASE ... CLEAR`` drops the lines kept for that phase. Lines the map
    cannot read are refused now (not kept), with the reason."""
    game, power = s.game, s.power
    words = list(cmd.args)
    drop = bool(words) and (words[-1].upper() == "CLEAR" or words[-1] in ("清除", "取消"))
    phase = read_phase(" ".join(words[:-1] if drop else words))
    if phase == str(game.phase):
        return clear(s, cmd) if drop else orders(s, cmd)
    rejected, lines = [], []
    if drop:
        dropped = drop_future(game, power, phase)
    else:
        game.check_running()
        names = names_of(game)
        ctx = ParseContext(map=game.map, names=names, phase_kind=Phase.parse(phase).kind, position=None, power=power)
        for p in parse_orders("\n".join(cmd.body), ctx):
            if p.error is not None:
                rejected.append({"input": p.input, "error": p.error, "suggestions": []})
            elif p.kind != "chatter":
                lines.append(p.input.strip())
        dropped = 0
        kept = keep_future(game, power, phase, lines, s.now) if lines else len(game.future.get(phase, {}).get(power, ()))
    s.changed(game)
    s.results.append({"kind": "future", "line": cmd.line, "game": game.name, "map": game.map_name, "power": power,
                      "phase": phase, "current": str(game.phase), "lines": lines, "rejected": rejected,
                      "kept": 0 if drop else kept, "dropped": dropped})


def _answer(s: Session, cmd, power: str, parsed, receipts, suggest, names, asked: bool | str = False) -> None:
    """The ``orders`` result: the power's orders in force after ``receipts``
    (see module doc); ``asked``: only asked for (STATUS: True; CLEAR:
    ``"cleared"``), nothing written."""
    game = s.game
    notes = {p.input: tuple(getattr(p, "notes", ())) for p in parsed}
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
    in_force = []
    for i, e in enumerate(entries):
        if e.replaced:
            continue
        in_force.append({"order": e.order, "input": e.text, "new": i >= before,
                         "notes": notes.get(e.text, ()) if i >= before else (), "replaces": replaces.get(i, [])})
    superseded = [{"input": entries[j].text, "order": entries[j].order, "by": entries[final[j]].order}
                  for j in range(before, len(entries)) if entries[j].replaced and final[j] != j]
    rejected = []
    for r in receipts:
        if not r.ok:       # a diagnostic names the places it guesses; a misspelt command is named here
            command = None if r.order is not None else suggest(r.input)
            word = None if r.order is not None or command else misspelt_order_word(r.input, game.phase.kind, names)
            rejected.append({"input": r.input, "error": word or r.error, "suggestions": [command] if command else []})
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
                      "phase": str(game.phase), "orders": in_force, "taken": len(entries) - before,
                      "adjust": adjust, "skipped": skipped,
                      "superseded": superseded[:MAX_SHOWN],
                      "superseded_more": max(len(superseded) - MAX_SHOWN, 0), "rejected": rejected,
                      "missing": missing, "deadline": game.schedule.deadline,
                      "forming": lifecycle(game)["state"] == "forming", "asked": asked,
                      "asked_line": cmd.line if asked else None,
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


def press(s: Session, cmd) -> None:
    game = s.game
    try:
        block, _ = read_press(list(cmd.body), 0, names_of(game))
    except GameError as e:
        return s.refuse(cmd, e)
    sender = None if s.gm and s.power is None else s.power
    try:
        notices = route(game, sender, block, f"{s.asker.key}:{len(s.notices)}")
    except GameError as e:
        return s.error(cmd.line, "press_refused", reason=e)
    s.notices += notices
    keep_broadcast(game, sender, block, s.now)
    s.changed(game)
    h = block.header
    s.results.append({"kind": "press", "line": cmd.line, "game": game.name, "map": game.map_name,
                      "broadcast": h.to is None, "to": list(h.to or ()), "to_gm": h.gm, "grey": h.grey,
                      "closed": block.closed})
