"""Why a line could not be read: :class:`Diagnostic`, in English and Chinese.

A diagnostic is data: a stable ``code`` and JSON-safe ``params``. Province,
location and coast codes in ``params`` are shown by name; the names in all
three languages travel in ``params["labels"]`` (``{lang: {code: name}}``), so
:meth:`Diagnostic.message` needs no map. Codes and their params:

==================== =============================================================
``unknown_province`` text, suggestions (English names), suggestion_codes
``unknown_word``     text
``ambiguous_province`` text, candidates (province codes)
``unknown_coast``    text, province, coasts (locations of the province)
``coast_needed``     province, coasts (the coasts the unit could reach or use)
``coast_impossible`` province, coast (the coast code written), coasts (those that exist)
``incomplete``       expected (``order``/``location``/``destination``/``unit``), after
``unexpected``       text
``several_units``    order (one unit only may move or retreat)
``no_unit``          province
``no_dislodged_unit`` province
``wrong_unit_type``  province, written, actual (``A``/``F``)
``not_your_unit``    province, power (the owner)
``impossible_unit``  unit_type, province (an army at sea, a fleet inland)
``unit_type_needed`` province (a build must say army or fleet)
``wrong_phase``      order (kind, see :data:`ORDER_KINDS`), phase_kind (``M``/``R``/``A``)
``route_not_allowed`` reason (``fleet``/``retreat``)
``route_not_sea``    province
``occupied``         province
``not_home_centre``  province, power
``not_owned``        province, power
``wrong_power``      power (named on the line), expected_power (whose orders these are)
==================== =============================================================

Legality, from :func:`judge.notation.legal.check_legal` (the rules core's reasons;
``unit`` is ``"F stp/sc"``, type and location, shown as ``F StP/sc`` / 圣彼得堡南岸舰队):

======================== =========================================================
``cannot_reach``         unit, destination (a province or a coast location)
``own_province``         province
``army_cannot_go``       province (not land)
``support_itself``       —
``no_convoy_fleets``     origin, destination (no fleets where a convoy could go, DATC 6.D.32)
``convoy_not_at_sea``    — (only a fleet in a sea convoys)
``no_army_to_convoy``    province
``not_on_convoy_route``  province (the fleet's sea), origin, destination
``support_only_through`` origin, destination, province (DATC 6.D.31)
``cannot_retreat``       unit, destination
``no_builds``            power
``no_removals``          power
``illegal``              text (the rules core's English sentence, not recognised)
======================== =========================================================

Notes (``ParsedLine.notes``: the order was read, but the player should know):

========================= ========================================================
``unit_coast_corrected``  province, written_coast, coast (the unit's real coast;
                          the written one is ignored, DATC 6.B.10)
``chatter``               text (the line as typed): talk, not an order, passed
                          over (``ParsedLine.kind == "chatter"``)
========================= ========================================================

Words the player wrote (``text``, ``after``) are quoted as typed, traditional
characters kept (``Token.shown``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .names import LANGS, NameIndex, lang_key

ORDER_KINDS = {
    "hold": ("hold", "防守", "防守"),
    "move": ("move", "移动", "移動"),
    "support": ("support", "支援", "支援"),
    "convoy": ("convoy", "运输", "運輸"),
    "retreat": ("retreat", "撤退", "撤退"),
    "disband": ("disband", "解散", "解散"),
    "build": ("build", "建造", "建造"),
    "waive": ("waive", "放弃建造", "放棄建造"),
    "retreat_pref": ("retreat preference", "优先撤退", "優先撤退"),
    "build_pri": ("build priority list", "优先建造", "優先建造"),
    "disband_pri": ("disband priority list", "优先解散", "優先解散"),
}
_PHASES = {"M": ("movement", "移动", "移動"), "R": ("retreat", "撤退", "撤退"),
           "A": ("adjustment", "调整", "調整")}
_UNITS = {"A": ("an army", "陆军", "陸軍"), "F": ("a fleet", "舰队", "艦隊")}
_EXPECTED = {
    "order": ("an order (H, -, S, C, ...)", "命令（防守、移动到、支援、运输……）", "命令（防守、移動到、支援、運輸……）"),
    "location": ("a province", "地区", "地區"),
    "destination": ("a destination", "目的地", "目的地"),
    "unit": ("the unit it applies to", "所指的单位", "所指的單位"),
}
_REASONS = {
    "fleet": ("a fleet moves one step and is never convoyed", "舰队每次只能移动一格，不能被运输",
              "艦隊每次只能移動一格，不能被運輸"),
    "retreat": ("a retreat goes to one adjacent province, never by convoy", "撤退只能到一个相邻地区，不能经运输",
                "撤退只能到一個相鄰地區，不能經運輸"),
}

_TEMPLATES: dict[str, tuple[str, str, str]] = {
    "unknown_province": (
        'unknown province "{text}"{did_you_mean}',
        "无法识别的地区“{text}”{did_you_mean}",
        "無法識別的地區「{text}」{did_you_mean}"),
    "unknown_word": (
        'not understood: "{text}"',
        "无法理解：“{text}”",
        "無法理解：「{text}」"),
    "ambiguous_province": (
        '"{text}" could be {candidates}: write more of the name',
        "“{text}”可能指{candidates}，请写出完整地名",
        "「{text}」可能指{candidates}，請寫出完整地名"),
    "unknown_coast": (
        '"{text}" is not a coast of {province}; its coasts are {coasts}',
        "“{text}”不是{province}的海岸；可用的海岸：{coasts}",
        "「{text}」不是{province}的海岸；可用的海岸：{coasts}"),
    "coast_needed": (
        "say which coast of {province}: {coasts}",
        "请注明{province}的哪一岸：{coasts}",
        "請註明{province}的哪一岸：{coasts}"),
    "coast_impossible": (
        "{province} has no {coast}; write {coasts}",
        "{province}没有{coast}；可用的海岸：{coasts}",
        "{province}沒有{coast}；可用的海岸：{coasts}"),
    "incomplete": (
        "incomplete order: expected {expected} after \"{after}\"",
        "命令不完整：“{after}”之后缺少{expected}",
        "命令不完整：「{after}」之後缺少{expected}"),
    "unexpected": (
        'not understood here: "{text}"',
        "此处无法理解：“{text}”",
        "此處無法理解：「{text}」"),
    "several_units": (
        "one unit per {order} order",
        "每条{order}命令只能指定一个单位",
        "每條{order}命令只能指定一個單位"),
    "no_unit": (
        "there is no unit in {province}",
        "{province}没有单位",
        "{province}沒有單位"),
    "no_dislodged_unit": (
        "no unit was dislodged in {province}",
        "{province}没有被击退的单位",
        "{province}沒有被擊退的單位"),
    "wrong_unit_type": (
        "the unit in {province} is {actual}, not {written}",
        "{province}的单位是{actual}，不是{written}",
        "{province}的單位是{actual}，不是{written}"),
    "not_your_unit": (
        "the unit in {province} belongs to {power}",
        "{province}的单位属于{power}",
        "{province}的單位屬於{power}"),
    "impossible_unit": (
        "{unit_type} cannot be in {province}",
        "{unit_type}不能位于{province}",
        "{unit_type}不能位於{province}"),
    "unit_type_needed": (
        "say what to build in {province}: army (A) or fleet (F)",
        "请注明在{province}建造陆军还是舰队",
        "請註明在{province}建造陸軍還是艦隊"),
    "wrong_phase": (
        "a {order} order is not possible in the {phase_kind} phase",
        "{phase_kind}阶段不能下{order}命令",
        "{phase_kind}階段不能下{order}命令"),
    "route_not_allowed": (
        "no route here: {reason}",
        "此处不能指定路线：{reason}",
        "此處不能指定路線：{reason}"),
    "route_not_sea": (
        "a convoy route goes through seas only; {province} is not a sea",
        "运输路线只能经过海域；{province}不是海域",
        "運輸路線只能經過海域；{province}不是海域"),
    "occupied": (
        "cannot build in {province}: a unit is there",
        "无法在{province}建造：该地已有单位",
        "無法在{province}建造：該地已有單位"),
    "not_home_centre": (
        "{province} is not a home centre of {power}",
        "{province}不是{power}的母国资源点",
        "{province}不是{power}的母國資源點"),
    "not_owned": (
        "{power} does not own {province} now",
        "{power}目前不拥有{province}",
        "{power}目前不擁有{province}"),
    "wrong_power": (
        "this line is for {power}, but these are the orders of {expected_power}",
        "此行写的是{power}，但这些是{expected_power}的命令",
        "此行寫的是{power}，但這些是{expected_power}的命令"),
    "cannot_reach": (
        "{unit} cannot reach {destination}",
        "{unit}无法到达{destination}",
        "{unit}無法到達{destination}"),
    "own_province": (
        "a unit cannot move to the province it is in ({province})",
        "单位不能移动到自己所在的地区（{province}）",
        "單位不能移動到自己所在的地區（{province}）"),
    "army_cannot_go": (
        "an army cannot go to {province}",
        "陆军不能进入{province}",
        "陸軍不能進入{province}"),
    "support_itself": (
        "a unit cannot support itself",
        "单位不能支援自己",
        "單位不能支援自己"),
    "no_convoy_fleets": (
        "no fleets stand where they could convoy an army from {origin} to {destination}",
        "没有舰队能把陆军从{origin}运输到{destination}",
        "沒有艦隊能把陸軍從{origin}運輸到{destination}"),
    "convoy_not_at_sea": (
        "only a fleet in a sea can convoy",
        "只有位于海域的舰队才能运输",
        "只有位於海域的艦隊才能運輸"),
    "no_army_to_convoy": (
        "there is no army in {province} to convoy",
        "{province}没有可运输的陆军",
        "{province}沒有可運輸的陸軍"),
    "not_on_convoy_route": (
        "{province} is on no convoy route from {origin} to {destination}",
        "{province}不在从{origin}到{destination}的运输路线上",
        "{province}不在從{origin}到{destination}的運輸路線上"),
    "support_only_through": (
        "the army in {origin} could reach {destination} only through {province}, where the supporting fleet is",
        "{origin}的陆军只有经过{province}（支援的舰队所在）才能到达{destination}",
        "{origin}的陸軍只有經過{province}（支援的艦隊所在）才能到達{destination}"),
    "cannot_retreat": (
        "{unit} cannot retreat to {destination}",
        "{unit}不能撤退到{destination}",
        "{unit}不能撤退到{destination}"),
    "no_builds": (
        "{power} has no builds",
        "{power}没有可建造的单位数",
        "{power}沒有可建造的單位數"),
    "no_removals": (
        "{power} need not remove a unit",
        "{power}不需要解散单位",
        "{power}不需要解散單位"),
    "builds_used_up": (
        "every build due ({count}) is ordered already",
        "应建造的{count}个部队都已下令",
        "應生產的{count}個單位都已下令"),
    "removals_used_up": (
        "every removal due ({count}) is ordered already",
        "应解散的{count}个部队都已下令",
        "應解散的{count}個單位都已下令"),
    "unknown_location": (
        "{location} is not on the map",
        "地图上没有{location}",
        "地圖上沒有{location}"),
    "illegal": (
        "{text}",
        "不合规则的命令：{text}",
        "不合規則的命令：{text}"),
    "unit_coast_corrected": (
        "the fleet in {province} is on the {coast}, not the {written_coast}",
        "{province}的舰队位于{coast}，不是{written_coast}",
        "{province}的艦隊位於{coast}，不是{written_coast}"),
    "chatter": (
        'passed over, no order in it: "{text}"',
        "已略过（其中没有命令）：“{text}”",
        "已略過（其中沒有命令）：「{text}」"),
}
_LOCATION_KEYS = ("province", "coasts", "candidates", "suggestion_codes")   # coasts by coast name
_PLACE_KEYS = ("destination", "origin")       # a province, or a coast location by its full name
_POWER_KEYS = ("power", "expected_power")
_COAST_KEYS = ("coast", "written_coast")
_OR = (" or ", "或", "或")
_PREFIXED = (("coast", "coast:"), ("written_coast", "coast:"), ("destination", "at:"), ("origin", "at:"),
             ("unit", "unit:"))


def _li(lang: str) -> int:
    return LANGS.index(lang_key(lang))


@dataclass(frozen=True)
class Diagnostic:
    """Why a line was not read. ``code`` is stable (see the module doc);
    ``params`` holds the details, JSON-safe."""

    code: str
    params: dict = field(default_factory=dict)

    def message(self, lang: str = "en") -> str:
        """The diagnostic as a sentence in ``"en"``, ``"zh-hans"`` or ``"zh-hant"``."""
        i = _li(lang)
        key = LANGS[i]
        labels = self.params.get("labels", {}).get(key, {})
        show: dict[str, str] = {}
        for k, v in self.params.items():
            if k == "labels":
                continue
            if isinstance(v, list):
                show[k] = _OR[i].join(labels.get(x, str(x)) for x in v) if v else "—"
            else:
                show[k] = labels.get(v, str(v)) if isinstance(v, str) else str(v)
        for k, table in (("order", ORDER_KINDS), ("phase_kind", _PHASES), ("written", _UNITS),
                         ("actual", _UNITS), ("unit_type", _UNITS), ("expected", _EXPECTED),
                         ("reason", _REASONS)):
            if self.params.get(k) in table:
                show[k] = table[self.params[k]][i]
        for k, prefix in _PREFIXED:
            if isinstance(self.params.get(k), str):
                show[k] = labels.get(prefix + self.params[k], self.params[k])
        sugg = self.params.get("suggestion_codes") or []
        if sugg:
            names = _OR[i].join(labels.get(c, c) for c in sugg)
            show["did_you_mean"] = (f"; did you mean {names}?", f"；您是指{names}吗？", f"；您是指{names}嗎？")[i]
        else:
            show["did_you_mean"] = ""
        template = _TEMPLATES.get(self.code)
        if template is None:
            return self.code
        try:
            return template[i].format(**show)
        except KeyError:
            return f"{self.code}: {self.params}"


def _label(loc: str, names: NameIndex, lang: str) -> str:
    """A province by name; a coast (listed after its province) by coast name:
    ``north coast (StP/nc)`` / ``北岸``."""
    prov, _, coast = loc.partition("/")
    if not coast:
        return names.province_name(prov, lang)
    if lang == "en":
        return f"{names.coast_name(coast, lang)} ({names.location_abbr(loc)})"
    return names.coast_name(coast, lang)


def unit_label(unit: str, names: NameIndex, lang: str) -> str:
    """``"F stp/sc"`` as canonical English ``F StP/sc`` or Chinese ``圣彼得堡南岸舰队``."""
    t, _, loc = unit.partition(" ")
    if lang_key(lang) == "en":
        return f"{t} {names.location_abbr(loc)}"
    return names.location_name(loc, lang) + (_UNITS[t][_li(lang)] if t in _UNITS else "")


def diagnostic(code: str, names: NameIndex, **params) -> Diagnostic:
    """A :class:`Diagnostic` with the names of the codes in ``params`` attached."""
    labels: dict[str, dict[str, str]] = {lang: {} for lang in LANGS}
    for k in _LOCATION_KEYS:
        v = params.get(k)
        for loc in (v if isinstance(v, list) else [v] if isinstance(v, str) else []):
            for lang in LANGS:
                labels[lang][loc] = _label(loc, names, lang)
    for lang in LANGS:
        for k in _POWER_KEYS:
            if isinstance(params.get(k), str):
                labels[lang][params[k]] = names.power_name(params[k], lang)
        for k in _COAST_KEYS:
            if isinstance(params.get(k), str):
                labels[lang]["coast:" + params[k]] = names.coast_name(params[k], lang)
        for k in _PLACE_KEYS:
            if isinstance(params.get(k), str):
                labels[lang]["at:" + params[k]] = names.location_name(params[k], lang)
        if isinstance(params.get("unit"), str):
            labels[lang]["unit:" + params["unit"]] = unit_label(params["unit"], names, lang)
    params["labels"] = labels
    return Diagnostic(code, params)
