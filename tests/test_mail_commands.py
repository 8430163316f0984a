"""Mail commands through the worker: identity, settings, Chinese words, njudge forms."""

from __future__ import annotations

import copy
import email
import itertools
from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage

import pytest

from judge.config import Config
from judge.mail.handler import MailHandler
from judge.mail.language import detect_language
from judge.verbs.registry import read_command
from judge.text import Words
from judge.game.passwords import verify_password
from judge.mail.spool import Spool
from judge.mail.worker import Worker
from judge.storage import Store

NOW = datetime(2024, 1, 1, 12, 0, tzinfo=timezone.utc)
_ids = itertools.count()


class Judge:
    """The worker and the judge's handler over a store in ``tmp_path``, the
    clock at ``clock()`` (NOW), with ``cfg`` (default: the judge's, address
    judge@example.test, games' auth=address); ``dnsfunc``: the DKIM check's
    DNS; ``sent`` holds every outbox row handed to the sender."""

    def __init__(self, tmp_path, cfg: Config | None = None, clock=lambda: NOW, max_attempts: int = 3,
                 dnsfunc=None):
        if cfg is None:
            cfg = Config()
            cfg.judge.address = "judge@example.test"
            cfg.senders.auth = "address"        # these tests sign on from the address on record alone
            cfg.senders.lookup_seconds = 0      # and ask HELP and LIST again and again (test_mail_fairness.py)
        self.cfg = cfg
        self.store, self.spool, self.sent = Store(tmp_path / "store"), Spool(tmp_path / "spool"), []
        self.worker = Worker(self.store, self.spool, MailHandler(cfg, dnsfunc), address=cfg.judge.address,
                             name="Judge", domain="example.test", keeper="k@example.test",
                             clock=clock, send=self.sent.extend, max_attempts=max_attempts, retry_delay=0,
                             reading={"limits": cfg.limits, "markers": tuple(cfg.senders.loop_headers)})

    def raw(self, data: bytes, **meta) -> list[EmailMessage]:
        """Every mail the judge sends for the raw mail ``data`` (spool meta ``meta``)."""
        before = len(self.sent)
        self.spool.put(data, {"source": "test", **meta})
        for name in self.spool.pending():
            self.worker.process(name)
        return [email.message_from_string(row["raw"], policy=policy.default) for row in self.sent[before:]]

    def ledger(self, data: bytes) -> dict:
        """The ledger entry of the raw mail ``data`` (keyed as the spool keys it)."""
        from judge.mail.spool import message_key
        return self.store.get("ledger", message_key(data))

    def mails(self, frm: str, body: str, charset: str = "utf-8", **headers) -> list[EmailMessage]:
        """Every mail the judge sends for one mail from ``frm`` (the answer first)."""
        m = EmailMessage()
        m["From"], m["To"] = frm, "judge@example.test"
        m["Subject"] = headers.pop("Subject", "cmd")
        m["Message-ID"] = f"<cmd-{next(_ids)}@x>"
        for name, value in headers.items():
            m[name.replace("_", "-")] = value
        m.set_content(body, charset=charset)
        return self.raw(m.as_bytes())

    def mail(self, frm: str, body: str, charset: str = "utf-8", **headers) -> EmailMessage:
        """The judge's answer to a mail from ``frm`` (the first mail it sends)."""
        return self.mails(frm, body, charset, **headers)[0]

    def text(self, frm: str, body: str, **kw) -> str:
        return self.mail(frm, body, **kw).get_content().replace("\r\n", "\n")

    def game(self, name: str) -> dict:
        """The stored game, a copy a test may change (the store's documents are shared)."""
        return copy.deepcopy(self.store.get("games", name))


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
    assert detect_language("加入 g1 pw1234 俄国") == "zh-hans"
    # a Chinese name on one line of an English mail does not make it Chinese
    assert detect_language("JOIN g1 pw1234 France\nA Par - Bur\nF Bre - Mao\n王小明") is None
    assert detect_language("JOIN g1 pw1234 法国") is None
    assert detect_language("Hi, this is 王小明 joining\nJOIN g1 pw1234") is None
    # traditional or simplified by the characters only one script has, whatever the charset says
    assert detect_language("登入 g1 密碼1234\n巴黎陸軍移動到勃艮第", charset="gb18030") == "zh-hant"
    assert detect_language("登录 g1 密码1234\n巴黎陆军移动到勃艮第", charset="big5") == "zh-hans"


