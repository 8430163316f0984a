"""Reading what the player wrote now (issue 18): format=flowed, HTML line
breaks, the recogniser's edges, greetings and taglines in both languages,
and the password mask that hides passwords and nothing else."""

from __future__ import annotations

import pytest

from judge.mail import courtesy
from judge.mail.masking import MASK, mask, mask_line
from judge.mail.quoting import html_lines, read_now, text_lines, unflow


def now(text: str, subject: str = "") -> list[str]:
    return [x for x in read_now(text_lines(text), subject).lines if x.strip()]


def test_format_flowed_joins_soft_breaks_with_and_without_delsp():
    # RFC 3676 §4.2: a trailing space is a soft break; DelSp=yes deletes it
    assert unflow("A Liverpool supports F  \nEdinburgh - North Sea\n", delsp=True) == \
        "A Liverpool supports F Edinburgh - North Sea\n"
    assert unflow("A Liverpool supports F \nEdinburgh - North Sea\n", delsp=False) == \
        "A Liverpool supports F Edinburgh - North Sea\n"
    # quoted lines flow within their depth only; space-stuffing undone; "-- " stays a line
    assert unflow("> old order \n> goes on\nnew\n -- not a sig\n-- \nAlice") == \
        "> old order goes on\nnew\n-- not a sig\n-- \nAlice"


def test_html_keeps_line_breaks_and_quote_levels():
    lines, cut = html_lines("<p>SIGNON g1 pw</p><div>A Par - Bur<br>F Bre H</div><blockquote>A Mar - Spa"
                            "<blockquote>deeper</blockquote></blockquote><div>after</div>")
    assert [(x.text, x.depth) for x in lines if x.text] == [
        ("SIGNON g1 pw", 0), ("A Par - Bur", 0), ("F Bre H", 0), ("A Mar - Spa", 1), ("deeper", 2), ("after", 0)]
    assert not cut


def test_html_of_a_hostile_size_is_read_up_to_a_bound():
    lines, cut = html_lines("<p>A Par H</p>" + "<div>" * 30000)
    assert cut and lines[0].text == "A Par H"


@pytest.mark.parametrize("text,expected", [
    ("F Lon - Eng\n\n-----Original Message-----\nFrom: J\nSent: Monday\nF Lon - Nth", ["F Lon - Eng"]),
    ("F Lon - Eng\n----- Original Message -----\nFrom: J\nTo: a\nF Lon - Nth", ["F Lon - Eng"]),
    ("F Lon - Eng\n--------- 原始邮件 ---------\n发件人: J\n发送时间: 周一\nF Lon - Nth", ["F Lon - Eng"]),
    ("F Lon - Eng\n原始邮件\n发件人: J\n发送时间: 周一\nF Lon - Nth", ["F Lon - Eng"]),
    ("F Lon - Eng\n寄件者: J\n寄件日期: 週一\n收件者: a\n主旨: Re: x\nF Lon - Nth", ["F Lon - Eng"]),
    ("F Lon - Eng\n在 2025-01-06 10:00，\"J\" <j@x> 写道：\n> F Lon - Nth", ["F Lon - Eng"]),
    ("F Lon - Eng\nJudge <j@x> 於 2025年1月6日 週一 上午10:00寫道：\n> F Lon - Nth", ["F Lon - Eng"]),
    # bottom-posted and inline answers are read; a Yahoo original without ">" is not
    ("On Mon, J wrote:\n> F Lon - Nth\n\nF Lon - Eng", ["F Lon - Eng"]),
    ("F Lon - Eng\nOn Mon, Jan 6, J <j@x> wrote:\n\nF Lon - Nth", ["F Lon - Eng"]),
    # not headers: an order line with a colon, a From line alone
    ("France: A Par - Bur\nFrom: me", ["France: A Par - Bur", "From: me"]),
    # a forward is read, its header lines passed over
    ("fyi\n---------- Forwarded message ---------\nFrom: A <a@x>\nDate: Mon\nSubject: orders\nTo: b@x\n\n"
     "F Lon - Eng", ["fyi", "F Lon - Eng"]),
])
def test_the_recogniser(text, expected):
    assert now(text) == expected


