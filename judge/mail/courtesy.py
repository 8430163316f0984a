"""Greetings, sign-offs, signatures and mail-client taglines: passed over.

People write to the judge as to a person: ``Hi judge,`` on top, ``Thanks!``
and ``Cheers, Alice`` below, and their phone adds ``Sent from my iPhone`` or
``发自我的iPhone``. None of these is an order or a command; :func:`pass_over`
takes them out of the text the judge reads, the same in English and Chinese
(simplified and traditional), and the answer says so in one note. The
tables are data: :data:`GREETINGS`, :data:`SIGNOFFS`, :data:`TAGLINES`.

A sign-off line (``Thanks,``, ``Best regards``, ``此致 敬礼``) and the short
lines after it to the end of the text (a name, a title: at most
:data:`SIGNATURE_LINES`) are a signature; a line there that starts like an
order or a command (:data:`_ORDERISH`) ends it, and is read.
"""

from __future__ import annotations

import re
import unicodedata

from ..game.press import is_press_end, is_press_start

GREETINGS = (
    "hi", "hello", "hey", "dear", "greetings", "good morning", "good afternoon", "good evening", "good day",
    "hiya", "howdy", "hi there", "hello there", "hello all", "hi all", "hi everyone",
    "hello everyone", "to whom it may concern",
    "你好", "您好", "大家好", "各位好", "各位", "哈喽", "哈囉", "嗨", "早上好", "早安", "午安", "下午好", "晚上好",
    "晚安", "裁判好", "裁判你好", "裁判您好", "主持人好", "主持人你好", "gm好", "gm你好", "各位玩家好", "各位大佬好",
    "亲爱的裁判", "親愛的裁判", "尊敬的裁判", "亲爱的主持人", "親愛的主持人",
)
"""Greeting words; a greeting line is one of them, then at most three
words (``Hi judge,``, ``Dear GM``, ``Hello all!``) and punctuation."""

SIGNOFFS = (
    "thanks", "thank you", "thanks a lot", "thanks so much", "thank you very much", "many thanks", "thx", "ty",
    "tks", "cheers", "regards", "best", "best regards", "kind regards", "warm regards", "warmest regards",
    "all the best", "best wishes", "sincerely", "yours", "yours sincerely", "yours truly", "sincerely yours",
    "cordially", "take care", "good luck", "good luck all", "have a nice day", "have a good day",
    "have a great day", "see you", "bye", "ciao", "rgds", "with thanks", "thanks in advance",
    "thank you in advance", "much appreciated", "thanks again", "respectfully",
    "谢谢", "謝謝", "多谢", "多謝", "感谢", "感謝", "谢谢裁判", "謝謝裁判", "谢谢主持人", "謝謝主持人", "辛苦了",
    "裁判辛苦了", "辛苦", "此致", "敬礼", "敬禮", "此致敬礼", "此致敬禮", "祝好", "祝顺利", "祝順利", "顺祝商祺",
    "順頌時祺", "祝愉快", "祝游戏愉快", "祝遊戲愉快", "祝大家游戏愉快", "祝大家遊戲愉快", "再见", "再見", "拜拜",
    "回头见", "回頭見", "谢啦", "謝啦", "感恩", "麻烦了", "麻煩了", "麻烦裁判了", "麻煩裁判了", "有劳", "有勞",
    "先谢了", "先謝了", "多谢裁判", "多謝裁判", "祝好运", "祝好運", "万事如意", "萬事如意", "顺颂商祺", "順頌商祺",
)
"""Sign-off words; a sign-off line is one of them, then at most three words
(a name: ``Cheers, Alice``) and punctuation."""

