"""Finding and loading map files (``maps/<name>/map.json``, ``names.json`` and ``name_variants.json``).

This is the rim around :class:`judge.rules.map.Map`: it reads files, the core
validates. Errors are :class:`~judge.rules.map.MapError` naming the file.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from .rules.map import Map, MapError

MAPS_DIR = Path(__file__).resolve().parent.parent / "maps"


def map_dir(name_or_path: str | Path) -> Path:
    """``"standard"`` -> ``maps/standard``; a path to a folder or map.json is used as is."""
    p = Path(name_or_path)
    if p.suffix == ".json":
        return p.parent
    if p.is_dir():
        return p
    return MAPS_DIR / str(name_or_path)


class _DuplicateKey(Exception):
    pass


def _unique_keys(pairs: list) -> dict:
    """json object hook: a repeated key (two entries for one province) is an error."""
    out = {}
    for k, v in pairs:
        if k in out:
            raise _DuplicateKey(k)
        out[k] = v
    return out


def read_json(path: Path) -> dict:
    """Parse a JSON file; raises MapError(file, line:col, reason) on bad JSON and
    MapError(file, key, reason) when an object repeats a key."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise MapError(str(path), "-", f"cannot read: {e.strerror or e}") from None
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as e:
        raise MapError(str(path), f"line {e.lineno} column {e.colno}", e.msg) from None
    except _DuplicateKey as e:
        raise MapError(str(path), e.args[0], "the key appears twice in one object") from None
    if not isinstance(data, dict):
        raise MapError(str(path), "-", "the top level must be a JSON object")
    return data


@lru_cache(maxsize=16)
def load_map(name_or_path: str = "standard") -> Map:
    """Load and validate a map by name (a folder under ``maps/``) or path.
    Raises :class:`MapError`."""
    path = map_dir(name_or_path) / "map.json"
    if not path.exists():
        raise MapError(str(path), "-", f"no such map {str(name_or_path)!r}")
    return Map.from_dict(read_json(path), source=str(path))


@lru_cache(maxsize=16)
def load_names(name_or_path: str = "standard") -> dict:
    """The parsed ``names.json`` of a map; ``name_variants.json`` beside it, if
    there (every Chinese name players write, with script, region and source),
    comes under the key ``"variants"``. Both are validated by
    judge.notation.names; raises MapError on bad JSON.

    A ``names.json`` with ``"use": "<map>"`` (a variant on another map's board,
    e.g. France vs Austria on the standard board) takes that map's names and
    variants, then its own ``powers``, ``provinces``, ``coasts`` and
    ``ambiguous`` entries over them; powers the variant's ``map.json`` lacks
    are left out (``maps/README.md``)."""
    folder = map_dir(name_or_path)
    names = read_json(folder / "names.json")
    base_name = names.get("use")
    if base_name is not None:
        if not isinstance(base_name, str) or map_dir(base_name) == folder:
            raise MapError(str(folder / "names.json"), "use", "must name another map")
        base = load_names(base_name)
        own = {k: v for k, v in names.items() if k != "use"}
        names = {k: (dict(v) if isinstance(v, dict) else v) for k, v in base.items()}
        for section in ("powers", "provinces", "coasts", "ambiguous"):
            names[section] = {**base.get(section, {}), **own.get(section, {})}
        powers = set(load_map(name_or_path).powers)
        names["powers"] = {p: e for p, e in names["powers"].items() if p in powers}
        if "variants" in names:
            v = dict(names["variants"])
            v["powers"] = {p: e for p, e in v.get("powers", {}).items() if p in powers}
            names["variants"] = v
        return names
    variants = folder / "name_variants.json"
    if variants.exists():
        names["variants"] = read_json(variants)
    return names


def list_maps() -> list[str]:
    """Names of the maps under ``maps/`` (folders holding a ``map.json``), sorted."""
    return sorted(p.parent.name for p in MAPS_DIR.glob("*/map.json"))


def map_about(name: str) -> dict:
    """What ``map.json`` says of a map beyond the rules: ``title``, ``credit``
    (``{"designer", "source", "licence"}``), ``picture`` (the map whose picture
    it uses); each may be absent. Raises MapError."""
    data = read_json(map_dir(name) / "map.json")
    return {k: data[k] for k in ("title", "credit", "picture") if k in data}