def test_a_header_block_in_a_forward_is_the_forwarded_mail():
    text = "see below\n________________________________\nFrom: A\nSent: Mon\nTo: b\nSubject: orders\n\nF Lon - Eng"
    assert now(text, "FW: orders") == ["see below", "F Lon - Eng"]
    assert now(text, "RE: FW: orders") == ["see below"]


@pytest.mark.parametrize("line", [
    "Hi judge,", "Hello all!", "Dear GM", "Thanks!", "Thank you very much.", "Cheers, Alice", "Best regards,",
    "Sent from my iPhone", "Sent from Outlook", "Get Outlook for Android", "Sent from Mail for Windows",
    "Sent with Proton Mail secure email.", "各位好", "大家好！", "裁判您好：", "谢谢！", "謝謝裁判", "此致", "敬礼",
    "祝游戏愉快", "辛苦了", "发自我的iPhone", "發自我的 iPhone", "从我的 iPhone 发送", "發自網易郵箱大師"])
def test_greetings_sign_offs_and_taglines_are_passed_over(line):
    assert courtesy.kind(line) is not None


@pytest.mark.parametrize("line", [
    "A Par - Bur", "Hi A Par - Bur", "Thanks, SIGNON g1 pw", "F Lon - Eng", "巴黎陆军移动到勃艮第",
    "从巴黎陆军移动到勃艮第", "来自巴黎的问候", "SIGNON g1 pw", "Hold on, A Par H"])
def test_an_order_or_a_command_is_not_a_pleasantry(line):
    assert courtesy.kind(line) is None


def test_a_signature_after_a_sign_off_is_passed_over_but_orders_after_it_are_read():
    kept, passed = courtesy.pass_over(["Hi judge,", "F Lon - Eng", "", "Thanks,", "Alice", "ACME Ltd"])
    assert [x for x in kept if x] == ["F Lon - Eng"] and passed == ["Hi judge,", "Thanks,", "Alice", "ACME Ltd"]
    kept, passed = courtesy.pass_over(["Thanks,", "F Lon - Eng"])
    assert kept == ["F Lon - Eng"] and passed == ["Thanks,"]
    kept, passed = courtesy.pass_over(["PRESS TO England", "Hi!", "Thanks,", "ENDPRESS"])
    assert passed == []                           # a press message is the player's to word


@pytest.mark.parametrize("line", [
    "Sent from my iPhone", "Sent: Monday, January 01, 2025", "SET NO WAIT", "SET WAIT", "Sign the treaty now",
    "F Lon - Eng", "巴黎陆军移动到勃艮第", "在巴黎建立陆军", "建立 巴黎 陆军", "JOIN the alliance against France, please "
    "answer me soon and tell the others"])
def test_no_word_that_is_not_a_password_is_masked(line):
    assert mask_line(line) == line
    assert mask({"line": line}, set()) == {"line": line}


@pytest.mark.parametrize("line,shown", [
    ("SIGNON g1 hunter2", "SIGNON g1 " + MASK), ("SIGNON g1=hunter2", "SIGNON g1=" + MASK),
    ("SIGNON g1/abc", "SIGNON g1/" + MASK), ("please SIGNON g1 abc", "please SIGNON g1 " + MASK),
    ("SINGON g1 abcd", "SINGON g1 " + MASK), ("登录g1 密码1", "登录g1 " + MASK),
    ("SET PASSWORD abc", "SET PASSWORD " + MASK), ("设置密码 abc", "设置密码 " + MASK),
    ("JOIN g1 abcd France", "JOIN g1 " + MASK + " France")])
def test_a_password_in_its_place_is_masked_whatever_its_length(line, shown):
    assert mask_line(line) == shown


def test_a_mail_of_thousands_of_signature_lines_is_read():
    """Found by the fuzz test (tests/test_mail_fuzz.py, mail 882 of seed
    20260412): each ``-- `` line began another signature inside the last,
    until Python's recursion limit; a signature is one level now, the orders
    above it are read and the rest is its text."""
    body = "A Par - Bur\n" + "-- \nCheers\n" * 3000
    reading = read_now(text_lines(body))
    assert reading.lines == ("A Par - Bur",)
