"""After a full disk (issue 19, point 7), by mail through the worker: a
commit whose journal was written but whose files could not all be replaced
is reported failed to the worker, and finished from its journal by the next
transaction; its outbox rows (the answer) are then sent — once, without a
restart, whichever transaction finishes it."""

from __future__ import annotations

import pytest
from test_mail_commands import Judge

from judge.storage import StoreError, atomic, journal


def full_disk_once(monkeypatch, at: str):
    """The next file the store replaces (``at="first"``), or the next game
    file (``"game"``: the judge-wide rows, the outbox among them, are replaced
    by then), fails with ENOSPC; the commit's journal is written by then."""
    real = atomic.os.replace

    def replace(src, dst):
        if at == "game" and "/games/" not in str(dst):
            return real(src, dst)
        monkeypatch.setattr(atomic.os, "replace", real)
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(atomic.os, "replace", replace)


def answers_to(j: Judge, address: str) -> list[str]:
    import email
    from email import policy
    return [email.message_from_string(r["raw"], policy=policy.default).get_content()
            for r in j.sent if address in r["to"]]


def mail(frm: str, body: str, n: int) -> bytes:
    return (f"From: {frm}\r\nTo: judge@example.test\r\nSubject: cmd\r\nMessage-ID: <recover-{n}@x>\r\n\r\n"
            f"{body}\r\n").encode()


@pytest.mark.parametrize("at", ["first", "game"])
@pytest.mark.parametrize("next_transaction", ["the mail's own retry", "recording a sent mail"])
def test_the_answer_of_a_commit_finished_from_its_journal_is_sent_once(tmp_path, monkeypatch, next_transaction,
                                                                        at):
    j = Judge(tmp_path)
    j.raw(mail("first@example.org", "HELP", 1))                    # the judge at work: one mail answered
    first = [r["id"] for r in j.sent]
    j.spool.put(mail("gm@example.org", "CREATE g1 gmpass1", 2), {"source": "test"})
    [name] = j.spool.pending()
    full_disk_once(monkeypatch, at)
    with pytest.raises(StoreError, match="No space left"):
        j.worker.process(name)
    assert journal.pending(j.store.root / "journal") and not answers_to(j, "gm@example.org")
    assert j.store.get("games", "g1") is None                      # readers do not see it yet
    if next_transaction == "recording a sent mail":
        j.worker.record_reports([("sent", first[0], {})])          # the sender's report of the first answer
        assert len(answers_to(j, "gm@example.org")) == 1           # sent now, the mail still in the spool
    j.worker.process(name)                                          # the worker's next round: the mail again
    assert not j.spool.pending()
    [answer] = answers_to(j, "gm@example.org")
    assert 'Game "g1" created; you are its GM.' in answer
    assert j.store.get("games", "g1") is not None and j.store.get("outbox", j.sent[-1]["id"])
    assert not journal.pending(j.store.root / "journal")
