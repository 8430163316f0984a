"""Reading an inbound mail: who sent it, is it automatic, and its text.

:func:`read_mail` turns raw bytes into an :class:`InboundMail`. It never raises
on bad input: broken MIME, unknown or wrong charsets, HTML-only bodies and
attachments become ``notes`` (stable codes the reply explains) and the best text
that can be had. Parsing uses :mod:`email` with ``policy.default``; HTML is
read with BeautifulSoup (:func:`judge.mail.quoting.html_lines`, bounded).

The text the judge reads is what the player wrote now
(:mod:`judge.mail.quoting`): ``format=flowed`` joined, a reply's quoted
original left out (note ``quoted_not_read``), an inline forward read (note
``forward_read``), a mail attached whole not read (note ``attached_mail``),
and greetings, sign-offs, signatures and taglines passed over
(:mod:`judge.mail.courtesy`, note ``passed_over``).
"""

from __future__ import annotations

import codecs
import logging
import re
from dataclasses import dataclass, field
from email.header import decode_header, make_header
from email.message import EmailMessage
from email.parser import BytesHeaderParser, BytesParser
from email.policy import compat32
from email.utils import getaddresses, parseaddr
import html as html_module
from itertools import chain

from . import courtesy
from .charset import guesses
from .limits import ReadLimits, bound_raw
from .loops import MARKER_HEADERS, automatic_reason
from .masking import line_secrets
from .quoting import MAX_HTML_TAGS, Line, html_lines, read_now, text_lines, unflow
from .policies import DEFAULT

log = logging.getLogger("judge.mail")

# charsets as labelled -> the superset that decodes what mailers really send
_CHARSET_SUPERSET = {
    "gb2312": "gb18030", "gbk": "gb18030", "x-gbk": "gb18030", "cp936": "gb18030",
    "euc-cn": "gb18030", "hz-gb-2312": "hz",
    "big5": "big5hkscs", "x-big5": "big5hkscs", "cp950": "big5hkscs",
    "us-ascii": "utf-8", "ascii": "utf-8",   # undeclared 8-bit text is usually UTF-8
}

# an own header: every mail the judge sends carries it
LOOP_HEADER = "X-Loop"


@dataclass(frozen=True)
class InboundMail:
    """A parsed inbound mail.

    ``key``: ledger key; ``sender``: lower-cased address of From (``""`` if
    none); ``reply_to``: where answers go (Reply-To, else From);
    ``message_id``: with ``<>`` or ``""``; ``references``: Message-IDs this mail
    answers; ``text``: the body the judge reads (see module doc); ``automatic``:
    why the judge must not answer (``""`` when it may); ``notes``: codes such as
    ``html_only``, ``no_text``, ``charset_unknown:x``, ``charset_wrong:x``,
    ``attachments:N``, ``attached_mail:N`` (mails attached whole, not read),
    ``quoted_not_read:N`` (lines of a quoted original), ``forward_read``,
    ``passed_over:N:LINES`` (greetings, sign-offs, signatures, taglines; up to
    three quoted), ``html_cut:N`` (tags read of a longer HTML body),
    ``broken_mime``, ``unreadable`` (only the headers could be read), and the
    limit notes of :func:`judge.mail.limits.bound_raw`;
    ``charset``: charset of the body part as declared (lower case, ``""`` if
    none); ``raw``: the bytes as received (for a DKIM check); ``secrets``:
    the words in a password's place of any line of the body or subject, the
    body decoded in each charset it may be in
    (:func:`judge.mail.masking.line_secrets`: masked in every answer).
    Addresses are checked (:func:`clean_address`): an unusable one is ``""``;
    names and the subject are on one line without control characters.
    """
    key: str
    sender: str
    sender_name: str
    reply_to: str
    subject: str
    message_id: str
    references: tuple[str, ...]
    text: str
    automatic: str
    notes: tuple[str, ...] = ()
    charset: str = ""
    recipients: tuple[str, ...] = field(default=())
    raw: bytes = field(default=b"", repr=False, compare=False)
    secrets: frozenset[str] = field(default=frozenset(), repr=False)


