"""Crash points for the durability tests.

``checkpoint(step)`` kills the running process with SIGKILL when the environment
variable ``JUDGE_FAULT`` names ``step`` (``JUDGE_FAULT=after_commit``), or names
it with a count (``after_commit:3`` = on the third time this process reaches
it). Unset, a checkpoint does nothing. Steps, in pipeline order:

``smtp_after_spool`` (spooled, before ``250``), ``imap_after_spool`` (spooled,
before the worker sees it), ``before_commit`` (reply rendered, nothing
written), ``after_commit`` (committed, spool entry not yet removed, not
acknowledged), ``before_ack`` (spool entry removed, IMAP ``\\Seen`` not yet set),
``before_send`` (outbox row about to be handed to the transport),
``after_send`` (transport accepted it, not yet marked sent),
``before_shunt_move`` (a mail set aside: its ledger entry and notices are
committed, its bytes not yet moved to ``spool/shunt``). In the store's
commit (:mod:`judge.storage.journal`): ``journal_written`` (the commit's
journal is durable, no file changed yet), then after each file the commit
replaces, in this order: ``journal_applied_record`` (a history record),
``journal_applied_table`` (a shard of a judge-wide table),
``journal_applied_game`` (a game's live state).
"""

from __future__ import annotations

import os
import signal
import threading

STEPS = ("smtp_after_spool", "imap_after_spool", "before_commit", "after_commit",
         "before_ack", "before_send", "after_send", "before_shunt_move", "journal_written", "journal_applied_record",
         "journal_applied_table", "journal_applied_game")

_spec = os.environ.get("JUDGE_FAULT", "")
_step, _, _count = _spec.partition(":")
_remaining = int(_count) if _count.isdigit() else 1
_lock = threading.Lock()
if _step and _step not in STEPS:
    raise SystemExit(f"JUDGE_FAULT: unknown step {_step!r}; steps: {', '.join(STEPS)}")


def checkpoint(step: str) -> None:
    """SIGKILL this process if ``JUDGE_FAULT`` selects ``step`` (see module doc)."""
    global _remaining
    if step != _step:
        return
    with _lock:
        _remaining -= 1
        if _remaining <= 0:
            os.kill(os.getpid(), signal.SIGKILL)
