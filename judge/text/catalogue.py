"""The one catalogue: every word the judge writes, in English (the message
ids) and in simplified and traditional Chinese.

The translations are the gettext ``.po`` files
``templates/locale/<zh_Hans|zh_Hant>/LC_MESSAGES/messages.po``, read and
compiled in memory with Babel (no ``.mo`` file is kept). Their words follow
``templates/locale/GLOSSARY.md``. After changing a text, update them::

    pybabel extract -F templates/locale/babel.cfg -k N_ -k C_:1c,2 -k P_:1,2 -o /tmp/messages.pot .
    pybabel update -i /tmp/messages.pot -d templates/locale --no-fuzzy-matching

and translate the new entries (``tests/test_catalogue.py`` fails on a
missing or fuzzy one).
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"
LOCALE_DIR = TEMPLATES_DIR / "locale"
LANGS = ("en", "zh-hans", "zh-hant")
"""The readers' languages: English, simplified and traditional Chinese."""
LOCALES = {"zh-hans": "zh_Hans", "zh-hant": "zh_Hant"}
"""The Babel locale of each Chinese language; English needs no catalogue."""
BABEL_LOCALES = {"en": "en", **LOCALES}
LANG_LABELS = {"en": "English", "zh-hans": "简体中文", "zh-hant": "繁體中文"}


def N_(text: str) -> str:
    """Marks ``text`` for the catalogue; it is translated where it is shown."""
    return text


def C_(context: str, text: str) -> str:
    """Marks ``text`` for the catalogue in ``context`` (``pgettext``): the same
    English word that needs another translation there."""
    return text


def P_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a pair of texts (one, several) for the catalogue (``ngettext``)."""
    return singular, plural


def check_lang(lang: str) -> str:
    """``lang`` if it is one of :data:`LANGS`, else ValueError."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; use one of {', '.join(LANGS)}")
    return lang


def lang_of(lang: str | None) -> str:
    """``"zh"``, ``"zh_CN"``, ``"zh-Hans"`` -> ``"zh-hans"``; ``"zh-TW"``,
    ``"zh_hant"`` -> ``"zh-hant"``; anything else (None too) -> ``"en"``."""
    k = (lang or "en").replace("_", "-").lower()
    if k.startswith("zh"):
        return "zh-hant" if any(t in k for t in ("hant", "tw", "hk", "mo")) else "zh-hans"
    return "en"


def catalogue_path(lang: str) -> Path:
    """The ``.po`` file of a Chinese language."""
    return LOCALE_DIR / LOCALES[lang] / "LC_MESSAGES" / "messages.po"


@lru_cache(maxsize=None)
def translations(lang: str) -> NullTranslations:
    """The gettext translations of ``lang`` (cached). Raises ValueError for an
    unknown language, OSError if its catalogue cannot be read."""
    if check_lang(lang) == "en":
        return NullTranslations()
    with catalogue_path(lang).open("rb") as f:
        catalog = read_po(f, locale=LOCALES[lang])
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return Translations(buf)


def gettext(lang: str):
    """The ``_`` function of ``lang``: ``_("Orders")`` -> ``"指令"``."""
    return translations(lang).gettext


def ngettext(lang: str):
    """The ``ngettext`` function of ``lang``."""
    return translations(lang).ngettext