def test_create_takes_game_settings_and_rejects_bad_ones(judge):
    g = judge.game("g1")
    assert g["settings"]["deadlines"]["timezone"] == "Europe/Paris"
    assert g["schedule"]["deadline"].startswith("2024-01-10T19:00")
    assert "bad setting" in judge.text("gm@x.org", "CREATE g2 gmpass colour=blue")
    assert "exists already" in judge.text("gm@x.org", "CREATE g1 gmpass")
    assert "at least 4" in judge.text("gm@x.org", "CREATE g3 abc")
    assert "1 to 32 letters" in judge.text("gm@x.org", "CREATE bad!name gmpass")


def test_create_with_a_name_with_spaces_says_the_name_is_bad(judge):
    text = judge.text("gm@x.org", "CREATE my big game gmpass")
    assert '"my big game" is not a game name' in text and "without spaces" in text
    assert "password" not in text.split("-- ")[0] and judge.game("my") is None


@pytest.mark.parametrize("deadline", ["tomorrow", "2024-13-01T10:00", "2024-02-30T10:00", "2024-01-05T25:00"])
def test_create_with_a_bad_deadline_says_what_to_write(judge, deadline):
    text = judge.text("gm@x.org", f"CREATE g2 gmpass timezone=Asia/Taipei deadline={deadline}")
    assert f'bad deadline "{deadline}": write deadline=YYYY-MM-DDTHH:MM' in text
    assert "in the game's time zone, Asia/Taipei, or with an offset" in text
    for raw in ("isoformat", "must be in", "out of range"):
        assert raw not in text
    text = judge.text("gm@x.org", f"设置语言 简体中文\nCREATE g2 gmpass deadline={deadline}")
    assert f"截止时间“{deadline}”有误：请写成 deadline=YYYY-MM-DDTHH:MM" in text and "isoformat" not in text
    assert judge.game("g2") is None


def test_create_states_the_settings_and_the_first_deadline(judge):
    text = judge.text("gm@x.org", "CREATE g2 gmpass timezone=Asia/Taipei deadline=2024-01-05 20:00 press=grey")
    assert "First deadline (S1901M): Fri 05 Jan 2024 20:00 Asia/Taipei (UTC+08:00) = Fri 05 Jan 2024 12:00 UTC." in text
    assert "timezone=Asia/Taipei" in text and "press=grey" in text and "movement=48h" in text
    text = judge.text("gm@x.org", "CREATE g3 gmpass movement=3d")
    assert "The first deadline is set when the game starts" in text and "movement=3d" in text
    assert "passed" in judge.text("gm@x.org", "CREATE g4 gmpass deadline=2023-12-31T10:00")


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
    reply, copy = judge.mails("new@x.org", "SIGNON g1 frpass\nA Par H")
    assert reply["To"] == "new@x.org" and reply["Cc"] is None and "A Par H" in reply.get_content()
    assert "goes to fr@x.org, the address on record" in reply.get_content()
    assert copy["To"] == "fr@x.org" and "A Par H" in copy.get_content() and "new@x.org" in copy.get_content()


def test_njudge_signon_with_power_letter_and_gm_signon(judge):
    assert 'as France' in judge.text("fr@x.org", "SIGNON Fg1 frpass")
    assert "wrong password" in judge.text("fr@x.org", "SIGNON Gg1 frpass")
    text = judge.text("gm@x.org", "SIGNON g1\nLIST")
    assert "as the GM" in text and "France     playing" in text
    reply, copy = judge.mails("other@x.org", "SIGNON Mg1 gmpass")
    assert "as the GM" in reply.get_content() and copy["To"] == "gm@x.org"


