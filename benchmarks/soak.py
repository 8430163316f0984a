"""Soak benchmark (issue 12): order mails while the judge is killed again and again.

    python benchmarks/soak.py [--mails 2000] [--inbound smtp|imap|both] [--hog]
                              [--kill-every 0.7,2.5] [--rate 4] [--fair]

A seven-player game is created and joined by mail; then ``--mails`` order
mails are sent, one at a time (``--rate`` a second), each player's orders
cycling through valid orders for one of its units, while another thread kills ``judge serve``
(SIGKILL) at random intervals (``--kill-every MIN,MAX`` seconds) and starts
it again at once, until the judge has processed every mail sent. With SMTP in, a mail whose ``250`` did not come is sent
again (as any mail client does); with IMAP in, mails are appended to a real
Dovecot inbox. ``--hog`` runs a CPU-burning process per core beside it.

At the end the killing stops, the judge drains, and this prints per
transport: mails sent, processed (a ledger entry ``done``), lost (sent, no
ledger entry), duplicated (more than one reply to one mail), dropped-valid
(a valid order mail set aside or ignored), unanswered (done, no reply), the
kills, and whether every power's orders are the last ones it sent (nothing
applied out of order or twice). With ``--fair`` the default fair queueing
per sender stays on (each player's ~34 mails a minute are answered,
held for a digest, or not read): a mail held or not read is then counted
as such, not as unanswered or set aside, and the last orders that stand are
the last ones read — the kills must still lose and double nothing. Targets: 2,000 mails and >= 300 kills on a
loaded machine -> 0 lost, 0 duplicated, 0 dropped valid orders, 0 unanswered.
"""

from __future__ import annotations

import argparse
import email
import os
import random
import shutil
import signal
import smtplib
import subprocess
import sys
import tempfile
import threading
import time
from email import policy
from email.message import EmailMessage
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from mailserver.harness import (  # noqa: E402
    IMAP_PASSWORD, dovecot_missing, free_port, imap_client, running_dovecot, start_dovecot,
)
from storeview import tables  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
CHOICES = {  # per power, one unit and valid orders for it (Spring 1901)
    "Austria": ["A Vie - Gal", "A Vie - Bud", "A Vie H", "A Vie - Tyr"],
    "England": ["F Lon - Nth", "F Lon - Eng", "F Lon H", "F Lon - Wal"],
    "France": ["A Par - Bur", "A Par - Pic", "A Par - Gas", "A Par H"],
    "Germany": ["A Mun - Ruh", "A Mun - Bur", "A Mun - Tyr", "A Mun H"],
    "Italy": ["A Ven - Tyr", "A Ven - Pie", "A Ven H", "A Ven - Apu"],
    "Russia": ["A Mos - Ukr", "A Mos - Stp", "A Mos - Sev", "A Mos H"],
    "Turkey": ["A Con - Bul", "A Con - Smy", "A Con H", "A Con - Ank"],
}


def mail(frm: str, body: str, mid: str) -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"], m["Message-ID"] = frm, "judge@example.test", "soak", mid
    m.set_content(body)
    return m.as_bytes(policy=policy.SMTP)


def write_config(folder: Path, inbound: str, port: int, dv, fair: bool = False) -> Path:
    if inbound == "imap":
        section = (f'[inbound]\ntransport = "imap"\n[inbound.imap]\nhost = "{dv.host}"\nport = {dv.port}\n'
                   f'security = "starttls"\ncafile = "{dv.cafile}"\nusername = "judge"\n'
                   f'folder = "soak{os.getpid()}"\nidle = false\npoll_interval = 0.05\n')
    else:
        section = f'[inbound]\ntransport = "smtp"\n[inbound.smtp]\nport = {port}\n'
    path = folder / "judge.toml"
    path.write_text(f'[judge]\naddress = "judge@example.test"\nkeeper = "keeper@example.test"\n'
                    f'data_dir = "{folder / "data"}"\n[worker]\nretry_delay = 0.2\n'
                    f'[log]\nlevel = "INFO"\nfile = "{folder / "judge.log"}"\n'
                    + section + '[outbound]\ntransport = "maildir"\n'
                    # its players send ~34 mails a minute each, far over the fair queue's
                    # limits: without --fair every mail is answered on its own
                    + ('' if fair else '[senders]\nanswered_per_minute = 0\n'))
    return path


class Judge:
    """``judge serve`` as a process that can be killed and started again."""

    def __init__(self, cfg: Path):
        self.cfg, self.kills, self.lock = cfg, 0, threading.Lock()
        self.proc = self._start()

    def _start(self) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "judge.cli", "serve", "--config", str(self.cfg)], cwd=REPO,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                env=dict(os.environ, JUDGE_IMAP_PASSWORD=IMAP_PASSWORD))

    def kill_and_restart(self) -> None:
        with self.lock:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
            self.kills += 1
            self.proc = self._start()

    def stop(self) -> None:
        with self.lock:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def smtp_send(port: int, raw: bytes, stop: threading.Event) -> None:
    """Send until a 250 comes (the judge may be down or killed mid-transaction)."""
    while not stop.is_set():
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=10, local_hostname="soak.example") as s:
                s.sendmail("player@example.org", ["judge@example.test"], raw)
            return
        except (OSError, smtplib.SMTPException):
            time.sleep(0.05)


