"""Validate, then apply (issue 22 point 3): a command the judge refuses
leaves the game exactly as it was, whatever the commands after it in the
same mail do."""

from __future__ import annotations

import pytest

from mailjudge import GM, started, to


@pytest.fixture
def judge(tmp_path):
    return started(tmp_path, "CREATE g gmsecret grace=1d reminders=none")


def test_a_refused_setting_is_not_stored_by_the_next_command(judge):
    """``SET solo=40`` is refused (the map has 34 SCs); the ``EXTEND 24h``
    after it in the same mail must not store solo=40 with the game."""
    before = judge.game()["settings"]
    out = to(judge.mail(GM, "SIGNON g gmsecret\nSET solo=40\nEXTEND 24h\n"))[GM][0]
    assert "more than the map's 34 supply centres" in out and "extended to" in out
    assert judge.game()["settings"] == before
