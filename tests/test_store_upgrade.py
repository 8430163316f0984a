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
