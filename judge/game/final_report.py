"""The end-of-game mail (issue 5 §5): how the game ended, the final position,
the SC table, the winners, every power's score and coins, the awards and the
GM's passive rulings.

:func:`final_data` gives it as language-neutral data (codes and numbers, like
:mod:`judge.game.results`); :func:`final_text` renders that in English,
simplified or traditional Chinese from a small catalogue;
:func:`game_over_notice` is the mail intent for
everyone in the game (:class:`~judge.game.notices.Notice` ``"game_over"``).
"""

from __future__ import annotations

from datetime import timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..maps import load_map, load_names
from ..notation.names import lang_key, name_index
from ..rules.phase import Phase
from ..rules.victory import ALLIANCE, AT_PHASE, AT_TIME, CONCESSION, DRAW, SOLO
from .errors import GameError
from .game import Game
from .notices import GM, OBSERVERS, PLAYERS, Notice, event_key
from .scores import advisors, award_outcomes, final_scores, nmr_record, person_scores

_LANGS = ("en", "zh-hans", "zh-hant")

# key -> (English, simplified Chinese, traditional Chinese)
_TEXT = {
    "over:after": ("Game {game} is over after {phase} ({when}).",
                   "游戏 {game} 在{phase}之后结束（{when}）。", "遊戲 {game} 在{phase}之後結束（{when}）。"),
    "over:during": ("Game {game} is over: it ended during {phase} ({when}).",
                    "游戏 {game} 在{phase}期间结束（{when}）。", "遊戲 {game} 在{phase}期間結束（{when}）。"),
    SOLO: ("{winners} wins alone with {n} supply centres.",
           "{winners}以{n}个资源点独立获胜。", "{winners}以{n}個資源點獨立獲勝。"),
    SOLO + "+": ("{winners} reached {need} supply centres at the same time and share the win.",
                 "{winners}同时达到{need}个资源点，共享胜利。", "{winners}同時達到{need}個資源點，共享勝利。"),
    ALLIANCE: ("The alliance of {winners} wins jointly with {n} supply centres.",
               "{winners}联盟以{n}个资源点共同获胜。", "{winners}聯盟以{n}個資源點共同獲勝。"),
    ALLIANCE + "+": ("The alliances {winners} met the alliance condition at the same time and share the win.",
                     "{winners}联盟同时达到联盟获胜条件，共享胜利。", "{winners}聯盟同時達到聯盟獲勝條件，共享勝利。"),
    AT_PHASE: ("The game ended after Fall {year}; {winners} has the most supply centres ({n}) and wins.",
               "游戏在{year}年秋季后结束；{winners}拥有最多的资源点（{n}个），获胜。",
               "遊戲在{year}年秋季後結束；{winners}擁有最多的資源點（{n}個），獲勝。"),
    AT_PHASE + "+": ("The game ended after Fall {year}; {winners} share the most supply centres ({n}) and the win.",
                     "游戏在{year}年秋季后结束；{winners}并列拥有最多的资源点（{n}个），共享胜利。",
                     "遊戲在{year}年秋季後結束；{winners}並列擁有最多的資源點（{n}個），共享勝利。"),
    AT_TIME: ("The game's end time ({end}) has come; {winners} has the most supply centres ({n}) and wins.",
              "游戏结束时间（{end}）已到；{winners}拥有最多的资源点（{n}个），获胜。",
              "遊戲結束時間（{end}）已到；{winners}擁有最多的資源點（{n}個），獲勝。"),
    AT_TIME + "+": ("The game's end time ({end}) has come; {winners} share the most supply centres ({n}) and the win.",
                    "游戏结束时间（{end}）已到；{winners}并列拥有最多的资源点（{n}个），共享胜利。",
                    "遊戲結束時間（{end}）已到；{winners}並列擁有最多的資源點（{n}個），共享勝利。"),
    DRAW: ("The game is drawn between {winners}.", "游戏以{winners}和局结束。", "遊戲以{winners}和局結束。"),
    CONCESSION: ("The other powers conceded the game to {winners}, who wins.",
                 "其他国家向{winners}认输，{winners}获胜。", "其他國家向{winners}認輸，{winners}獲勝。"),
    "position": ("Final position:", "最终局势：", "最終局勢："),
    "no_units": ("no units", "无部队", "無部隊"),
    "centres": ("Supply centres:", "资源点：", "資源點："),
    "unowned": ("Unowned", "无主", "無主"),
    "scores": ("Scores ({system}):", "得分（{system}）：", "得分（{system}）："),
    "score_line": ("{power}: {n} SCs, {points} points, {coins} coins ({items})",
                   "{power}：{n}个资源点，{points}分，{coins}币（{items}）",
                   "{power}：{n}個資源點，{points}分，{coins}幣（{items}）"),
    "score_line_plain": ("{power}: {n} SCs, {points} points ({items})",
                         "{power}：{n}个资源点，{points}分（{items}）",
                         "{power}：{n}個資源點，{points}分（{items}）"),
    "awards": ("Awards:", "奖项：", "獎項："),
    "pending": ("to be named by the GM", "待GM决定", "待GM決定"),
    "vote_open": ("the leaders vote until {when} (VOTE BEST STRATEGY|DIPLOMACY <power>); "
                  "the result is announced then",
                  "元首投票至{when}（投票 最佳战略|最佳外交 国家），届时公布结果",
                  "元首投票至{when}（投票 最佳戰略|最佳外交 國家），屆時公布結果"),
    "tied": ("tied: {powers}", "并列：{powers}", "並列：{powers}"),
    "votes": ("votes: {tally}", "票数：{tally}", "票數：{tally}"),
    "by_gm": ("named by the GM", "由GM决定", "由GM決定"),
    "passive": ("Ruled passive by the GM:", "GM裁定消极游戏：", "GM裁定消極遊戲："),
    "passive_line": ("{power}: forfeits all points, coins and awards and is fined {fine} points "
                     "(no orders in: {phases}).",
                     "{power}：扣除所有分数、奖励和奖项，另罚{fine}分（未交指令：{phases}）。",
                     "{power}：扣除所有分數、獎勵和獎項，另罰{fine}分（未交指令：{phases}）。"),
    "none": ("none", "无", "無"),
    "advisors": ("Advisors score nothing: {powers}.", "幕僚不计分：{powers}。", "幕僚不計分：{powers}。"),
    "advisor_count": ("{power} {n}", "{power}{n}名", "{power}{n}名"),
    # scoring systems
    "house": ("house rules, Appendix 2", "附二：奖励与分数", "附二：獎勵與分數"),
    "dss": ("draw-size scoring", "按和局人数计分", "按和局人數計分"),
    "sum_of_squares": ("sum of squares", "平方和计分", "平方和計分"),
    "c_diplo": ("C-Diplo", "C-Diplo", "C-Diplo"),
    # score items (judge.rules.scoring.ScoreItem codes)
    "i:centres": ("SCs", "资源点", "資源點"),
    "i:solo_bonus": ("solo win", "独立获胜", "獨立獲勝"),
    "i:alliance_bonus": ("alliance win", "联盟获胜", "聯盟獲勝"),
    "i:leader_reward": ("leader's reward", "元首奖励", "元首獎勵"),
    "i:best_strategy": ("best strategy", "最佳战略奖", "最佳戰略獎"),
    "i:best_diplomacy": ("best diplomacy", "最佳外交奖", "最佳外交獎"),
    "i:passive_forfeit": ("forfeited (passive)", "消极游戏扣除", "消極遊戲扣除"),
    "i:passive_fine": ("fine", "罚分", "罰分"),
    "i:share": ("share of the win", "胜利份额", "勝利份額"),
    "i:no_share": ("not a winner", "未获胜", "未獲勝"),
    "i:solo": ("solo", "独立获胜", "獨立獲勝"),
    "i:squares": ("sum of squares", "平方和", "平方和"),
    "i:participation": ("participation", "参与", "參與"),
    "i:place_bonus": ("place bonus", "名次奖励", "名次獎勵"),
    "i:advisor": ("advisor", "幕僚", "幕僚"),
    "award:best_strategy": ("Best strategy", "最佳战略奖", "最佳戰略獎"),
    "award:best_diplomacy": ("Best diplomacy", "最佳外交奖", "最佳外交獎"),
}
_SEASON_ZH = {"S": ("春季", "春季"), "F": ("秋季", "秋季"), "W": ("冬季", "冬季")}
_KIND_ZH = {"M": ("行动阶段", "行動階段"), "R": ("撤退阶段", "撤退階段"), "A": ("调整阶段", "調整階段")}
_UNIT_ZH = {"A": ("陆军", "陸軍"), "F": ("舰队", "艦隊")}


