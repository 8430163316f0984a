"""Mail commands through the worker: identity, settings, Chinese words, njudge forms."""

from __future__ import annotations

import email
import itertools
from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage

import pytest

from judge.config import Config
from judge.mail.commands import MailCommands, detect_language, read_command
from judge.mail.passwords import verify_password
from judge.mail.spool import Spool
from judge.mail.worker import Worker
from judge.storage import Store

NOW = datetime(2024, 1, 1, 12, 0, tzinfo=timezone.utc)
_ids = itertools.count()


class Judge:
    def __init__(self, tmp_path):
        cfg = Config()
        cfg.judge.address = "judge@example.test"
        self.store, self.spool, self.sent = Store(tmp_path / "j.json"), Spool(tmp_path / "spool"), []
        self.worker = Worker(self.store, self.spool, MailCommands(cfg), address=cfg.judge.address,
                             name="Judge", domain="example.test", keeper="k@example.test",
                             clock=lambda: NOW, send=self.sent.extend)

    def mail(self, frm: str, body: str, charset: str = "utf-8") -> EmailMessage:
        m = EmailMessage()
        m["From"], m["To"], m["Subject"] = frm, "judge@example.test", "cmd"
        m["Message-ID"] = f"<cmd-{next(_ids)}@x>"
        m.set_content(body, charset=charset)
        before = len(self.sent)
        self.spool.put(m.as_bytes(), {"source": "test"})
        for name in self.spool.pending():
            self.worker.process(name)
        [reply] = self.sent[before:]
        return email.message_from_string(reply["raw"], policy=policy.default)

    def text(self, frm: str, body: str, **kw) -> str:
        return self.mail(frm, body, **kw).get_content().replace("\r\n", "\n")

    def game(self, name: str) -> dict:
        return self.store.get("games", name)


@pytest.fixture
def judge(tmp_path):
    j = Judge(tmp_path)
    j.text("gm@x.org", "CREATE g1 gmpass timezone=Europe/Paris deadline=2024-01-10T20:00")
    j.text("fr@x.org", "JOIN g1 frpass France")
    return j


@pytest.mark.parametrize("line,name,args", [
    ("signon g1 pw", "signon", ("g1", "pw")), ("Sign On g1", "signon", ("g1",)),
    ("SET PASSWORD new1", "set_password", ("new1",)), ("set language: zh-hant", "set_language", ("zh-hant",)),
    ("ＨＥＬＰ", "help", ()), ("登录 g1 密码", "signon", ("g1", "密码")), ("設定語言：英文", "set_language", ("英文",)),
    ("辭職", "resign", ()), ("结束", "signoff", ()), ("A Par - Bur", None, None), ("巴黎陆军移动到勃艮第", None, None),
])
def test_command_words(line, name, args):
    cmd = read_command(line)
    assert (cmd.name, cmd.args) == (name, args) if name else cmd is None


def test_language_of_a_mail():
    assert detect_language("HELP") is None
    assert detect_language("华沙陆军移动到莫斯科") == "zh-hans"
    assert detect_language("華沙陸軍移動到莫斯科") == "zh-hant"
    assert detect_language("加入 g1", charset="big5") == "zh-hant"


def test_create_takes_game_settings_and_rejects_bad_ones(judge):
    g = judge.game("g1")
    assert g["settings"]["deadlines"]["timezone"] == "Europe/Paris"
    assert g["schedule"]["deadline"].startswith("2024-01-10T19:00")
    assert "bad setting" in judge.text("gm@x.org", "CREATE g2 gmpass colour=blue")
    assert "exists already" in judge.text("gm@x.org", "CREATE g1 gmpass")
    assert "at least 4" in judge.text("gm@x.org", "CREATE g3 abc")
    assert "1 to 32 letters" in judge.text("gm@x.org", "CREATE bad!name gmpass")


