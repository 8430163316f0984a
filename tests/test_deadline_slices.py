"""Deadline work in slices (issue 23): each game's deadline is its own unit
of work and its own commit, and the waiting mail is handled between two
games — so a thousand games due at once keep no mail waiting behind them,
and each game's results go to the sender as soon as that game is done."""

from __future__ import annotations

from datetime import timedelta

from mailjudge import POWERS, T0, Judge, addr
from judge.scheduler import Work

GAMES = ("g1", "g2", "g3")


def test_deadline_work_yields_to_a_mail_between_two_games(tmp_path):
    """Three games due at the same time, and a player's orders for the third
    arriving while the first is adjudicated: the mail is committed after the
    first game and before the second and third, so the third game's
    adjudication takes those orders; each game's results were handed to the
    sender right after its own commit, before the next game's work."""
    judge = Judge(tmp_path)
    for game in GAMES:
        judge.mail("gm@example.org", f"CREATE {game} gmsecret grace=0 reminders=none\n")
        for p in POWERS:
            judge.mail(addr(p), f"JOIN {game} pw-{p.lower()} {p}\n")
    judge.now = T0 + timedelta(days=10)                    # every deadline past
    worker, commits = judge.worker, []

    def changed(rows, by_mail):
        commits.append((sorted(rows), "mail" if by_mail else "deadline",
                        sorted({r["subject"].split()[-2] for r in judge.sent[sent_before:]
                                if r["subject"].startswith("Diplomacy results")})))
        if len(commits) == 1:                              # while g1 is done, France writes for g3
            judge.spool.put(_mail(addr("France"), "SIGNON g3 pw-france\nA Par - Bur\n"), {"source": "test"})

    worker.changed = changed
    sent_before = len(judge.sent)
    for game in GAMES:
        worker.submit_work(Work("tick", game, "S1901M"))
    for _ in range(10):
        worker.round()
        if not worker._work and not judge.spool.pending():
            break
    # (games the commit changed, by what, results handed to the sender before it)
    assert commits == [(["g1"], "deadline", []),
                       (["g3"], "mail", ["g1"]),
                       (["g2"], "deadline", ["g1"]),
                       (["g3"], "deadline", ["g1", "g2"])]
    assert sorted(r["subject"] for r in judge.sent[sent_before:] if r["subject"].startswith("Diplomacy results")) \
        == [f"Diplomacy results {g} S1901M" for g in GAMES for _ in range(8)]
    units = {g: judge.game(g)["position"]["units"] for g in GAMES}
    assert "bur" in str(units["g3"]).lower() and "bur" not in str(units["g2"]).lower()


def _mail(frm: str, body: str) -> bytes:
    from email.message import EmailMessage
    m = EmailMessage()
    m["From"], m["To"], m["Subject"], m["Message-ID"] = frm, "judge@example.test", "orders", "<late@x>"
    m.set_content(body)
    return m.as_bytes()
