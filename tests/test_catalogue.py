"""The one catalogue (``templates/locale``): every text of the judge in all
three languages, the glossary's words, and a code for every reason.

English is the message id; a key is complete when both Chinese catalogues
translate it, not fuzzy, every plural form filled, with the same
``%(name)s`` placeholders."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from judge.verbs import registry
from judge.text.catalogue import LOCALE_DIR, LOCALES, catalogue_path
from judge.text.reasons import SENTENCES, TEXTS

REPO = Path(__file__).resolve().parents[1]
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "C_": ((1, "c"), 2), "P_": (1, 2)}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def source_keys() -> set[tuple[str | None, str | tuple]]:
    """``(context, message id)`` of every text marked in judge/ and templates/."""
    with open(LOCALE_DIR / "babel.cfg") as f:
        method_map, options_map = parse_mapping_cfg(f)
    return {(context, message) for _file, _line, message, _comments, context
            in extract_from_dir(str(REPO), method_map, options_map, keywords=KEYWORDS)}


def catalogue(lang: str):
    with catalogue_path(lang).open("rb") as f:
        return read_po(f, locale=LOCALES[lang])


def missing_or_fuzzy(cat, keys) -> list:
    """Keys of ``keys`` the catalogue ``cat`` does not translate, or only fuzzily."""
    out = []
    for context, msgid in keys:
        m = cat.get(msgid, context)
        strings = m.string if m is not None and isinstance(m.string, tuple) else (m.string,) if m else ()
        if m is None or m.fuzzy or not strings or not all(strings):
            out.append(msgid)
    return out


@pytest.fixture(scope="module")
def keys():
    return source_keys()


def test_the_sources_hold_the_texts_of_mail_web_errors_and_reports(keys):
    ids = {msgid for _c, msgid in keys}
    assert {"Orders and results", "Diplomacy results", "bounced", "Note: %(note)s",
            "%(power)s has no builds", "Final position:"} <= ids
    assert len(ids) > 400


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_every_key_has_a_translation(lang, keys):
    """Fails on a missing or fuzzy entry (issue 11)."""
    assert missing_or_fuzzy(catalogue(lang), keys) == []


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_catalogue_holds_no_entry_the_sources_lost(lang, keys):
    cat = catalogue(lang)
    stale = [m.id for m in cat if m.id and (m.context, m.id) not in keys]
    assert stale == []


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_translations_keep_the_placeholders(lang):
    bad = []
    for m in catalogue(lang):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        want = set(PLACEHOLDER.findall(ids[-1])) - {"num"}
        for s in strings:
            if set(PLACEHOLDER.findall(s)) - {"num"} != want:
                bad.append((m.id, s))
    assert bad == []


def test_the_check_finds_a_missing_and_a_fuzzy_entry():
    """The test above can fail: an entry without translation, or fuzzy, is reported."""
    from babel.messages.catalog import Catalog
    cat = Catalog(locale="zh_Hans")
    cat.add("done", "完成")
    cat.add("guessed", "猜的", flags=["fuzzy"])
    assert missing_or_fuzzy(cat, {(None, "done"), (None, "guessed"), (None, "new")}) == ["guessed", "new"] or \
        sorted(missing_or_fuzzy(cat, {(None, "done"), (None, "guessed"), (None, "new")})) == ["guessed", "new"]


# ---- the glossary's words (templates/locale/GLOSSARY.md) -----------------------------------
FORBIDDEN = {
    "zh-hans": ("主持人", "单独获胜", "金币", "阶段", "指令", "地區"),
    "zh-hant": ("主持人", "單獨獲勝", "金幣", "階段", "指令", "設置", "建造", "玩家", "“"),
}
"""Words the rule texts do not use for the judge's concepts (drift seen before)."""


HELP_ENTRIES = {h for c in registry.VERBS for h in c.help}


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_every_entry_uses_the_glossary(lang):
    offending = []
    for m in catalogue(lang):
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for s in strings:
            if m.id and any(w in s for w in FORBIDDEN[lang]):
                # the HELP text lists the Chinese command words players may write (设置, 指令 aside)
                if m.id in HELP_ENTRIES:
                    continue
                offending.append((m.id, s))
    assert offending == []


def test_the_glossary_is_beside_the_catalogue():
    text = (LOCALE_DIR / "GLOSSARY.md").read_text(encoding="utf-8")
    for word in ("资源点", "陆军", "舰队", "撤退", "解散", "建造", "生產", "对峙", "运输", "元首", "幕僚",
                 "消极游戏", "独立获胜", "GM"):
        assert word in text, word


# ---- every reason has words ----------------------------------------------------------------
def literal_codes(folder: str, callables: tuple[str, ...]) -> set[str]:
    """First string arguments of calls to ``callables`` in the modules under ``folder``."""
    out = set()
    for path in (REPO / folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if name in callables:
                    out.add(node.args[0].value)
    return out


def test_every_reason_code_of_the_core_has_words():
    codes = literal_codes("judge/rules", ("Reason", "RuleError"))
    assert {"cannot_reach", "support_not_matched", "self_vote", "bad_phase"} <= codes
    words = set(TEXTS) | set(SENTENCES)
    assert sorted(codes - words) == []


def test_every_game_error_and_refusal_code_has_words():
    codes = literal_codes("judge/game", ("GameError", "Reason", "game_refusal", "of"))
    codes |= literal_codes("judge/mail", ("GameError",))
    assert {"not_started", "press_empty", "retreat_lists_off"} <= codes
    assert sorted(codes - set(TEXTS)) == []


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_every_string_of_the_catalogue_closes_on_its_line(lang):
    """A newline typed inside a quoted string (not ``\\n``) cut three lines of
    the Chinese HELP short (SET ABSENCE, REPLACE, BECOME): Babel reads on
    without a word."""
    path = catalogue_path(lang)
    open_lines = [(n, line) for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                  if re.match(r'(msgid|msgstr|msgctxt|msgid_plural|msgstr\[\d+\])? ?"', line) and not line.endswith('"')]
    assert open_lines == []