def test_set_password_address_language_resign(judge):
    # who a power is changes only with its password, whatever auth says (issue 19 point 8)
    assert "only after a SIGNON with the password" in judge.text("fr@x.org", "SIGNON g1\nSET PASSWORD fresh1")
    assert "password for game \"g1\" is changed" in judge.text("fr@x.org", "SIGNON g1 frpass\nSET PASSWORD fresh1")
    assert verify_password("fresh1", judge.game("g1")["players"]["France"]["password_hash"])
    reply, copy = judge.mails("fr@x.org", "SIGNON g1 fresh1\nSET ADDRESS fr@new.example")
    assert copy["To"] == "fr@new.example" and "fr@new.example" in copy.get_content()
    assert judge.game("g1")["players"]["France"]["addresses"] == ["fr@new.example"]   # the mail moved
    assert "password" in judge.text("fr@x.org", "SIGNON g1")          # the old address is not on record
    reply, copy = judge.mails("fr@x.org", "SIGNON g1 fresh1\nSET ADDRESS nothing")   # fr@new.example is the record now
    assert '"nothing" is not a mail address' in reply.get_content() and copy["To"] == "fr@new.example"
    assert "sign on first" in judge.text("zz@x.org", "SET ADDRESS a@b.example")
    text = judge.text("fr@x.org", "SET LANGUAGE zh-hant\nLIST g1")
    assert "裁判今後用繁體中文回覆您" in text and "法國" in text
    assert judge.store.get("accounts", "fr@x.org") == {"language": "zh-hant"}
    assert "說明" in judge.text("fr@x.org", "HELP")             # the choice is remembered
    reply, to_gm = judge.mails("fr@new.example", "SIGNON g1\nRESIGN\nA Par H")
    assert "is now vacant" in reply.get_content()
    assert to_gm["To"] == "gm@x.org" and to_gm["Subject"] == "Diplomacy player resigned g1"
    assert judge.game("g1")["players"]["France"]["addresses"] == []


def test_signoff_stops_reading(judge):
    text = judge.text("fr@x.org", "SIGNON g1\nA Par H\nSIGNOFF\nA Mar H\nnonsense")
    assert "A Par H" in text and "A Mar H" not in text and "nonsense" not in text


def test_orders_before_signon_are_refused_with_a_hint(judge):
    assert "orders go after SIGNON" in judge.text("fr@x.org", "A Par - Bur")


def test_chinese_commands_in_gb2312(judge):
    text = judge.text("de@x.org", "加入 g1 德国密码 德国\n柏林陆军移动到基尔", charset="gb2312")
    assert "扮演德国" in text and "柏林陆军移动到基尔" in text and "尚无命令的部队：基尔舰队、慕尼黑陆军" in text


def test_list_of_ones_own_games(judge):
    text = judge.text("fr@x.org", "LIST")
    assert "g1: France, Spring 1901 Movement" in text
    assert "Games open to join: g1" in judge.text("nobody@x.org", "LIST")


POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")


def test_the_last_power_taken_starts_the_game_and_tells_everyone(tmp_path):
    j = Judge(tmp_path)
    created = j.text("gm@x.org", "CREATE g1 gmpass timezone=Europe/Paris")
    assert "The first deadline is set when the game starts (when every power is taken" in created
    for p in POWERS[:-1]:
        j.mail(f"{p.lower()}@x.org", f"JOIN g1 pw-{p} {p}")
    answer, *started = j.mails("tu@x.org", "加入 g1 密碼1234 土耳其")
    assert "遊戲開始" in answer.get_content()
    by_to = {str(m["To"]): m.get_body(("plain",)).get_content().replace("\r\n", "\n") for m in started}
    assert set(by_to) == {f"{p.lower()}@x.org" for p in POWERS[:-1]} | {"tu@x.org", "gm@x.org"}
    france = by_to["france@x.org"]
    assert "Game 'g1' has started." in france and "  France     france@x.org   (you)" in france
    assert "  Turkey     tu@x.org" in france
    # the first deadline: 48 hours after the start, in the game's time zone and in UTC
    assert "The deadline for orders is Wed 03 Jan 2024 13:00 Europe/Paris (UTC+01:00) = Wed 03 Jan 2024 12:00 UTC." in france
    assert "土耳其     tu@x.org   （您）" in by_to["tu@x.org"] and "義大利     italy@x.org" in by_to["tu@x.org"]


