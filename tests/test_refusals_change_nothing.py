"""Validate, then apply (issue 22 point 3): a command the judge refuses
leaves the game exactly as it was, whatever the commands after it in the
same mail do."""

from __future__ import annotations

import pytest

from mailjudge import GM, addr, started, to


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


def test_a_phase_processed_and_rolled_back_in_one_mail(judge):
    """Found by the property test below: PROCESS and then ROLLBACK in one
    mail set the mail aside (the results of a phase that was no longer
    there were mailed). The players are told of the rollback, not of
    results that were taken back."""
    out = to(judge.mail(GM, "SIGNON g gmsecret\nPROCESS\nROLLBACK S1901M\n"))
    assert "S1901M adjudicated" in out[GM][0] and "is back at Spring 1901 Movement" in out[GM][0]
    assert "rolled game 'g' back to Spring 1901 Movement (S1901M)" in out[addr("France")][0]
    assert not any("results" in text.split("\n")[0] for texts in out.values() for text in texts)
    assert judge.game()["position"]["phase"] == "S1901M" and judge.game()["history_len"] == 0


# ---- the property: over random GM mails, every refused command changes nothing ------------
GM_LINES = (
    "SET solo=40", "SET solo=16", "SET solo=abc", "SET tie=maybe", "SET press=grey", "SET colour=red",
    "SET alliance=40 solo=17", "SET end_year=1905", "SET grace=2h", "SET pause_limit=1d",
    "EXTEND 24h", "EXTEND -5h", "EXTEND 0h", "EXTEND abc", "EXTEND 3d",
    "SET DEADLINE 2025-01-20 18:00", "SET DEADLINE 2020-01-01 10:00", "SET DEADLINE garbage",
    "PAUSE", "PAUSE 2d", "PAUSE 999d", "RESUME",
    "PROCESS S1901M", "PROCESS F1905M", "PROCESS xyz", "PROCESS",
    "ROLLBACK S1901M", "ROLLBACK F1901M", "ROLLBACK",
    "EJECT Italy", "EJECT Prussia", "EJECT", "REPLACE France pw12345", "REPLACE France ab",
    "BECOME Italy", "BECOME Prussia", "START", "START 2020-01-01 10:00",
    "APPROVE nobody@example.org", "REJECT", "END Prussia", "PASSIVE Italy x", "PASSIVE Prussia 3",
    "AWARD STRATEGY Prussia", "AWARD CLOSE", "AWARD", "SET PASSWORD ab", "SET ADDRESS nowhere",
    "ADVISOR ADD a@b.org", "END", "PASSIVE Italy 3", "AWARD STRATEGY France",
    # issue 22: the veterans' forms and the new verbs
    "SET DEADLINE Mon Jan 20 2025 18:00", "SET DEADLINE Feb 30", "PROCESS Spring 1901 Movement",
    "ROLLBACK Spring 1901 Movement", "FORCE BEGIN", "TERMINATE", "WHOGAME g", "SET GREY", "SET NMR",
    "BECOME France", "DRAW", "SET DRAW", "SET NO DRAW", "CONCEDE Germany", "ALLY England", "SET WAIT",
    "SET NO WAIT", "CLEAR", "STATUS", "PHASE F1901M", "PHASE S1901M", "PHASE xyz", "SET NOABSENCE",
    "SET ABSENCE FROM Jan 7 2025 TO Jan 9 2025", "DIARY LIST", "DIARY READ 3", "SET MAP svg", "SET MAP gif",
    "SET ADDRESS",
)
"""GM command lines, right and wrong, as a GM writes them (and as a GM who
used njudge or DPjudge writes them)."""


def _template(tmp_path_factory):
    """A store with game g, its GM and seven players (built once: joins cost scrypt)."""
    folder = tmp_path_factory.mktemp("template")
    started(folder, "CREATE g gmsecret grace=1d reminders=none")
    return folder


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    return _template(tmp_path_factory)


class Performed:
    """Wraps :meth:`Session.perform`: for each command, whether it was done,
    and whether anything changed although it was refused."""

    def __init__(self, monkeypatch):
        from judge.verbs.session import Session
        self.log: list[tuple[str, bool]] = []
        self.changed_by_refusal: list[str] = []
        real = Session.perform

        def perform(s, cmd):
            before = _state(s)
            done = real(s, cmd)
            self.log.append((cmd.line, done))
            if not done and _state(s) != before:
                self.changed_by_refusal.append(cmd.line)
            return done
        monkeypatch.setattr(Session, "perform", perform)


def _state(s) -> tuple:
    """What a command may change: the session's games, the rows it staged, its notices and letters."""
    games = {name: (g.live_dict(), len(g.history)) for name, g in s.games.items()}
    return games, dict(s.db.changes), len(s.notices), len(s.letters), s.game and s.game.name, s.power


def _judge(template, tmp_path_factory):
    import shutil
    from mailjudge import Judge
    folder = tmp_path_factory.mktemp("run")
    shutil.copytree(template, folder, dirs_exist_ok=True)
    judge = Judge(folder)
    judge.n = 100                   # Message-IDs after the template's mails (else: duplicates, dropped)
    return judge


def _game_without_marks(judge) -> dict:
    """The stored game, less what differs between two runs of the same
    commands: the marks that tell one mail from another (schedule.acted),
    the salt of a password's hash (whether a power has one stays)."""
    doc = dict(judge.game())
    doc["schedule"] = {k: v for k, v in doc["schedule"].items() if k != "acted"}
    doc["players"] = {p: dict(pl, password_hash=bool(pl.get("password_hash"))) for p, pl in doc["players"].items()}
    return doc


def test_the_pool_has_refusals_and_commands_done(template, tmp_path_factory, monkeypatch):
    performed = Performed(monkeypatch)
    judge = _judge(template, tmp_path_factory)
    judge.mail(GM, "SIGNON g gmsecret\n" + "\n".join(GM_LINES) + "\n")
    assert sum(done for _, done in performed.log) >= 10 and sum(not done for _, done in performed.log) >= 20
    assert performed.changed_by_refusal == []


def test_a_refused_command_changes_nothing(template, tmp_path_factory, monkeypatch):
    """Random GM mails (hypothesis): (1) each command refused left the game,
    the staged store rows, the notices and the sign-on exactly as they were;
    (2) the same mail without its refused lines leaves the game exactly as
    the whole mail did."""
    from hypothesis import HealthCheck, given, settings, strategies as st
    performed = Performed(monkeypatch)

    @settings(max_examples=25, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.lists(st.sampled_from(GM_LINES), min_size=1, max_size=8))
    def check(lines):
        performed.log.clear()
        whole = _judge(template, tmp_path_factory)
        whole.mail(GM, "SIGNON g gmsecret\n" + "\n".join(lines) + "\n")
        assert performed.log[0] == ("SIGNON g gmsecret", True) and performed.changed_by_refusal == []
        done = [line for line, ok in performed.log if ok]
        performed.log.clear()
        again = _judge(template, tmp_path_factory)
        again.mail(GM, "\n".join(done) + "\n")
        assert performed.log and all(ok for _, ok in performed.log), performed.log
        assert _game_without_marks(again) == _game_without_marks(whole)
    check()