def test_join_checks_powers(judge):
    assert "you play France" in judge.text("fr@x.org", "JOIN g1 other France")
    assert "France is taken" in judge.text("x@x.org", "JOIN g1 xpass4 France")
    assert '"Narnia" is not a power' in judge.text("x@x.org", "JOIN g1 xpass4 Narnia")
    assert 'as Austria' in judge.text("x@x.org", "JOIN g1 xpass4")        # the first free power
    assert 'there is no game "nope"' in judge.text("x@x.org", "JOIN nope xpass4")


def test_password_is_hashed_and_needed_from_an_unknown_address(judge):
    player = judge.game("g1")["players"]["France"]
    assert player["password_hash"].startswith("scrypt$") and "frpass" not in str(judge.game("g1"))
    assert verify_password("frpass", player["password_hash"])
    assert "add the password" in judge.text("new@x.org", "SIGNON g1\nA Par H")
    assert "wrong password" in judge.text("new@x.org", "SIGNON g1 guess\nA Par H")
    reply = judge.mail("new@x.org", "SIGNON g1 frpass\nA Par H")
    assert reply["Cc"] == "fr@x.org" and "A Par H" in reply.get_content()


def test_njudge_signon_with_power_letter_and_gm_signon(judge):
    assert 'as France' in judge.text("fr@x.org", "SIGNON Fg1 frpass")
    assert "wrong password" in judge.text("fr@x.org", "SIGNON Gg1 frpass")
    text = judge.text("gm@x.org", "SIGNON g1\nLIST")
    assert "as GM" in text and "France     playing" in text
    assert "as GM" in judge.text("other@x.org", "SIGNON Mg1 gmpass")


def test_set_password_address_language_resign(judge):
    assert "password for game \"g1\" is changed" in judge.text("fr@x.org", "SIGNON g1\nSET PASSWORD fresh1")
    assert verify_password("fresh1", judge.game("g1")["players"]["France"]["password_hash"])
    reply = judge.mail("fr@x.org", "SIGNON g1\nSET ADDRESS fr@new.example")
    assert reply["Cc"] == "fr@new.example"
    assert judge.game("g1")["players"]["France"]["addresses"] == ["fr@new.example", "fr@x.org"]
    assert '"nothing" is not a mail address' in judge.text("fr@x.org", "SIGNON g1\nSET ADDRESS nothing")
    assert "sign on first" in judge.text("zz@x.org", "SET ADDRESS a@b.example")
    text = judge.text("fr@x.org", "SET LANGUAGE zh-hant\nLIST g1")
    assert "裁判今後用繁體中文回覆您" in text and "法國" in text
    assert judge.store.get("accounts", "fr@x.org") == {"language": "zh-hant"}
    assert "說明" in judge.text("fr@x.org", "HELP")             # the choice is remembered
    text = judge.text("fr@new.example", "SIGNON g1\nRESIGN\nA Par H")
    assert "is now vacant" in text
    assert judge.game("g1")["players"]["France"]["addresses"] == []


def test_signoff_stops_reading(judge):
    text = judge.text("fr@x.org", "SIGNON g1\nA Par H\nSIGNOFF\nA Mar H\nnonsense")
    assert "A Par H" in text and "A Mar" not in text and "nonsense" not in text


def test_orders_before_signon_are_refused_with_a_hint(judge):
    assert "orders go after SIGNON" in judge.text("fr@x.org", "A Par - Bur")


def test_chinese_commands_in_gb2312(judge):
    text = judge.text("de@x.org", "加入 g1 德国密码 德国\n柏林陆军移动到基尔", charset="gb2312")
    assert "扮演德国" in text and "柏林陆军移动到基尔" in text and "尚无指令的单位：基尔舰队、慕尼黑陆军" in text


def test_list_of_ones_own_games(judge):
    text = judge.text("fr@x.org", "LIST")
    assert "g1: France, Spring 1901 Movement" in text
    assert "Games open to join: g1" in judge.text("nobody@x.org", "LIST")
