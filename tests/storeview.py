"""Tests' view of a whole store folder, read straight from its files (the
judge itself never reads a table whole): ``tables(root)`` ->
``{table: {key: document}}`` for the games, their GM records, history
records and every keyed table. A game's document carries its ``history``
(its records, oldest first) as the one-file store of earlier releases did."""

from __future__ import annotations

import json
from pathlib import Path

from judge.storage import journal
from judge.storage.ledger import Ledger


def _pending(root: Path) -> dict[str, bytes | None]:
    """The whole files of the commits in the journal (the running judge writes
    them at its checkpoint): relative path -> bytes, or None (removed)."""
    files: dict[str, bytes | None] = {}
    for payload in journal.Log(root / "journal").frames():
        for rel, data, offset in journal.decode(payload)[1]:
            if offset is None:
                files[rel] = data
    return files


def _read(path: Path, pending: dict | None = None, root: Path | None = None):
    """A file's JSON (as its last commit left it, from the journal if it is
    there), or None if the judge removed it meanwhile (it may be running)."""
    if pending and root is not None:
        rel = path.relative_to(root).as_posix()
        if rel in pending:
            return None if pending[rel] is None else json.loads(pending[rel])
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None


def _paths(root: Path, pattern: str, pending: dict) -> list[Path]:
    """The files matching ``pattern`` there are, with the journal's."""
    found = {p.relative_to(root).as_posix() for p in root.glob(pattern)}
    found |= {rel for rel, data in pending.items() if data is not None and Path(rel).match(pattern)}
    return [root / rel for rel in sorted(found)]


def tables(root: Path) -> dict[str, dict[str, dict]]:
    root = Path(root)
    pending = _pending(root)
    out: dict[str, dict[str, dict]] = {}
    for game_file in _paths(root, "games/*/game.json", pending):
        live = (_read(game_file, pending, root) or {}).get("live", {})
        name = game_file.parent.name
        if "gm" in live:
            out.setdefault("gm", {})[name] = live["gm"]
        records = [r for r in (_read(p, pending, root) for p in _paths(root, f"games/{name}/phases/*.json", pending))
                   if r is not None]
        for i, record in enumerate(records):
            out.setdefault("phases", {})[f"{name}/{i:04d}"] = record
        if "game" in live:
            out.setdefault("games", {})[name] = dict(live["game"],
                                                      history=records[:live["game"].get("history_len", 0)])
    out["ledger"] = Ledger(root).rows() if (root / "ledger.sqlite").exists() else {}
    for shard in _paths(root, "tables/*/*.json", pending):
        rows = (_read(shard, pending, root) or {}).get("rows", {})
        out.setdefault(shard.parent.name, {}).update(rows)
    return out