def test_a_gunboat_game_start_shows_no_address_but_to_the_gm(tmp_path):
    j = Judge(tmp_path)
    j.mail("gm@x.org", "CREATE g1 gmpass gunboat=yes deadline=2024-01-05T12:00")
    for p in POWERS:
        mails = j.mails(f"{p.lower()}@x.org", f"JOIN g1 pw-{p} {p}")
    started = {str(m["To"]): m.get_body(("plain",)).get_content() for m in mails if "game start" in m["Subject"]}
    assert len(started) == 8
    for address, text in started.items():
        assert ("austria@x.org" in text) == (address == "gm@x.org")
    assert "This is a gunboat game: no player's address is shown." in started["france@x.org"]
    # the deadline of a game on UTC is written once
    assert "The deadline for orders is Fri 05 Jan 2024 12:00 UTC." in started["france@x.org"]


def test_replies_in_the_players_stored_language(judge):
    judge.mail("de@x.org", "加入 g1 德国密码 德国")
    assert "德国在游戏“g1”" in judge.text("de@x.org", "SIGNON g1\nA Ber - Kie")     # English orders, Chinese reply
    assert "Orders of France" in judge.text("fr@x.org", "SIGNON g1\n巴黎陆军移动到勃艮第")
    assert "Signed on" in judge.text("fr@x.org", "SIGNON g1\n王小明")
    assert judge.game("g1")["players"]["Germany"]["language"] == "zh-hans"
    judge.mail("it@x.org", "加入 g1 義國密碼 義大利\n羅馬陸軍防守")
    assert judge.game("g1")["players"]["Italy"]["language"] == "zh-hant"
    assert Words("standard", "zh-hant").power("Italy") == "義大利"
    assert Words("standard", "zh-hans").power("Italy") == "意大利"
    # an unknown sender writing a mostly English mail is answered in English
    assert "there is no game" in judge.text("x@x.org", "LIST nope\n王小明")


def test_orders_echo_lists_the_orders_in_force(judge):
    text = judge.text("fr@x.org", "SIGNON g1\nA Par - Bur\nA Mar - Spa\nA Par - Pic")
    orders = text.split("as they stand:\n")[1].split("\n\n")[0]
    assert orders == "  A Mar - Spa\n  A Par - Pic"
    assert "Replaced by a later line of this mail (not counted):\n  > A Par - Bur" in text
    text = judge.text("fr@x.org", "SIGNON g1\nA Par H\nF Bre - Mao")
    orders = text.split("as they stand:\n")[1].split("\n\n")[0]
    assert orders == "  A Mar - Spa   (from an earlier mail)\n  A Par H   (replaces A Par - Pic)\n  F Bre - Mao"
    assert "Replaced by a later line" not in text and "Every unit of France has an order." in text


def test_notes_and_refusals_in_the_readers_language(judge):
    judge.mail("ru@x.org", "JOIN g1 rupass Russia")
    text = judge.text("ru@x.org", "SIGNON g1\nF StP/nc - Bot\nA Mos - Ber")
    assert ("  F StP/sc - Bot   [you wrote: F StP/nc - Bot]\n"
            "    Note: the fleet in St. Petersburg is on the south coast, not the north coast.\n") in text
    assert "  > A Mos - Ber\n    A Mos cannot reach Berlin\n" in text
    assert "Units still without orders: A Mos, F Sev, A War." in text
    judge.mail("ru@x.org", "SET LANGUAGE zh-hans")
    text = judge.text("ru@x.org", "SIGNON g1\nF StP/nc - Bot\nA Mos - Ber\nF Sev - Bla\nF Sev - Mos")
    assert "注意：圣彼得堡的舰队位于南岸，不是北岸。" in text
    assert "莫斯科陆军无法到达柏林" in text and "塞瓦斯托波尔舰队无法到达莫斯科" in text
    judge.mail("ru@x.org", "SET LANGUAGE zh-hant")
    assert "莫斯科陸軍無法到達柏林" in judge.text("ru@x.org", "SIGNON g1\nA Mos - Ber")


