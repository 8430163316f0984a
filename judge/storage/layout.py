"""Where every document lives: the only module that spells the store's
table and file names.

The store is a folder (``DATA/store``)::

    VERSION                     "3"
    games/NAME/game.json        a game's live state: a TinyDB file with table
                                ``live`` holding documents ``game`` (settings,
                                players, position, orders, clock ...) and ``gm``
    games/NAME/phases/NNNN.json its history: record NNNN (0-based), written once
    games/NAME/replaced/NNNN.jsonl
                                the orders replaced in the phase of record NNNN
                                (to be), one JSON line each, appended (never rewritten)
    games/NAME/pictures/NNNN-VARIANT.json
                                the map of record NNNN as mailed (a PNG; judge.mail.pictures)
    tables/TABLE/SHARD.json     judge-wide tables: TinyDB files, table ``rows``,
                                document id = key; a key's shard is a hash of it
    tables/bodies/HASH.json     the MIME body of outgoing mails that share it (a
                                results mail's text, HTML and map: one for all
                                its recipients); outbox rows name it
    ledger.sqlite               the ledger: a table per week (see :mod:`.ledger`)
    journal/log                 commits not yet synced in the files (see :mod:`.journal`)
    writer.lock                 held by the one writer while it commits

Logical tables (what callers name): ``games`` and ``gm`` (key: game name),
``phases`` (key ``NAME/NNNN``), ``replaced`` (key ``NAME/NNNN``, append-only),
``pictures`` (key ``NAME/NNNN/VARIANT``), ``bodies`` (key: the sha256 of the
body, 64 hex digits), ``ledger`` (key: Message-ID) and the
keyed tables of :data:`SHARDS`.

Version 2 had the ledger in 4096 TinyDB shards and a journal file per
commit: :func:`judge.storage.upgrade.upgrade_v2` converts it when it is opened.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

VERSION = "3"
LEDGER = "ledger"
LOGS = "replaced"

GAME_FILE_TABLE = "live"
"""The TinyDB table inside ``game.json``."""
GAME_DOCS = {"games": "game", "gm": "gm"}
"""Logical table -> document id inside a game's ``game.json``."""
ROWS = "rows"
"""The TinyDB table inside a shard file."""

SHARDS = {
    "outbox": 256,       # mails waiting to be sent, or failed
    "accounts": 256,     # address -> the reader's chosen language
    "addresses": 1024,   # address -> the games it plays or masters (index, kept by games.save_game)
    "catalogue": 256,    # game -> a summary line: status, phase, listed (index)
    "open": 16,          # game with a free power, not finished -> {"listed"} (index read by LIST)
    "names": 256,        # game name folded to lower case -> its spelling (index)
    "wakeups": 64,       # running game -> its next event (index read by the scheduler)
    "judge": 1,          # the judge's own facts: its identity as `judge serve` last ran
    "refused": 1024,     # sender -> whether a mail of theirs ever did something (grows with spam; issue 12)
    "joins": 256,        # game -> the JOINs waiting for the GM's APPROVE or REJECT (approve=yes)
    "diary": 256,        # game -> its powers' and GM's private notes (DIARY; shown to all after the end)
    "wrong_passwords": 256,   # game/power -> wrong passwords this hour, the lock (judge.verbs.lockout)
    "digests": 16,       # address -> answers held for one digest mail (a sender over its rate; judge.mail.fairness)
    "asked": 256,        # sender -> when it was last answered LIST and HELP (at most once a minute each)
}
"""Keyed tables and their shard counts: a lookup reads one shard, whose size
stays small (a few hundred rows at the largest judges this is meant for)."""

SCANNABLE = frozenset({"outbox", "catalogue", "open", "wakeups", "judge", "accounts", "digests"})
"""Tables that may be read whole (:meth:`judge.storage.Store.all`)."""

