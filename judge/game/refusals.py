"""Why the game refuses an order, in the reader's language.

The rules core says why an order is illegal on the board in English
(``"A smy cannot reach bla"``); :func:`judge.notation.legal.explain` turns
that into a :class:`~judge.notation.diagnostics.Diagnostic` naming provinces
in English or Chinese. The game refuses some orders for its own reasons too
(the phase, the house rules of ``RULES.md`` §3): those are a
:class:`GameDiagnostic`, a Diagnostic with the game's own codes:

======================== ==================================================
``retreat_lists_off``    the game does not use standing retreat lists (§3.1)
``retreat_list_phase``   a retreat list is sent with movement orders (§3.1)
``priority_lists_off``   the game does not use priority lists (§3.2)
``adjustment_in_winter`` builds and removals wait for the Winter phase
``adjustment_with_fall`` combined orders: they come with the Fall orders (§3.5)
``retreat_as_list``      combined orders: a retreat is a retreat list (§3.5)
``retreat_in_retreat``   retreats wait for a retreat phase
``movement_phase``       phase (``S1901M``): only hold, move, support, convoy
``retreat_phase``        phase: only retreat or disband
``adjustment_phase``     phase: only builds, removals, waives
``order_word``           a misspelt order word at the start of a line (``text``, ``word``)
======================== ==================================================
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from ..notation.diagnostics import Diagnostic
from ..notation.lexicon import EN_WORDS
from ..notation.names import LANGS, lang_key

_TEMPLATES: dict[str, tuple[str, str, str]] = {
    "retreat_lists_off": (
        "this game does not use standing retreat lists",
        "本局不使用预设撤退列表",
        "本局不使用預設撤退列表"),
    "retreat_list_phase": (
        "a retreat list is given with movement orders",
        "撤退列表须与行动阶段的指令一起提交",
        "撤退列表須與行動階段的指令一起提交"),
    "priority_lists_off": (
        "this game does not use build and disband priority lists",
        "本局不使用建造和解散优先列表",
        "本局不使用建造和解散優先列表"),
    "adjustment_in_winter": (
        "builds and removals are ordered in the Winter adjustment phase",
        "建造和解散要在冬季调整阶段下令",
        "建造和解散要在冬季調整階段下令"),
    "adjustment_with_fall": (
        "builds and removals are given with the Fall orders",
        "本局的建造和解散要与秋季指令一起提交",
        "本局的建造和解散要與秋季指令一起提交"),
    "retreat_as_list": (
        "in this game a retreat is given as a retreat list with the movement orders",
        "本局的撤退要写成撤退列表，与行动指令一起提交",
        "本局的撤退要寫成撤退列表，與行動指令一起提交"),
    "retreat_in_retreat": (
        "retreats are ordered in a retreat phase",
        "撤退要在撤退阶段下令",
        "撤退要在撤退階段下令"),
    "movement_phase": (
        "this is a movement phase ({phase}): order hold, move, support or convoy",
        "现在是行动阶段（{phase}）：请下防守、移动、支援或运输指令",
        "現在是行動階段（{phase}）：請下防守、移動、支援或運輸指令"),
    "retreat_phase": (
        "this is a retreat phase ({phase}): order a retreat or a disband",
        "现在是撤退阶段（{phase}）：请下撤退或解散指令",
        "現在是撤退階段（{phase}）：請下撤退或解散指令"),
    "adjustment_phase": (
        "this is an adjustment phase ({phase}): order builds, removals or waives",
        "现在是调整阶段（{phase}）：请下建造、解散或放弃建造指令",
        "現在是調整階段（{phase}）：請下建造、解散或放棄建造指令"),
    "order_word": (
        "\"{text}\" is not an order word; did you mean {word}?",
        "“{text}”不是指令词；您是指 {word} 吗？",
        "「{text}」不是指令詞；您是指 {word} 嗎？"),
}
ORDER_WORDS = {"M": ("Hold", "Move", "Support", "Convoy"), "R": ("Retreat", "Disband"),
               "A": ("Build", "Remove", "Disband", "Waive")}
"""The order words of each kind of phase, for :func:`misspelt_order_word`."""


def misspelt_order_word(line: str, phase_kind: str, names) -> GameDiagnostic | None:
    """``order_word`` when the first word of ``line`` is no province
    (``names``: a NameIndex) but close to an order word of the phase
    (``Biuld F Kie`` -> Build); else None."""
    words = line.split()
    if not words or len(words[0]) < 4 or words[0].lower() in EN_WORDS or names.province(words[0]) is not None:
        return None
    choices = {w.lower(): w for w in ORDER_WORDS.get(phase_kind, ())}
    hits = difflib.get_close_matches(words[0].lower(), list(choices), n=1, cutoff=0.6)
    return GameDiagnostic("order_word", {"text": words[0], "word": choices[hits[0]]}) if hits else None


@dataclass(frozen=True)
class GameDiagnostic(Diagnostic):
    """A refusal for one of the game's own reasons (codes in the module doc)."""

    def message(self, lang: str = "en") -> str:
        return _TEMPLATES[self.code][LANGS.index(lang_key(lang))].format(**self.params)


def game_refusal(code: str, **params) -> tuple[str, GameDiagnostic]:
    """``(English sentence, diagnostic)`` for one of the game's own reasons."""
    d = GameDiagnostic(code, params)
    return d.message("en"), d
