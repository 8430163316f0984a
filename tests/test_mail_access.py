"""Who may join a game (issue 12, point 10), by mail through the worker:
access=open|password|invite, approve=yes with the GM's APPROVE/REJECT,
listed=no, each set by CREATE or the GM's SET (and ``judge game set``)."""

from __future__ import annotations

from test_mail_commands import Judge

from judge.archive import site_of
from judge.cli import main
from judge.storage import Store


def judge_with(tmp_path, *settings: str) -> Judge:
    j = Judge(tmp_path)
    text = j.text("gm@x.org", f"CREATE g1 gmpass1 {' '.join(settings)}")
    assert 'Game "g1" created' in text or "created" in text.lower(), text
    return j


def test_invite_only_game_takes_the_invited_and_the_gm_adds_more(tmp_path):
    j = judge_with(tmp_path, "access=invite", "invite=a@x.org")
    # invite-only is private: to an address not invited the game does not exist (issue 19 point 3)
    assert 'there is no game "g1"' in j.text("b@x.org", "JOIN g1 bpass1 France")
    assert "as France" in j.text("a@x.org", "JOIN g1 apass1 France")
    assert "settings changed" in j.text("gm@x.org", "SIGNON g1 gmpass1\nSET invite=+b@x.org,+c@x.org")
    assert j.game("g1")["settings"]["access"]["invited"] == ["a@x.org", "b@x.org", "c@x.org"]
    assert "as England" in j.text("b@x.org", "JOIN g1 bpass1 England")
    j.text("gm@x.org", "SIGNON g1 gmpass1\nSET invite=-c@x.org")
    assert 'there is no game "g1"' in j.text("c@x.org", "JOIN g1 cpass1")


def test_join_password_game(tmp_path):
    j = judge_with(tmp_path, "access=password", "join_password=letmein")
    assert "needs the join password" in j.text("b@x.org", "JOIN g1 bpass1 France")
    assert "wrong join password" in j.text("b@x.org", "JOIN g1 bpass1 France join_password=guess")
    text = j.text("b@x.org", "JOIN g1 bpass1 France join_password=letmein")
    assert "as France" in text and "letmein" not in text and "bpass1" not in text
    assert "letmein" not in str(j.game("g1"))                    # kept hashed
    # Chinese: 加入 with 加入密码=
    text = j.text("c@x.org", "加入 g1 cpass12 德国 加入密码=letmein")
    assert "德国" in text and "letmein" not in text and j.game("g1")["players"]["Germany"]["addresses"] == ["c@x.org"]
    # the GM changes the join password: the old one no longer works, and the notice does not show it
    j.text("gm@x.org", "SIGNON g1 gmpass1\nSET join_password=newword9")
    assert "wrong join password" in j.text("d@x.org", "JOIN g1 dpass1 Italy join_password=letmein")
    assert "as Italy" in j.text("d@x.org", "JOIN g1 dpass1 Italy join_password=newword9")


def test_the_gm_approves_or_rejects_a_join(tmp_path):
    j = judge_with(tmp_path, "approve=yes")
    mails = j.mails("a@x.org", "JOIN g1 apass1 France")
    answer, request = mails
    assert "waits for the GM's approval" in answer.get_content() and answer["To"] == "a@x.org"
    assert request["To"] == "gm@x.org" and "APPROVE a@x.org" in request.get_content()
    assert "apass1" not in request.get_content()
    assert not j.game("g1")["players"]["France"]["addresses"]
    reply, told = j.mails("gm@x.org", "SIGNON g1 gmpass1\nAPPROVE a@x.org")
    assert "a@x.org now plays France" in reply.get_content()
    assert told["To"] == "a@x.org" and 'joined game "g1" as France' in told.get_content()
    assert j.game("g1")["players"]["France"]["addresses"] == ["a@x.org"]
    assert "Signed on" in j.text("a@x.org", "SIGNON g1 apass1")       # the joiner's own password
    # a rejected JOIN: the joiner is told, nothing changes; in Chinese, 拒绝
    j.mails("b@x.org", "JOIN g1 bpass1 England")
    reply, told = j.mails("gm@x.org", "登录 g1 gmpass1\n拒绝 b@x.org")
    assert "b@x.org" in reply.get_content() and told["To"] == "b@x.org"
    assert "did not accept" in told.get_content() and not j.game("g1")["players"]["England"]["addresses"]
    assert "no JOIN" in j.text("gm@x.org", "SIGNON g1 gmpass1\nAPPROVE b@x.org")
    assert "only the GM" in j.text("a@x.org", "SIGNON g1 apass1\nAPPROVE b@x.org")
    j.mails("c@x.org", "JOIN g1 cpass1 Germany")
    assert "now plays Germany" in j.mails("gm@x.org", "SIGNON g1 gmpass1\n批准 Germany")[0].get_content()


def test_unlisted_game_is_hidden_from_list_and_the_web_index_but_not_from_its_players(tmp_path):
    j = judge_with(tmp_path, "listed=no")
    j.text("gm@x.org", "CREATE g2 gmpass2")
    assert "g1" not in j.text("out@x.org", "LIST") and "g2" in j.text("out@x.org", "LIST")
    assert 'there is no game "g1"' in j.text("out@x.org", "LIST g1")
    assert "as France" in j.text("fr@x.org", "JOIN g1 frpass1 France")   # who knows the name may join
    assert "g1: France" in j.text("fr@x.org", "LIST")
    assert 'Game "g1"' in j.text("fr@x.org", "LIST g1") and 'Game "g1"' in j.text("gm@x.org", "LIST g1")
    names = [row["name"] for row in site_of(j.store)._index("en")]
    assert names == ["g2"]
    # nor on the web, even by its address (issue 19: the web has no login; its players read it by mail)
    assert site_of(j.store).render("games/g1/").status == 404


def test_judge_game_set_takes_the_access_keys(tmp_path, capsys):
    data = str(tmp_path / "var")
    assert main(["game", "new", "g1", "--data", data]) == 0
    assert main(["game", "set", "g1", "access=invite", "invite=a@x.org,b@x.org", "listed=no", "approve=yes",
                 "auth=password", "join_password=abcd1234", "--data", data]) == 0
    out = capsys.readouterr().out
    assert "abcd1234" not in out
    access = Store(tmp_path / "var" / "store").get("games", "g1")["settings"]["access"]
    assert access["access"] == "invite" and access["invited"] == ["a@x.org", "b@x.org"]
    assert access["listed"] is False and access["approve"] is True and access["auth"] == "password"
    assert access["join_password_hash"].startswith("scrypt$")


def test_a_join_password_set_is_told_to_everyone_hidden():
    """SET join_password=... by mail or `judge game set`: the settings notice
    every player gets names the key, never the value (issue 12, point 7)."""
    from datetime import datetime, timezone

    from judge.game import Game, master
    now = datetime(2025, 1, 6, 12, tzinfo=timezone.utc)
    game = Game.create("g1", now=now, seed=1)
    [notice] = master.change(game, ["join_password=abcd1234", "listed=no"], now)
    assert notice.data["changes"] == ["join_password=********", "listed=no"]
    assert game.settings.access.join_password_hash.startswith("scrypt$")