_GAME_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
_PHASE_KEY = re.compile(r"^(?P<game>[A-Za-z0-9][A-Za-z0-9_-]{0,63})/(?P<index>\d{4})$")
_BODY_KEY = re.compile(r"^[0-9a-f]{64}$")
BODIES = "bodies"
_PICTURE_KEY = re.compile(r"^(?P<game>[A-Za-z0-9][A-Za-z0-9_-]{0,63})/(?P<index>\d{4})/(?P<variant>[a-z][a-z0-9-]{0,40})$")


@dataclass(frozen=True)
class Place:
    """Where a document is: ``path`` (relative to the store folder); in a
    TinyDB file (``table``, ``doc_id``) or, when ``table`` is None, the whole
    file is the document (a phase record)."""

    path: str
    table: str | None
    doc_id: str | None


class LayoutError(ValueError):
    """A table or key the store cannot hold (the message says which)."""


@functools.lru_cache(maxsize=4096)
def place(table: str, key: str) -> Place:
    """Where ``table``/``key`` lives. Raises LayoutError for an unknown table
    or a key the table cannot take (a game name must be 1-64 letters, digits,
    ``-`` or ``_``). The last places asked for are kept (a mail asks for the
    same few a dozen times and more: 3.5 % of the worker's samples, py-spy)."""
    if table in GAME_DOCS:
        if not _GAME_NAME.match(key):
            raise LayoutError(f"{table}/{key}: not a game name")
        return Place(f"games/{key}/game.json", GAME_FILE_TABLE, GAME_DOCS[table])
    if table == "phases":
        m = _PHASE_KEY.match(key)
        if not m:
            raise LayoutError(f"phases/{key}: the key must be GAME/NNNN")
        return Place(f"games/{m['game']}/phases/{m['index']}.json", None, None)
    if table == "pictures":
        m = _PICTURE_KEY.match(key)
        if not m:
            raise LayoutError(f"pictures/{key}: the key must be GAME/NNNN/VARIANT")
        return Place(f"games/{m['game']}/pictures/{m['index']}-{m['variant']}.json", None, None)
    if table == LOGS:
        m = _PHASE_KEY.match(key)
        if not m:
            raise LayoutError(f"replaced/{key}: the key must be GAME/NNNN")
        return Place(f"games/{m['game']}/replaced/{m['index']}.jsonl", None, None)
    if table == BODIES:
        if not _BODY_KEY.match(key):
            raise LayoutError(f"bodies/{key}: the key must be a sha256 in hex")
        return Place(f"tables/{BODIES}/{key}.json", None, None)
    if table == LEDGER:
        return Place("ledger.sqlite", LEDGER, key)
    if table in SHARDS:
        return Place(shard_path(table, shard_of(table, key)), ROWS, key)
    raise LayoutError(f"no table {table!r} in the store")


def body_keys(root: Path) -> list[str]:
    """The keys of the ``bodies`` there are in the store at ``root``."""
    folder = root / "tables" / BODIES
    return sorted(p.stem for p in folder.glob("*.json") if _BODY_KEY.match(p.stem)) if folder.is_dir() else []


def phase_key(game: str, index: int) -> str:
    """The ``phases`` key of record ``index`` (0-based) of ``game``."""
    return f"{game}/{index:04d}"


def shard_of(table: str, key: str) -> int:
    digest = hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % SHARDS[table]


def shard_path(table: str, shard: int) -> str:
    """Shard file ``shard`` of a keyed table (a relative path; it may not exist)."""
    return f"tables/{table}/{shard:04d}.json"


def shard_paths(table: str) -> list[str]:
    """Every shard file of a keyed table (relative paths; most may not exist)."""
    return [shard_path(table, i) for i in range(SHARDS[table])]


def game_dir(root: Path, name: str) -> Path:
    return root / "games" / name


def game_names(root: Path) -> list[str]:
    """The names of the games in the store folder ``root``, sorted."""
    try:
        return sorted(p.name for p in (root / "games").iterdir()
                      if _GAME_NAME.match(p.name) and (p / "game.json").exists())
    except FileNotFoundError:
        return []
