"""Reading inbound mail: bodies, charsets, HTML, quotes, signatures, automatic mail."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from judge.mail.message import decode_bytes, html_to_text, read_mail, strip_quotes_and_signature
from judge.mail.spool import message_key

JUDGE = "judge@example.test"
ORDERS_ZH = "登录 g1 pw\n华沙陆军移动到莫斯科\n"
ORDERS_ZH_HANT = "登入 g1 pw\n華沙陸軍移動到莫斯科\n"


def mail(body: str = "HELP\n", *, charset: str = "utf-8", cte: str | None = None, subtype: str = "plain",
         **headers) -> EmailMessage:
    m = EmailMessage()
    m["From"] = headers.pop("From", "Alice <Alice@Example.org>")
    m["To"] = JUDGE
    m["Subject"] = "orders"
    for k, v in headers.items():
        m[k.replace("_", "-")] = v
    m.set_content(body, subtype=subtype, charset=charset, cte=cte)
    return m


def read(m) -> object:
    raw = m if isinstance(m, bytes) else m.as_bytes()
    return read_mail(raw, message_key(raw), JUDGE)


@pytest.mark.parametrize("charset,cte,body", [
    ("utf-8", "base64", ORDERS_ZH), ("utf-8", "quoted-printable", ORDERS_ZH), ("utf-8", "8bit", ORDERS_ZH),
    ("gb2312", "base64", ORDERS_ZH), ("gbk", "quoted-printable", ORDERS_ZH), ("gb18030", "8bit", ORDERS_ZH),
    ("big5", "base64", ORDERS_ZH_HANT), ("big5", "quoted-printable", ORDERS_ZH_HANT),
])
def test_chinese_charsets_and_transfer_encodings(charset, cte, body):
    r = read(mail(body, charset=charset, cte=cte))
    assert r.text == body.strip()
    assert r.notes == ()
    assert r.sender == "alice@example.org" and r.reply_to == "alice@example.org"


def test_gbk_characters_in_a_mail_labelled_gb2312():
    # 镕 is in GBK but not in GB2312: mailers label such text gb2312 all the same
    raw = b"From: a@x.org\r\nContent-Type: text/plain; charset=gb2312\r\n\r\n" + "朱镕基\r\n".encode("gbk")
    assert read(raw).text == "朱镕基"


def test_wrong_charset_label_is_noted_and_text_recovered():
    raw = b"From: a@x.org\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + ORDERS_ZH.encode("gb18030")
    r = read(raw)
    assert r.text == ORDERS_ZH.strip()
    assert "charset_wrong:utf-8" in r.notes


def test_unknown_charset_is_noted():
    raw = b"From: a@x.org\r\nContent-Type: text/plain; charset=x-klingon\r\n\r\nHELP\r\n"
    r = read(raw)
    assert r.text == "HELP" and "charset_unknown:x-klingon" in r.notes


def test_undecodable_bytes_are_replaced_not_fatal():
    text, notes = decode_bytes(b"\xff\xfe\xfa HELP", "utf-8")
    assert "HELP" in text and notes == ["charset_wrong:utf-8"]


def test_html_only_mail_is_converted_by_the_library():
    html = ("<html><head><style>p {color: red}</style></head><body><p>SIGNON g1 pw</p>"
            "<div>A <b>Par</b> - Bur<br>F Bre&nbsp;H</div>"
            "<blockquote>A Mar - Spa</blockquote><div class='gmail_quote'>On Mon X wrote:</div></body></html>")
    r = read(mail(html, subtype="html"))
    assert [line for line in r.text.split("\n") if line] == ["SIGNON g1 pw", "A Par - Bur", "F Bre H"]
    assert "html_only" in r.notes


def test_multipart_alternative_prefers_plain_and_ignores_attachments():
    m = mail("SIGNON g1 pw\nA Par - Bur\n")
    m.add_alternative("<p>something else</p>", subtype="html")
    m.add_attachment(b"\0" * (5 * 1024 * 1024), maintype="application", subtype="octet-stream",
                     filename="big.bin")
    r = read(m)
    assert r.text == "SIGNON g1 pw\nA Par - Bur"
    assert "attachments:1" in r.notes


def test_no_text_part():
    m = EmailMessage()
    m["From"] = "a@x.org"
    m.set_content(b"\x89PNG", maintype="image", subtype="png")
    r = read(m)
    assert r.text == "" and "no_text" in r.notes


def test_broken_mime_is_read_as_far_as_possible():
    raw = (b"From: a@x.org\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n"
           b"--XX\r\nContent-Type: text/plain\r\n\r\nHELP\r\n--XX\r\nContent-Type: text/pl")  # no end
    r = read(raw)
    assert r.text.startswith("HELP")
    assert "broken_mime" in r.notes


def test_garbage_bytes_never_raise():
    r = read(b"\x00\x01\xff garbage without headers \xfe\r\n\r\n\x80\x81")
    assert r.sender == "" and isinstance(r.text, str)


def test_quoted_lines_attribution_and_signature_are_not_read():
    body = ("SIGNON g1 pw\nA Par - Bur\n\nOn Mon, 1 Jan 2024, Judge <judge@x> wrote:\n"
            "> A Mar - Spa\n>> F Bre - Mao\n  > indented quote\nF Bre - Eng\n-- \nAlice\nA Ven - Tri\n")
    assert strip_quotes_and_signature(body) == "SIGNON g1 pw\nA Par - Bur\nF Bre - Eng"


def test_signature_separator_without_trailing_space_and_chinese_attribution():
    assert strip_quotes_and_signature("HELP\n\n张三 写道：\n> LIST\n--\nsig") == "HELP"


def test_outlook_original_message_marker_ends_the_text():
    assert strip_quotes_and_signature("LIST\n-----Original Message-----\nHELP") == "LIST"


@pytest.mark.parametrize("headers,reason", [
    ({"Auto_Submitted": "auto-replied"}, "auto-submitted"),
    ({"Auto_Submitted": "auto-generated"}, "auto-submitted"),
    ({"Precedence": "bulk"}, "precedence"),
    ({"Precedence": "list"}, "precedence"),
    ({"List_Id": "<dip.lists.example.org>"}, "mailing-list"),
    ({"X_Autoreply": "yes"}, "auto-reply"),
    ({"X_Loop": JUDGE}, "own-mail"),
    ({"From": JUDGE}, "own-mail"),
    ({"From": "MAILER-DAEMON@mx.example.org"}, "bounce"),
    ({"Return_Path": "<>"}, "bounce"),
])
def test_automatic_mail_is_recognised(headers, reason):
    assert read(mail(**headers)).automatic == reason


def test_auto_submitted_no_is_a_person():
    assert read(mail(Auto_Submitted="no")).automatic == ""


def test_delivery_report_is_a_bounce():
    m = EmailMessage()
    m["From"] = "postmaster2@mx.example.org"
    m.set_content("Delivery failed")
    m.make_mixed()
    m.set_type("multipart/report")
    assert read(m).automatic == "bounce"


def test_empty_envelope_sender_is_a_bounce():
    raw = mail().as_bytes()
    assert read_mail(raw, "k", JUDGE, envelope_from="").automatic == "bounce"
    assert read_mail(raw, "k", JUDGE, envelope_from="alice@example.org").automatic == ""


def test_reply_to_wins_over_from():
    assert read(mail(Reply_To="Alice Home <alice@home.example>")).reply_to == "alice@home.example"


def test_message_key_is_the_message_id_else_a_hash():
    with_id = mail(Message_ID="<abc@x.org>").as_bytes()
    assert message_key(with_id) == "abc@x.org"
    without = mail().as_bytes()
    assert message_key(without).startswith("sha256:") and message_key(without) == message_key(without)


def test_html_to_text_keeps_line_structure():
    assert html_to_text("<ul><li>A Par - Bur</li><li>F Bre - Mao</li></ul>").split() == \
        ["A", "Par", "-", "Bur", "F", "Bre", "-", "Mao"]


def test_plain_addresses_are_read_as_the_email_parser_reads_them():
    """``From``/``Reply-To``/``To`` values written plainly (``a@b``, ``<a@b>``,
    ``Some Words <a@b>``) are read without :func:`email.utils.parseaddr`;
    the result must be the parser's, and anything else goes to the parser."""
    import random
    from email.utils import getaddresses, parseaddr

    from judge.mail.message import _plain_address
    common = ["russia@g00000.example", "<a@b.example>", "Ann Lee <ann.lee+dip@mail.example.org>",
              "x_y-z@sub-1.example", "O'Brien <ob@x.example>"]
    assert all(_plain_address(v) for v in common)
    rng = random.Random(9)
    values, fast = list(common), 0
    for _ in range(60000):
        name = rng.choice(["", "Ann ", "Ann Lee ", "A. Lee ", '"Ann" ', "a!b ", "Ann <", "=?utf-8?q?x?= ", "Ann, Bob ",
                           "Ann (c) "])
        local = "".join(rng.choice(["a", "b.c", "x+y", ".", "..", "-", "_", "'", "~", "ü", '"q"', " "])
                        for _ in range(rng.randint(1, 3)))
        domain = rng.choice(["b.example", "ex-ample.org", "a", "a.b.c", "[1.2.3.4]", "x..y", "-a.b", "a-", "b.example."])
        address = rng.choice([f"<{local}@{domain}>", f"{local}@{domain}", f"<{local}@{domain}", f"{local}@{domain}>"])
        values.append(" ".join((name + address + rng.choice(["", " (c)", ",", " x", ", b@c.example"])).split()))
    for value in values:
        plain = _plain_address(value)
        if plain is not None:
            fast += 1
            assert plain == parseaddr(value) and [plain] == getaddresses([value]), value
    assert fast > 300 and len(values) - fast > 5000