def decode_bytes(data: bytes, declared: str | None) -> tuple[str, list[str]]:
    """Decode body bytes labelled ``declared``; returns (text, notes).

    A missing, unknown or failing charset falls back to UTF-8, GB18030 and
    Big5-HKSCS, the one that reads most like Chinese first
    (:func:`judge.mail.charset.guesses`), then UTF-8 with replacement characters.
    """
    notes: list[str] = []
    label = _clean(declared if isinstance(declared, str) else "", 64).lower()
    candidates: list[str] = []
    if label:
        name = _CHARSET_SUPERSET.get(label, label)
        try:
            codecs.lookup(name)
            candidates.append(name)
        except (LookupError, ValueError, TypeError):     # unknown, or a NUL byte in the label
            notes.append(f"charset_unknown:{label}")
    for i, c in enumerate(chain(candidates, guesses(data, candidates))):
        try:
            text = data.decode(c)
        except (UnicodeError, LookupError, ValueError, TypeError):
            continue
        if i and label and not notes:
            notes.append(f"charset_wrong:{label}")
        return text, notes
    if label and not notes:
        notes.append(f"charset_wrong:{label}")
    return data.decode("utf-8", errors="replace"), notes


def html_to_text(html: str) -> str:
    """What the judge reads of an HTML body: its lines written now
    (:func:`judge.mail.quoting.html_lines`, :func:`~judge.mail.quoting.read_now`)."""
    return "\n".join(read_now(html_lines(html)[0]).lines).strip("\n")


def strip_quotes_and_signature(text: str, subject: str = "") -> str:
    """What the judge reads of a plain-text body: its lines written now
    (:func:`judge.mail.quoting.read_now`), without the signature."""
    return "\n".join(read_now(text_lines(text), subject).lines).strip("\n")


def _clean(text: str, limit: int = 998) -> str:
    """``text`` on one line: control characters (CR, LF, NUL ...) and runs of
    white space become one space; at most ``limit`` characters."""
    if not text.isprintable():
        text = "".join(c if c.isprintable() else " " for c in text)
    return " ".join(text.split())[:limit]


_ADDR_BAD_CHAR = re.compile(r'[<>()\[\],;:"\\ \t]')
"""A character no usable address has (outside quotes, which the judge does not take)."""


def clean_address(address: str) -> str:
    """``address`` in lower case if it is a usable mail address (``local@domain``,
    both parts present, no white space, control or special characters, no
    empty domain label), else ``""``."""
    addr = address.strip().strip("<>").lower()
    local, at, domain = addr.rpartition("@")
    if not (local and at and domain) or len(addr) > 254 or len(local) > 64:
        return ""
    if not addr.isprintable() or _ADDR_BAD_CHAR.search(addr) or "@" in local:
        return ""
    if any(not label for label in domain.split(".")) or domain.startswith("-"):
        return ""
    return addr


def _unescaped(value: str) -> str:
    """A raw header value as parsed from bytes (8-bit bytes kept as surrogate
    escapes) with those bytes read as UTF-8 (headers of real mail are, RFC 6532)."""
    try:
        value.encode("ascii")
        return value
    except UnicodeEncodeError:
        return value.encode("ascii", "surrogateescape").decode("utf-8", "replace") \
            if any("\udc80" <= c <= "\udcff" for c in value) else value
    except Exception:  # noqa: BLE001
        return value


def _decoded(value: str) -> str:
    """A raw header value with its RFC 2047 encoded words decoded, on one line."""
    try:
        value = str(make_header(decode_header(value)))
    except Exception:  # noqa: BLE001 - a broken encoded word: keep it as written
        pass
    return _clean(value)


_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
PLAIN_ADDR = rf"{_ATOM}(?:\.{_ATOM})*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*"
"""``local@domain`` of dot-atoms (RFC 5322 ``atext``): an address every mail parser reads as written."""
_PLAIN_ADDRESS = re.compile(rf"(?:((?:{_ATOM} )*{_ATOM}) )?<({PLAIN_ADDR})>|({PLAIN_ADDR})")
"""``addr``, ``<addr>`` or ``Some Words <addr>``: atoms and dot-atoms only."""


