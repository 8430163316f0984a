"""A step of the system clock (issue 19, point 11): by mail through the
worker (:mod:`mailjudge`) on the clock of a :class:`judge.clock.ClockGuard`
whose wall and monotonic clocks the test sets: a step forward past a
deadline adjudicates nothing, the judgekeeper is mailed, mail is answered as
usual; the deadline falls when the monotonic clock reaches it, or at once
when the keeper confirms (``judge clock confirm``). Also the guard alone:
corrections followed, a step back, and the check at start against
``DATA/clock`` and the store's last commit."""

from __future__ import annotations

from datetime import timedelta

import pytest
from mailjudge import GM, POWERS, T0, addr, started, to

from judge.cli import main
from judge.clock import ClockGuard, read_state

HOUR = 3600.0


class Clocks:
    """The wall clock and the monotonic clock a guard reads (``step`` moves the wall clock only)."""

    def __init__(self, wall=T0, mono=1000.0, boot="boot-1"):
        self.wall_time, self.mono_time, self.boot_id = wall, mono, boot

    def guard(self, folder, **kw) -> ClockGuard:
        return ClockGuard(folder, wall=lambda: self.wall_time, mono=lambda: self.mono_time,
                          boot=lambda: self.boot_id, **kw)

    def passes(self, seconds: float) -> None:
        self.wall_time += timedelta(seconds=seconds)
        self.mono_time += seconds

    def step(self, seconds: float) -> None:
        self.wall_time += timedelta(seconds=seconds)


@pytest.fixture
def judge(tmp_path):
    j = started(tmp_path / "judge", "CREATE g gmsecret grace=0 reminders=none")
    assert j.game()["schedule"]["deadline"] == (T0 + timedelta(days=2)).isoformat()
    j.clocks = Clocks()
    j.notices = []
    j.changes = []
    j.data = tmp_path / "data"
    j.data.mkdir()
    j.guard = j.clocks.guard(j.data, notify=j.notices.append, changed=lambda: j.changes.append(1))
    j.worker.clock = j.guard.now
    return j


@pytest.mark.parametrize("until", ["the monotonic clock reaches the deadline", "the keeper confirms"])
def test_a_step_forward_past_a_deadline_waits_for_the_monotonic_clock_or_the_keeper(judge, capsys, until):
    judge.clocks.passes(60)
    judge.clocks.step(80 * HOUR)                        # the deadline (T0 + 48 h) is 32 h behind the wall clock
    judge.guard.check()
    [work] = judge.notices
    assert work.kind == "clock" and work.event["direction"] == "forward" and judge.changes == [1]
    before = len(judge.sent)
    judge.worker.process_work([work])                   # the writer mails the keeper
    [notice] = judge.read(before)
    assert str(notice["To"]) == "keeper@example.test"
    assert notice["Subject"] == "judge: the system clock jumped forward by 80 h 0 min"
    text = notice.get_content()
    assert "No deadline is processed by the new time until you confirm it." in text
    assert f"judge clock confirm --data {judge.data}" in text
    # the deadline work the scheduler hands in: nothing happens
    assert judge.work(phase="S1901M") == [] and judge.game()["position"]["phase"] == "S1901M"
    # a player's mail is answered as usual, stamped with the judge's time
    out = to(judge.mail(addr("France"), "SIGNON g pw-france\nA Par - Bur\n"))
    assert "A Par - Bur" in out[addr("France")][0]
    assert judge.game()["orders"]["France"][0]["received"] == (T0 + timedelta(seconds=60)).isoformat()
    assert main(["clock", "--data", str(judge.data)]) == 3 and read_state(judge.data)["state"] == "held"
    capsys.readouterr()
    if until == "the keeper confirms":
        assert main(["clock", "confirm", "--data", str(judge.data)]) == 0
        assert "confirmed" in capsys.readouterr().out
        judge.clocks.passes(1)
        judge.guard.check()
        assert judge.changes == [1, 1] and judge.guard.now() == judge.clocks.wall_time
    else:
        judge.clocks.passes(48 * HOUR - 61)
        assert judge.guard.now() < T0 + timedelta(days=2)
        assert judge.work(phase="S1901M") == []          # a second early: still nothing
        judge.clocks.passes(2)
        assert judge.guard.now() > T0 + timedelta(days=2) and judge.guard.held is not None
    mails = judge.work(phase="S1901M")
    assert judge.game()["position"]["phase"] == "F1901M"
    assert sorted(str(m["To"]) for m in mails) == sorted({addr(p) for p in POWERS} | {GM})