class _Words:
    """The catalogue and the map's names in one language."""

    def __init__(self, map_name: str, lang: str):
        self.lang = lang_key(lang)
        self.i = _LANGS.index(self.lang)
        self.zh = self.i - 1   # 0 simplified, 1 traditional, -1 English
        self.names = name_index(load_map(map_name), load_names(map_name))

    def __call__(self, key: str, **params) -> str:
        return _TEXT[key][self.i].format(**params)

    def power(self, power: str) -> str:
        return self.names.power_name(power, self.lang)

    def powers(self, powers) -> str:
        items = [self.power(p) for p in powers]
        if len(items) == 1:
            return items[0]
        if self.zh < 0:
            return ", ".join(items[:-1]) + " and " + items[-1]
        return "、".join(items[:-1]) + "和" + items[-1]

    def sides(self, sides) -> str:
        if len(sides) == 1 or all(len(s) == 1 for s in sides):
            return self.powers([p for s in sides for p in s])
        sep = "; " if self.zh < 0 else "；"
        return sep.join(self.powers(s) for s in sides)

    def phase(self, phase: str) -> str:
        ph = Phase.parse(phase)
        if self.zh < 0:
            return f"{ph.long_name} ({ph})"
        return f"{ph.year}年{_SEASON_ZH[ph.season][self.zh]}{_KIND_ZH[ph.kind][self.zh]} {ph}"

    def unit(self, unit_type: str, location: str) -> str:
        if self.zh < 0:
            return f"{unit_type} {self.names.location_abbr(location)}"
        return self.names.location_name(location, self.lang) + _UNIT_ZH[unit_type][self.zh]

    def place(self, code: str) -> str:
        return self.names.province_name(code, self.lang)

    def sep(self) -> str:
        return ", " if self.zh < 0 else "、"

    def label(self, text: str) -> str:
        """``text`` with a colon: ``"France: "`` / ``"法国："``."""
        return f"{text}: " if self.zh < 0 else f"{text}："


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"