def _plain_address(value: str) -> tuple[str, str] | None:
    """``(display name, address)`` of a header value written plainly (see
    :data:`_PLAIN_ADDRESS`; white space already made single), as
    :func:`email.utils.parseaddr` reads it — without its parser, a tenth of
    the reading of an order mail (issue 23); else None."""
    m = _PLAIN_ADDRESS.fullmatch(value)
    if m is None:
        return None
    return (m[1] or "", m[2]) if m[2] else ("", m[3])


def parse_address(value: str) -> tuple[str, str]:
    """:func:`email.utils.parseaddr` of ``value`` (white space made single),
    a plain one read without the parser (:func:`_plain_address`)."""
    return _plain_address(value) or parseaddr(value)


class _Headers:
    """The raw header values of a message by lower-case name; never raises
    (the parsed header objects of :mod:`email` raise on bad addresses)."""

    def __init__(self, msg: EmailMessage):
        self.values: dict[str, list[str]] = {}
        try:
            for name, value in msg.raw_items():
                self.values.setdefault(str(name).strip().lower(), []).append(_unescaped(str(value)))
        except Exception:  # noqa: BLE001
            pass

    def get(self, name: str) -> list[str]:
        return self.values.get(name.lower(), [])

    def first(self, name: str) -> str:
        """The first value of ``name``, decoded, on one line (``""`` if absent)."""
        values = self.get(name)
        return _decoded(values[0]) if values else ""

    def address(self, name: str) -> tuple[str, str]:
        """``(display name, checked address)`` of the first address in ``name``."""
        values = self.get(name)
        if not values:
            return "", ""
        try:
            display, addr = parse_address(" ".join(values[0].split()))
        except Exception:  # noqa: BLE001
            return "", ""
        return _decoded(display), clean_address(addr)

    def message_ids(self, name: str) -> tuple[str, ...]:
        """The ``<...>`` Message-IDs in ``name`` (at most the last 20)."""
        found = re.findall(r"<[^<>\s\x00-\x1f\x7f]{1,250}>", " ".join(self.get(name)))
        return tuple(found[-20:])


@dataclass
class _Body:
    """The body part the judge reads: its lines, notes, declared charset and
    bytes (decoded again in other charsets for :func:`_secrets`)."""
    lines: list[Line]
    notes: list[str]
    charset: str = ""
    data: bytes = b""
    html: bool = False


def _body(msg: EmailMessage) -> _Body:
    part, notes = _text_part(msg)
    if part is None:
        notes.append("no_text")
        return _Body([], notes)
    try:
        data = part.get_payload(decode=True) or b""
    except Exception:  # noqa: BLE001
        data, notes = b"", notes + ["broken_mime"]
    if not isinstance(data, bytes):
        data = b""
    params = _Params(part)
    charset = params.get("charset")
    text, cs_notes = decode_bytes(data, charset)
    notes += cs_notes
    html = _subtype(part) == "html"
    if html:
        notes.append("html_only")
        try:
            lines, cut = html_lines(text)
            if cut:
                notes.append(f"html_cut:{MAX_HTML_TAGS}")
        except Exception:  # noqa: BLE001 - whatever the HTML, the judge reads what it can
            lines = []
            notes.append("broken_mime")
    else:
        if params.get("format") == "flowed":            # RFC 3676
            text = unflow(text, delsp=params.get("delsp") == "yes")
        lines = text_lines(text)
    if msg.defects or part.defects:
        if "broken_mime" not in notes:
            notes.append("broken_mime")
    return _Body(lines, notes, charset, data, html)


def _text_part(msg: EmailMessage) -> tuple[EmailMessage | None, list[str]]:
    """The part of ``msg`` the judge reads (the plain text, else the HTML, else
    a one-part mail of another text type) and the notes on the others."""
    if not msg.is_multipart():          # one part: itself if it is text (as the walk reads it)
        try:
            return (msg if msg.get_content_maintype() == "text" else None), []
        except Exception:  # noqa: BLE001 - the walk says what is wrong
            pass
    return _walked_text_part(msg)


