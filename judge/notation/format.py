"""Writing orders back: :func:`format_order` in canonical English or Chinese.

Canonical English uses the unit letter and the capitalised province code
(``StP`` for St Petersburg), coasts as ``/nc``::

    A Par H                 A Par - Bur             A Lon - Bel via convoy
    A Bre - Mao - Wes - Tun (a convoy route)        F Por - Spa/nc
    A Mun S A Ber           A Mun S A Ber - Sil     F Eng C A Lon - Bre
    A Par - Bur             (a retreat: read in a retreat phase)
    Disband A Par           Build F StP/nc          Waive
    F Spa/sc retreat preference: Por, Wes, Mar
    Build priority: F Ven, A Rom, F Nap             Disband priority: A Sil, A Ber, F Den

Chinese follows Appendix 1 of the house-rule text: 巴黎陆军移动到勃艮第,
鲁尔陆军支援慕尼黑陆军进攻勃艮第, 北海舰队运输荷兰陆军移动到圣彼得堡, 柏林建造舰队,
君士坦丁堡陆军解散, 优先建造：威尼斯舰队、罗马陆军; in traditional characters the
classic text's words for ``zh-hant`` (柏林生產艦隊: the classic text builds with 生產,
``templates/locale/GLOSSARY.md``). Every form reads back to the same order with :func:`parse_line`
(retreats in a retreat phase).
"""

from __future__ import annotations

from ..rules.orders import (Build, BuildPriority, Convoy, Disband, DisbandPriority, Hold, Move,
                            RetreatPreference, Retreat, Support, Waive)
from .names import NameIndex, lang_key

# Chinese words: (simplified, traditional)
_ZH = {
    "A": ("陆军", "陸軍"), "F": ("舰队", "艦隊"),
    "hold": ("防守", "防守"), "move": ("移动到", "移動到"), "attack": ("进攻", "進攻"),
    "support": ("支援", "支援"), "convoy": ("运输", "運輸"), "via": ("经", "經"),
    "via_convoy": ("经海运", "經海運"), "retreat": ("撤退到", "撤退到"),
    "disband": ("解散", "解散"), "build": ("建造", "生產"), "waive": ("放弃建造", "放棄生產"),
    "retreat_pref": ("优先撤退到", "優先撤退到"), "build_pri": ("优先建造：", "優先生產："),
    "disband_pri": ("优先解散：", "優先解散："), "list": ("、", "、"),
}


def format_order(order, names: NameIndex, lang: str = "en") -> str:
    """``order`` (any order or standing order of :mod:`judge.rules.orders`) as
    text in ``lang`` (``"en"``, ``"zh-hans"``, ``"zh-hant"``). Raises TypeError
    for anything else."""
    if lang_key(lang) == "en":
        return _english(order, names)
    return _chinese(order, names, 1 if lang_key(lang) == "zh-hant" else 0)


# ---- English -------------------------------------------------------------------
def _en_unit(t: str | None, loc: str, names: NameIndex) -> str:
    return f"{t} {names.location_abbr(loc)}" if t else names.location_abbr(loc)


def _english(o, names: NameIndex) -> str:
    loc = names.location_abbr
    if isinstance(o, Hold):
        return f"{_en_unit(o.unit_type, o.location, names)} H"
    if isinstance(o, Move):
        steps = " - ".join(loc(p) for p in (*o.route, o.destination))
        tail = " via convoy" if o.via_convoy and not o.route else ""
        return f"{_en_unit(o.unit_type, o.location, names)} - {steps}{tail}"
    if isinstance(o, Support):
        s = f"{_en_unit(o.unit_type, o.location, names)} S {_en_unit(o.supported_type, o.supported_location, names)}"
        return s + (f" - {loc(o.destination)}" if o.destination else "")
    if isinstance(o, Convoy):
        return (f"{_en_unit(o.unit_type, o.location, names)} C "
                f"{_en_unit(o.army_type, o.army_location, names)} - {loc(o.destination)}")
    if isinstance(o, Retreat):
        return f"{_en_unit(o.unit_type, o.location, names)} - {loc(o.destination)}"
    if isinstance(o, Disband):
        return f"Disband {_en_unit(o.unit_type, o.location, names)}"
    if isinstance(o, Build):
        return f"Build {_en_unit(o.unit_type, o.location, names)}"
    if isinstance(o, Waive):
        return "Waive"
    if isinstance(o, RetreatPreference):
        return (f"{_en_unit(o.unit_type, o.location, names)} retreat preference: "
                + ", ".join(loc(d) for d in o.destinations))
    if isinstance(o, BuildPriority):
        return "Build priority: " + ", ".join(_en_unit(b.unit_type, b.location, names) for b in o.builds)
    if isinstance(o, DisbandPriority):
        return "Disband priority: " + ", ".join(_en_unit(d.unit_type, d.location, names) for d in o.disbands)
    raise TypeError(f"not an order: {o!r}")


# ---- Chinese -------------------------------------------------------------------
def _chinese(o, names: NameIndex, v: int) -> str:
    lang = ("zh-hans", "zh-hant")[v]

    def place(loc: str) -> str:
        return names.location_name(loc, lang)

    def unit(t: str | None, loc: str) -> str:
        return place(loc) + (_ZH[t][v] if t else "")

    def w(key: str) -> str:
        return _ZH[key][v]

    if isinstance(o, Hold):
        return unit(o.unit_type, o.location) + w("hold")
    if isinstance(o, Move):
        route = "".join(w("via") + place(p) for p in o.route)
        via = w("via_convoy") if o.via_convoy and not o.route else ""
        return unit(o.unit_type, o.location) + route + via + w("move") + place(o.destination)
    if isinstance(o, Support):
        s = unit(o.unit_type, o.location) + w("support") + unit(o.supported_type, o.supported_location)
        return s + (w("attack") + place(o.destination) if o.destination else w("hold"))
    if isinstance(o, Convoy):
        return (unit(o.unit_type, o.location) + w("convoy") + unit(o.army_type, o.army_location)
                + w("move") + place(o.destination))
    if isinstance(o, Retreat):
        return unit(o.unit_type, o.location) + w("retreat") + place(o.destination)
    if isinstance(o, Disband):
        return unit(o.unit_type, o.location) + w("disband")
    if isinstance(o, Build):
        return place(o.location) + w("build") + (_ZH[o.unit_type][v] if o.unit_type else "")
    if isinstance(o, Waive):
        return w("waive")
    if isinstance(o, RetreatPreference):
        return unit(o.unit_type, o.location) + w("retreat_pref") + w("list").join(place(d) for d in o.destinations)
    if isinstance(o, BuildPriority):
        return w("build_pri") + w("list").join(unit(b.unit_type, b.location) for b in o.builds)
    if isinstance(o, DisbandPriority):
        return w("disband_pri") + w("list").join(unit(d.unit_type, d.location) for d in o.disbands)
    raise TypeError(f"not an order: {o!r}")
