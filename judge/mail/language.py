"""The language a mail is written in: English, or Chinese in which script.

A mail's answer is in the reader's language (:meth:`judge.verbs.session.Session.language`);
a reader without one is answered in the language the mail is written in
(:func:`detect_language`), and a Chinese reader who writes clearly in the
other script in that script (:func:`chinese_script`).
"""

from __future__ import annotations

import re
import unicodedata

from ..notation.lexicon import clean_line
from ..notation.names import is_cjk
from ..verbs.registry import read_command


def detect_language(text: str, charset: str = "") -> str | None:
    """``zh-hans`` / ``zh-hant`` for a mail written in Chinese, else None.

    Each line counts for Chinese or for English (:func:`line_language`); the
    mail is Chinese when more lines are Chinese than English (on a tie, when
    its first such line is), so a Chinese name on one line of an English mail
    does not make it Chinese. Traditional or simplified: which script has more
    of the characters that exist in only one of them (GB2312 has simplified
    forms only, Big5 traditional ones only); a tie (every character common to
    both, e.g. ``加入``) goes to traditional for a Big5 mail, else simplified."""
    zh = en = 0
    first = None
    for line in text.splitlines():
        lang = line_language(line)
        if lang is not None:
            first = first or lang
            zh, en = zh + (lang == "zh"), en + (lang == "en")
    if not zh or zh < en or (zh == en and first != "zh"):
        return None
    return chinese_script(text) or ("zh-hant" if charset.lower().startswith("big5") else "zh-hans")


def chinese_script(text: str) -> str | None:
    """``zh-hant`` or ``zh-hans``: the script that has more of the Chinese
    characters of ``text`` that exist in only one of them (GB2312 has
    simplified forms only, Big5 traditional ones only); None on a tie (no
    Chinese, or only characters common to both)."""
    simplified = traditional = 0
    for c in text:
        if is_cjk(c):
            gb, big5 = _encodes(c, "gb2312"), _encodes(c, "big5")
            simplified += gb and not big5
            traditional += big5 and not gb
    if traditional == simplified:
        return None
    return "zh-hant" if traditional > simplified else "zh-hans"


_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'_-]*")


def line_language(line: str) -> str | None:
    """``"zh"``, ``"en"`` or None (no words) for one line: a command line by its
    command word (``加入 g1 pw`` is Chinese, ``JOIN g1 pw 法国`` English); any
    other line is Chinese when it has more Chinese characters than Latin words."""
    text = unicodedata.normalize("NFKC", clean_line(line)).strip()
    if not text:
        return None
    if read_command(text) is not None:
        return "zh" if is_cjk(text[0]) else "en"
    cjk = 0 if text.isascii() else sum(1 for c in text if is_cjk(c))
    latin = len(_LATIN_WORD.findall(text))
    if cjk > latin:
        return "zh"
    return "en" if latin else None


def _encodes(ch: str, charset: str) -> bool:
    try:
        ch.encode(charset)
    except UnicodeEncodeError:
        return False
    return True
