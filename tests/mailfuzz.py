"""Mutated mails for the reader's fuzz test (tests/test_mail_fuzz.py) and
benchmark (benchmarks/fuzz.py): real-looking seed mails in English and
Chinese, each mutated one to three times by a seeded :class:`random.Random`
(byte damage, hostile headers, charsets, MIME nesting, Unicode in order lines,
auto-reply marks...). :func:`mails` gives the same mails for the same seed.

The seeds sign on to game ``fz`` (:data:`PLAYERS`: power -> (address,
password)), made by :func:`setup_mails`.
"""

from __future__ import annotations

import base64
import random
from email.message import EmailMessage

GAME = "fz"
GM = ("gm@fuzz.test", "gmpass1")
PLAYERS = {"France": ("fr@fuzz.test", "frpass1"), "England": ("en@fuzz.test", "enpass1"),
           "Germany": ("de@fuzz.test", "depass1"), "Russia": ("ru@fuzz.test", "rupass1")}
JUDGE = "judge@example.test"


def _mail(frm: str, body: str, subject: str = "orders", charset: str = "utf-8", html: bool = False,
          alternative: bool = False) -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = frm, JUDGE, subject
    if html:
        m.set_content(f"<html><body><p>{body.replace(chr(10), '<br>')}</p></body></html>", subtype="html",
                      charset=charset)
    else:
        m.set_content(body, charset=charset)
        if alternative:
            m.add_alternative(f"<p>{body}</p>", subtype="html")
    return m.as_bytes()


def setup_mails(deadline: str = "2030-01-10T20:00") -> list[bytes]:
    """The mails that create game ``fz`` (its first deadline ``deadline``,
    within a year of the judge's clock) and seat :data:`PLAYERS` (answered normally)."""
    out = [_mail(GM[0], f"CREATE {GAME} {GM[1]} deadline={deadline}")]
    out += [_mail(a, f"JOIN {GAME} {pw} {p}") for p, (a, pw) in PLAYERS.items()]
    return out


def seeds() -> list[bytes]:
    fr, en, de, ru = (PLAYERS[p] for p in ("France", "England", "Germany", "Russia"))
    return [
        _mail("someone@fuzz.test", "HELP"),
        _mail("someone@fuzz.test", "帮助"),
        _mail(fr[0], f"SIGNON {GAME} {fr[1]}\nA Par - Bur\nA Mar - Spa\nF Bre - Mao"),
        _mail(en[0], f"SIGNON {GAME} {en[1]}\nF Lon - Nth\nF Edi - Nwg\nA Lvp - Yor", alternative=True),
        _mail(de[0], f"登录 {GAME} {de[1]}\n柏林陆军移动到基尔\n基尔舰队移动到丹麦\n慕尼黑陆军移动到鲁尔", charset="gb18030"),
        _mail(ru[0], f"登入 {GAME} {ru[1]}\n莫斯科陸軍移動到烏克蘭\n華沙陸軍移動到加利西亞", charset="big5"),
        _mail(fr[0], f"SIGNON {GAME} {fr[1]}\nPRESS TO England\nShall we?\nENDPRESS"),
        _mail(fr[0], f"SIGNON {GAME}\nLIST", html=True),
        _mail("stranger@fuzz.test", f"LIST {GAME}\nLIST"),
        _mail("stranger@fuzz.test", f"SIGNON {GAME} wrongpw\nA Par H"),
        _mail(GM[0], f"SIGNON {GAME} {GM[1]}\nEXTEND 24h\nSET press=white"),
        _mail(en[0], f"SIGNON {GAME}\nSET WAIT\nSET LANGUAGE zh-hans"),
        _mail("someone@fuzz.test", "Hello judge,\nwhat is this?\n\nOn Mon, X wrote:\n> quoted\n-- \nsig"),
        # far dates and lengths (issue 19 point 10): each a clear refusal, the rest of the mail done
        _mail(GM[0], f"SIGNON {GAME} {GM[1]}\nSET DEADLINE 9999-12-31 23:59\nEXTEND 99999999h\nPAUSE 99999999999h\n"
                     "SET end_at=9999-12-31T23:59\nSET movement=99999999d grace=1e308\nSTART 9999-12-31\n"
                     "SET DEADLINE 0001-01-01T00:00+14:00\nEXTEND 99999999999999999999999999999d\nRESUME"),
        _mail(fr[0], f"SIGNON {GAME} {fr[1]}\nSET ABSENCE FROM 2030-01-02 TO 9999-12-31\n"
                     "SET ABSENCE FROM 9999-12-30 TO 9999-12-31\nHISTORY FROM S9999M TO F99999M\nMAP S99999M\nA Par H"),
        _mail("someone@fuzz.test", "CREATE far1 farpass1 deadline=9999-12-31T23:59 movement=9999999999d\n"
                                   "CREATE far2 farpass2 end_at=0001-01-01T00:00 pause_limit=99999999999d"),
        # malformed and failed SIGNONs (issue 19 points 4 and 9): nothing after them acts, no password quoted
        _mail(fr[0], f"SIGNON {GAME}={fr[1]}\nA Par - Bur"),
        _mail(en[0], f"SIGNON {GAME}/{en[1]}\nSIGNON {GAME}:{en[1]}\nF Lon - Nth"),
        _mail(de[0], f"Please SIGNON {GAME} {de[1]} thanks\n登录{GAME} {de[1]}\nSINGON {GAME} {de[1]}"),
        _mail(GM[0], f"SIGNON {GAME} {GM[1]}\nSIGNON {GAME} wrong{GM[1]}\nPROCESS\nEJECT France\n"
                     f"SIGNON {GAME} {GM[1]}\nSET PASSWORD {GM[1]}x"),
        _mail(ru[0], f"SIGNON {GAME} {ru[1]}\nSET PASSWORD abc\nSET ADDRESS a@x.org,b@evil.test\nSET ADDRESS ;"),
    ]


