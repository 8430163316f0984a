"""The archive's languages: English, simplified and traditional Chinese.

Texts are English ``gettext`` message ids; the Chinese catalogues are the
``.po`` files in ``templates/web/locale/<zh_Hans|zh_Hant>/LC_MESSAGES/messages.po``,
read and compiled in memory with Babel (no ``.mo`` files kept). Update them
after changing a text: ``pybabel extract -F templates/web/babel.cfg -o
/tmp/messages.pot . && pybabel update -i /tmp/messages.pot -d templates/web/locale``.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from ..notation.names import LANGS

WEB_TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "web"
LOCALE_DIR = WEB_TEMPLATES / "locale"
LOCALES = {"zh-hans": "zh_Hans", "zh-hant": "zh_Hant"}
"""Babel locale folder of each Chinese language; English needs no catalogue."""

LANG_LABELS = {"en": "English", "zh-hans": "简体中文", "zh-hant": "繁體中文"}


def check_lang(lang: str) -> str:
    """``lang`` if it is one of :data:`~judge.notation.names.LANGS`, else ValueError."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; use one of {', '.join(LANGS)}")
    return lang


@lru_cache(maxsize=None)
def translations(lang: str) -> NullTranslations:
    """The gettext translations of ``lang`` (cached). Raises ValueError for an
    unknown language, OSError if its catalogue cannot be read."""
    if check_lang(lang) == "en":
        return NullTranslations()
    locale = LOCALES[lang]
    with (LOCALE_DIR / locale / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f, locale=locale)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return Translations(buf)


def gettext(lang: str):
    """The ``_`` function of ``lang``: ``_("Orders")`` -> ``"命令"``."""
    return translations(lang).gettext
