"""Passwords never leave (issue 19 point 9): fuzzed mails holding passwords
in every malformed shape and mislabelled charset, through the real reader,
command handler and renderer; every answer composed is swept.

    python benchmarks/passwords.py [--mails 20000] [--seed 19]

The mails are tests/passwordfuzz.py's (SIGNON g=pw, SIGNON g/pw, words
before SIGNON, misspelt and glued sign-on words, over-long lines, weak and
new SET PASSWORDs, JOIN and CREATE lines, the line in the subject; bodies in
GB18030 labelled Big5 or UTF-8, Big5 labelled GB2312, unlabelled, HTML), in
game fz of tests/mailfuzz.py (a new store and game every 1,000 mails, as
benchmarks/fuzz.py does). Prints the mails, the answers composed, the
tracebacks (target 0) and the answers holding a password (target 0: the
sweep of :func:`passwordfuzz.leaks` reads every text part decoded and the raw
bytes as UTF-8, GB18030 and Big5, any case), with the first few found.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import mailfuzz  # noqa: E402
import passwordfuzz  # noqa: E402
from fuzz import ROUND, Bench  # noqa: E402

from judge.config import Config  # noqa: E402
from judge.mail.handler import MailHandler  # noqa: E402


def run(count: int, seed: int) -> None:
    cfg = Config()
    cfg.judge.address = mailfuzz.JUDGE
    handler = MailHandler(cfg)
    answers = tracebacks = 0
    leaked: list[tuple[int, list[str]]] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as top:
        for i, (raw, secrets) in enumerate(passwordfuzz.mails(seed, count)):
            if i % ROUND == 0:
                bench = Bench(cfg, Path(tempfile.mkdtemp(dir=top)), handler)
                for k, setup in enumerate(mailfuzz.setup_mails()):
                    assert bench.handle(setup, f"setup-{i}-{k}")[0] == "answered"
                bench.commit()
            try:
                bench.handle(raw, f"pw-{seed}-{i}")
            except Exception:  # noqa: BLE001 - counted and shown
                tracebacks += 1
                if tracebacks <= 3:
                    traceback.print_exc()
                continue
            for answer in bench.answers:
                answers += 1
                found = passwordfuzz.leaks(answer, secrets)
                if found:
                    leaked.append((i, found))
            if i % 100 == 99:
                bench.commit()
        bench.commit()
    seconds = time.perf_counter() - started
    print(f"passwords: {count} fuzzed mails with malformed SIGNON lines and mislabelled charsets (seed {seed}), "
          f"{seconds:.0f} s, load {os.getloadavg()[0]:.1f}")
    print(f"  answers composed and swept: {answers}")
    print(f"  tracebacks: {tracebacks}")
    print(f"  answers holding a password: {len(leaked)}")
    for i, found in leaked[:5]:
        print(f"    mail {i}: {found}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mails", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=19)
    args = ap.parse_args()
    run(args.mails, args.seed)


if __name__ == "__main__":
    main()
