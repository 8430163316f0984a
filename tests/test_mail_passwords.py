"""Passwords never leave (issue 19 point 9): mails holding passwords in every
malformed shape and mislabelled charset (tests/passwordfuzz.py) through the
real worker; no answer, copy or notice holds one. The 20,000-mail run is
benchmarks/passwords.py."""

from __future__ import annotations

import mailfuzz
import passwordfuzz
import pytest

from test_mail_commands import Judge

SEED = 20261204


@pytest.mark.parametrize("count", [100, pytest.param(1500, marks=pytest.mark.slow)])
def test_no_answer_holds_a_password_checked_or_written_in_a_password_place(tmp_path, count):
    judge = Judge(tmp_path)
    for raw in mailfuzz.setup_mails("2024-01-10T20:00"):
        assert judge.raw(raw)
    checked = 0
    for raw, secrets in passwordfuzz.mails(SEED + count, count):
        before = len(judge.sent)
        judge.spool.put(raw, {"source": "fuzz"})
        for name in judge.spool.pending():
            judge.worker.process(name)
        for row in judge.sent[before:]:
            checked += 1
            assert not passwordfuzz.leaks(row["raw"], secrets), (raw[:400], row["raw"][:3000])
    assert checked >= count * 0.9                     # nearly every mail is answered


def test_the_sweep_finds_a_password_where_one_is():
    answer = "Subject: Re: x\nContent-Type: text/plain\n\n> signon fz hunter22\n"
    assert passwordfuzz.leaks(answer, {"Hunter22"}) == ["Hunter22"]
    assert passwordfuzz.leaks(answer, {"hunter2"}) == []
    gb = "Subject: x\nContent-Type: text/plain; charset=gb18030\nContent-Transfer-Encoding: base64\n\n" + \
        __import__("base64").b64encode("登录 fz pw-secret".encode("gb18030")).decode() + "\n"
    assert passwordfuzz.leaks(gb, {"pw-secret"}) == ["pw-secret"]