TAGLINES = (
    r"sent from my .{1,40}", r"sent from (?:outlook|mail|yahoo mail|aol|gmail|proton ?mail)\b.{0,40}",
    r"sent (?:via|using|with) .{1,40}", r"get outlook for .{1,30}", r"sent from mail for windows.{0,10}",
    r"sent from .{1,30} (?:mobile|phone|tablet)", r"sent from the .{1,30} app", r"envoyé de mon .{1,30}",
    r"von meinem .{1,30} gesendet", r"enviado desde mi .{1,30}",
    r"(?:发自|發自|来自|來自)(?:我的)?\s*.{1,24}", r"(?:从|從)(?:我的)?\s*.{1,24}(?:发送|發送|傳送|传送)",
    r"(?:获取|獲取|下载|下載)\s*outlook.{0,30}",
)
"""Taglines mail clients and phones add (Apple, Outlook, Windows Mail,
Yahoo, AOL, Proton, Samsung, NetEase Mail Master, QQ Mail, Xiaomi,
Huawei...), matched whole."""
_TAGLINE_CLIENTS = re.compile(
    r"iphone|ipad|android|galaxy|samsung|huawei|华为|華為|小米|xiaomi|oppo|vivo|honor|荣耀|榮耀|oneplus|一加|"
    r"blackberry|outlook|windows|mail|邮箱|郵箱|邮件|郵件|手机|手機|平板|qq|网易|網易|163|126|foxmail|"
    r"mobile|phone|tablet|yahoo|aol|gmail|proton|客户端|客戶端|ios|mac|pc|电脑|電腦", re.I)
"""A Chinese tagline (``发自…``, ``来自…``) names a phone or a mail client."""

SIGNATURE_LINES = 4
"""Lines after a sign-off read as its signature (name, title, phone...)."""

_ORDERISH = re.compile(
    r"^(?:[AF]\s|army\b|fleet\b|build\b|disband\b|remove\b|waive\b|retreat\b|hold\b|signon\b|join\b|create\b|"
    r"set\b|press\b|list\b|help\b|signoff\b|resign\b|observe\b|"
    r".{0,12}(?:陆军|陸軍|舰队|艦隊|海军|海軍|部队|部隊|登录|登入|登錄|加入|解散|建造|撤退|防守|支援|运输|運輸))", re.I)
_GREETING = re.compile(rf"(?:{'|'.join(map(re.escape, sorted(GREETINGS, key=len, reverse=True)))})")
_SIGNOFF = re.compile(rf"(?:{'|'.join(map(re.escape, sorted(SIGNOFFS, key=len, reverse=True)))})")
_TAGLINE = re.compile("|".join(f"(?:{t})" for t in TAGLINES), re.I)
_PUNCT = " \t,.!?:;~-—…，。！？：；、～·*"
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def _norm(line: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", line).casefold().split())


def _after(table: re.Pattern, text: str) -> str | None:
    """The rest of ``text`` after a leading phrase of ``table`` (None if none)."""
    m = table.match(text)
    if m is None:
        return None
    rest = text[m.end():]
    if rest and not (rest[0] in _PUNCT or rest[0] == " " or _CJK.match(text[m.end() - 1])):
        return None                  # "Hither": a word that only starts like one
    return rest.strip(_PUNCT)


def kind(line: str) -> str | None:
    """``"greeting"``, ``"signoff"``, ``"tagline"`` or None for one line."""
    text = _norm(line).strip(_PUNCT)
    if not text or len(text) > 60:
        return None
    if _TAGLINE.fullmatch(text) and (not _CJK.match(text) or _TAGLINE_CLIENTS.search(text)):
        return "tagline"
    for name, table in (("greeting", _GREETING), ("signoff", _SIGNOFF)):
        rest = _after(table, text)
        if rest is None:
            continue
        if _ORDERISH.match(rest):
            return None
        if _CJK.search(rest):
            if len(rest) <= 6:
                return name
        elif len(rest.split()) <= 3:
            return name
    return None


def pass_over(lines: list[str]) -> tuple[list[str], list[str]]:
    """``(kept, passed)``: the lines with greetings, sign-offs, signatures
    and taglines taken out (blank lines kept, so line numbers of the others
    do not matter), and the lines taken out. A press message (``PRESS`` …
    ``ENDPRESS``) is the player's to word: it is kept whole."""
    kept: list[str] = []
    passed: list[str] = []
    signature_from = None
    press = False
    for i, line in enumerate(lines):
        if press or is_press_start(line):
            press = not is_press_end(line) if press else True
            kept.append(line)
            continue
        k = kind(line) if line.strip() else None
        if k is None:
            kept.append(line)
            continue
        passed.append(line.strip())
        if k == "signoff" and signature_from is None:
            rest = [ln for ln in lines[i + 1:] if ln.strip()]
            if len(rest) <= SIGNATURE_LINES and all((len(ln.strip()) <= 60 and not _ORDERISH.match(ln.strip()))
                                                    or kind(ln) for ln in rest):
                signature_from = i + 1
                break
    if signature_from is not None:
        passed += [ln.strip() for ln in lines[signature_from:] if ln.strip()]
    return kept, passed