def passwords() -> set[str]:
    """Every password the seeds and setup mails hold (none may reach an answer)."""
    return {GM[1], f"{GM[1]}x", f"wrong{GM[1]}", "farpass1", "farpass2", "secretpw"} | {pw for _, pw in PLAYERS.values()}


_JUNK_CHARSETS = ["utf\x008", "x-unknown", "gb2312", "big5", "utf-16", "idna", "rot13", "uu", "ISO-2022-JP",
                  "utf-8\x00\x00", "a" * 300, "'", "\"\"", "utf-7", "hz", "koi8-r", "\u2603"]
_FROMS = [b"p@", b"<>", b"undisclosed:;", b"=?utf-8?q?evil=0D=0ABcc=3A_x=40y?= <fr@fuzz.test>",
          b"=?utf-8?b?ZXZpbA0KQmNjOiB4QHk=?= <en@fuzz.test>", b"a@b@c", b"@fuzz.test", b"fr@fuzz.test, x@y.z",
          "张三 <张@例子.中国>".encode(), b"\"unterminated <fr@fuzz.test", b"fr@fuzz.test (comment",
          b"=?bogus?x?zz?= <de@fuzz.test>", b"noreply@fuzz.test", b"MAILER-DAEMON@fuzz.test", b"x" * 5000]
_UNICODE = ["❻", "²", "\u200b", "\ufeff", "\u202e", "\u00a0", "Ａ", "①", "\x00", "\U0001f600", "\ud7ff", "\u0301",
            "\u3000", "٣", "〇", "十二"]
_AUTO = [b"Auto-Submitted: auto-replied", b"Precedence: bulk", b"X-Autoreply: yes", b"List-Id: <l.x>",
         b"X-Auto-Response-Suppress: All", b"x-njudge: 1.7", b"X-DPJUDGE: yes", b"Return-Path: <>",
         b"Subject: Out of Office: orders", "Subject: 自动回复: orders".encode(), "Subject: 自動回覆：orders".encode()]


def _split(raw: bytes) -> tuple[bytes, bytes]:
    head, sep, body = raw.partition(b"\n\n")
    return head, body


def _replace_header(raw: bytes, name: bytes, value: bytes) -> bytes:
    head, body = _split(raw)
    lines = [ln for ln in head.split(b"\n") if not ln.lower().startswith(name.lower() + b":")]
    return b"\n".join(lines + [name + b": " + value]) + b"\n\n" + body


def _flip(rng, raw):
    data = bytearray(raw)
    for _ in range(rng.randint(1, 20)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


def _insert_junk(rng, raw):
    i = rng.randrange(len(raw) + 1)
    return raw[:i] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 200))) + raw[i:]


def _truncate(rng, raw):
    return raw[:rng.randrange(len(raw) + 1)]


def _charset(rng, raw):
    label = rng.choice(_JUNK_CHARSETS).encode("utf-8", "surrogatepass")
    return _replace_header(raw, b"Content-Type", b'text/plain; charset="' + label + b'"')


def _from(rng, raw):
    return _replace_header(raw, b"From", rng.choice(_FROMS))


def _reply_to(rng, raw):
    return _replace_header(raw, b"Reply-To", rng.choice(_FROMS))


def _subject(rng, raw):
    return _replace_header(raw, b"Subject", rng.choice(
        [b"=?utf-8?q?x=0D=0ABcc=3A_x=40y?=", b"=?utf-8?b?", b"\x00\x01\x02", "JOIN fz secretpw".encode(),
         b"Re: " * 500, "春季命令".encode("gb2312")]))


