"""Reading an inbound mail: who sent it, is it automatic, and its text.

:func:`read_mail` turns raw bytes into an :class:`InboundMail`. It never raises
on bad input: broken MIME, unknown or wrong charsets, HTML-only bodies and
attachments become ``notes`` (stable codes the reply explains) and the best text
that can be had. Parsing uses :mod:`email` with ``policy.default``; HTML is
converted with BeautifulSoup (never regular expressions).

The text the judge reads has quoted reply lines (``>``), the attribution line
before them ("On ... wrote:"), and everything after a signature separator
(``-- ``) or a forwarded/original-message marker removed.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr
from itertools import chain

from bs4 import BeautifulSoup

from .charset import guesses

# charsets as labelled -> the superset that decodes what mailers really send
_CHARSET_SUPERSET = {
    "gb2312": "gb18030", "gbk": "gb18030", "x-gbk": "gb18030", "cp936": "gb18030",
    "euc-cn": "gb18030", "hz-gb-2312": "hz",
    "big5": "big5hkscs", "x-big5": "big5hkscs", "cp950": "big5hkscs",
    "us-ascii": "utf-8", "ascii": "utf-8",   # undeclared 8-bit text is usually UTF-8
}

_PRECEDENCE_AUTO = {"bulk", "list", "junk", "auto_reply"}
_LIST_HEADERS = ("List-Id", "List-Unsubscribe", "List-Post")
_AUTO_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Autoresponder")
_BOUNCE_LOCALPARTS = {"mailer-daemon", "postmaster"}
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
    ``attachments:N``, ``broken_mime``; ``charset``: charset of the body part as
    declared (lower case, ``""`` if none).
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


def decode_bytes(data: bytes, declared: str | None) -> tuple[str, list[str]]:
    """Decode body bytes labelled ``declared``; returns (text, notes).

    A missing, unknown or failing charset falls back to UTF-8, GB18030 and
    Big5-HKSCS, the one that reads most like Chinese first
    (:func:`judge.mail.charset.guesses`), then UTF-8 with replacement characters.
    """
    notes: list[str] = []
    label = (declared or "").strip().lower()
    candidates: list[str] = []
    if label:
        name = _CHARSET_SUPERSET.get(label, label)
        try:
            codecs.lookup(name)
            candidates.append(name)
        except LookupError:
            notes.append(f"charset_unknown:{label}")
    for i, c in enumerate(chain(candidates, guesses(data, candidates))):
        try:
            text = data.decode(c)
        except (UnicodeDecodeError, LookupError):
            continue
        if i and label and not notes:
            notes.append(f"charset_wrong:{label}")
        return text, notes
    if label and not notes:
        notes.append(f"charset_wrong:{label}")
    return data.decode("utf-8", errors="replace"), notes


def html_to_text(html: str) -> str:
    """Visible text of an HTML body, one block element per line; quoted parts
    (``<blockquote>``, Gmail/Outlook quote containers), scripts and styles removed."""
    soup = BeautifulSoup(html, "html.parser")
    for tag in soup.find_all(["script", "style", "head", "title", "blockquote"]):
        tag.decompose()
    for tag in soup.find_all(class_=["gmail_quote", "gmail_signature", "moz-cite-prefix"]):
        tag.decompose()
    for tag in soup.find_all(id=["divRplyFwdMsg", "appendonsend"]):
        tag.decompose()
    for tag in soup.find_all(_BLOCK_TAGS):
        if tag.name == "br":
            tag.replace_with("\n")
        else:
            tag.insert_before("\n")
            tag.insert_after("\n")
    lines = [" ".join(line.replace("\xa0", " ").split()) for line in soup.get_text().splitlines()]
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


def automatic_reason(msg: EmailMessage, own_address: str, envelope_from: str | None = None) -> str:
    """Why ``msg`` must not be answered (RFC 3834 and common practice), or ``""``.

    Reasons: ``own-mail`` (From or X-Loop is the judge), ``auto-submitted``,
    ``precedence``, ``mailing-list``, ``auto-reply``, ``no-sender`` (no address
    to answer), ``bounce`` (empty envelope sender, MAILER-DAEMON/postmaster, or a
    multipart/report).
    """
    own = own_address.lower()
    sender = parseaddr(str(msg.get("From", "")))[1].lower()
    loops = [str(v).lower() for v in msg.get_all(LOOP_HEADER, [])]
    if sender == own or any(own in v for v in loops):
        return "own-mail"
    auto = str(msg.get("Auto-Submitted", "")).strip().lower()
    if auto and not auto.startswith("no"):
        return "auto-submitted"
    if str(msg.get("Precedence", "")).strip().lower() in _PRECEDENCE_AUTO:
        return "precedence"
    if any(msg.get(h) is not None for h in _LIST_HEADERS):
        return "mailing-list"
    if any(msg.get(h) is not None for h in _AUTO_HEADERS):
        return "auto-reply"
    if envelope_from is not None and envelope_from.strip("<> ") == "":
        return "bounce"
    if str(msg.get("Return-Path", "x")).strip() == "<>":
        return "bounce"
    if "@" not in sender and "@" not in parseaddr(str(msg.get("Reply-To", "")))[1]:
        return "no-sender"
    if sender.partition("@")[0] in _BOUNCE_LOCALPARTS:
        return "bounce"
    if msg.get_content_type() == "multipart/report":
        return "bounce"
    return ""


def _header(msg: EmailMessage, name: str) -> str:
    try:
        value = msg.get(name)
    except Exception:  # noqa: BLE001 - a header the parser cannot model
        return ""
    return " ".join(str(value).split()) if value is not None else ""


def _body(msg: EmailMessage) -> tuple[str, list[str]]:
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
    if part is None and not msg.is_multipart() and msg.get_content_maintype() == "text":
        part = msg  # e.g. text/enriched: read it as plain text
    if attachments:
        notes.append(f"attachments:{attachments}")
    if part is None:
        notes.append("no_text")
        return "", notes
    try:
        data = part.get_payload(decode=True) or b""
    except Exception:  # noqa: BLE001
        data, notes = b"", notes + ["broken_mime"]
    text, cs_notes = decode_bytes(data, part.get_param("charset"))
    notes += cs_notes
    if part.get_content_subtype() == "html":
        notes.append("html_only")
        text = html_to_text(text)
    if msg.defects or part.defects:
        if "broken_mime" not in notes:
            notes.append("broken_mime")
    return text, notes


def read_mail(raw: bytes, key: str, own_address: str, envelope_from: str | None = None) -> InboundMail:
    """Parse ``raw`` (never raises; see :class:`InboundMail`)."""
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    name, sender = parseaddr(_header(msg, "From"))
    reply_name, reply_addr = parseaddr(_header(msg, "Reply-To"))
    refs = tuple(_header(msg, "References").split()) + tuple(_header(msg, "In-Reply-To").split())
    text, notes = _body(msg)
    charset = ""
    try:
        body = msg.get_body(preferencelist=("plain", "html"))
        charset = (body.get_param("charset") or "").lower() if body is not None else ""
    except Exception:  # noqa: BLE001
        pass
    recipients = tuple(a.lower() for _, a in getaddresses([_header(msg, "To"), _header(msg, "Cc")]) if a)
    return InboundMail(
        key=key,
        sender=sender.lower() if "@" in sender else "",
        sender_name=name,
        reply_to=(reply_addr if "@" in reply_addr else sender).lower(),
        subject=_header(msg, "Subject"),
        message_id=_header(msg, "Message-ID"),
        references=tuple(dict.fromkeys(refs)),
        text=strip_quotes_and_signature(text),
        automatic=automatic_reason(msg, own_address, envelope_from),
        notes=tuple(dict.fromkeys(notes)),
        charset=charset,
        recipients=recipients,
    )
