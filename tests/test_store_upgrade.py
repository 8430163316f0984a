"""A judge's data from the one-file store of an earlier release upgrades with
nothing lost (issue 10): every game with its whole history, GM record,
account, ledger entry and pending mail, and the notice a GM's command left
for the judge to mail — by `judge store upgrade` or at `judge serve`'s start.
The data: tests/data/upgrade/ (made by the code of that release)."""

from __future__ import annotations

import email
import json
import shutil
from email import policy
from pathlib import Path

from judge.cli import main
from judge.config import load_config
from judge.daemon import Daemon
from judge.game import Game
from judge.storage import Store, load_game
from judge.storage.layout import shard_of, shard_path
from storeview import tables

V1 = Path(__file__).parent / "data" / "upgrade" / "v1-judge.json"


def v1_tables() -> dict[str, dict]:
    data = json.loads(V1.read_text(encoding="utf-8"))
    return {t: {row["key"]: row["doc"] for row in rows.values()} for t, rows in data.items()}


def data_folder(tmp_path) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(V1, data / "judge.json")
    return data


def check_everything_is_there(data: Path) -> None:
    old, store = v1_tables(), Store(data / "store")
    assert set(store.game_names()) == set(old["games"]) == {"movegame", "retreatgame", "adjustgame", "donegame"}
    for name, doc in old["games"].items():
        game = load_game(store, name)
        assert game == Game.from_dict(doc), name                 # the whole game, history and all
        assert [r.phase for r in game.history] == [r["phase"] for r in doc["history"]]
    assert {k: v["position"]["phase"] for k, v in old["games"].items()} == \
        {"movegame": "S1901M", "retreatgame": "F1901R", "adjustgame": "W1901A", "donegame": "F1901M"}
    new = tables(data / "store")
    for table in ("gm", "accounts", "ledger"):
        assert {k: new[table].get(k) for k in old[table]} == old[table], table
    assert len(old["ledger"]) == 50 and set(new["ledger"]) - set(old["ledger"]) <= {
        k for k in new["ledger"] if k.startswith("upgrade-notices:")}      # the old notice, once mailed
    catalogue = store.all("catalogue")
    assert catalogue["donegame"]["status"] == "finished" and catalogue["movegame"]["status"] == "running"
    assert set(store.all("wakeups")) == {"movegame", "retreatgame", "adjustgame"}   # the finished game has none
    assert store.get("addresses", "england.movegame@players.example")["games"]["movegame"]["language"] == "zh-hans"
    assert not (data / "judge.json").exists() and (data / "judge.json.v1-upgraded").read_bytes() == V1.read_bytes()


def test_judge_store_upgrade_keeps_everything(tmp_path, capsys):
    data = data_folder(tmp_path)
    assert main(["store", "upgrade", "--data", str(data)]) == 0
    out = capsys.readouterr().out
    assert "4 games" in out and "50 ledger" in out and "130 outbox" in out and "1 notices" in out
    check_everything_is_there(data)
    old_outbox = v1_tables()["outbox"]
    assert {k: v for k, v in Store(data / "store").all("outbox").items()} == old_outbox   # pending, unchanged
    [notice] = (data / "spool" / "new").iterdir()               # the old notice: work for the judge
    assert b'"mail notices"' in notice.read_bytes()
    assert main(["store", "upgrade", "--data", str(data)]) == 0  # again: nothing to do
    assert "nothing to upgrade" in capsys.readouterr().out


def test_the_judge_upgrades_at_start_and_sends_every_pending_mail_once(tmp_path):
    data = data_folder(tmp_path)
    cfg = load_config(None)
    cfg.judge.data_dir, cfg.judge.address = str(data), "judge@example.test"
    cfg.inbound.smtp.port = 0
    daemon = Daemon(cfg)
    daemon.start()
    try:
        def delivered():
            new = data / "outbox" / "new"
            return [email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in new.iterdir()] \
                if new.exists() else []
        import time
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and (len(delivered()) < 138 or Store(data / "store").all("outbox")):
            time.sleep(0.1)
        mails = delivered()
    finally:
        daemon.stop()
    check_everything_is_there(data)
    old_ids = set(v1_tables()["outbox"])
    ids = [m["Message-ID"] for m in mails]
    assert len(ids) == len(set(ids)) == 138                     # 130 pending + the notice to 8 readers
    assert old_ids <= set(ids)
    extended = [m for m in mails if m["Message-ID"] not in old_ids]
    assert len(extended) == 8 and all("movegame" in m["Subject"] and any(w in m["Subject"] for w in ("deadline", "截止时间", "截止時間"))
                                     for m in extended)
    assert Store(data / "store").all("outbox") == {}             # every row recorded as sent


def test_a_store_of_layout_2_is_converted_with_every_ledger_entry_and_unfinished_commit(tmp_path, capsys):
    """Layout 2 (the ledger in TinyDB shards, a journal file per commit) -> 3:
    `judge store upgrade` finishes the commit a crash left in its journal,
    moves every ledger entry into the week tables of ledger.sqlite, keeps the
    games; a crash before the new VERSION makes the next opening do it again."""
    data = tmp_path / "data"
    root = data / "store"
    for d in ("games/g", "tables/ledger", "tables/outbox", "journal"):
        (root / d).mkdir(parents=True)
    (root / "VERSION").write_text("2\n")
    (root / "games/g/game.json").write_text(json.dumps({"live": {"game": {"v": 1}}}))
    entries = {f"m{i}@x": {"status": "done", "at": f"2026-{1 + i % 12:02d}-0{1 + i % 9}T10:00:00+00:00"}
               for i in range(300)}
    entries["odd@x"] = {"status": "ignored", "at": "yesterday"}
    for shard in range(7):
        rows = {k: v for j, (k, v) in enumerate(sorted(entries.items())) if j % 7 == shard}
        (root / f"tables/ledger/{shard:04d}.json").write_text(json.dumps({"rows": rows}))
    files = [("games/g/game.json", json.dumps({"live": {"game": {"v": 2}}}).encode()),
             (shard_path("outbox", shard_of("outbox", "o@j")), json.dumps({"rows": {"o@j": {"status": "pending"}}}).encode())]
    head = json.dumps([[p, len(b)] for p, b in files]).encode()
    (root / "journal/000000000007.json").write_bytes(b"judge-journal 1\n" + head + b"\n" + b"".join(b for _p, b in files))
    catalogue = {"forming": {"status": "forming", "free": 3, "listed": False},
                 "full": {"status": "running", "free": 0, "listed": True}}
    for name, row in catalogue.items():
        (root / "tables" / "catalogue").mkdir(exist_ok=True)
        (root / shard_path("catalogue", shard_of("catalogue", name))).write_text(json.dumps({"rows": {name: row}}))
    (root / "ledger.sqlite").write_bytes(b"half made by a conversion a crash cut short")
    assert main(["store", "upgrade", "--data", str(data)]) == 0
    assert "store layout 2 -> 3" in capsys.readouterr().out
    store = Store(root)
    assert (root / "VERSION").read_text().strip() == "3" and not (root / "tables/ledger").exists()
    assert tables(root)["ledger"] == entries
    assert all(store.get("ledger", k) == v for k, v in entries.items())
    assert len(store.ledger.weeks()) > 12                            # by the time of each entry
    assert store.get("games", "g") == {"v": 2} and store.get("outbox", "o@j") == {"status": "pending"}
    assert not list((root / "journal").glob("*.json"))
    assert store.all("open") == {"forming": {"listed": False}}          # the new index, from the catalogue