def test_the_state_file_and_judge_clock_status(judge, capsys):
    judge.clocks.step(5 * HOUR)
    judge.guard.check()
    judge.guard.stop()
    state = read_state(judge.data)
    assert state["state"] == "held" and state["judge_time"] == T0.isoformat()
    assert main(["clock", "--data", str(judge.data)]) == 3
    assert "held: the system clock jumped forward by 5 h 0 min" in capsys.readouterr().out


def test_corrections_are_followed_and_a_clock_set_right_is_followed_again(tmp_path):
    clocks, notices = Clocks(), []
    guard = clocks.guard(tmp_path, notify=notices.append)
    clocks.passes(600)
    clocks.step(50 * 60)                                 # NTP: 50 minutes: followed
    assert guard.now() == clocks.wall_time and not notices
    clocks.step(2 * HOUR)
    assert guard.now() == clocks.wall_time - timedelta(hours=2) and len(notices) == 1
    clocks.step(-2 * HOUR)                               # someone set it back: followed, no notice
    assert guard.now() == clocks.wall_time and guard.held is None and len(notices) == 1


def test_a_step_back_is_followed_and_told(tmp_path):
    clocks, notices = Clocks(), []
    guard = clocks.guard(tmp_path, notify=notices.append)
    clocks.step(-3 * HOUR)
    assert guard.now() == clocks.wall_time                # late deadlines, never early ones
    [work] = notices
    assert work.event["direction"] == "back" and work.event["step"] == 3 * HOUR
    clocks.passes(60)
    assert guard.now() == clocks.wall_time and len(notices) == 1
    clocks.step(3 * HOUR)                                 # set right
    assert guard.now() == clocks.wall_time and guard.behind is None


def test_at_start_on_the_same_boot_a_step_while_stopped_is_held(tmp_path):
    clocks = Clocks()
    first = clocks.guard(tmp_path)
    first.start_check()
    clocks.passes(30)
    first.stop()
    clocks.passes(600)                                    # stopped ten minutes...
    clocks.step(80 * HOUR)                                # ...while the clock jumped
    notices = []
    second = clocks.guard(tmp_path, notify=notices.append)
    second.start_check()
    assert second.held is not None and second.now() == T0 + timedelta(seconds=630)
    assert notices[0].event["where"] == "start"
    # after a reboot the time in between is unknown: a stop, not a step (the outage policy applies)
    clocks.boot_id, clocks.mono_time = "boot-2", 20.0
    third = clocks.guard(tmp_path)
    (tmp_path / "clock").unlink()
    third.start_check(last_commit=T0)
    assert third.held is None and third.behind is None and third.now() == clocks.wall_time


def test_at_start_a_clock_behind_the_stores_last_commit_is_a_step_back(tmp_path):
    clocks, notices = Clocks(boot="other"), []
    guard = clocks.guard(tmp_path, notify=notices.append)
    guard.start_check(last_commit=T0 + timedelta(days=3))
    assert guard.behind is not None and notices[0].event["direction"] == "back"
    assert guard.now() == clocks.wall_time


@pytest.mark.daemon
def test_judge_serve_mails_the_keeper_and_plans_again_when_the_clock_steps(tmp_path):
    """The daemon's wiring: the guard's thread sees the step within a second,
    the worker mails the keeper (Maildir outbox), the scheduler plans again."""
    import email
    import time
    from email import policy

    from judge.config import load_config
    from judge.daemon import Daemon
    cfg = load_config(None)
    cfg.judge.data_dir, cfg.judge.keeper = str(tmp_path / "data"), "keeper@example.test"
    cfg.inbound.smtp.port = 0
    from datetime import datetime, timezone
    clocks = Clocks(wall=datetime.now(timezone.utc))      # the store's last commit is stamped by the real clock
    daemon = Daemon(cfg, clock_guard=clocks.guard(cfg.data_dir))
    replanned = []
    daemon.start()
    try:
        real = daemon.scheduler.clock_changed
        daemon.scheduler.clock_changed = lambda: (replanned.append(1), real())
        clocks.step(6 * HOUR)
        new = cfg.data_dir / "outbox" / "new"
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not (new.exists() and list(new.iterdir())):
            time.sleep(0.05)
        [path] = list(new.iterdir())
        notice = email.message_from_bytes(path.read_bytes(), policy=policy.default)
    finally:
        daemon.stop()
    assert str(notice["To"]) == "keeper@example.test" and "jumped forward by 6 h 0 min" in notice["Subject"]
    assert replanned and read_state(cfg.data_dir)["state"] == "held"
