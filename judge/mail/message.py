"""Reading an inbound mail: who sent it, is it automatic, and its text.

:func:`read_mail` turns raw bytes into an :class:`InboundMail`. It never raises
on bad input: broken MIME, unknown or wrong charsets, HTML-only bodies and
attachments become ``notes`` (stable codes the reply explains) and the best text
that can be had. Parsing uses :mod:`email` with ``policy.default``; HTML is
converted with the standard library's :mod:`html.parser` tokenizer (never
regular expressions; no tree, whose building is quadratic on hostile HTML).

The text the judge reads has quoted reply lines (``>``), the attribution line
before them ("On ... wrote:"), and everything after a signature separator
(``-- ``) or a forwarded/original-message marker removed.
"""

from __future__ import annotations

import codecs
import logging
import re
from dataclasses import dataclass, field
from email import policy
from email.header import decode_header, make_header
from email.message import EmailMessage
from email.parser import BytesHeaderParser, BytesParser
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser
from itertools import chain

from .charset import guesses
from .limits import ReadLimits, bound_raw
from .loops import MARKER_HEADERS, automatic_reason

log = logging.getLogger("judge.mail")

# charsets as labelled -> the superset that decodes what mailers really send
_CHARSET_SUPERSET = {
    "gb2312": "gb18030", "gbk": "gb18030", "x-gbk": "gb18030", "cp936": "gb18030",
    "euc-cn": "gb18030", "hz-gb-2312": "hz",
    "big5": "big5hkscs", "x-big5": "big5hkscs", "cp950": "big5hkscs",
    "us-ascii": "utf-8", "ascii": "utf-8",   # undeclared 8-bit text is usually UTF-8
}

_BLOCK_TAGS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre",
               "table", "ul", "ol", "hr", "section", "article", "header", "footer"}
_END_MARKERS = ("-----original message-----", "-------- original message --------",
                "---------- forwarded message ----------", "-----原始邮件-----", "-----原始郵件-----")
_ATTRIBUTION_ENDS = ("wrote:", "写道：", "寫道：", "写道:", "寫道:")

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
    ``attachments:N``, ``broken_mime``, ``unreadable`` (only the headers could
    be read), and the limit notes of :func:`judge.mail.limits.bound_raw`;
    ``charset``: charset of the body part as declared (lower case, ``""`` if
    none); ``raw``: the bytes as received (for a DKIM check).
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


