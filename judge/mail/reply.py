"""What a mail handler answers: the :class:`Reply` mails it asks for, or
:class:`Unanswered`; and the :class:`CommandHandler` interface the worker
calls (:mod:`judge.mail.worker`). The handler must not send mail or write
anything itself; the worker commits its staged writes, the ledger entry and
the replies together."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from .message import InboundMail


@dataclass(frozen=True)
class Reply:
    """A mail a handler asks for. ``purpose`` (with the inbound key and the first
    recipient) makes the Message-ID, so it must differ between the replies to one
    mail; ``template`` is rendered in ``lang`` with ``context``; ``game`` threads
    the mail in that game's thread; ``in_reply``: it answers the inbound mail;
    ``attachments``: ``(file name, MIME type, text or bytes)`` each, or a
    :class:`~judge.mail.pictures.Picture` (the ``MAP`` picture: shown and
    attached); ``pictures``: the maps the mail shows (an HTML part is added,
    :func:`judge.mail.pictures.mail_parts`); ``shared``: replies with the same
    non-empty ``shared`` have the same subject, text, HTML part and pictures
    (only their recipients differ), so the worker renders them once — a
    results mail once per language, name set and map format, not per player."""
    purpose: str
    to: tuple[str, ...]
    template: str
    lang: str
    context: dict
    cc: tuple[str, ...] = ()
    game: str | None = None
    in_reply: bool = True
    attachments: tuple = ()
    pictures: tuple = ()
    shared: str = ""


class Unanswered(list):
    """What :meth:`CommandHandler.handle` returns for a mail it does not
    answer: no replies, and ``reason`` (a stable code: ``denied``,
    ``refused-limit``) that the worker keeps in the ledger and logs."""

    def __init__(self, reason: str):
        super().__init__()
        self.reason = reason


class CommandHandler(Protocol):
    def handle(self, mail: InboundMail, db, now: datetime) -> list[Reply]:
        """The replies to ``mail`` (UTC ``now``); changes go to ``db`` (a
        :class:`~judge.mail.staging.Staging`) only."""
