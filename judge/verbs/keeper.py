"""The judgekeeper's verbs: what only the judge's own command line does
(``judge game new|status|check``, ``judge archive import``, ``judge game
move``), and the mails of notices an earlier release left in its store.
They read the command line's options (``cmd.params``), not words.
"""

from __future__ import annotations

import secrets

from ..game import Game, GameError, HouseRules, Settings
from ..game.notices import notice_from_dict
from ..game.setting_text import change_settings, describe_settings
from ..maps import load_map
from ..rules.victory import VictorySettings
from ..storage import delete_game, find_game, load_game, save_game, save_gm
from .session import Session

def new(s: Session, cmd) -> None:
    """``judge game new``: a game at the map's start, without a GM. Params:
    the options of ``judge game new``; ``set_KEY``: a setting given as a flag
    (``--solo 16``: ``set_solo``)."""
    p = cmd.params
    keys = [k.removeprefix("set_") for k in p if k.startswith("set_") and p[k] is not None]
    settings = Settings(p.get("rules", "datc"), HouseRules(
        retreat_preferences=not p.get("no_retreat_lists"), priority_lists=not p.get("no_priority_lists"),
        default_retreat=p.get("default_retreat", "disband"), default_disband=p.get("default_disband", "datc"),
        combined_orders=bool(p.get("combined"))),
        victory=VictorySettings.for_map(load_map(p.get("map", "standard"))))   # the map's SC target (RULES.md §7)
    pairs = [f"{key}={p['set_' + key]}" for key in keys]
    settings = change_settings(settings, pairs, p.get("tz"))
    seed = p["seed"] if p.get("seed") is not None else secrets.randbits(63)
    game = Game.create(p["name"], now=s.now, seed=seed, map_name=p.get("map", "standard"), settings=settings)
    if find_game(s.db, game.name) is not None:
        raise GameError(f"a game named {game.name} exists already")
    save_game(s.db, game)
    s.changed(game)
    ends = describe_settings(settings)
    s.results.append({"kind": "new", "line": cmd.line, "game": game.name, "map": game.map_name,
                      "rules": settings.rules, "seed": seed, "phase": str(game.phase),
                      "ends": {key: ends[key] for key in keys + [k for k in END_KEYS if k not in keys]
                               if ends.get(key, "none") != "none"}})


END_KEYS = ["solo", "alliance", "end_year", "end_at"]
"""The victory conditions ``judge game new`` names even when left at their defaults."""


def status(s: Session, cmd) -> None:
    """``judge game gm NAME status``: where the game stands (a question)."""
    s.results.append({"kind": "status", "line": cmd.line, "game": s.game.name})


def take_in(s: Session, cmd) -> None:
    """``judge archive import`` (a recorded game) and the arrival of a game
    that moves here from another judge (``judge game move``): the whole game
    (:meth:`Game.to_dict`) stored as a new game, with its GM record if any."""
    game = Game.from_dict(cmd.params["game"])
    arrived = cmd.name == "arrive"
    if find_game(s.db, game.name) is not None:
        return s.error(cmd.line, "game_exists", game=game.name, here=" here" if arrived else "")
    save_game(s.db, game)
    if cmd.params.get("gm"):
        save_gm(s.db, game.name, cmd.params["gm"])
    s.games[game.name] = game
    ident = s.db.get("judge", "identity") or {}
    s.results.append({"kind": "taken_in", "line": cmd.line, "game": game.name, "phases": len(game.history),
                      "phase": game.position.phase, "arrived": arrived, "address": ident.get("address")})


def leave(s: Session, cmd) -> None:
    """The game leaves this judge for another (``judge game move``)."""
    name = s.game.name
    delete_game(s.db, name)
    del s.games[name]
    s.dirty.discard(name)
    s.game = None
    s.results.append({"kind": "left", "line": cmd.line, "game": name, "to": cmd.params.get("to")})


def mail_notices(s: Session, cmd) -> None:
    """Mail the notices a command of an earlier release left in the store
    (:mod:`judge.storage.upgrade`): params ``notices``, stored notice dicts."""
    docs = cmd.params.get("notices") or []
    for doc in docs:
        notice = notice_from_dict(doc)
        name = notice.data.get("game")
        if name and name not in s.games and load_game(s.db, name) is not None:
            s.find_game(name)
        s.notices.append(notice)
    s.results.append({"kind": "notices", "line": cmd.line, "count": len(docs)})
