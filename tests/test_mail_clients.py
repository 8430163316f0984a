"""Mail as every client writes it (issue 18): the corpus of
tests/data/mail/clients (made by ``python tests/mailclients.py``; each mail's
client, style and source in corpus.json) through the real reader: only what
the player wrote now is read, with the notes saying what was not."""

from __future__ import annotations

import json

import pytest

from mailclients import CORPUS

from judge.mail.message import read_mail

ENTRIES = json.loads((CORPUS / "corpus.json").read_text(encoding="utf-8"))


def test_the_corpus_covers_the_clients_styles_and_charsets():
    assert len(ENTRIES) >= 40
    clients = {e["client"].split(" (")[0] for e in ENTRIES}
    assert len(clients) >= 12, clients
    assert {"utf-8", "gb2312", "gbk", "gb18030", "big5"} <= {e["charset"] for e in ENTRIES}
    assert {"plain", "html", "alternative"} <= {e["layout"] for e in ENTRIES}
    assert {"reply", "forward", "attached"} <= {e["kind"] for e in ENTRIES}
    assert {"en", "zh", "zht"} <= {e["lang"] for e in ENTRIES}
    assert any(e["flowed"] for e in ENTRIES) and all(e["source"] for e in ENTRIES)


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_only_what_the_player_wrote_now_is_read(entry):
    raw = (CORPUS / entry["file"]).read_bytes()
    mail = read_mail(raw, entry["file"], "judge@example.test")
    lines = [line.strip() for line in mail.text.split("\n") if line.strip()]
    assert lines == entry["text"]
    codes = [n.split(":")[0] for n in mail.notes]
    assert codes == entry["notes"], mail.notes


# ---- by mail: each client style answers the judge's confirmation -------------------------
BY_MAIL = ["outlook", "outlook_html_only", "outlook_zh", "outlook_zht", "outlook_com", "windows_mail", "gmail",
           "gmail_zht", "yahoo", "yahoo_classic", "aol", "apple_flowed", "apple_html", "iphone", "thunderbird",
           "thunderbird_html", "thunderbird_bottom", "k9", "qq", "qq_ios", "qq_new", "foxmail", "163", "mailmaster",
           "oe_big5", "yahoo_tw", "proton"]
NEW = {"en": "SIGNON g pw-england\nF Lon - Nth\nF Edinburgh supports F London - North Sea\nA Lvp - Wal",
       "zh": "登录 g pw-england\n伦敦舰队移动到北海\n爱丁堡舰队支援伦敦舰队移动到北海\n利物浦陆军移动到威尔士",
       "zht": "登入 g pw-england\n倫敦艦隊移動到北海\n愛丁堡艦隊支援倫敦艦隊移動到北海\n利物浦陸軍移動到威爾斯"}
"""The new orders: F Lon keeps its order, F Edi and A Lvp change (the quoted
confirmation holds F Edi - Nwg and A Lvp - Yor, which would replace them)."""
GREETING = {"en": ("Hi judge,\n\n", "\n\nThanks!\nAlice"), "zh": ("裁判好，\n\n", "\n\n谢谢！"),
            "zht": ("大家好：\n\n", "\n\n謝謝！")}


def _lang(style) -> str:
    if style.charset.startswith("big5"):
        return "zht"
    return "zh" if style.charset.startswith("gb") else "en"


@pytest.fixture(scope="module")
def judge(tmp_path_factory):
    """One game for every style (each test sends the old orders again first)."""
    from mailjudge import started
    return started(tmp_path_factory.mktemp("clients"), "CREATE g gmsecret grace=0 reminders=none")


@pytest.mark.parametrize("name", BY_MAIL)
def test_an_answer_to_the_confirmation_in_each_client_style_keeps_only_the_new_orders(judge, name):
    from mailclients import STYLES, Original, build
    from mailjudge import addr, to

    england = addr("England")
    judge.mail(england, "SIGNON g pw-england\nF Lon - Nth\nF Edi - Nwg\nA Lvp - Yor\n", subject="orders")
    confirmation = judge.sent[-1]
    sent = __import__("email").message_from_string(confirmation["raw"], policy=__import__("email").policy.default)
    assert "F Lon - Nth" in sent.get_content()
    style = STYLES[name]
    lang = _lang(style)
    hello, bye = GREETING[lang]
    original = Original("Diplomacy Judge", "judge@example.test", england, "Mon, Jan 6, 2025 at 12:00 PM",
                        "2025年1月6日 12:00", str(sent["Subject"]), sent.get_content().replace("\r\n", "\n"))
    raw = build(style, england, hello + NEW[lang] + bye, original, message_id=f"<answer-{name}@clients.example>",
                in_reply_to=str(sent["Message-ID"]))
    before = len(judge.sent)
    judge.spool.put(raw, {"source": "test"})
    for key in judge.spool.pending():
        judge.worker.process(key)
    answer = to(judge.read(before))[england][0]
    standing = sorted(e["text"] for e in judge.game()["orders"]["England"] if not e.get("replaced"))
    assert standing == sorted(NEW[lang].split("\n")[1:]), answer
    assert "quoted part of your mail" in answer or "引用的部分" in answer, answer
    assert "Error" not in answer and "错误" not in answer and "錯誤" not in answer, answer
    assert "pw-england" not in answer


@pytest.mark.parametrize("body,lang", [
    ("Hi judge,\n\nSIGNON g pw-england\nF Lon - Nth\nHere are my orders for this turn:\n\nThanks!\nCheers, Alice\n\n"
     "Sent from my iPhone", "en"),
    ("各位好，\n\n登录 g pw-england\n伦敦舰队移动到北海\n本回合指令如下：\n\n谢谢！\n此致\n敬礼\n\n发自我的iPhone", "zh")])
def test_greetings_sign_offs_and_taglines_are_no_errors_in_either_language(judge, body, lang):
    from mailjudge import addr, to

    answer = to(judge.mail(addr("England"), body))[addr("England")][0]
    assert "Error" not in answer and "错误" not in answer and "not understood" not in answer, answer
    passed = [line for line in answer.splitlines() if "passed over" in line or "已略过" in line]
    assert len(passed) == 2, answer           # the greetings, sign-off and tagline in one; the talk line in one
    # a Chinese mail is answered in Chinese, though England joined in English (issue 22)
    assert ("4 line(s)" if lang == "en" else "已略过 5 行") in passed[-1], passed
    assert answer.count("********") == 1             # the password of the SIGNON line, and no other word