def _old_param(part, name):
    from judge.mail.message import _clean
    try:
        value = part.get_param(name)
        if isinstance(value, tuple):
            value = value[2]
    except Exception:  # noqa: BLE001
        return ""
    return _clean(str(value or ""), 64).lower()


def test_the_part_read_and_its_parameters_are_the_email_parsers():
    """The reader's one-part shortcut (:func:`judge.mail.message._text_part`)
    and its Content-Type parameters read once (:class:`_Params`) give the
    email package's answers (its walk: ``get_body``, ``iter_attachments``;
    ``get_param``) on the test mails, a few thousand fuzzed ones and odd shapes."""
    from pathlib import Path

    import mailfuzz

    from judge.mail.limits import ReadLimits, bound_raw
    from judge.mail.message import _PARSER, _Params, _text_part, _walked_text_part
    raws = [p.read_bytes() for p in sorted((Path(__file__).parent / "data" / "mail").rglob("*.eml"))]
    raws += mailfuzz.seeds() + list(mailfuzz.mails(23, 3000))
    head = b"From: a@b.example\r\nTo: judge@example.test\r\nSubject: s\r\n"
    for ctype in (b"text/plain", b"text/plain; charset=utf-8; format=flowed; delsp=yes", b"text/enriched",
                  b"text/html; charset=\"gb2312\"", b"application/octet-stream", b"text/plain; charset*=utf-8''big5",
                  b"text/plain; charset=utf-8; CHARSET=big5", b"text/plain; charset=", b"text/plain; ;;; =x",
                  b"text", b"", b"multipart/mixed", b"text/plain; charset*0=ut; charset*1=f-8", b"TEXT/PLAIN"):
        for disposition in (b"", b"Content-Disposition: attachment; filename=a.txt\r\n"):
            raws.append(head + b"Content-Type: " + ctype + b"\r\n" + disposition + b"\r\nSIGNON g1 pw\r\n")
    raws.append(head + b"\r\nno content type at all\r\n")
    checked = 0
    for raw in raws:
        raw = bound_raw(raw, ReadLimits())[0]             # as the reader cuts it (MIME depth, parts)
        msg, again = _PARSER.parsebytes(raw), _PARSER.parsebytes(raw)
        part, notes = _text_part(msg)
        old_part, old_notes = _walked_text_part(again)
        assert (part is None) == (old_part is None) and notes == old_notes, raw[:300]
        if part is None:
            continue
        assert (part is msg) == (old_part is again), raw[:300]
        params = _Params(part)
        for name in ("charset", "format", "delsp", "name"):
            assert params.get(name) == _old_param(old_part, name), (name, raw[:300])
        checked += 1
    assert checked > 2000


