"""GM flows of issue 22 point 2, each by mail: refusals that name the real
reason, one vote a power (DRAW or CONCEDE), no vote for the GM acting as a
power, no third power in an alliance, overlapping absences, SET DEADLINE in
a forming game, a reminder for a game overdue by days, and the Chinese
reminder's words."""

from __future__ import annotations

from datetime import timedelta

import pytest

from mailjudge import GM, POWERS, T0, Judge, addr, sent, started, to
from test_game_flows_by_mail import HOLD

F, E, G, I = addr("France"), addr("England"), addr("Germany"), addr("Italy")


@pytest.fixture
def judge(tmp_path):
    return started(tmp_path, "CREATE g gmsecret grace=1d reminders=none")


def answer(judge, frm: str, body: str) -> str:
    return to(judge.mail(frm, body))[frm][0]


def test_after_the_end_the_clock_commands_say_the_game_is_over(judge):
    judge.mail(GM, "SIGNON g gmsecret\nEND\n")
    for line in ("EXTEND 1d", "PAUSE 1d", "SET DEADLINE 2025-02-01 12:00"):
        text = answer(judge, GM, f"SIGNON g gmsecret\n{line}\n")
        assert "refused: game g is over" in text, line
        assert "no running clock" not in text


def test_a_gms_set_wait_is_refused_as_a_powers_command(judge):
    text = answer(judge, GM, "SIGNON g gmsecret\nSET WAIT\n")
    assert "that is a power's command, and you are signed on as the GM: BECOME POWER first" in text
    assert "sign on first" not in text
    text = answer(judge, GM, "SIGNON g gmsecret\nEJECT France\nBECOME France\nSET WAIT\n")
    assert "France" in judge.game()["schedule"]["wait"]


def test_draw_and_concede_are_one_vote(judge):
    answer(judge, F, "SIGNON g pw-france\nDRAW\n")
    text = answer(judge, F, "SIGNON g pw-france\nCONCEDE Germany\n")
    assert "This replaces its draw vote: a power has one vote, a draw or a concession." in text
    votes = judge.game()["ending"]["votes"]
    assert votes["concede"] == {"France": "Germany"} and "France" not in votes["draw"]
    text = answer(judge, F, "SIGNON g pw-france\nDRAW\n")
    assert "This replaces its concession" in text
    votes = judge.game()["ending"]["votes"]
    assert votes["concede"] == {} and "France" in votes["draw"]


def test_the_gm_acting_as_a_power_does_not_vote(judge):
    judge.mail(GM, "SIGNON g gmsecret\nSET alliance=16\nEJECT France\n")
    before = judge.game()["ending"]
    for line in ("DRAW", "CONCEDE Germany", "ALLY England"):
        text = answer(judge, GM, f"SIGNON g gmsecret\nBECOME France\n{line}\n")
        assert "the GM enters France's orders after BECOME, but does not vote for it" in text
    assert judge.game()["ending"] == before


def test_a_third_power_cannot_join_an_alliance(judge):
    judge.mail(GM, "SIGNON g gmsecret\nSET alliance=16\n")
    answer(judge, F, "SIGNON g pw-france\nALLY England\n")
    assert "in force" in answer(judge, E, "SIGNON g pw-england\nALLY France\n")
    text = answer(judge, G, "SIGNON g pw-germany\nALLY France\n")
    assert "refused: France is allied with England, and an alliance has two powers" in text
    assert "Germany" not in judge.game()["ending"]["allies"]


def test_overlapping_absences_are_one_and_their_days_count_once(judge):
    judge.mail(GM, "SIGNON g gmsecret\nSET absence_max=6\n")
    answer(judge, F, "SIGNON g pw-france\nSET ABSENCE FROM 2025-01-10 TO 2025-01-13\n")      # 4 days
    text = answer(judge, F, "SIGNON g pw-france\nSET ABSENCE FROM 2025-01-12 TO 2025-01-15\n")   # 2 more
    assert "recorded" in text
    sched = judge.game()["schedule"]
    assert len(sched["absences"]["France"]) == 1 and sched["absence_days"]["France"] == 6
    text = answer(judge, F, "SIGNON g pw-france\nSET ABSENCE FROM 2025-01-15 TO 2025-01-16\n")
    assert "refused" in text                                  # the limit: 6 days


def test_set_deadline_in_a_forming_game_does_not_start_the_clock(tmp_path):
    judge = Judge(tmp_path)
    judge.mail(GM, "CREATE g gmsecret\n")
    judge.mail(F, "JOIN g pw-france France\n")
    text = answer(judge, GM, "SIGNON g gmsecret\nSET DEADLINE 2025-01-10 20:00\n")
    assert "game g is still forming (free: Austria, England, Germany, Italy, Russia and Turkey)" in text
    assert "START DATE TIME" in text
    assert judge.game()["schedule"]["deadline"] is None
    for line in ("EXTEND 1d", "PAUSE"):
        text = answer(judge, GM, f"SIGNON g gmsecret\n{line}\n")
        assert "game g has not started: its clock starts when every power is taken" in text
    text = answer(judge, GM, "SIGNON g gmsecret\nSTART 2025-01-10 20:00\n")
    assert judge.game()["schedule"]["deadline"]


def test_a_game_overdue_by_days_reminds_the_powers_it_waits_for_once_a_day(judge):
    judge.mail(GM, "SIGNON g gmsecret\nSET nonmr=yes grace=0h\n")
    for p in POWERS:
        if p != "Turkey":
            judge.mail(addr(p), f"SIGNON g pw-{p.lower()}\nSET WAIT\n" + HOLD[p] + "\n")
    judge.now = deadline = T0 + timedelta(days=2)
    assert "Diplomacy waiting g S1901M" in dict(sent(judge.work(phase="S1901M"))).values()   # it waits for Turkey
    assert judge.store.get("wakeups", "g")["when"] == (deadline + timedelta(days=1)).isoformat()
    judge.now = deadline + timedelta(hours=12)
    assert judge.work(phase="S1901M") == []
    judge.now = deadline + timedelta(days=1, minutes=1)
    mails = judge.work(phase="S1901M")
    assert sent(mails) == [(addr("Turkey"), "Diplomacy reminder g S1901M")]
    assert "The deadline was Wed 08 Jan 2025 12:00 UTC, 24 hours ago: the game waits for these orders" \
        in to(mails)[addr("Turkey")][0]
    assert judge.work(phase="S1901M") == []                        # once a day
    judge.now = deadline + timedelta(days=2, minutes=1)
    assert sent(judge.work(phase="S1901M")) == [(addr("Turkey"), "Diplomacy reminder g S1901M")]


def test_the_chinese_reminder_names_the_chinese_word_for_set_wait(tmp_path):
    judge = started(tmp_path, "CREATE g gmsecret grace=1d reminders=24")
    judge.mail(F, "SIGNON g pw-france\nSET LANGUAGE zh-hans\n")
    judge.now = T0 + timedelta(days=1, minutes=1)
    mails = to(judge.work(phase="S1901M"))
    text = mails[F][0]
    assert "请发送“等待”（SET WAIT）" in text
