"""The variants a game can be created on: every map under ``maps/`` (issue 24;
``RULES.md`` §7). ``CREATE GAME PW variant=NAME`` (``变体=``/``變體=``) names one;
``VARIANTS`` lists them with :func:`variant_list`."""

from __future__ import annotations

from ..maps import list_maps, load_map, map_about
from ..rules.map import MapError
from .errors import GameError

WORDS = ("variant", "变体", "變體")
"""The CREATE setting that names a variant, in each language."""


def variant_of(name: str) -> str:
    """The map name of variant ``name`` (any letter case); GameError
    ``no_such_variant`` (with the list) when there is none."""
    names = list_maps()
    for n in names:
        if n.casefold() == name.strip().casefold():
            return n
    raise GameError("no_such_variant", text=name, allowed=tuple(names))


def variant_summary(name: str) -> dict:
    """``{"name", "title", "powers": [...], "players", "target", "centres",
    "designer", "start"}`` of map ``name``. Raises MapError."""
    m, about = load_map(name), map_about(name)
    return {"name": name, "title": about.get("title", name), "powers": list(m.powers),
            "players": len(m.powers), "target": m.victory_centres, "centres": len(m.supply_centres),
            "designer": about.get("credit", {}).get("designer", ""), "start": m.start.phase}


def variant_list() -> list[dict]:
    """:func:`variant_summary` of every map that loads, standard first."""
    out = []
    for name in sorted(list_maps(), key=lambda n: (n != "standard", n)):
        try:
            out.append(variant_summary(name))
        except MapError:
            continue
    return out