def _signed(x: float) -> str:
    return ("+" if x > 0 else "") + _number(x)


def _when(moment, tz: str) -> str:
    utc = moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    if tz in ("UTC", "Etc/UTC"):
        return utc
    try:
        local = moment.astimezone(ZoneInfo(tz))
    except (ZoneInfoNotFoundError, ValueError):
        raise GameError(f"unknown time zone {tz!r}") from None
    return f"{local:%Y-%m-%d %H:%M} {tz} = {utc}"


def final_data(game: Game) -> dict:
    """The end of a finished ``game`` as plain data (codes, numbers, UTC
    datetimes; no text). Keys: ``game``, ``map``, ``timezone``, ``phase``,
    ``ended`` and ``at`` (where and when it ended: ``"after"`` the phase
    whose adjudication ended it, or ``"during"`` the phase it was ended in,
    :func:`end_phase`), ``result`` (``kind``, ``sides``,
    ``shared``, ``reason`` — an English sentence for logs), ``solo_centres``,
    ``end_year`` (the last Fall played, for an end after a given year),
    ``end_at``, ``powers`` (map order), ``units`` ``{power: [[type, location]]}``,
    ``centres`` ``{power: [sc]}`` (``""`` for unowned), ``counts``, ``scoring``
    (the system), ``scores`` ``{power: Score.to_dict()}``, ``people``
    ``{address: Score.to_dict()}`` (leaders, and advisors who score nothing),
    ``awards`` ``{award: {winners, votes, tied, by_gm, pending, open_until}}``
    (house scoring only; ``open_until``: when the leaders' vote closes, while
    it is open — no winner and no vote is shown before), ``passive`` ``{power: {fine, missed}}``, ``advisors``
    ``{power: [address]}``. Raises GameError while the game is running."""
    result = game.ending.result
    if result is None:
        raise GameError(f"game {game.name} is still running")
    gm, pos = game.map, game.position
    phase = Phase.parse(result.phase)
    centres: dict[str, list[str]] = {}
    for sc in sorted(gm.supply_centres):
        centres.setdefault(pos.sc_owners.get(sc, ""), []).append(sc)
    record = nmr_record(game)
    ended, last = end_phase(game)
    return {
        "game": game.name, "map": game.map_name, "timezone": game.settings.deadlines.timezone,
        "phase": last, "ended": ended, "at": result.at,
        "result": {"kind": result.kind, "sides": [list(side) for side in result.sides],
                   "shared": result.shared, "reason": result.reason},
        "solo_centres": game.settings.victory.solo_centres,
        "end_year": phase.year if phase.season == "W" else phase.year - 1,
        "end_at": game.settings.victory.end_at,
        "powers": list(gm.powers),
        "units": {p: [[u.type, u.location] for u in sorted(pos.units_of(p), key=lambda u: u.location)]
                  for p in gm.powers},
        "centres": centres, "counts": game.sc_counts(),
        "scoring": game.settings.scoring.system,
        "scores": {p: s.to_dict() for p, s in final_scores(game).items()},
        "people": {a: s.to_dict() for a, s in person_scores(game).items()},
        "awards": {a: {"winners": list(o.winners), "pending": o.pending, "by_gm": o.by_gm,
                       "votes": dict(o.tally.votes) if o.tally else {},
                       "tied": list(o.tally.tied) if o.tally else [], "open_until": o.open_until}
                   for a, o in award_outcomes(game).items()},
        "passive": {p: {"fine": fine, "missed": list(record[p])}
                    for p, fine in sorted(game.ending.passive.items(), key=lambda pf: gm.powers.index(pf[0]))},
        "advisors": {p: list(a) for p, a in advisors(game).items()},
    }


