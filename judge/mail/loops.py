"""Mail the judge must not answer: RFC 3834 (automatic responses) and common
practice, so two robots never answer each other for ever.

:func:`automatic_reason` looks at the headers only and names the reason
(a stable code, kept in the ledger and logged):

``own-mail``       From or ``X-Loop`` is the judge itself
``judge-mail``     another judge's marker header (njudge's, DPjudge's; any letter case)
``auto-submitted`` ``Auto-Submitted`` other than ``no`` (RFC 3834 §5)
``precedence``     ``Precedence: bulk|list|junk|auto_reply``
``mailing-list``   ``List-Id``/``List-Unsubscribe``/``List-Post``
``auto-reply``     ``X-Autoreply`` and the like, or an auto-reply subject in English
                   or Chinese ("Out of Office:", "Automatic reply:", 自动回复, 自動回覆 ...)
``auto-suppress``  ``X-Auto-Response-Suppress`` (Microsoft's: do not answer automatically)
``noreply``        a ``noreply``-style sender (noreply@, no-reply@, donotreply@ ...)
``bounce``         empty envelope sender or ``Return-Path: <>``, MAILER-DAEMON,
                   postmaster, bounces+...@, or a multipart/report
``no-sender``      no address to answer
"""

from __future__ import annotations

import re
import unicodedata

from ..config import Senders

MARKER_HEADERS = tuple(Senders().loop_headers)
"""Headers other judges put on their mail (a judge answering a judge would
loop); ``[senders] loop_headers`` in the config."""

_PRECEDENCE_AUTO = {"bulk", "list", "junk", "auto_reply"}
_LIST_HEADERS = ("list-id", "list-unsubscribe", "list-post")
_AUTO_HEADERS = ("x-autoreply", "x-autorespond", "x-autoresponder", "x-autoreply-from", "x-mail-autoreply")
_BOUNCE_LOCALPARTS = {"mailer-daemon", "postmaster", "mailerdaemon"}
_NOREPLY = re.compile(r"^(no|do[-_.]?not|dont)[-_.]?reply|^noreply|[-_.]noreply$|^no[-_.]?response$")
_BOUNCES = re.compile(r"^bounces?([-+=_.].*)?$")
# the first words of an auto-reply's subject ("Out of Office: Re: orders"); compared in lower case
_AUTO_SUBJECTS = (
    "out of office", "out of the office", "automatic reply", "auto reply", "auto-reply", "autoreply",
    "auto response", "auto-response", "autoresponse", "automatic response", "auto:", "away from the office",
    "vacation reply", "abwesenheitsnotiz", "réponse automatique", "respuesta automática",
    "自动回复", "自動回覆", "自動回復", "自动答复", "自動答覆", "自动应答", "自動應答", "休假自动回复",
    "不在办公室", "不在辦公室", "外出自动回复", "外出自動回覆",
)
_BRACKETS = "[(【「［（"


def auto_reply_subject(subject: str) -> bool:
    """Whether ``subject`` is one an auto-responder writes (see module doc):
    it opens with one of the phrases, followed by nothing, a colon or a
    bracket ("Out of Office: Re: orders", not "Out of office next week")."""
    text = unicodedata.normalize("NFKC", subject).strip().lower().lstrip(_BRACKETS).strip()
    for start in _AUTO_SUBJECTS:
        if text.startswith(start):
            rest = text[len(start):].lstrip()
            if start.endswith(":") or not start.isascii() or not rest or rest[0] in ":：-–—[(（【" \
                    or rest.startswith(("autoreply", "auto reply", "re:")):
                return True
    return False


def noreply_sender(address: str) -> bool:
    """Whether ``address`` is a noreply-style robot (noreply@, no-reply@, donotreply@, ...)."""
    local = address.partition("@")[0].lower()
    return bool(_NOREPLY.search(local))


def automatic_reason(get, own_address: str, sender: str, reply_to: str, envelope_from: str | None,
                     content_type: str, subject: str, markers=MARKER_HEADERS) -> str:
    """Why a mail must not be answered (see module doc), or ``""``.

    ``get(name)``: the mail's values of header ``name`` (a list of str, any
    letter case of the name); ``sender``/``reply_to``: the checked addresses of
    From and Reply-To (``""`` when absent or unusable); ``content_type``: of
    the whole mail (lower case); ``markers``: other judges' header names."""
    own = own_address.lower()
    loops = [v.lower() for v in get("X-Loop")]
    if sender == own or any(own in v for v in loops):
        return "own-mail"
    if any(get(h) for h in markers):
        return "judge-mail"
    auto = " ".join(get("Auto-Submitted")).strip().lower()
    if auto and not auto.startswith("no"):
        return "auto-submitted"
    if any(v.strip().lower() in _PRECEDENCE_AUTO for v in get("Precedence")):
        return "precedence"
    if any(get(h) for h in _LIST_HEADERS):
        return "mailing-list"
    if any(get(h) for h in _AUTO_HEADERS) or auto_reply_subject(subject):
        return "auto-reply"
    if get("X-Auto-Response-Suppress"):
        return "auto-suppress"
    if envelope_from is not None and envelope_from.strip("<> ") == "":
        return "bounce"
    if any(v.strip() == "<>" for v in get("Return-Path")):
        return "bounce"
    local = sender.partition("@")[0]
    if local in _BOUNCE_LOCALPARTS or _BOUNCES.match(local) or content_type == "multipart/report":
        return "bounce"
    if not sender and not reply_to:
        return "no-sender"
    if noreply_sender(sender) or (reply_to and noreply_sender(reply_to)):
        return "noreply"
    return ""
