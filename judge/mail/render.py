"""Mail text from the one template tree, in the reader's language: the
worker's entry to :mod:`judge.text.templates` (templates
``templates/mail/``, words from the catalogue; a judgekeeper's copies in
the config folder's ``templates/mail/`` are taken first).
"""

from __future__ import annotations

from pathlib import Path

from ..text.templates import render as _render


def render(name: str, lang: str, templates: Path | None = None, **context) -> tuple[str, str]:
    """Render mail template ``name`` (e.g. ``"reply.txt"``) in ``lang`` ->
    (subject, body); ``templates``: the folder of a judgekeeper's copies
    (None: the shipped templates only). Raises jinja2.TemplateNotFound,
    jinja2.UndefinedError (a context key is missing) and ValueError (no
    ``Subject:`` first line)."""
    return _render(name, lang, templates, **context)
