"""The composer's hand-written headers and entities read back by :mod:`email`
(``policy.default``) exactly as meant: English, Chinese, mixed, long, odd."""

from __future__ import annotations

import email
from datetime import datetime, timezone
from email import policy

import pytest

from judge.mail.compose import compose, entity

NOW = datetime(2026, 12, 7, 3, 0, tzinfo=timezone.utc)
SUBJECTS = [
    "Re: orders",
    "",
    "Diplomacy results demo S1901M",
    "回复：订单 S1901M 游戏 demo",
    "回覆：命令 demo 1901 年春季 結果",
    "Results of demo, 1901 秋季调整 — winter adjustments for everyone who plays in this long game name",
    "=?utf-8?b?5L2g?= is not an encoded word here",
    "line\r\nBcc: evil@x.org injected",
    "tab\tand\x00nul",
    "很" * 120,
    "a" * 120 + " b",
]


def parsed(raw: bytes):
    assert raw.isascii() and b"\r\n\r\n" in raw
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\r\n")
    assert all(len(line) <= 998 for line in head)
    return email.message_from_bytes(raw, policy=policy.default)


@pytest.mark.parametrize("subject", SUBJECTS)
def test_subject_reads_back(subject):
    raw = compose(sender_name="Judge", sender_address="judge@x.org", to=["a@x.org"], cc=[], subject=subject,
                  body="hello", message_id="<m1@x.org>", now=NOW, lang="en", domain="x.org")
    msg = parsed(raw)
    assert str(msg["Subject"]) == " ".join(subject.split())       # a NUL travels encoded, never raw
    assert msg["Bcc"] is None and len(msg.get_all("To")) == 1
    assert not msg.defects and not msg["Subject"].defects


@pytest.mark.parametrize("name", ["Judge", "The Judge, Inc.", 'Say "hi"', "外交裁判", "Judge 裁判 (EU)"])
def test_sender_name_reads_back(name):
    raw = compose(sender_name=name, sender_address="judge@x.org", to=["a@x.org", "b@y.org"], cc=["gm@x.org"],
                  subject="s", body="b", message_id="<m1@x.org>", now=NOW, lang="zh-Hans", domain="x.org",
                  game="demo", in_reply_to="<in@p.org>", references=("<r1@p.org>",))
    msg = parsed(raw)
    (sender,) = msg["From"].addresses
    assert (sender.display_name, sender.addr_spec) == (name, "judge@x.org")
    assert [a.addr_spec for a in msg["To"].addresses] == ["a@x.org", "b@y.org"]
    assert [a.addr_spec for a in msg["Cc"].addresses] == ["gm@x.org"]
    assert msg["In-Reply-To"] == "<in@p.org>" and msg["Content-Language"] == "zh-Hans"
    assert msg["References"].split()[1:] == ["<r1@p.org>", "<in@p.org>"]
    assert msg["List-Id"] == "demo <demo.x.org>" and msg["X-Loop"] == "judge@x.org"
    assert msg["Auto-Submitted"] == "auto-replied" and msg["Date"].datetime == NOW


def test_many_recipients_and_references_fold():
    to = [f"player{i}@example.org" for i in range(30)]
    refs = tuple(f"<{i:040d}@example.org>" for i in range(20))
    raw = compose(sender_name="Judge", sender_address="judge@x.org", to=to, cc=[], subject="s", body="b",
                  message_id="<m@x.org>", now=NOW, lang="en", domain="x.org", references=refs,
                  in_reply_to="<bad id with spaces@x>")
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\r\n")
    assert max(map(len, head)) <= 78
    msg = parsed(raw)
    assert [a.addr_spec for a in msg["To"].addresses] == to
    assert msg["In-Reply-To"] is None                  # not a Message-ID: left out, nothing injected
    assert msg["References"].split() == [refs[0], *refs[-9:]]     # the root and the newest


@pytest.mark.parametrize("body", ["SIGNON demo\nA Par - Bur\n", "订单已收到：\n法国 巴黎 陆军 → 勃艮第\n" * 30,
                                  "x" * 200 + "\n", "café au lait\n" * 3, ""])
def test_text_entity_reads_back(body):
    raw = compose(sender_name="J", sender_address="j@x.org", to=["a@x.org"], cc=[], subject="s", body=body,
                  message_id="<m@x.org>", now=NOW, lang="en", domain="x.org")
    msg = parsed(raw)
    assert msg.get_content_type() == "text/plain" and msg.get_content_charset() == "utf-8"
    assert msg.get_content().replace("\r\n", "\n") == (body if body.endswith("\n") else body + "\n")
    assert max(map(len, raw.split(b"\r\n"))) <= 78 or msg["Content-Transfer-Encoding"] != "7bit"


def test_one_entity_many_recipients_same_bytes():
    """A results mail's entity (text, HTML, the map) is made once; each
    recipient's mail is its headers + those bytes, and the same content
    gives the same bytes (a rerun after a crash)."""
    png = bytes(range(256)) * 40
    mime = entity("results\n", "<p>results</p><img src=cid:map1>", (("map1", "g.png", "image/png", png),))
    assert mime == entity("results\n", "<p>results</p><img src=cid:map1>", (("map1", "g.png", "image/png", png),))
    for who in ("a@x.org", "b@x.org"):
        msg = parsed(compose(sender_name="J", sender_address="j@x.org", to=[who], cc=[], subject="r", body="",
                             message_id=f"<{who}>", now=NOW, lang="en", domain="x.org", mime=mime))
        assert msg["To"] == who and msg.get_content_type() == "multipart/alternative"
        assert msg.get_body(("plain",)).get_content().strip() == "results"
        (image,) = [p for p in msg.walk() if p.get_content_type() == "image/png"]
        assert image.get_content() == png and image["Content-ID"] == "<map1>"
