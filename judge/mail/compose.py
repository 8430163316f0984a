"""Building the judge's outgoing mails, deterministically.

The same (inbound key, purpose, recipient) always gives the same Message-ID,
so a rerun after a crash produces the same mail, which the outbox and the
maildir transport recognise as already there.

Headers of every mail: From, To (and Cc), Subject, Date, Message-ID,
``Auto-Submitted: auto-replied`` (RFC 3834), ``X-Loop: <judge address>`` (our
own loop header), and when it concerns a game ``List-Id: <game>.<domain>``
and a ``References`` chain rooted at the game's thread id, so every mail of a
game is one thread in the player's mail reader.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime

from .message import LOOP_HEADER
from .policies import DEFAULT

# 7-bit transfer encodings (base64/quoted-printable): safe for any relay
OUT_POLICY = DEFAULT.clone(cte_type="7bit", linesep="\r\n")


def message_id_for(inbound_key: str, purpose: str, recipient: str, domain: str) -> str:
    """``<hex@domain>`` from sha256 of (inbound key, purpose, recipient)."""
    digest = hashlib.sha256("\0".join((inbound_key, purpose, recipient.lower())).encode()).hexdigest()
    return f"<{digest[:40]}@{domain}>"


def game_thread_id(game: str, domain: str) -> str:
    """The Message-ID every mail of ``game`` refers to (the thread's root)."""
    return f"<game.{hashlib.sha256(game.lower().encode()).hexdigest()[:16]}@{domain}>"


def list_id(game: str, domain: str) -> str:
    """``List-Id`` value of a game: ``<name.domain>`` (name reduced to safe characters)."""
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "-" for c in game.lower())
    return f"{game} <{safe}.{domain}>"


def compose(*, sender_name: str, sender_address: str, to: list[str], cc: list[str], subject: str,
            body: str, message_id: str, now: datetime, lang: str, in_reply_to: str = "",
            references: tuple[str, ...] = (), game: str | None = None, domain: str,
            attachments: tuple[tuple[str, str, str | bytes], ...] = (), html: str | None = None,
            inline: tuple[tuple[str, str, str, bytes], ...] = ()) -> EmailMessage:
    """An outgoing UTF-8 mail (see module doc for its headers): text/plain,
    or with ``html`` multipart/alternative of the text (first, as it would be
    alone) and the HTML, which shows ``inline`` parts ``(Content-ID without
    <>, file name, MIME type such as image/png, bytes)`` by ``cid:`` (a
    multipart/related); then ``attachments`` ``(file name, MIME type such as
    image/svg+xml, text or bytes)`` if any (multipart/mixed). Boundaries
    come from the Message-ID: the same mail is the same bytes. ``now`` is
    the Date (UTC); ``in_reply_to`` the inbound Message-ID or ``""``."""
    msg = EmailMessage(policy=OUT_POLICY)
    local, _, dom = sender_address.partition("@")
    msg["From"] = Address(display_name=sender_name, username=local, domain=dom)
    msg["To"] = ", ".join(to)
    if cc:
        msg["Cc"] = ", ".join(cc)
    msg["Subject"] = subject
    msg["Date"] = format_datetime(now.astimezone(timezone.utc))
    msg["Message-ID"] = message_id
    refs = list(references)
    if game:
        refs.insert(0, game_thread_id(game, domain))
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        refs.append(in_reply_to)
    refs = list(dict.fromkeys(refs))
    if len(refs) > 10:               # keep the root and the most recent ones
        refs = refs[:1] + refs[-9:]
    if refs:
        msg["References"] = " ".join(refs)
    msg["Auto-Submitted"] = "auto-replied"
    msg[LOOP_HEADER] = sender_address
    if game:
        msg["List-Id"] = list_id(game, domain)
    msg["Content-Language"] = lang
    msg.set_content(body, charset="utf-8")
    if html is not None:
        msg.add_alternative(html, subtype="html", charset="utf-8")
        related = msg.get_payload()[1]
        for cid, filename, mimetype, data in inline:
            maintype, _, subtype = mimetype.partition("/")
            related.add_related(data, maintype=maintype, subtype=subtype, cid=f"<{cid}>",
                                disposition="inline", filename=filename)
    for filename, mimetype, data in attachments:
        maintype, _, subtype = mimetype.partition("/")
        msg.add_attachment(data.encode("utf-8") if isinstance(data, str) else data, maintype=maintype,
                           subtype=subtype, filename=filename)
    _boundaries(msg, message_id)
    return msg


def _boundaries(msg: EmailMessage, message_id: str) -> None:
    """Give every multipart of ``msg`` a boundary made from ``message_id``
    (the email package picks random ones)."""
    seed = hashlib.sha256(message_id.encode()).hexdigest()[:24]
    parts = [part for part in msg.walk() if part.is_multipart()]
    for i, part in enumerate(parts):
        part.set_boundary(f"=_judge_{seed}_{i}")
