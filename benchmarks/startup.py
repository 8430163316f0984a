"""Start-up checks: how long ``judge serve`` takes to stop, and what it says,
when a login cannot work (issue 21: within 30 s, naming the server and its
answer).

    python benchmarks/startup.py [--runs 5]

Each case runs ``judge serve --config`` as a process against a real Dovecot
(started by the script, as tests/mailserver/start.sh does, with Dovecot's own
``auth_failure_delay`` of 2 s — the time a real server waits before it says
a password is wrong) and prints the median and the slowest wall time from
the start of the process to its exit, and the message of the last run:

- a wrong IMAP password (the figure the issue asks for);
- a wrong port (nothing listens); a wrong host (a name that does not resolve);
- a server that takes the connection and never says a word (a socket that
  listens and is never read: the check waits out its 10 s timeout, the
  worst case, as behind a firewall or a wrong service that stays silent).

Target: every case exits with status 1 in under 30 s.
Needs root and Dovecot (tests/mailserver/install.sh).
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from mailserver.harness import REPO, dovecot_missing, free_port, start_dovecot, write_config  # noqa: E402


def serve(config: Path, password: str) -> tuple[float, int, str]:
    env = dict(os.environ, JUDGE_IMAP_PASSWORD=password)
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "judge.cli", "serve", "--config", str(config)],
                          capture_output=True, text=True, cwd=REPO, env=env, timeout=120)
    return time.monotonic() - start, done.returncode, done.stderr.strip()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="runs of each case (default 5)")
    args = ap.parse_args()
    why = dovecot_missing()
    if why:
        print(f"startup: {why}", file=sys.stderr)
        return 2
    dv = start_dovecot(failure_delay=2)
    tmp = Path(tempfile.mkdtemp(prefix="jstart-"))
    try:
        silent = socket.socket()
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        cases = [("wrong IMAP password", {}, "wrong"),
                 ("wrong port", {"port": free_port()}, "judgepw"),
                 ("wrong host (does not resolve)", {"host": "imap.nowhere.invalid"}, "judgepw"),
                 ("a server that never answers", {"port": silent.getsockname()[1]}, "judgepw")]
        load = os.getloadavg()[0]
        print(f"startup: judge serve against Dovecot 127.0.0.1:{dv.port} (auth_failure_delay 2 s), "
              f"{args.runs} runs a case, load {load:.1f} on {os.cpu_count()} cores")
        worst = 0.0
        for title, imap, password in cases:
            settings = {"host": dv.host, "port": dv.port, "security": "starttls", "cafile": dv.cafile,
                        "username": "judge", **imap}
            config = write_config(tmp / "judge.toml", tmp / "data", inbound={"transport": "imap", "imap": settings},
                                  outbound={"transport": "maildir"})
            times, codes, message = [], set(), ""
            for _ in range(args.runs if "never" not in title else max(1, args.runs // 2)):
                seconds, code, message = serve(config, password)
                times.append(seconds)
                codes.add(code)
            worst = max(worst, max(times))
            print(f"\n{title}: exit status {', '.join(map(str, sorted(codes)))}; "
                  f"median {statistics.median(times):.2f} s, slowest {max(times):.2f} s")
            print("  " + message.replace("\n", "\n  "))
        print(f"\nslowest exit of all: {worst:.2f} s (target < 30 s)")
    finally:
        dv.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