def end_phase(game: Game) -> tuple[str, str]:
    """``("after", phase)`` for a game that ended at the adjudication of
    ``phase`` (the last phase played: ``F1903M``, not the Winter phase its
    position reached), ``("during", phase)`` for one ended in the middle of
    ``phase`` (a vote, the GM's END, an end time between two adjudications).
    The subject and the body of the final report name this phase (issue 13
    point 8)."""
    result = game.ending.result
    last = game.history[-1] if len(game.history) else None
    if last is not None and last.processed_at == result.at:
        return "after", last.phase
    return "during", result.phase


def game_over_notice(game: Game) -> Notice:
    """The ``"game_over"`` mail intent to every player (advisors included),
    observer and the GM, with :func:`final_data` as its data. Its key is the
    same for one game's end, so it mails nobody twice; after a later ruling
    (passive player, award) send a new notice with a key of your own."""
    return Notice("game_over", (PLAYERS, OBSERVERS, GM), final_data(game),
                  event_key(game, game.ending.result.phase, "game_over"))


def final_text(game: Game, lang: str = "en", tz: str | None = None) -> str:
    """The end-of-game text of a finished ``game`` in ``lang`` (``"en"``,
    ``"zh-hans"``, ``"zh-hant"``), times shown in UTC and in the time zone
    ``tz`` (an IANA name; default: the game's, ``settings.deadlines.timezone``).
    Raises GameError while the game is running or for an unknown time zone."""
    return render_final(final_data(game), lang, tz)