def run(inbound: str, n: int, kill_range: tuple[float, float], dv, rate: float = 2.5, fair: bool = False) -> dict:
    folder = Path(tempfile.mkdtemp(prefix=f"judge-soak-{inbound}-"))
    port = free_port()
    cfg = write_config(folder, inbound, port, dv, fair)
    imap = None
    if inbound == "imap":
        imap = imap_client(dv)
        imap.create_folder(f"soak{os.getpid()}")
    judge = Judge(cfg)
    stop = threading.Event()
    sent: list[tuple[str, str, str]] = []           # (Message-ID, power, order)

    def deliver(raw: bytes) -> None:
        if imap is not None:
            imap.append(f"soak{os.getpid()}", raw)
        else:
            smtp_send(port, raw, stop)

    deliver(mail("gm@example.org", "CREATE soak gmsecret\n", "<soak-create@x>"))
    for p in POWERS:
        deliver(mail(f"{p.lower()}@example.org", f"JOIN soak pw-{p.lower()} {p}\n", f"<soak-join-{p}@x>"))

    killing_done = threading.Event()

    def killer():
        rng = random.Random(7)
        while not killing_done.wait(rng.uniform(*kill_range)):
            judge.kill_and_restart()
    killing = threading.Thread(target=killer, daemon=True)
    killing.start()
    rng = random.Random(1)
    t0 = time.monotonic()
    for i in range(n):
        time.sleep(max(0.0, t0 + i / rate - time.monotonic()))      # the pace of a busy judge's players
        p = POWERS[i % 7]
        order = rng.choice(CHOICES[p])
        mid = f"<soak-{inbound}-{i}@x>"
        deliver(mail(f"{p.lower()}@example.org", f"SIGNON soak pw-{p.lower()}\n{order}\n", mid))
        sent.append((mid, p, order))
    # the kills go on while the judge works through what was sent (IMAP: all of it)
    data = folder / "data"
    keys = {mid.strip("<>") for mid, _p, _o in sent}
    end = time.monotonic() + 900
    while time.monotonic() < end and not keys <= set(tables(data / "store").get("ledger", {})):
        time.sleep(2.0)
    killing_done.set()
    killing.join()
    stop.set()
    elapsed = time.monotonic() - t0
    # drain: wait until every mail has its ledger entry and the outbox is empty
    end = time.monotonic() + 600
    while time.monotonic() < end:
        t = tables(data / "store")
        if keys <= set(t.get("ledger", {})) and not t.get("outbox"):
            break
        time.sleep(0.5)
    time.sleep(1.0)
    judge.stop()
    t = tables(data / "store")
    ledger = t.get("ledger", {})
    replies: dict[str, int] = {}
    digests = 0
    for path in (data / "outbox" / "new").iterdir():
        m = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        if m["In-Reply-To"]:
            replies[m["In-Reply-To"]] = replies.get(m["In-Reply-To"], 0) + 1
        digests += str(m["Subject"]).startswith("judge: the answers")
    lost = [k for k in keys if k not in ledger]
    unread = [k for k in keys if ledger.get(k, {}).get("reason") == "flood"]      # --fair: past the limit
    held = [k for k in keys if ledger.get(k, {}).get("digest")]                    # --fair: in a digest
    dropped = [k for k in keys if k in ledger and ledger[k]["status"] != "done" and k not in unread]
    duplicated = [k for k in keys if replies.get(f"<{k}>", 0) > 1]
    unanswered = [k for k in keys if k in ledger and ledger[k]["status"] == "done" and not replies.get(f"<{k}>")
                  and k not in held]
    last = {p: o for mid, p, o in sent if mid.strip("<>") not in unread}     # the last orders read
    game = t["games"]["soak"]
    have = {p: [e["text"] for e in es if not e.get("replaced")] for p, es in game.get("orders", {}).items()}
    in_order = all(have.get(p) == [o] for p, o in last.items())
    if imap is not None:
        imap.delete_folder(f"soak{os.getpid()}")
        imap.logout()
    shutil.rmtree(folder, ignore_errors=True)
    for k in dropped:
        print(f"  dropped {k}: {ledger[k]}", flush=True)
    return {"sent": n, "processed": sum(1 for k in keys if ledger.get(k, {}).get("status") == "done"),
            "lost": len(lost), "duplicated": len(duplicated), "dropped-valid": len(dropped),
            "unanswered": len(unanswered), "kills": judge.kills, "last orders stand": in_order,
            **({"held for a digest": len(held), "not read (fair queue)": len(unread), "digests": digests}
               if fair else {}),
            "seconds": round(elapsed)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mails", type=int, default=2000)
    ap.add_argument("--inbound", choices=("smtp", "imap", "both"), default="both")
    ap.add_argument("--hog", action="store_true", help="a CPU-burning process per core beside it")
    ap.add_argument("--kill-every", default="0.7,2.5", help="MIN,MAX seconds between kills")
    ap.add_argument("--rate", type=float, default=4.0, help="order mails sent per second")
    ap.add_argument("--fair", action="store_true", help="the default fair queueing per sender on (each "
                    "player sends ~34 mails a minute: answered, held for a digest, or not read)")
    args = ap.parse_args()
    kill_range = tuple(float(x) for x in args.kill_every.split(","))
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 1)] \
        if args.hog else []
    dv = None
    try:
        if args.inbound in ("imap", "both"):
            why = dovecot_missing()
            if why:
                print(f"imap: skipped ({why})")
            else:
                dv = running_dovecot() or start_dovecot()
        for inbound in ("smtp", "imap") if args.inbound == "both" else (args.inbound,):
            if inbound == "imap" and dv is None:
                continue
            r = run(inbound, args.mails, kill_range, dv, args.rate, args.fair)
            print(f"{inbound}: " + ", ".join(f"{k} {v}" for k, v in r.items()), flush=True)
    finally:
        for h in hogs:
            h.kill()
        if dv is not None:
            dv.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
