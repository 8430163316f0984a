"""Results rendered once per language, name set and map format (issue 23):
a deadline's results mail is the same mail for every reader of one
language, so the worker renders its text, HTML part and map once
(:attr:`judge.mail.reply.Reply.shared`) — and the mails still differ only in
their headers."""

from __future__ import annotations

import email
from datetime import timedelta
from email import policy
from pathlib import Path

import jinja2
import jinja2.meta

import judge.mail.worker as worker_module
from judge.text.templates import environment
from judge.mail.notices import BY_ROLE, TEMPLATES
from mailjudge import GM, POWERS, T0, Judge, addr
from judge.scheduler import Work

NOTICES = Path(__file__).resolve().parents[1] / "templates" / "mail"   # the loader's root


def _uses_role(env: jinja2.Environment, name: str, seen: set) -> bool:
    """Whether template ``name`` or any template it includes reads ``role``."""
    if name in seen:
        return False
    seen.add(name)
    source = env.loader.get_source(env, name)[0]
    tree = env.parse(source)
    if "role" in jinja2.meta.find_undeclared_variables(tree):
        return True
    return any(_uses_role(env, n, seen) for n in jinja2.meta.find_referenced_templates(tree) if n)


def test_only_the_templates_named_by_role_read_the_role():
    """Every notice template not in BY_ROLE (and all it includes) never reads
    ``role``: its mail may be rendered once for all readers; the ones in
    BY_ROLE do read it (so the list is not stale)."""
    env = environment("en")
    names = {p.stem for p in (NOTICES / "notices").glob("*.txt") if p.stem != "macros"} | set(TEMPLATES.values())
    for name in sorted(names):
        uses = _uses_role(env, f"notices/{name}.txt", set())
        assert uses == (name in BY_ROLE), name


def _game(tmp_path: Path) -> Judge:
    """A judge with game g1 made by mail: a GM and seven players."""
    judge = Judge(tmp_path)
    judge.mail("gm@example.org", "CREATE g1 gmsecret grace=0 reminders=none\n")
    for p in POWERS:
        judge.mail(addr(p), f"JOIN g1 pw-{p.lower()} {p}\n")
    return judge


def _tick(judge: Judge, when) -> list[dict]:
    """The outbox rows g1's S1901M work makes at ``when`` (UTC)."""
    judge.now = when
    before = len(judge.sent)
    judge.worker.submit_work(Work("tick", "g1", "S1901M"))
    for _ in range(5):
        judge.worker.round()
        if not judge.worker._work:
            break
    return judge.sent[before:]


def _results(judge: Judge) -> list[dict]:
    """The outbox rows of g1's S1901M results, its deadline passed and done."""
    return [r for r in _tick(judge, T0 + timedelta(days=10)) if r["subject"].endswith(" g1 S1901M")]


def test_a_results_mail_is_rendered_once_for_all_players_of_a_language(tmp_path, monkeypatch):
    judge = _game(tmp_path)
    judge.mail(addr("Russia"), "SIGNON g1 pw-russia\nSET LANGUAGE zh-hans\n")
    calls = []
    real = worker_module.render
    monkeypatch.setattr(worker_module, "render", lambda template, *a, **k: calls.append(template) or real(template, *a, **k))
    results = _results(judge)
    assert len(results) == 8                                   # seven players and the GM
    assert calls.count("notices/results.txt") == 2             # English once, simplified Chinese once
    texts = {}
    for r in results:
        msg = email.message_from_string(r["raw"], policy=policy.default)
        assert msg["To"] == r["to"][0] and len(r["to"]) == 1        # each mail to its own reader
        texts.setdefault(r["subject"], set()).add(msg.get_body(("plain",)).get_content())
    assert {s: len(t) for s, t in texts.items()} == {"Diplomacy results g1 S1901M": 1, "强权外交 结果 g1 S1901M": 1}
    assert len({r["id"] for r in results}) == 8                # eight Message-IDs


