"""Each power's home country (its home territory, not only its home centres).

The house rules need it: the GM's default retreat prefers the direction of the
home country, the default disband removes units outside it first (``RULES.md``
§3.3-3.4). It is map data: the optional ``home_country`` list of each power in
``maps/<name>/map.json``; a map without it counts only the home centres.
"""

from __future__ import annotations

from functools import lru_cache

from ..maps import load_map, map_dir, read_json
from ..rules.map import MapError


@lru_cache(maxsize=16)
def home_country(map_name: str) -> dict[str, frozenset[str]]:
    """``{power: frozenset of land provinces}`` for the map ``map_name``.
    Raises :class:`MapError` naming the file for an unknown or sea province, or a
    home centre missing from the list."""
    game_map = load_map(map_name)
    path = map_dir(map_name) / "map.json"
    raw = read_json(path).get("powers", {})
    out: dict[str, frozenset[str]] = {}
    for power in game_map.powers:
        provs = raw.get(power, {}).get("home_country")
        if provs is None:
            out[power] = game_map.home_centres[power]
            continue
        key = f"powers.{power}.home_country"
        for p in provs:
            if p not in game_map.provinces or not game_map.provinces[p].is_land:
                raise MapError(str(path), key, f"{p!r} is not a land province")
        missing = game_map.home_centres[power] - set(provs)
        if missing:
            raise MapError(str(path), key, f"home centre(s) missing: {', '.join(sorted(missing))}")
        out[power] = frozenset(provs)
    return out
