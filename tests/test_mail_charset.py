"""Undeclared Chinese mail (issue 14): Big5, GBK/GB18030 and UTF-8 told apart by
which decoding reads as known words (judge.mail.charset). The samples in
``tests/data/mail/charset/`` are order mails as Outlook Express, Foxmail and
webmail send them with no charset label: ``NAME.eml`` the raw bytes,
``NAME.txt`` the text the judge must read."""

from __future__ import annotations

import email
from email import policy
from pathlib import Path

import pytest

from judge.mail.charset import CANDIDATES, guesses, score
from judge.mail.message import decode_bytes, read_mail
from test_mail_commands import Judge, judge  # noqa: F401 - the fixture: a game g1 with France taken by fr@x.org

SAMPLES = Path(__file__).parent / "data" / "mail" / "charset"
EMLS = sorted(SAMPLES.glob("*.eml"))
ORDERS_HANT = "巴黎陸軍進攻勃艮第\n馬賽陸軍支援巴黎陸軍進攻勃艮第"
ORDERS_HANS = "巴黎陆军进攻勃艮第\n马赛陆军支援巴黎陆军进攻勃艮第"


@pytest.mark.parametrize("path", EMLS, ids=[p.stem for p in EMLS])
def test_undeclared_mail_is_read_right(path: Path):
    raw = path.read_bytes()
    assert b"charset" not in raw.lower()
    mail = read_mail(raw, "k", "judge@example.test")
    assert mail.text == path.with_suffix(".txt").read_text(encoding="utf-8").strip("\n")
    assert mail.charset == "" and not [n for n in mail.notes if n.startswith("charset")]


def test_the_samples_cover_both_legacy_families():
    stems = {p.stem.split("_")[0] for p in EMLS}
    assert {"big5", "big5hkscs", "gbk", "gb18030", "utf8"} <= stems
    for stem in ("big5_taiwan", "big5_short", "gbk_mainland", "gbk_short"):
        raw = (SAMPLES / f"{stem}.eml").read_bytes()
        body = raw.split(b"\r\n\r\n", 1)[1]
        body.decode("gb18030")                    # the trap: both families decode without an error ...
        if stem.startswith("big5"):
            with pytest.raises(UnicodeDecodeError):
                body.decode("utf-8")


@pytest.mark.parametrize("text,codec", [
    (ORDERS_HANT, "big5"), (ORDERS_HANT, "big5hkscs"), (ORDERS_HANT, "gb18030"), (ORDERS_HANS, "gbk"),
    (ORDERS_HANS, "gb18030"), (ORDERS_HANT, "utf-8"), ("巴黎陸軍防守", "big5"), ("巴黎陆军防守", "gbk"),
    ("各位好", "big5"), ("各位好", "gbk"), ("喺巴黎嘅陸軍行去勃艮第", "big5hkscs"),
])
def test_guesses_put_the_right_charset_first(text, codec):
    data = text.encode(codec)
    best = next(guesses(data))
    assert data.decode(best) == text
    assert set(guesses(data)) == set(CANDIDATES)


def test_guesses_are_lazy_and_skip_what_was_tried():
    assert list(guesses(b"A Par - Bur")) == list(CANDIDATES)              # ASCII: UTF-8 first, nothing decoded
    assert list(guesses("巴黎陸軍".encode("big5"), ["utf-8"])) == ["big5hkscs", "gb18030"]
    it = guesses(ORDERS_HANT.encode("big5"))
    assert iter(it) is it
    assert list(it) == ["big5hkscs", "gb18030", "utf-8"]                  # what cannot decode comes last
    assert list(guesses(b"\xff\xfe")) == list(CANDIDATES)               # nothing decodes: the tie order


def test_known_words_outscore_mojibake():
    data = ORDERS_HANT.encode("big5")
    assert score(ORDERS_HANT) > 0 > score(data.decode("gb18030"))
    assert score(ORDERS_HANS) > score(ORDERS_HANS.encode("gbk").decode("big5hkscs"))
    assert score("") == score("A Par - Bur") == 0


def test_a_wrong_label_is_corrected_and_noted():
    text, notes = decode_bytes(ORDERS_HANT.encode("big5"), "utf-8")
    assert (text, notes) == (ORDERS_HANT, ["charset_wrong:utf-8"])
    text, notes = decode_bytes(ORDERS_HANT.encode("big5"), "x-chinese-please")
    assert (text, notes) == (ORDERS_HANT, ["charset_unknown:x-chinese-please"])
    assert decode_bytes(ORDERS_HANS.encode("gb2312"), "gb2312") == (ORDERS_HANS, [])


def _send_raw(j: Judge, raw: bytes) -> str:
    """The judge's answer to the raw mail ``raw``."""
    before = len(j.sent)
    j.spool.put(raw, {"source": "test"})
    for name in j.spool.pending():
        j.worker.process(name)
    answer = email.message_from_string(j.sent[before]["raw"], policy=policy.default)
    return answer.get_content().replace("\r\n", "\n")


def test_a_big5_order_mail_without_label_is_taken(judge):  # noqa: F811
    """The Taiwan sample: a greeting before SIGNON, orders, thanks after them."""
    reply = _send_raw(judge, (SAMPLES / "big5_taiwan.eml").read_bytes())
    orders = judge.game("g1")["orders"]["France"]
    assert [o["text"] for o in orders] == ["巴黎陸軍進攻勃艮第", "馬賽陸軍支援巴黎陸軍進攻勃艮第", "布雷斯特艦隊移動到英吉利海峽"]
    assert "巴黎陸軍進攻勃艮第" in reply                     # quoted as written, no mojibake
    assert "「各位好，本回合指令如下：」" in reply or '"各位好，本回合指令如下："' in reply
    assert "謝謝！" in reply
    assert "\ufffd" not in reply and "Error" not in reply and "not a command" not in reply


def test_a_gbk_order_mail_without_label_is_taken(judge):  # noqa: F811
    _send_raw(judge, (SAMPLES / "gbk_mainland.eml").read_bytes())
    assert [o["text"] for o in judge.game("g1")["orders"]["France"]] == [
        "巴黎陆军进攻勃艮第", "马赛陆军支援巴黎陆军进攻勃艮第", "布雷斯特舰队移动到英吉利海峡"]
