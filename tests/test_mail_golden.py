"""Golden mails: raw ``.eml`` in -> expected mails out, with the clock pinned.

Each folder under ``tests/data/mail/`` holds ``NN-in.eml`` files, fed to the
worker in order, and ``NN-out-K.eml``: the K-th mail the judge sends for input
NN, in a readable form (the headers that matter, then the decoded body: a
mail with a map names its parts on a ``Parts:`` line and gives its text
part); beside it ``NN-out-K.html``, the HTML part of a mail that has one
(issue 20). A missing ``NN-out-*`` means the input must get no answer. Run with
``JUDGE_UPDATE_GOLDEN=1`` to rewrite the expected files after a deliberate change,
and read the diff.
"""

from __future__ import annotations

import email
import os
from datetime import datetime, timedelta, timezone
from email import policy
from pathlib import Path

import pytest

from judge.config import Config
from judge.mail.commands import MailCommands
from judge.mail.spool import Spool
from judge.mail.worker import Worker
from judge.storage import Store

DATA = Path(__file__).resolve().parent / "data" / "mail"
CASES = sorted(p.name for p in DATA.iterdir() if p.is_dir())
SHOWN = ("From", "To", "Cc", "Subject", "Date", "Message-ID", "In-Reply-To", "References",
         "Auto-Submitted", "X-Loop", "List-Id", "Content-Language", "Content-Type")
T0 = datetime(2024, 1, 1, 12, 0, tzinfo=timezone.utc)


def readable(raw: str) -> str:
    msg = email.message_from_string(raw, policy=policy.default)
    head = "".join(f"{h}: {' '.join(str(msg[h]).split())}\n" for h in SHOWN if msg[h] is not None)
    if msg.is_multipart():
        head += f"Parts: {structure(msg)}\n"
        msg = msg.get_body(("plain",))
    return head + "\n" + msg.get_content().replace("\r\n", "\n")


def structure(part) -> str:
    """``multipart/alternative(text/plain, multipart/related(text/html, image/png g-S1901M.png))``."""
    if part.is_multipart():
        return f"{part.get_content_type()}({', '.join(structure(p) for p in part.iter_parts())})"
    name = part.get_filename()
    return part.get_content_type() + (f" {name}" if name else "")


def html_of(raw: str) -> str | None:
    """The HTML part of a mail (None if it has none)."""
    msg = email.message_from_string(raw, policy=policy.default)
    body = msg.get_body(("html",)) if msg.is_multipart() else None
    return body.get_content().replace("\r\n", "\n") if body is not None else None


def judge_config() -> Config:
    cfg = Config()
    cfg.judge.address, cfg.judge.keeper = "judge@example.test", "keeper@example.test"
    cfg.senders.auth = "address"        # the golden players sign on from their address alone
    return cfg


def run_case(tmp_path: Path, case: str) -> dict[str, str]:
    """Feed the case's inputs through a worker; {output file name: readable mail}."""
    cfg = judge_config()
    store, spool = Store(tmp_path / "store"), Spool(tmp_path / "spool")
    sent: list[dict] = []
    clock = [T0]
    worker = Worker(store, spool, MailCommands(cfg), address=cfg.judge.address, name=cfg.judge.name,
                    domain=cfg.domain, keeper=cfg.judge.keeper, clock=lambda: clock[0],
                    send=sent.extend)
    out = {}
    for src in sorted((DATA / case).glob("*-in.eml")):
        n = src.name.split("-")[0]
        before = len(sent)
        spool.put(src.read_bytes(), {"source": "test"})
        for name in spool.pending():
            worker.process(name)
        for k, row in enumerate(sent[before:], 1):
            out[f"{n}-out-{k}.eml"] = readable(row["raw"])
            html = html_of(row["raw"])
            if html is not None:
                out[f"{n}-out-{k}.html"] = html
        clock[0] += timedelta(minutes=1)
    assert spool.pending() == [] and spool.shunted() == []
    return out


@pytest.mark.parametrize("case", CASES)
def test_golden(tmp_path, case):
    got = run_case(tmp_path, case)
    folder = DATA / case
    if os.environ.get("JUDGE_UPDATE_GOLDEN") == "1":
        for old in [*folder.glob("*-out-*.eml"), *folder.glob("*-out-*.html")]:
            old.unlink()
        for name, text in got.items():
            (folder / name).write_text(text, encoding="utf-8")
    expected = {p.name: p.read_text(encoding="utf-8")
                for p in [*folder.glob("*-out-*.eml"), *folder.glob("*-out-*.html")]}
    assert sorted(got) == sorted(expected)
    for name in sorted(expected):
        assert got[name] == expected[name], name
