"""HELP lists every mail command the judge reads, and nothing else: the
records of :mod:`judge.mail.registry` and the press words of
:mod:`judge.game.press` against the rendered HELP in each language; every
record has its handler, and every usage error its usage line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.game import press
from judge.mail import registry
from judge.mail.commands import MailCommands
from judge.mail.registry import read_command
from test_mail_commands import Judge

PRESS_EN = ("PRESS", "BROADCAST", "ENDPRESS", "GREY")
PRESS_ZH = (press._PRESS, press._BROADCAST, press._TO, press._GREY, press._END)
# capitals in the English HELP that are not command words: what the commands take
ARGUMENTS = {"GAME", "PASSWORD", "POWER", "POWERS", "PHASE", "DATE", "TIME", "NEW", "ADDRESS", "FINE",
             "FROM", "TO", "GM", "BEST", "STRATEGY", "DIPLOMACY", "NONE", "SIGN", "ON", "OFF", "SVG",
             "ADD", "REMOVE", "NOMAIL", "CLOSE"}


def help_text(lang: str) -> str:
    """The HELP text in ``lang``: the one template, its words from the catalogue."""
    from judge.text.templates import render_text
    return render_text("parts/help.txt", lang, r={"day": "2025-01-01", "sections": registry.help_sections()})


def simplified(word: str) -> bool:
    """Written with characters GB2312 has: the form a simplified-Chinese HELP shows."""
    try:
        word.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


@pytest.mark.parametrize("lang", ["en", "zh-hans", "zh-hant"])
def test_help_names_every_english_command_word(lang):
    text = help_text(lang)
    missing = [w for w in list(registry.ENGLISH_WORDS) + list(PRESS_EN) if not re.search(rf"\b{w}\b", text)]
    if "SET key=value" not in text and "SET 设置=值" not in text and "SET 設定=值" not in text:
        missing.append("SET key=value")
    assert missing == []


def test_the_english_help_names_no_command_the_judge_does_not_read():
    known = {w for c in registry.COMMANDS for w in " ".join(c.en).split()} | set(PRESS_EN) | ARGUMENTS
    assert sorted(set(re.findall(r"\b[A-Z]{2,}\b", help_text("en"))) - known) == []
    for word in re.findall(r"^  ([A-Z]+)\b", help_text("en"), re.M):     # each entry's first word
        assert word == "SET" or read_command(f"{word} x") or press.is_press_start(f"{word} x"), word


def test_the_chinese_helps_name_every_chinese_command_word():
    """A word in GB2312's characters belongs in the simplified HELP, any other
    in the traditional one; each command shows at least one word in both."""
    hans, hant = help_text("zh-hans"), help_text("zh-hant")
    groups = {c.name: c.zh for c in registry.COMMANDS if c.zh}
    groups.update({f"press{i}": tuple(w for w in words if not w.isascii()) for i, words in enumerate(PRESS_ZH)})
    missing = []
    for name, words in groups.items():
        missing += [(name, w) for w in words if w not in (hans if simplified(w) else hant)]
        missing += [(name, lang) for lang, text in (("zh-hans", hans), ("zh-hant", hant))
                    if not any(w in text for w in words)]
    assert missing == []


def test_help_by_mail_in_each_language(tmp_path):
    judge = Judge(tmp_path)
    assert "AWARD [BEST] STRATEGY|DIPLOMACY POWER|NONE" in judge.text("a@x.org", "HELP")
    assert "判定消极/消极 PASSIVE 国家 罚分|无/NONE" in judge.text("a@x.org", "帮助")
    assert "結束遊戲/終局 END [和局/DRAW] [國家]" in judge.text("b@x.org", "幫助")


def test_every_command_has_its_handler_and_every_handler_its_command():
    named = {c.name for c in registry.COMMANDS if c.name} - {"signoff"}    # SIGNOFF: the reading loop stops
    handlers = {n[1:] for n in dir(MailCommands) if n.startswith("_") and not n.startswith("__")}
    assert sorted(named - handlers) == []
    assert read_command("SET deadline=2030-01-01T20:00").name == "set_settings"
    for c in registry.COMMANDS:
        for word in c.en + c.zh:
            assert read_command(f"{word} x").name == c.name, word


def test_every_usage_error_names_a_command_with_a_usage_line():
    """The usage lines come from the registry: each ``usage_of("name")`` in the
    mail modules names a command that has one (a catalogue entry)."""
    import judge.mail as pkg
    names = set()
    for path in Path(pkg.__file__).parent.glob("*.py"):
        names |= set(re.findall(r'usage_of\("(\w+)"\)', path.read_text()))
    assert names and sorted(n for n in names if not registry.BY_NAME[n].usage) == []
    from babel.messages.pofile import read_po
    from judge.text.catalogue import catalogue_path
    for lang in ("zh-hans", "zh-hant"):
        with catalogue_path(lang).open("rb") as f:
            catalog = read_po(f)
        for c in registry.COMMANDS:
            for text in (c.usage, *c.help):
                if text:
                    assert catalog.get(text) is not None and catalog.get(text).string, (lang, text)
