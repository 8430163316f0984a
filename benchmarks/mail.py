"""Mail benchmark: order mails appended to a real IMAP inbox (Dovecot on
127.0.0.1), read by ``judge serve`` (IMAP IDLE, STARTTLS) and answered through
a real SMTP server (aiosmtpd); the time from APPEND to the confirmation being
accepted by the SMTP server.

    python benchmarks/mail.py [--mails 200] [--paced 50]

Prints, for mails sent one at a time (``paced``) and for a burst of ``mails``,
the median and p95 latency (ms), and the burst's mails per second. The judge
polls the mailbox every 50 ms by default; ``--idle`` waits with IDLE instead,
which costs at least 500 ms per mail here: Dovecot holds back IDLE
notifications for a fixed 500 ms (NOTIFY_DELAY_MSECS in its mailbox-watch.c).
Targets (issue 23): median <= 100 ms, >= 100 mails/s.
Needs root and Dovecot (tests/mailserver/install.sh); starts a Dovecot of
its own on free ports in a new folder (as the tests do), never one it finds.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from mailserver.harness import (  # noqa: E402
    DaemonProcess, SmtpSink, dovecot_missing, imap_client, start_dovecot, wait_for, write_config,
)

POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
from spring1901 import ORDERS  # noqa: E402  (benchmarks/ is on sys.path when run as a script)


def mail(body: str, mid: str, frm: str) -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"], m["Message-ID"] = frm, "judge@example.test", "orders", mid
    m.set_content(body)
    return m.as_bytes()


def order_mail(i: int) -> tuple[str, bytes]:
    p = POWERS[i % 7]
    mid = f"<bench-{i}-{time.time_ns()}@x>"
    return mid, mail(f"SIGNON bench pw-{p.lower()}\n{ORDERS[p]}\n", mid, f"{p.lower()}@example.org")


def pct(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mails", type=int, default=200, help="mails in the burst (default 200)")
    ap.add_argument("--paced", type=int, default=50, help="mails sent one at a time (default 50)")
    ap.add_argument("--debug", action="store_true", help="log at DEBUG level in the work folder")
    ap.add_argument("--idle", action="store_true",
                    help="wait with IMAP IDLE (Dovecot delays IDLE notices by a fixed 500 ms)")
    ap.add_argument("--poll", type=float, default=0.05, help="poll interval without --idle (s, default 0.05)")
    args = ap.parse_args()
    why = dovecot_missing()
    if why:
        print(f"benchmarks/mail.py: {why}", file=sys.stderr)
        return 2
    dv = start_dovecot()
    folder = f"bench-{time.time_ns()}"
    tmp = Path(tempfile.mkdtemp(prefix="judge-bench-"))
    if args.debug:
        print(f"work folder (kept): {tmp}", file=sys.stderr)
    with imap_client(dv) as c:
        c.create_folder(folder)
    try:
        with SmtpSink() as sink:
            cfg = write_config(tmp / "judge.toml", tmp / "data",
                               inbound={"transport": "imap", "imap": {
                                   "host": dv.host, "port": dv.port, "security": "starttls",
                                   "cafile": dv.cafile, "folder": folder, "idle": args.idle,
                                   "poll_interval": args.poll}},
                               outbound={"transport": "smtp", "smtp": {
                                   "host": "127.0.0.1", "port": sink.port, "security": "none"}},
                               # its seven players send far more than a few mails a minute
                               extra="[senders]\nanswered_per_minute = 100000\nread_per_minute = 100000\n")
            if not args.debug:
                (tmp / "judge.toml").write_text((tmp / "judge.toml").read_text().replace(
                    'level = "DEBUG"', 'level = "INFO"'))
            daemon = DaemonProcess(cfg)
            try:
                daemon.wait_ready(tmp / "judge.log", "imap: connected to")
                arrived = {}

                def confirmed(mid):
                    with sink.lock:
                        for t, _, _, msg in sink.messages[len(arrived):]:
                            arrived[msg["In-Reply-To"]] = t
                    return mid in arrived

                with imap_client(dv) as c:
                    c.append(folder, mail("CREATE bench gmsecret early=no\n", "<bench-create@x>", "gm@example.org"))
                    for p in POWERS:
                        c.append(folder, mail(f"JOIN bench pw-{p.lower()} {p}\n", f"<bench-join-{p}@x>",
                                              f"{p.lower()}@example.org"))
                    wait_for(lambda: confirmed("<bench-join-Turkey@x>"), timeout=60, what="setup")

                    paced = []
                    for i in range(args.paced):
                        mid, raw = order_mail(i)
                        t0 = time.time()
                        c.append(folder, raw)
                        wait_for(lambda: confirmed(mid), timeout=30, interval=0.002, what=mid)
                        paced.append((arrived[mid] - t0) * 1000)

                    burst = [order_mail(args.paced + i) for i in range(args.mails)]
                    sent_at = {}
                    start = time.time()
                    for mid, raw in burst:
                        sent_at[mid] = time.time()
                        c.append(folder, raw)
                    wait_for(lambda: confirmed(burst[-1][0]) and all(m in arrived for m, _ in burst),
                             timeout=600, interval=0.01, what="the burst")
                    elapsed = max(arrived[m] for m, _ in burst) - start
                    burst_lat = [(arrived[m] - sent_at[m]) * 1000 for m, _ in burst]
            finally:
                daemon.stop()
    finally:
        with imap_client(dv) as c:
            c.delete_folder(folder)
        dv.stop()
        if not args.debug:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"imap mode: {'IDLE' if args.idle else f'poll every {args.poll * 1000:.0f} ms'}")
    print(f"paced ({args.paced} mails, one at a time): latency median {statistics.median(paced):.1f} ms, "
          f"p95 {pct(paced, 0.95):.1f} ms, max {max(paced):.1f} ms")
    print(f"burst ({args.mails} mails appended at once): {args.mails / elapsed:.1f} mails/s; "
          f"latency median {statistics.median(burst_lat):.1f} ms, p95 {pct(burst_lat, 0.95):.1f} ms")
    print(f"targets: median <= 100 ms ({'met' if statistics.median(paced) <= 100 else 'MISSED'}), "
          f">= 100 mails/s ({'met' if args.mails / elapsed >= 100 else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