def render_final(data: dict, lang: str = "en", tz: str | None = None) -> str:
    """:func:`final_data`'s ``data`` as text in ``lang`` (see :func:`final_text`)."""
    w = _Words(data["map"], lang)
    tz = tz or data["timezone"]
    counts, result = data["counts"], data["result"]
    held = sum(counts[p] for p in result["sides"][0])
    key = result["kind"] + ("+" if result["shared"] and result["kind"] in (SOLO, ALLIANCE, AT_PHASE, AT_TIME) else "")
    lines = [w("over:" + data.get("ended", "during"), game=data["game"], phase=w.phase(data["phase"]),
               when=_when(data["at"], tz)),
             w(key, winners=w.sides(result["sides"]), n=held, need=data["solo_centres"],
               year=data["end_year"], end=_when(data["end_at"], tz) if data["end_at"] else ""), ""]
    lines.append(w("position"))
    for power in data["powers"]:
        text = w.sep().join(w.unit(t, loc) for t, loc in data["units"][power]) or w("no_units")
        lines.append(w.label(w.power(power)) + text)
    lines += ["", w("centres")]
    for power in [*data["powers"], ""]:
        scs = sorted(data["centres"].get(power, ()), key=lambda sc: w.names.province_name(sc, "en"))  # one order in every language
        if scs:
            label = w.power(power) if power else w("unowned")
            lines.append(w.label(label) + f"{len(scs)}  {w.sep().join(w.place(sc) for sc in scs)}")
    lines += ["", w("scores", system=w(data["scoring"]))]
    for power in data["powers"]:
        s = data["scores"][power]
        items = w.sep().join(_item_text(w, i) for i in s["items"])
        key = "score_line" if any(i["coins"] for i in s["items"]) else "score_line_plain"
        lines.append(w(key, power=w.power(power), n=counts[power], points=_number(s["points"]),
                       coins=f"{s['coins']}k", items=items))
    if data["awards"]:
        lines += ["", w("awards")]
        for award, outcome in data["awards"].items():
            if outcome.get("open_until"):
                lines.append(w.label(w("award:" + award)) + w("vote_open", when=_when(outcome["open_until"], tz)))
                continue
            lines.append(w.label(w("award:" + award)) + _award_text(w, outcome))
    if data["passive"]:
        lines += ["", w("passive")]
        for power, ruling in data["passive"].items():
            lines.append(w("passive_line", power=w.power(power), fine=ruling["fine"],
                           phases=w.sep().join(ruling["missed"]) or w("none")))
    if data["advisors"]:
        counts = [w("advisor_count", power=w.power(p), n=len(data["advisors"][p]))
                  for p in data["powers"] if data["advisors"].get(p)]
        lines += ["", w("advisors", powers=w.sep().join(counts))]
    return "\n".join(lines) + "\n"


def _item_text(w: _Words, item: dict) -> str:
    parts = []
    if item["code"] in ("centres", "participation"):
        parts.append(_number(item["points"]))
    elif item["points"]:
        parts.append(_signed(item["points"]))
    if item["coins"]:
        parts.append(f"{'+' if item['coins'] > 0 else ''}{item['coins']}k")
    return f"{w('i:' + item['code'])} {' '.join(parts)}".rstrip()


def _award_text(w: _Words, outcome: dict) -> str:
    notes = []
    if outcome["votes"]:
        tally = w.sep().join(f"{w.power(p)} {n}" for p, n in
                             sorted(outcome["votes"].items(), key=lambda pn: (-pn[1], pn[0])))
        notes.append(w("votes", tally=tally))
    if outcome["tied"]:
        notes.append(w("tied", powers=w.powers(outcome["tied"])))
    if outcome["by_gm"]:
        notes.append(w("by_gm"))
    head = w.powers(outcome["winners"]) if outcome["winners"] else w("pending")
    if not notes:
        return head
    return f"{head} ({'; '.join(notes)})" if w.zh < 0 else f"{head}（{'；'.join(notes)}）"