def _walked_text_part(msg: EmailMessage) -> tuple[EmailMessage | None, list[str]]:
    """:func:`_text_part` by the email package's walk (``get_body``, the
    attachments), with a one-part mail of another text type as the fallback."""
    notes: list[str] = []
    try:
        part = msg.get_body(preferencelist=("plain", "html"))
    except Exception:  # noqa: BLE001 - broken MIME structure
        part, notes = None, ["broken_mime"]
    attachments = mails = 0
    try:
        for a in (msg.iter_attachments() if msg.is_multipart() else ()):
            if a.get_content_type() == "message/rfc822":
                mails += 1            # a mail attached whole: not read (issue 18)
            else:
                attachments += 1
    except Exception:  # noqa: BLE001
        notes.append("broken_mime")
    try:
        if part is None and not msg.is_multipart() and msg.get_content_maintype() == "text":
            part = msg  # e.g. text/enriched: read it as plain text
    except Exception:  # noqa: BLE001
        notes.append("broken_mime")
    if attachments:
        notes.append(f"attachments:{attachments}")
    if mails:
        notes.append(f"attached_mail:{mails}")
    return part, notes


class _Params:
    """The ``Content-Type`` parameters of a part, read once: ``get(name)``
    is ``part.get_param(name)`` as text (RFC 2231 values decoded; cleaned,
    lower case; ``""`` when missing or unreadable)."""

    def __init__(self, part):
        self.values: dict[str, object] = {}
        try:
            for k, v in part.get_params() or ():     # get_param's answer: the first of each name
                self.values.setdefault(str(k).lower(), v)
        except Exception:  # noqa: BLE001 - every get_param would fail the same way: all ""
            self.values = {}

    def get(self, name: str) -> str:
        value = self.values.get(name)
        if isinstance(value, tuple):           # RFC 2231: (charset, language, value)
            value = value[2]
        return _clean(str(value or ""), 64).lower()


MAX_QUOTED_PASSED = 3
"""Lines passed over quoted in the ``passed_over`` note (the rest counted)."""


def _reading(body: _Body, subject: str) -> tuple[str, list[str]]:
    """The text written now of ``body`` and the notes on what was not read."""
    reading = read_now(body.lines, subject)
    kept, passed = courtesy.pass_over(list(reading.lines))
    passed += list(reading.signature)
    notes = []
    if reading.forwarded:
        notes.append("forward_read")
    if reading.quoted:
        notes.append(f"quoted_not_read:{reading.quoted}")
    if passed:
        shown = " | ".join(_clean(x, 60) for x in passed[:MAX_QUOTED_PASSED])
        notes.append(f"passed_over:{len(passed)}:{shown}")
    return "\n".join(kept).strip("\n"), notes


_TAGS = re.compile(r"<[^<>]{0,2000}>")


def _secrets(body: _Body, subject: str) -> frozenset[str]:
    """The words in a password's place (:func:`line_secrets`) of the subject
    and of every line of the body decoded as declared and as UTF-8, GB18030
    and Big5-HKSCS: a mail read in the wrong charset still has its password
    known, so that it is masked wherever the answer quotes it."""
    found = set(line_secrets(subject))
    label = _CHARSET_SUPERSET.get(body.charset, body.charset)
    lines: dict[str, None] = {}           # each line read once: most lines decode alike in every charset
    for charset in dict.fromkeys((label, "utf-8", "gb18030", "big5hkscs")):
        try:
            text = body.data.decode(charset, errors="replace")
        except (LookupError, ValueError, TypeError):
            continue
        if body.html:
            text = html_module.unescape(_TAGS.sub("\n", text))
        lines.update(dict.fromkeys(text.splitlines()))
    for line in lines:
        found |= line_secrets(line)
    return frozenset(found)


def _subtype(part) -> str:
    try:
        return part.get_content_subtype()
    except Exception:  # noqa: BLE001
        return "plain"