def test_resign_tells_the_gm_and_a_later_signon_says_so(judge):
    reply, to_gm = judge.mails("fr@x.org", "SIGNON g1\nRESIGN")
    assert to_gm["To"] == "gm@x.org" and "The player of France has resigned from game 'g1'" in to_gm.get_content()
    assert 'you no longer play France in game "g1"' in judge.text("fr@x.org", "SIGNON g1 frpass\nA Par H")
    assert 'you no longer play France in game "g1"' in judge.text("fr@x.org", "SIGNON g1")
    assert "wrong password" in judge.text("other@x.org", "SIGNON g1 frpass")


def test_the_sender_is_from_never_reply_to(judge):
    # Reply-To names where the answer goes, not who asks
    reply = judge.mail("stranger@x.org", "SIGNON g1\nA Par H", Reply_To="fr@x.org")
    assert reply["To"] == "fr@x.org" and "add the password" in reply.get_content()
    assert "France" not in str(judge.game("g1")["orders"])
    reply = judge.mail("fr@x.org", "SIGNON g1\nA Par H", Reply_To="fr@home.example")
    assert reply["To"] == "fr@home.example" and "A Par H" in reply.get_content()
    judge.mail("joiner@x.org", "JOIN g1 jpass Germany", Reply_To="elsewhere@x.org")
    assert judge.game("g1")["players"]["Germany"]["addresses"] == ["joiner@x.org"]


def test_signing_on_as_two_powers_copies_each_part_to_its_own_address(judge):
    judge.mail("de@x.org", "JOIN g1 depass Germany")
    mails = judge.mails("spy@x.org", "SIGNON g1 frpass\nA Par - Bur\nSIGNON g1 depass\nA Mun - Ruh")
    by_to = {str(m["To"]): m.get_content() for m in mails}
    assert set(by_to) == {"spy@x.org", "fr@x.org", "de@x.org"} and all(m["Cc"] is None for m in mails)
    assert "A Par - Bur" in by_to["spy@x.org"] and "A Mun - Ruh" in by_to["spy@x.org"]
    assert "A Par - Bur" in by_to["fr@x.org"] and "Mun" not in by_to["fr@x.org"] and "Germany" not in by_to["fr@x.org"]
    assert "A Mun - Ruh" in by_to["de@x.org"] and "A Par" not in by_to["de@x.org"] and "France" not in by_to["de@x.org"]
    assert "a mail from spy@x.org signed on" in by_to["fr@x.org"]


@pytest.mark.parametrize("mark", ["\ufeff", "\u200b", "\u200b\ufeff "])
def test_invisible_characters_before_a_command(judge, mark):
    assert 'Signed on to game "g1" as France' in judge.text("fr@x.org", f"{mark}SIGNON g1\n{mark}A Par H")
    assert "A Par H" in judge.game("g1")["orders"]["France"][-1]["text"]


def test_cosmetics_of_the_answer(judge):
    reply = judge.mail("fr@home.example", "SIGNON g1 frpass\nA Par H")       # a note: the copy to fr@x.org
    assert reply.get_content().replace("\r\n", "\n").endswith(
        "the address on record.\n\n-- \nDiplomacy Judge <judge@example.test>\nSend HELP for the list of commands.\n")
    judge.mail("gm@x.org", "CREATE g2 gmpass deadline=2024-01-10T20:00")
    judge.mail("fr@x.org", "JOIN g2 frpass France")
    text = judge.text("fr@x.org", "LIST g2")
    assert "deadline Wed 10 Jan 2024 20:00 UTC." in text and "= Wed" not in text
    assert "Russia: A Mos, A War, F Sev, F StP/sc" in text