def test_a_results_mail_body_is_stored_once_and_sent_whole(tmp_path):
    """The shared body (text, HTML, map) is in the store once (table
    ``bodies``); each outbox row holds its own header block and names it.
    The sender gets every mail whole; after a restart the rows read from
    the store are made whole again, the same bytes; once all are sent the
    body is pruned; a row whose body is gone is reported failed, not sent."""
    from judge.mail.worker import with_bodies
    judge = _game(tmp_path)
    results = _results(judge)
    assert len(results) == 8 and len({r["body"] for r in results}) == 1
    store = judge.worker.store
    assert store.body_keys() == [results[0]["body"]]
    for r in results:
        stored = store.get("outbox", r["id"])
        assert "image/png" not in stored["raw"] and len(stored["raw"]) < 2000   # its headers only
        again = with_bodies(store, [dict(stored, id=r["id"])])[0]
        assert again["raw"] == r["raw"]                          # whole again after a restart
        msg = email.message_from_string(r["raw"], policy=policy.default)
        assert msg["To"] == r["to"][0] and any(p.get_content_type() == "image/png" for p in msg.walk())
    assert judge.worker.prune_bodies() == 0                      # still waiting to be sent: kept
    for r in results[:7]:
        judge.worker.report("sent", r["id"])
    judge.worker._collect(0.0)
    judge.worker.record_reports(judge.worker._reports)
    judge.worker._reports = []
    assert [r["id"] for r in results if store.get("outbox", r["id"])] == [results[7]["id"]]
    assert judge.worker.prune_bodies() == 0                      # one mail still waits
    reports = []
    from judge.mail.sender import Sender

    class Never:
        def send(self, *a):
            raise AssertionError("a mail without its body must not be sent")
    lost = dict(store.get("outbox", results[7]["id"]), id=results[7]["id"])
    with store.transaction() as tx:
        tx.delete("bodies", results[0]["body"])
    Sender(Never(), lambda *a, **k: reports.append((a, k)))._send(with_bodies(store, [lost])[0])
    assert reports and reports[0][0][0] == "failed" and "missing" in reports[0][1]["error"]
    with store.transaction() as tx:                              # the body back: the last one is sent
        tx.put("bodies", results[0]["body"], {"raw": results[7]["raw"][results[7]["_head"]:]})
    judge.worker.report("sent", results[7]["id"])
    judge.worker._collect(0.0)
    judge.worker.record_reports(judge.worker._reports)
    assert store.get("outbox", results[7]["id"]) is None
    assert judge.worker.prune_bodies() == 1 and store.body_keys() == []


def test_each_late_player_gets_his_own_reminder_and_late_notice(tmp_path):
    """Reminders and late notices have one key a phase for all powers: each
    power's mail (rendered once for all readers of its notice, not of its
    key) names that power and its units, not the first late power's."""
    from judge.storage import load_game
    judge = Judge(tmp_path)
    judge.mail("gm@example.org", "CREATE g1 gmsecret grace=1d reminders=1h\n")
    for p in POWERS:
        judge.mail(addr(p), f"JOIN g1 pw-{p.lower()} {p}\n")
    deadline = load_game(judge.worker.store, "g1").schedule.deadline
    for when, subject in ((deadline - timedelta(minutes=30), "Diplomacy reminder g1 S1901M"),
                          (deadline + timedelta(minutes=1), "Diplomacy late notice g1 S1901M")):
        mails = {r["to"][0]: email.message_from_string(r["raw"], policy=policy.default).get_body(("plain",))
                 .get_content() for r in _tick(judge, when) if r["subject"] == subject and r["to"][0] != GM}
        assert sorted(mails) == sorted(addr(p) for p in POWERS), subject
        for p in POWERS:
            assert f"orders of {p}" in mails[addr(p)], (subject, p)
            assert not any(f"orders of {q}" in mails[addr(p)] for q in POWERS if q != p), (subject, p)
        assert "F Lon" in mails[addr("England")] and "F Lon" not in mails[addr("France")]
