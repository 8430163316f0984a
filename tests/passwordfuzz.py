"""Mails that hold passwords in every malformed way, and the sweep of the
answers for them (issue 19 point 9: passwords never leave).

:func:`mails` gives, for a seed, mails to game ``fz`` of :mod:`mailfuzz`
(its setup mails make the game): SIGNON lines malformed as people and
fuzzers write them (``SIGNON g=pw``, ``SIGNON g/pw``, words before SIGNON,
misspelt, glued Chinese, an over-long line, a line quoted back), weak and
new ``SET PASSWORD``\\ s, JOIN and CREATE lines, the line in the subject, and
bodies in a charset other than the one labelled (GB18030 labelled Big5 or
UTF-8, Big5 labelled GB2312, none at all). Each comes with the passwords it
holds. :func:`leaks` sweeps one answer: every text part decoded, and the
raw bytes read as UTF-8, GB18030 and Big5, for any of them as a word (any
case: the parser quotes a line in lower case).

Used by tests/test_mail_passwords.py and benchmarks/passwords.py.
"""

from __future__ import annotations

import random
import re
import string
from email import message_from_bytes, policy
from email.message import EmailMessage

import mailfuzz

GAME = mailfuzz.GAME

SHAPES = (
    "SIGNON {g} {pw}", "SIGNON {g}={pw}", "SIGNON {g}/{pw}", "SIGNON {g}:{pw}", "SIGNON {g},{pw}",
    "signon {g} {pw}", "SIGNON   {g}    {pw}", "Please SIGNON {g} {pw}", "ok so SIGNON {g} {pw} thanks",
    "SINGON {g} {pw}", "SIGN ON {g} {pw}", "SIGNIN {g} {pw}", "LOGIN {g} {pw}", "SIGNON F{g} {pw}",
    "登录 {g} {pw}", "登录{g} {pw}", "登錄 {g} {pw}", "登入：{g} {pw}", "SIGNON {g} {pw} " + "A Par - Bur " * 120,
    "> SIGNON {g} {pw}", "SIGNON {g} {pw}\nA Par - Bur\nF Brest - Mid Atlantic\nxyzzy",
)
"""How a sign-on line with password ``{pw}`` for game ``{g}`` is written."""
AFTER = ("", "\nLIST", "\nSET PASSWORD {new}", "\nSET PASSWORD {weak}", "\nSET PW={new}", "\n设置密码 {new}",
         "\nJOIN {g} {pw} France", "\nCREATE x{n} {pw}", "\nSINGON {g} {pw}", "\nhello there", "\nA Xyz - Bur",
         "\nPRESS TO England\nhi\nENDPRESS")
CHARSETS = (("utf-8", "utf-8"), ("gb18030", "big5"), ("gb18030", "utf-8"), ("gb18030", None), ("big5", "gb2312"),
            ("gb18030", "x-unknown"), ("utf-8", "gb2312"))
"""(encoding of the body, label it is sent with: None for no label)."""


def _secret(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(n))


def _mail(frm: str, body: str, subject: str, encoding: str, label: str | None, html: bool) -> bytes:
    if html:
        body = "<html><body>" + "".join(f"<div>{line}</div>" for line in body.split("\n")) + "</body></html>"
    try:
        data = body.encode(encoding)
    except UnicodeEncodeError:         # 设置密码 has no Big5 form: the body goes in GB18030, labelled the same wrong way
        data = body.encode("gb18030")
    head = (f"From: {frm}\nTo: {mailfuzz.JUDGE}\nSubject: {subject}\nMIME-Version: 1.0\n"
            f"Content-Type: text/{'html' if html else 'plain'}" + (f'; charset="{label}"' if label else "") +
            "\nContent-Transfer-Encoding: 8bit\n\n")
    return head.encode("utf-8") + data


def mails(seed: int, count: int):
    """``count`` ``(raw mail, passwords it holds)``, the same for the same seed."""
    rng = random.Random(seed)
    people = list(mailfuzz.PLAYERS.values()) + [mailfuzz.GM, ("stranger@fuzz.test", "nopass1")]
    for i in range(count):
        address, real = rng.choice(people)
        pw = real if rng.random() < 0.5 else _secret(rng, rng.randint(4, 12))
        new, weak = _secret(rng, rng.randint(5, 10)), _secret(rng, 3)
        words = {"g": GAME, "pw": pw, "new": new, "weak": weak, "n": i}
        body = rng.choice(SHAPES).format(**words) + "".join(rng.choice(AFTER).format(**words)
                                                           for _ in range(rng.randint(0, 2)))
        subject = rng.choice(("orders", "Re: orders", "SIGNON {g} {pw}", "JOIN {g} {pw}")).format(**words)
        encoding, label = rng.choice(CHARSETS)
        raw = _mail(address, body, subject, encoding, label, html=rng.random() < 0.2)
        raw = raw.replace(b"\nMIME-Version", f"\nMessage-ID: <pw-{seed}-{i}@fuzz.test>\nMIME-Version".encode(), 1)
        yield raw, {s for s in (pw, new, weak, mailfuzz.GM[1], *(p for _, p in mailfuzz.PLAYERS.values()))
                    if s in body or s in subject}


def leaks(answer: bytes | str, secrets: set[str]) -> list[str]:
    """The passwords of ``secrets`` that ``answer`` (a raw mail the judge
    sends) holds as a word: in any text part decoded, the subject, or the raw
    bytes read as UTF-8, GB18030 or Big5."""
    raw = answer.encode("utf-8") if isinstance(answer, str) else answer
    texts = [raw.decode(c, errors="replace") for c in ("utf-8", "gb18030", "big5")]
    msg = message_from_bytes(raw, policy=policy.default)
    texts.append(str(msg.get("Subject", "")))
    for part in msg.walk() if isinstance(msg, EmailMessage) else ():
        if part.get_content_maintype() == "text":
            try:
                texts.append(part.get_content())
            except Exception:  # noqa: BLE001 - a part that cannot be decoded: its raw bytes are swept above
                pass
    found = []
    for s in secrets:
        pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(s)}(?![A-Za-z0-9])", re.IGNORECASE)
        if any(pattern.search(t) for t in texts):
            found.append(s)
    return found