def _nest(rng, raw):
    depth = min(rng.choice([2, 11, 50, 300, 1200]), MAX_BYTES // (len(raw) + 1) + 1)
    head, body = _split(raw)
    keep = b"\n".join(ln for ln in head.split(b"\n") if not ln.lower().startswith((b"content-", b"mime-")))
    inner = b"Content-Type: text/plain; charset=utf-8\n\n" + body
    for i in range(depth):
        inner = (f"Content-Type: multipart/mixed; boundary=\"b{i}\"\n\n--b{i}\n").encode() + inner + \
                f"\n--b{i}--\n".encode()
    return keep + b"\nMIME-Version: 1.0\n" + inner


def _many_parts(rng, raw):
    head, body = _split(raw)
    keep = b"\n".join(ln for ln in head.split(b"\n") if not ln.lower().startswith((b"content-", b"mime-")))
    count = min(rng.choice([3, 150, 2000]), MAX_BYTES // (len(body) + 40) + 1)
    parts = b"".join(b"--p\nContent-Type: text/plain\n\n" + body + b"\n" for _ in range(count))
    return keep + b"\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=p\n\n" + parts + b"--p--\n"


def _unicode(rng, raw):
    head, body = _split(raw)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return raw
    lines = text.split("\n")
    for _ in range(rng.randint(1, 6)):
        i = rng.randrange(len(lines))
        j = rng.randrange(len(lines[i]) + 1)
        lines[i] = lines[i][:j] + rng.choice(_UNICODE) + lines[i][j:]
    body = "\n".join(lines).encode("utf-8", "surrogatepass")
    return _replace_header(head + b"\n\n" + body, b"Content-Type", b"text/plain; charset=utf-8").replace(
        b"Content-Transfer-Encoding: base64", b"Content-Transfer-Encoding: 8bit")


def _repeat_line(rng, raw):
    head, body = _split(raw)
    lines = body.split(b"\n")
    i = rng.randrange(len(lines))
    lines[i:i + 1] = [lines[i]] * min(rng.choice([10, 400, 5000]), MAX_BYTES // (len(lines[i]) + 1) + 1)
    return head + b"\n\n" + b"\n".join(lines)


def _long_line(rng, raw):
    return raw + b"A Par - Bur " * rng.choice([100, 20000]) + b"\n"


def _auto(rng, raw):
    head, body = _split(raw)
    mark = rng.choice(_AUTO)
    name = mark.split(b":")[0]
    if name.lower() == b"subject":
        return _replace_header(raw, b"Subject", mark.partition(b": ")[2])
    return head + b"\n" + mark + b"\n\n" + body


def _base64_garbage(rng, raw):
    head, body = _split(raw)
    head = b"\n".join(ln for ln in head.split(b"\n") if not ln.lower().startswith(b"content-transfer"))
    junk = rng.choice([base64.b64encode(body)[:-3], b"%%%!!", base64.b64encode(bytes(rng.randrange(256)
                                                                                 for _ in range(300)))])
    return head + b"\nContent-Transfer-Encoding: base64\n\n" + junk


def _drop_header(rng, raw):
    head, body = _split(raw)
    lines = head.split(b"\n")
    if lines:
        del lines[rng.randrange(len(lines))]
    return b"\n".join(lines) + b"\n\n" + body


def _many_headers(rng, raw):
    head, body = _split(raw)
    extra = b"\n".join(b"X-H%d: %s" % (i, b"v" * rng.randint(0, 50)) for i in range(rng.choice([50, 3000])))
    return head + b"\n" + extra + b"\n\n" + body


MUTATIONS = [_flip, _insert_junk, _truncate, _charset, _from, _reply_to, _subject, _nest, _many_parts,
             _unicode, _unicode, _unicode, _repeat_line, _long_line, _auto, _base64_garbage, _drop_header,
             _many_headers]


MAX_BYTES = 6_000_000
"""No mutated mail is larger (the judge's SMTP listener refuses far smaller ones)."""


def mutate(rng: random.Random, raw: bytes) -> bytes:
    """``raw`` with one to three mutations of :data:`MUTATIONS`, at most :data:`MAX_BYTES`."""
    for _ in range(rng.choice((1, 1, 2, 3))):
        raw = (rng.choice(MUTATIONS)(rng, raw) or raw)[:MAX_BYTES]
    return raw


def mails(seed: int, count: int):
    """``count`` mutated mails, the same for the same ``seed``; each gets a
    Message-ID of its own first (mutations may damage it)."""
    rng = random.Random(seed)
    base = seeds()
    for i in range(count):
        raw = _replace_header(rng.choice(base).replace(b"\r\n", b"\n"), b"Message-ID",
                              f"<fuzz-{seed}-{i}@fuzz.test>".encode())
        yield mutate(rng, raw)
