"""Make a store with the v1 (single judge.json) layout, using the code of commit 62fbf38.

Games in every phase kind, a finished game, pending outbox rows, ledger entries,
an account, GM records and a pending CLI notice."""
import shutil, subprocess, sys
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path

from judge.config import Config
from judge.mail.handler import MailHandler
from judge.mail.spool import Spool
from judge.mail.worker import Worker
from judge.storage import Store

out = Path(sys.argv[1]); shutil.rmtree(out, ignore_errors=True); out.mkdir(parents=True)
NOW = [datetime(2030, 3, 1, 12, 0, tzinfo=timezone.utc)]
cfg = Config(); cfg.judge.address, cfg.judge.keeper = "judge@example.test", "keeper@example.test"
store, spool = Store(out / "store"), Spool(out / "spool")
worker = Worker(store, spool, MailHandler(cfg), address=cfg.judge.address, name="Judge",
                domain="example.test", keeper=cfg.judge.keeper, clock=lambda: NOW[0], retry_delay=0)
n = [0]
def mail(frm, body, subject="orders"):
    n[0] += 1
    m = EmailMessage()
    m["From"], m["To"], m["Subject"], m["Message-ID"] = frm, "judge@example.test", subject, f"<v1-{n[0]}@players.example>"
    m["Date"] = NOW[0].strftime("%a, %d %b %Y %H:%M:%S +0000")
    m.set_content(body)
    spool.put(m.as_bytes(), {"source": "smtp"})
    for name in spool.pending():
        worker.process(name)
    NOW[0] += timedelta(minutes=1)

POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
def addr(g, p): return f"{p.lower()}.{g}@players.example"
def game(g, lang=None):
    mail(f"gm.{g}@players.example", f"CREATE {g} gmpass{g} movement=48h press=both\n")
    for p in POWERS:
        mail(addr(g, p), f"JOIN {g} pw{p.lower()} {p}\n")
def orders(g, p, text):
    mail(addr(g, p), f"SIGNON {g} pw{p.lower()}\n{text}\n")
def process(g):
    mail(f"gm.{g}@players.example", f"SIGNON {g} gmpass{g}\nPROCESS\n")

# m: a movement phase with some orders in
game("movegame")
orders("movegame", "France", "A Par - Bur\nF Bre - Mao")
orders("movegame", "Germany", "A Mun - Ruh")
mail(addr("movegame", "England"), "SET LANGUAGE zh-hans\n")
# r: a retreat phase
game("retreatgame")
orders("retreatgame", "Germany", "A Mun - Bur")
orders("retreatgame", "France", "A Par - Pic\nA Mar H")
process("retreatgame")
orders("retreatgame", "France", "A Mar - Bur\nA Pic S A Mar - Bur")
orders("retreatgame", "Germany", "A Bur H")
process("retreatgame")
# a: an adjustment phase
game("adjustgame")
orders("adjustgame", "Germany", "F Kie - Den\nA Mun - Ruh\nA Ber - Kie")
orders("adjustgame", "France", "A Par - Bur\nF Bre - Mao\nA Mar - Spa")
process("adjustgame")
orders("adjustgame", "France", "F Mao - Por\nA Bur - Bel")
orders("adjustgame", "Germany", "A Ruh - Hol")
process("adjustgame")
# finished: the GM ends it as a draw
game("donegame")
orders("donegame", "Italy", "A Ven - Tyr")
process("donegame")
mail("gm.donegame@players.example", "SIGNON donegame gmpassdonegame\nEND\n")
# a pending notice left by the GM's command line while no judge ran
subprocess.run([sys.executable, "-m", "judge.cli", "game", "gm", "movegame", "extend", "24h", "--data", str(out)], check=True)
shutil.rmtree(out / "spool")
for f in list(out.iterdir()):
    if f.name not in ("judge.json",):
        f.unlink()
import json
d = json.loads((out / "store").read_text())
print({t: len(v) for t, v in d.items()})
for k, doc in d["games"].items():
    g = doc["doc"]; print(g["name"], g["position"]["phase"], len(g["history"]), (g.get("ending") or {}).get("result") is not None)
print(sum(1 for r in d["outbox"].values() if r["doc"]["status"] == "pending"), "pending outbox rows")
