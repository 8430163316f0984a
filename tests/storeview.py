"""Tests' view of a whole store folder, read straight from its files (the
judge itself never reads a table whole): ``tables(root)`` ->
``{table: {key: document}}`` for the games, their GM records, history
records and every keyed table. A game's document carries its ``history``
(its records, oldest first) as the one-file store of earlier releases did."""

from __future__ import annotations

import json
from pathlib import Path

from judge.storage.ledger import Ledger


def _read(path: Path):
    """A file's JSON, or None if the judge removed it meanwhile (it may be running)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None


def tables(root: Path) -> dict[str, dict[str, dict]]:
    root = Path(root)
    out: dict[str, dict[str, dict]] = {}
    for game_file in sorted(root.glob("games/*/game.json")):
        live = (_read(game_file) or {}).get("live", {})
        name = game_file.parent.name
        if "gm" in live:
            out.setdefault("gm", {})[name] = live["gm"]
        records = [r for r in (_read(p) for p in sorted(game_file.parent.glob("phases/*.json"))) if r is not None]
        for i, record in enumerate(records):
            out.setdefault("phases", {})[f"{name}/{i:04d}"] = record
        if "game" in live:
            out.setdefault("games", {})[name] = dict(live["game"],
                                                      history=records[:live["game"].get("history_len", 0)])
    out["ledger"] = Ledger(root).rows() if (root / "ledger.sqlite").exists() else {}
    for shard in sorted(root.glob("tables/*/*.json")):
        rows = (_read(shard) or {}).get("rows", {})
        out.setdefault(shard.parent.name, {}).update(rows)
    return out