def test_a_text_part_marked_inline_is_read():
    """A text part with ``Content-Disposition: inline`` (Mutt, NeoMutt) was
    read as no text at all when its mail had several parts, and as broken
    MIME when it had one: the compat32 parts' ``is_attachment`` asked for a
    header object (tests/data/mail/clients/mutt*.eml are such mails). It now
    answers as the email package's own does under ``policy.default``."""
    from email import policy
    from email.parser import BytesParser

    from judge.mail.message import _PARSER
    head = b"From: a@b.example\r\nTo: judge@example.test\r\nSubject: s\r\nContent-Type: text/plain\r\n"
    for disposition in (None, b"inline", b"attachment", b"ATTACHMENT; filename=x.txt", b"attachment;",
                        b" Attachment ", b"inline; filename=\"a;b\"", b"", b"form-data; name=x"):
        raw = head + (b"Content-Disposition: " + disposition + b"\r\n" if disposition is not None else b"") \
            + b"\r\nHELP\r\n"
        assert _PARSER.parsebytes(raw).is_attachment() == \
            BytesParser(policy=policy.default).parsebytes(raw).is_attachment(), disposition
    multipart = (b"From: a@b.example\r\nTo: judge@example.test\r\nSubject: s\r\nMIME-Version: 1.0\r\n"
                 b"Content-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n--XX\r\n"
                 b"Content-Type: text/plain; charset=utf-8\r\nContent-Disposition: inline\r\n\r\nHELP\r\n--XX\r\n"
                 b"Content-Type: text/plain; name=notes.txt\r\nContent-Disposition: attachment; filename=notes.txt\r\n"
                 b"\r\nnot orders\r\n--XX--\r\n")
    m = read_mail(multipart, "k", "judge@example.test")
    assert m.text.strip() == "HELP" and m.notes == ("attachments:1",)
    one = b"From: a@b.example\r\nTo: judge@example.test\r\nContent-Type: text/plain\r\nContent-Disposition: inline\r\n\r\nHELP\r\n"
    m = read_mail(one, "k", "judge@example.test")
    assert m.text.strip() == "HELP" and m.notes == ()
