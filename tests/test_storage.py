"""The store (BRIEF contract): TinyDB in one JSON file, atomic commits, one
writer; and games stored and loaded unchanged."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import textwrap
from datetime import datetime, timedelta, timezone

import pytest

from judge.game import Game, HouseRules, Line, Settings
from judge.rules.orders import (
    Build, BuildPriority, Disband, DisbandPriority, Hold, Move, RetreatPreference, Support,
)
from judge.storage import Store, StoreError, atomic, load_game, save_game

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def path(tmp_path):
    return tmp_path / "data" / "judge.json"


def test_creates_file_and_directory(path):
    Store(path)
    assert json.loads(path.read_text()) == {}


def test_put_get_all_delete(path):
    store = Store(path)
    with store.transaction() as tx:
        tx.put("games", "g1", {"a": 1, "zh": "华沙"})
        tx.put("games", "g2", {"b": [1, 2]})
        tx.put("ledger", "<m1@x>", {"status": "done"})
    assert store.get("games", "g1") == {"a": 1, "zh": "华沙"}
    assert store.all("games") == {"g1": {"a": 1, "zh": "华沙"}, "g2": {"b": [1, 2]}}
    assert store.get("games", "nope") is None
    assert store.all("nothing") == {}
    with store.transaction() as tx:
        tx.delete("games", "g1")
        tx.put("games", "g2", {"b": 3})
        tx.delete("games", "never-there")
    assert store.all("games") == {"g2": {"b": 3}}
    assert Store(path).get("ledger", "<m1@x>") == {"status": "done"}   # another reader


def test_put_copies_the_document(path):
    store = Store(path)
    doc = {"a": [1]}
    with store.transaction() as tx:
        tx.put("t", "k", doc)
        doc["a"].append(2)
    assert store.get("t", "k") == {"a": [1]}


def test_bad_documents_are_refused(path):
    store = Store(path)
    with pytest.raises(StoreError, match="t/k"):
        with store.transaction() as tx:
            tx.put("t", "k", {"when": datetime.now()})
    with pytest.raises(StoreError):
        with store.transaction() as tx:
            tx.put("t", "", {})
    assert store.all("t") == {}


def test_one_atomic_replace_per_transaction(path, monkeypatch):
    store = Store(path)
    calls = []
    real = os.replace
    monkeypatch.setattr(atomic.os, "replace", lambda a, b: (calls.append(b), real(a, b)))
    with store.transaction() as tx:
        for i in range(5):
            tx.put("games", f"g{i}", {"i": i})
        tx.put("outbox", "m", {"to": "x@example.org"})
    assert calls == [path]
    with store.transaction():
        pass   # nothing to write: no write
    assert calls == [path]


def test_exception_in_transaction_writes_nothing(path):
    store = Store(path)
    with store.transaction() as tx:
        tx.put("games", "g", {"v": 1})
    before = path.read_bytes()
    with pytest.raises(RuntimeError):
        with store.transaction() as tx:
            tx.put("games", "g", {"v": 2})
            tx.put("games", "h", {"v": 3})
            raise RuntimeError("crash in the middle")
    assert path.read_bytes() == before
    assert store.all("games") == {"g": {"v": 1}}


def test_failed_replace_leaves_old_file(path, monkeypatch):
    store = Store(path)
    with store.transaction() as tx:
        tx.put("games", "g", {"v": 1})
    before = path.read_bytes()

    def broken(src, dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(atomic.os, "replace", broken)
    with pytest.raises(StoreError, match="No space left"):
        with store.transaction() as tx:
            tx.put("games", "g", {"v": 2})
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["judge.json", "judge.json.lock"]


def test_crash_between_temp_write_and_replace(path):
    """A writer killed after writing and fsyncing the temp file but before the
    rename: the old file is intact; the next transaction removes the stale temp."""
    store = Store(path)
    with store.transaction() as tx:
        tx.put("games", "g", {"v": 1})
    before = path.read_bytes()
    child = textwrap.dedent(f"""
        import os
        from judge.storage import Store, atomic
        atomic.os.replace = lambda src, dst: os._exit(9)   # die just before the rename
        store = Store({str(path)!r})
        with store.transaction() as tx:
            tx.put("games", "g", {{"v": 2}})
            tx.put("games", "h", {{"v": 3}})
    """)
    proc = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 9, proc.stderr
    assert path.read_bytes() == before
    stale = list(path.parent.glob(".judge.json.*.tmp"))
    assert len(stale) == 1 and json.loads(stale[0].read_text())["games"]   # the new data, never renamed
    assert Store(path).all("games") == {"g": {"v": 1}}
    with store.transaction() as tx:
        tx.put("games", "h", {"v": 4})
    assert not list(path.parent.glob(".judge.json.*.tmp"))
    assert store.all("games") == {"g": {"v": 1}, "h": {"v": 4}}


def test_transaction_holds_the_writer_lock(path):
    store = Store(path)
    lock = path.with_name("judge.json.lock")
    with store.transaction():
        fd = os.open(lock, os.O_RDWR)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(fd)
    fd = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)   # free again
    finally:
        os.close(fd)


def test_transactions_do_not_nest(path):
    store = Store(path)
    with store.transaction():
        with pytest.raises(StoreError, match="nest"):
            with store.transaction():
                pass


def test_corrupt_file_is_reported(path):
    store = Store(path)
    path.write_text("{not json")
    with pytest.raises(StoreError, match="judge.json"):
        store.get("games", "g")
    with pytest.raises(StoreError, match="judge.json"):
        with store.transaction() as tx:
            tx.put("games", "g", {})
    assert path.read_text() == "{not json"


def played_game() -> Game:
    """A game played for several phases: orders replaced, refused, standing
    lists, a retreat by the house default, builds; orders pending at the end."""
    settings = Settings("droidippy", HouseRules(default_retreat="house", default_disband="house"))
    g = Game.create("round-trip", now=T0, seed=12345, settings=settings)
    g.players["France"] = g.players["France"].__class__(("fr@example.org",), "scrypt$abc", "zh-hans")
    t = T0
    steps = [
        {"France": [Move("A", "par", "pic"), Move("A", "par", "bur"), Move("A", "mar", "spa"),
                    Move("F", "bre", "mao")],
         "Germany": [Move("A", "mun", "ruh"), Move("A", "ber", "mun"), Move("F", "kie", "hol")],
         "Italy": [Move("A", "ven", "pie"), RetreatPreference("A", "rom", ("apu", "ven"))]},
        {"France": [Move("A", "spa", "por"), Support("F", "mao", "A", "spa", "por"),
                    BuildPriority((Build("F", "bre"), Build("A", "par")))],
         "Germany": [Move("A", "ruh", "bur"), Support("A", "mun", "A", "ruh", "bur"), Hold("F", "hol")]},
    ]
    for orders in steps:
        for power, olist in orders.items():
            g.submit(power, [Line(f"line {i}", o) for i, o in enumerate(olist)], t)
        t += timedelta(days=2)
        g.process(t)
    while g.phase.kind != "M":
        t += timedelta(hours=12)
        g.process(t)
    g.submit("Germany", [Line("A Kie H", Hold("A", "kie")), DisbandPriority((Disband("A", "kie"),))], t)
    return g


def test_game_round_trip(path):
    game = played_game()
    assert [r.phase for r in game.history] == ["S1901M", "F1901M", "F1901R", "W1901A"]
    assert game.history[2].random_seed == "12345:F1901R"   # the default retreat was drawn
    assert game.orders and game.players["France"].addresses
    store = Store(path)
    with store.transaction() as tx:
        save_game(tx, game)
    loaded = load_game(Store(path), "round-trip")
    assert loaded == game
    assert loaded.to_dict() == game.to_dict()
    assert load_game(store, "other") is None


def test_malformed_game_is_reported(path):
    store = Store(path)
    with store.transaction() as tx:
        tx.put("games", "bad", {"name": "bad"})
    with pytest.raises(StoreError, match="games/bad"):
        load_game(store, "bad")