class _TextOfHtml(HTMLParser):
    """The visible text of HTML in one pass of the standard library's
    tokenizer, with no tree (a tree builder walks its stack of open tags for
    every end tag: quadratic on a mail of thousands of unclosed tags)."""

    _SKIP_TAGS = {"script", "style", "head", "title", "blockquote"}
    _SKIP_CLASSES = {"gmail_quote", "gmail_signature", "moz-cite-prefix"}
    _SKIP_IDS = {"divRplyFwdMsg", "appendonsend"}
    _VOID = {"br", "hr", "img", "meta", "link", "input", "area", "base", "col", "embed", "source", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skipping: list[str] = []          # the open tags of a skipped element (quote, script...)

    def _skips(self, tag: str, attrs) -> bool:
        found = dict(attrs)
        classes = set((found.get("class") or "").split())
        return tag in self._SKIP_TAGS or bool(classes & self._SKIP_CLASSES) or found.get("id") in self._SKIP_IDS

    def handle_starttag(self, tag, attrs):
        if tag in _BLOCK_TAGS:
            self.out.append("\n")
        if self.skipping:
            if tag not in self._VOID and len(self.skipping) < 200:     # bounded: each end tag looks at it
                self.skipping.append(tag)
        elif tag not in self._VOID and self._skips(tag, attrs):
            self.skipping.append(tag)

    def handle_startendtag(self, tag, attrs):
        if tag in _BLOCK_TAGS:
            self.out.append("\n")

    def handle_endtag(self, tag):
        if self.skipping:
            if tag in self.skipping:           # close up to it (unclosed tags inside are forgiven)
                while self.skipping and self.skipping.pop() != tag:
                    pass
            return
        if tag in _BLOCK_TAGS:
            self.out.append("\n")

    def handle_data(self, data):
        if not self.skipping:
            self.out.append(data)


def html_to_text(html: str) -> str:
    """Visible text of an HTML body, one block element per line; quoted parts
    (``<blockquote>``, Gmail/Outlook quote containers), scripts and styles
    removed. Linear in the size of ``html`` (:class:`_TextOfHtml`)."""
    parser = _TextOfHtml()
    try:
        parser.feed(html)
        parser.close()
    except Exception:  # noqa: BLE001 - the tokenizer keeps what it read so far
        pass
    lines = [" ".join(line.replace("\xa0", " ").split()) for line in "".join(parser.out).splitlines()]
    return "\n".join(lines).strip("\n")


def strip_quotes_and_signature(text: str) -> str:
    """Drop quoted lines (``>``), their attribution line, and everything from a
    signature separator (``-- ``) or an original/forwarded-message marker on."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    for line in lines:
        bare = line.strip()
        if line.rstrip() == "--" or bare.lower() in _END_MARKERS:
            break
        if bare.startswith(">"):
            # the attribution line ("On ... wrote:") just before a quote goes too
            while kept and not kept[-1].strip():
                kept.pop()
            if kept and kept[-1].strip().lower().endswith(_ATTRIBUTION_ENDS):
                kept.pop()
            continue
        kept.append(line.rstrip())
    return "\n".join(kept).strip("\n")


def _clean(text: str, limit: int = 998) -> str:
    """``text`` on one line: control characters (CR, LF, NUL ...) and runs of
    white space become one space; at most ``limit`` characters."""
    if not text.isprintable():
        text = "".join(c if c.isprintable() else " " for c in text)
    return " ".join(text.split())[:limit]


_ADDR_BAD = set('<>()[],;:"\\') | {" ", "\t"}


def clean_address(address: str) -> str:
    """``address`` in lower case if it is a usable mail address (``local@domain``,
    both parts present, no white space, control or special characters, no
    empty domain label), else ``""``."""
    addr = address.strip().strip("<>").lower()
    local, at, domain = addr.rpartition("@")
    if not (local and at and domain) or len(addr) > 254 or len(local) > 64:
        return ""
    if not addr.isprintable() or any(c in _ADDR_BAD for c in addr) or "@" in local:
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
            display, addr = parseaddr(" ".join(values[0].split()))
        except Exception:  # noqa: BLE001
            return "", ""
        return _decoded(display), clean_address(addr)

    def message_ids(self, name: str) -> tuple[str, ...]:
        """The ``<...>`` Message-IDs in ``name`` (at most the last 20)."""
        found = re.findall(r"<[^<>\s\x00-\x1f\x7f]{1,250}>", " ".join(self.get(name)))
        return tuple(found[-20:])


def _body(msg: EmailMessage) -> tuple[str, list[str], str]:
    """``(text, notes, declared charset)`` of the body part the judge reads."""
    notes: list[str] = []
    try:
        part = msg.get_body(preferencelist=("plain", "html"))
    except Exception:  # noqa: BLE001 - broken MIME structure
        part, notes = None, ["broken_mime"]
    attachments = 0
    try:
        attachments = sum(1 for _ in msg.iter_attachments()) if msg.is_multipart() else 0
    except Exception:  # noqa: BLE001
        notes.append("broken_mime")
    try:
        if part is None and not msg.is_multipart() and msg.get_content_maintype() == "text":
            part = msg  # e.g. text/enriched: read it as plain text
    except Exception:  # noqa: BLE001
        notes.append("broken_mime")
    if attachments:
        notes.append(f"attachments:{attachments}")
    if part is None:
        notes.append("no_text")
        return "", notes, ""
    try:
        data = part.get_payload(decode=True) or b""
    except Exception:  # noqa: BLE001
        data, notes = b"", notes + ["broken_mime"]
    if not isinstance(data, bytes):
        data = b""
    charset = _charset_label(part)
    text, cs_notes = decode_bytes(data, charset)
    notes += cs_notes
    if _subtype(part) == "html":
        notes.append("html_only")
        try:
            text = html_to_text(text)
        except Exception:  # noqa: BLE001 - whatever the HTML, the judge reads what it can
            notes.append("broken_mime")
    if msg.defects or part.defects:
        if "broken_mime" not in notes:
            notes.append("broken_mime")
    return text, notes, charset


def _charset_label(part) -> str:
    """The charset a part declares, as text (RFC 2231 values decoded), or ``""``."""
    try:
        value = part.get_param("charset")
        if isinstance(value, tuple):           # RFC 2231: (charset, language, value)
            value = value[2]
    except Exception:  # noqa: BLE001
        return ""
    return _clean(str(value or ""), 64).lower()


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


def _read(raw, key, own_address, envelope_from, limits, markers) -> InboundMail:
    bounded, limit_notes = bound_raw(raw, limits)
    msg = BytesParser(policy=policy.default).parsebytes(bounded)
    heads = _Headers(msg)
    name, sender = heads.address("From")
    _, reply_addr = heads.address("Reply-To")
    subject = heads.first("Subject")
    text, notes, charset = _body(msg)
    try:
        content_type = msg.get_content_type()
    except Exception:  # noqa: BLE001
        content_type = "text/plain"
    return InboundMail(
        key=key, sender=sender, sender_name=name, reply_to=reply_addr or sender, subject=subject,
        message_id=(heads.message_ids("Message-ID") or ("",))[0],
        references=tuple(dict.fromkeys(heads.message_ids("References") + heads.message_ids("In-Reply-To"))),
        text=strip_quotes_and_signature(text),
        automatic=automatic_reason(heads.get, own_address, sender, reply_addr, envelope_from, content_type,
                                   subject, markers),
        notes=tuple(dict.fromkeys(limit_notes + notes)),
        charset=charset,
        recipients=_recipients(heads),
        raw=raw,
    )


def _recipients(heads: _Headers) -> tuple[str, ...]:
    values = heads.get("To") + heads.get("Cc")
    try:
        pairs = getaddresses([" ".join(v.split()) for v in values])
    except Exception:  # noqa: BLE001
        return ()
    return tuple(dict.fromkeys(a for a in (clean_address(addr) for _, addr in pairs[:100]) if a))


def _headers_only(raw: bytes, key: str, own_address: str, envelope_from: str | None,
                  markers: tuple[str, ...]) -> InboundMail:
    """The mail read from its header block alone (its body could not be parsed)."""
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0][:65536]
    try:
        heads = _Headers(BytesHeaderParser(policy=policy.default).parsebytes(head))
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
