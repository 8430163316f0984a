"""``judge map import FILE --name NAME``, ``judge map list``, ``judge map check NAME``:
variant maps (issue 24; :mod:`judge.mapimport`).

``import`` reads a DPjudge/MILA ``.map`` file (and what it includes) and
writes ``maps/NAME/`` (``map.json``, ``names.json``, ``SOURCE.md``); the
title and credit come from the options, else from
``maps/sources/CREDITS.json`` when it lists FILE. Every fault in the file
is reported as ``FILE:LINE: reason`` and exits 1; nothing is written then.
``list`` shows every map with its powers and SC target; ``check`` loads one
map and its names and says what it holds.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..maps import MAPS_DIR


def register(sub) -> None:
    p = sub.add_parser("map", help="import, list and check variant maps",
                       description="Variant maps: import DPjudge .map files, list and check maps.")
    msub = p.add_subparsers(dest="map_command", metavar="ACTION", required=True)
    i = msub.add_parser("import", help="import a DPjudge/MILA .map file as maps/NAME",
                        description="Import a DPjudge/MILA .map file (and the files it USEs) as maps/NAME.")
    i.add_argument("file")
    i.add_argument("--name", help="map name (default: from maps/sources/CREDITS.json, else the file's name)")
    i.add_argument("--maps-dir", default=str(MAPS_DIR), help="where maps live (default: the judge's maps/)")
    i.add_argument("--title")
    i.add_argument("--designer")
    i.add_argument("--source")
    i.add_argument("--licence")
    i.set_defaults(func=run_import)
    ls = msub.add_parser("list", help="list the maps", description="List every map with powers and SC target.")
    ls.set_defaults(func=run_list)
    c = msub.add_parser("check", help="load a map and say what it holds",
                        description="Load maps/NAME (map.json and names.json) and check them.")
    c.add_argument("name")
    c.set_defaults(func=run_check)


def credits_for(file: str) -> dict:
    """The ``maps/sources/CREDITS.json`` entry of ``file``'s name, or ``{}``."""
    path = MAPS_DIR / "sources" / "CREDITS.json"
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("files", {}).get(Path(file).name, {})
    except (OSError, ValueError):
        return {}


def run_import(args) -> int:
    from ..mapimport import MapFileError, import_map
    from ..rules.map import MapError
    known = credits_for(args.file)
    name = args.name or known.get("name") or Path(args.file).stem.lower()
    credit = {k: v for k, v in (("designer", args.designer or known.get("designer")),
                                ("source", args.source or known.get("source")),
                                ("licence", args.licence or known.get("licence"))) if v}
    try:
        result = import_map(args.file, name, maps_dir=Path(args.maps_dir),
                            title=args.title or known.get("title"), credit=credit or None)
    except (MapFileError, MapError) as e:
        print(f"judge map import: {e}", file=sys.stderr)
        return 1
    m = result.map
    print(f"maps/{name}: {len(m.powers)} powers, {len(m.provinces)} provinces, "
          f"{len(m.supply_centres)} supply centres, {m.victory_centres} for a solo, starts {m.start.phase}"
          + (" (standard board)" if result.built.classic else ""))
    for n in result.built.notes:
        print(f"  note: {n}")
    return 0


def run_list(args) -> int:
    from ..maps import list_maps, load_map, map_about
    from ..rules.map import MapError
    for name in list_maps():
        try:
            m, about = load_map(name), map_about(name)
        except MapError as e:
            print(f"{name}: BROKEN: {e}")
            continue
        designer = about.get("credit", {}).get("designer", "")
        print(f"{name:14} {about.get('title', name)[:30]:30} {len(m.powers):2} powers, "
              f"{m.victory_centres}/{len(m.supply_centres)} SCs" + (f"  {designer}" if designer else ""))
    return 0


def run_check(args) -> int:
    from ..mapimport import check_map
    from ..rules.map import MapError
    try:
        for line in check_map(args.name):
            print(line)
    except MapError as e:
        print(f"judge map check: {e}", file=sys.stderr)
        return 1
    return 0
