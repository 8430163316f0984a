"""The reader never raises (issue 12, point 5): a fixed-seed property test.

A few thousand mutated mails (tests/mailfuzz.py) go through the real worker,
reader and command handler; each must end answered, ignored as automatic with
a reason in the ledger, or refused with an answer — none may be set aside
(a traceback) or left without a ledger entry. The bigger run is
benchmarks/fuzz.py.
"""

from __future__ import annotations

import logging

import mailfuzz
import pytest

from test_mail_commands import Judge

from judge.mail.spool import message_key

COUNT = 2000
SEED = 20260412


def account(judge: Judge, raws: list[bytes]) -> dict[str, list[str]]:
    """Process ``raws`` in batches as the daemon does; ``{outcome: [keys]}``
    with outcomes answered, ignored, shunted, unaccounted."""
    out: dict[str, list[str]] = {"answered": [], "ignored": [], "shunted": [], "unaccounted": []}
    for start in range(0, len(raws), 50):
        chunk = raws[start:start + 50]
        before = len(judge.sent)
        for raw in chunk:
            judge.spool.put(raw, {"source": "fuzz"})
        while judge.spool.pending():
            judge.worker.process_batch(judge.spool.pending())
        judge.worker.record_reports([("sent", row["id"], {}) for row in judge.sent[before:]])
        for raw in chunk:
            key = message_key(raw)
            entry = judge.store.get("ledger", key) or {}
            status = entry.get("status")
            if status == "done" and entry.get("replies"):
                out["answered"].append(key)
            elif status == "ignored" and entry.get("reason"):
                out["ignored"].append(key)
            elif status == "shunted":
                out["shunted"].append(key)
            else:
                out["unaccounted"].append(key)
    return out


@pytest.mark.slow
def test_thousands_of_mutated_mails_are_each_answered_or_ignored_with_a_reason(tmp_path, caplog):
    judge = Judge(tmp_path, max_attempts=1)
    for raw in mailfuzz.setup_mails("2024-01-10T20:00"):
        assert judge.raw(raw), "the fuzz game could not be set up"
    raws = list(mailfuzz.mails(SEED, COUNT))
    with caplog.at_level(logging.WARNING, logger="judge.mail"):
        outcome = account(judge, raws)
    failures = [r.getMessage() for r in caplog.records if "failed" in r.getMessage() or r.exc_info]
    assert not outcome["shunted"] and not failures, failures[:3]
    assert not outcome["unaccounted"], outcome["unaccounted"][:5]
    # the mutations reach every path: answers, and automatic mail ignored with its reason
    assert len(outcome["answered"]) > COUNT // 2 and len(outcome["ignored"]) > COUNT // 20
    reasons = {judge.store.get("ledger", k).get("reason") for k in outcome["ignored"]}
    assert {"auto-reply", "judge-mail", "noreply", "auto-suppress"} <= reasons, reasons
