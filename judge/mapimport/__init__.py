"""Importing DPjudge/MILA ``.map`` files as the judge's maps (issue 24).

``import_map(FILE, NAME)`` reads ``FILE`` (and what it includes,
:mod:`.dpjudge`), builds ``map.json`` and ``names.json`` (:mod:`.build`),
validates them with the rules core and the name index, and writes them to
``maps/NAME/`` with ``SOURCE.md`` (where the map comes from, its designer,
its licence, and what the importer set aside). ``check_map(NAME)`` loads a
map and its names and plays its start through the rules core's checks.
Errors: :class:`~.dpjudge.MapFileError` (``FILE:LINE: reason``) for the
``.map`` file, :class:`~judge.rules.map.MapError` for the written files.
The command line is ``judge map import|list|check`` (:mod:`judge.commands.map`).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from ..maps import MAPS_DIR, load_map, load_names, map_about
from ..notation.names import NameIndex
from ..rules.map import Map, MapError
from .build import Built, build
from .dpjudge import MapFileError, read_map_file

__all__ = ["MapFileError", "import_map", "check_map", "ImportResult"]


@dataclass
class ImportResult:
    folder: Path
    built: Built
    map: Map


def import_map(file: str | Path, name: str, *, maps_dir: Path = MAPS_DIR, title: str | None = None,
               credit: dict | None = None, about: str = "") -> ImportResult:
    """Import ``file`` as ``maps_dir/name``. ``credit`` is ``{"designer",
    "source", "licence"}`` kept in ``map.json`` and ``SOURCE.md``; ``about``
    is free text for ``SOURCE.md``. Raises MapFileError or MapError; writes
    nothing unless the map is whole."""
    if not name or not name.replace("_", "").replace("-", "").isalnum() or name != name.lower():
        raise MapError(name, "name", "a map name is lower-case letters, digits, - and _")
    text = read_map_file(file)
    built = build(text, name, title)
    if credit:
        built.map["credit"] = credit
    game_map = Map.from_dict(json.loads(json.dumps(built.map)), source=f"{name}/map.json")
    folder = Path(maps_dir) / name
    tmp = Path(maps_dir) / f".{name}.new"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    _write(tmp / "map.json", built.map)
    _write(tmp / "names.json", built.names)
    if folder.exists() and (folder / "geometry.json").exists() and not built.classic:
        shutil.copy2(folder / "geometry.json", tmp / "geometry.json")   # drawn separately: keep it
    (tmp / "SOURCE.md").write_text(_source_md(name, file, text.files, built, credit or {}, about), encoding="utf-8")
    shutil.rmtree(folder, ignore_errors=True)
    tmp.rename(folder)
    load_map.cache_clear()
    load_names.cache_clear()
    NameIndex(load_map(str(folder)), load_names(str(folder)), f"{name}/names.json")
    return ImportResult(folder, built, game_map)


def check_map(name: str) -> list[str]:
    """Load map ``name`` and its names; return a line per fact worth seeing
    (powers, SCs, target, start). Raises MapError."""
    m = load_map(name)
    NameIndex(m, load_names(name), f"{name}/names.json")
    about = map_about(name)
    out = [f"{name}: {about.get('title', name)}",
           f"  {len(m.powers)} powers: {', '.join(m.powers)}",
           f"  {len(m.provinces)} provinces, {len(m.supply_centres)} supply centres, "
           f"{m.victory_centres} for a solo; builds: "
           f"{'in any owned centre' if m.build == 'owned' else 'in home centres'}",
           f"  starts {m.start.phase}"
           + (f"; {len(m.start.units.get('Neutral', ()))} neutral units" if m.start.units.get("Neutral") else "")]
    if about.get("credit"):
        c = about["credit"]
        out.append(f"  designer: {c.get('designer', '?')}; source: {c.get('source', '?')}")
    return out


def _write(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def _source_md(name: str, file, files: list[str], built: Built, credit: dict, about: str) -> str:
    lines = [f"# {built.map.get('title', name)} (`maps/{name}`)", ""]
    if credit:
        lines += [f"- Designer: {credit.get('designer', 'unknown')}",
                  f"- Source: {credit.get('source', 'unknown')}",
                  f"- Licence: {credit.get('licence', 'unknown')}", ""]
    lines += [f"Imported by `judge map import {Path(file).name} --name {name}` from:", ""]
    lines += [f"- `{Path(f).name}`" for f in files]
    lines += ["", "The original files are kept in `maps/sources/` with DPjudge's MIT licence "
              "(`maps/sources/LICENSE`)."]
    if built.classic:
        lines += ["", "The board is the standard map's: names (English and Chinese) and picture "
                  "come from `maps/standard` (`names.json` `use`, `map.json` `picture`)."]
    if about:
        lines += ["", about.strip()]
    if built.notes:
        notes = built.notes
        for f in sorted(files, key=len, reverse=True):
            notes = [n.replace(f, Path(f).name) for n in notes]
        lines += ["", "## Set aside by the importer", ""] + [f"- {n}" for n in notes]
    return "\n".join(lines) + "\n"