def read_mail(raw: bytes, key: str, own_address: str, envelope_from: str | None = None,
              limits: ReadLimits = ReadLimits(), markers: tuple[str, ...] = MARKER_HEADERS) -> InboundMail:
    """Parse ``raw`` (see :class:`InboundMail`). Never raises: whatever the
    bytes, the result names a sender to answer if one can be found, the text
    that could be read, and notes saying what could not. ``limits`` bound the
    bytes and the MIME structure read (:func:`judge.mail.limits.bound_raw`);
    ``markers``: other judges' header names (:mod:`judge.mail.loops`)."""
    try:
        return _read(raw, key, own_address, envelope_from, limits, markers)
    except Exception:  # noqa: BLE001 - RecursionError, MemoryError on a hostile structure...
        log.warning("mail %s: could not be parsed; answered from its headers only", key, exc_info=True)
        return _headers_only(raw, key, own_address, envelope_from, markers)


class _Message(EmailMessage):
    """A part as the compat32 parser makes it, whose ``is_attachment`` reads
    its raw ``Content-Disposition`` (EmailMessage's asks it for a header
    object, which compat32 does not make: every part with that header raised,
    so a text part marked ``inline``, as Mutt and others send, left the mail
    unread)."""

    def is_attachment(self) -> bool:
        return self.get_content_disposition() == "attachment"


_PARSER = BytesParser(_Message, policy=compat32)
"""The structure parsed with the raw header values kept as strings: the
headers are read from their raw values (:class:`_Headers`) and the MIME
walk (``get_body``, ``get_content_type``, ``get_param``) reads them as
strings; ``policy.default`` made a parsed header object at every look (about
7 % of an order mail's CPU in py-spy's samples, issue 23). The walk is the
same, with :class:`_Message`'s ``is_attachment`` (tests/test_mail_message.py)."""


def _read(raw, key, own_address, envelope_from, limits, markers) -> InboundMail:
    bounded, limit_notes = bound_raw(raw, limits)
    msg = _PARSER.parsebytes(bounded)
    heads = _Headers(msg)
    name, sender = heads.address("From")
    _, reply_addr = heads.address("Reply-To")
    subject = heads.first("Subject")
    body = _body(msg)
    text, reading_notes = _reading(body, subject)
    notes = body.notes + reading_notes
    try:
        content_type = msg.get_content_type()
    except Exception:  # noqa: BLE001
        content_type = "text/plain"
    return InboundMail(
        key=key, sender=sender, sender_name=name, reply_to=reply_addr or sender, subject=subject,
        message_id=(heads.message_ids("Message-ID") or ("",))[0],
        references=tuple(dict.fromkeys(heads.message_ids("References") + heads.message_ids("In-Reply-To"))),
        text=text,
        automatic=automatic_reason(heads.get, own_address, sender, reply_addr, envelope_from, content_type,
                                   subject, markers),
        notes=tuple(dict.fromkeys(limit_notes + notes)),
        charset=body.charset,
        recipients=_recipients(heads),
        raw=raw,
        secrets=_secrets(body, subject),
    )


def _recipients(heads: _Headers) -> tuple[str, ...]:
    values = heads.get("To") + heads.get("Cc")
    try:
        values = [" ".join(v.split()) for v in values]
        plain = [_plain_address(v) for v in values]
        pairs = plain if all(plain) else getaddresses(values)
    except Exception:  # noqa: BLE001
        return ()
    return tuple(dict.fromkeys(a for a in (clean_address(addr) for _, addr in pairs[:100]) if a))


def _headers_only(raw: bytes, key: str, own_address: str, envelope_from: str | None,
                  markers: tuple[str, ...]) -> InboundMail:
    """The mail read from its header block alone (its body could not be parsed)."""
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0][:65536]
    try:
        heads = _Headers(BytesHeaderParser(policy=DEFAULT).parsebytes(head))
    except Exception:  # noqa: BLE001
        heads = _Headers(EmailMessage())
    name, sender = heads.address("From")
    _, reply_addr = heads.address("Reply-To")
    subject = heads.first("Subject")
    return InboundMail(
        key=key, sender=sender, sender_name=name, reply_to=reply_addr or sender, subject=subject,
        message_id=(heads.message_ids("Message-ID") or ("",))[0], references=heads.message_ids("References"),
        text="", automatic=automatic_reason(heads.get, own_address, sender, reply_addr, envelope_from,
                                            "text/plain", subject, markers),
        notes=("unreadable",), raw=raw)
