"""HELP lists every mail command the judge reads, and nothing else: the
records of :mod:`judge.verbs.registry` and the press words of
:mod:`judge.game.press` against the rendered HELP in each language; every
record has its handler, and every usage error its usage line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.game import press
from judge.verbs import registry
from judge.verbs.registry import read_command
from test_mail_commands import Judge

PRESS_EN = ("PRESS", "BROADCAST", "ENDPRESS", "GREY")
PRESS_ZH = (press._PRESS, press._BROADCAST, press._TO, press._GREY, press._END)
# capitals in the English HELP that are not command words: what the commands take
ARGUMENTS = {"GAME", "PASSWORD", "POWER", "POWERS", "PHASE", "DATE", "TIME", "NEW", "ADDRESS", "FINE",
             "FROM", "TO", "GM", "BEST", "STRATEGY", "DIPLOMACY", "NONE", "SIGN", "ON", "OFF", "SVG",
             "ADD", "REMOVE", "NOMAIL", "CLOSE", "RECORD", "LIST", "READ", "DELETE", "ENDDIARY", "CLEAR"}


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
    known = {w for c in registry.VERBS for w in " ".join(c.en + c.veterans).split()} | set(PRESS_EN) | ARGUMENTS \
        | {"ENDBROADCAST"}
    assert sorted(set(re.findall(r"\b[A-Z]{2,}\b", help_text("en"))) - known) == []
    for word in re.findall(r"^  ([A-Z]+)\b", help_text("en"), re.M):     # each entry's first word
        assert word == "SET" or read_command(f"{word} x") or press.is_press_start(f"{word} x"), word


def test_the_chinese_helps_name_every_chinese_command_word():
    """A word in GB2312's characters belongs in the simplified HELP, any other
    in the traditional one; each command shows at least one word in both."""
    hans, hant = help_text("zh-hans"), help_text("zh-hant")
    groups = {c.name: c.zh for c in registry.VERBS if c.zh}
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
    """Each record of the registry names its handler, and each handler
    function of the verbs' modules (``f(s, cmd)``) is some record's."""
    import inspect

    from judge.verbs import anyone, archive, ending, gm, keeper, orders, player, veterans
    handlers = {f for m in (anyone, archive, ending, gm, keeper, orders, player, veterans)
                for name, f in vars(m).items()
                if inspect.isfunction(f) and f.__module__ == m.__name__ and not name.startswith("_")
                and list(inspect.signature(f).parameters)[:2] == ["s", "cmd"]}
    assert all(callable(v.run) for v in registry.VERBS)
    assert sorted(f.__name__ for f in handlers - {v.run for v in registry.VERBS}) == []
    assert read_command("SET deadline=2030-01-01T20:00").name == "set_settings"
    for c in registry.VERBS:
        for word in c.en + c.zh + c.veterans:
            assert (read_command(f"{word} x") or read_command(f"{word} a@b.org")).name == c.name, word


def test_every_usage_error_names_a_command_with_a_usage_line():
    """The usage lines come from the registry: each handler that answers with
    its usage line (``s.usage(cmd)``, ``cmd.verb.usage``) is a verb's that
    has one (a catalogue entry)."""
    import inspect
    using = [v.name for v in registry.VERBS if "usage" in inspect.getsource(v.run) and not v.usage]
    assert using == []
    from babel.messages.pofile import read_po
    from judge.text.catalogue import catalogue_path
    for lang in ("zh-hans", "zh-hant"):
        with catalogue_path(lang).open("rb") as f:
            catalog = read_po(f)
        for c in registry.VERBS:
            if c.who == "keeper":          # the command line's own, in English
                continue
            for text in (c.usage, *c.help):
                if text:
                    assert catalog.get(text) is not None and catalog.get(text).string, (lang, text)
