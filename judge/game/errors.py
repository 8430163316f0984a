"""The game's error type, in its own module so that every part of the game
(``game``, ``ending``, ``setting_text``) can raise it without import cycles.

A :class:`GameError` made with :meth:`GameError.of` carries a code and
parameters, so the mail can say it in the reader's language
(:meth:`GameError.message`); codes (``{power}``-like parameters name
powers, given in English and named in the reader's language):

===================== ==========================================================
``game_over``         the game is over (``game``, ``phase``)
``alliances_off``     the game has no alliance victory condition (``game``)
``no_such_power``     no such power (``text``, ``powers``)
``has_player``        BECOME: the power has a player (``power``)
``nobody_plays``      the power has no player (``power``)
``no_press``          the game has no press
``no_grey_press``     the game has no grey press
``grey_only``         only grey press
``no_gm_press``       no press to the GM
``no_private_press``  no private press: BROADCAST
``deadline_past``     a new deadline before now
``short_password``    REPLACE with a password under 4 characters
``no_clock``          the game has no running clock (``game``)
``paused_already``    the game is paused already (``game``)
``not_paused``        the game is not paused (``game``)
``started_already``   the game has started already (``game``)
``pause_limit``       a pause beyond the limit (``limit`` in hours)
``no_alliance``       the power declared no alliance (``power``)
``no_draw_vote``      the power has not voted for a draw (``power``)
``no_phase``          no adjudicated phase of that name (``game``, ``phase``, ``current``)
``phase_moved``       a GM command written for another phase (``game``, ``phase``,
                      ``current``, ``retry``: the command to send for the current one)
``repeated``          a mail repeating one done already, after the game moved on
                      (``game``, ``at``: HH:MM UTC, ``current``, ``retry``)
===================== ==========================================================
"""

from __future__ import annotations

# code -> (English, simplified Chinese, traditional Chinese)
_TEXTS: dict[str, tuple[str, str, str]] = {
    "game_over": ("game {game} is over ({phase})", "游戏 {game} 已结束（{phase}）", "遊戲 {game} 已結束（{phase}）"),
    "alliances_off": ("alliances cannot win game {game}: it has no alliance victory condition",
                      "游戏 {game} 没有联盟获胜条件，不能结盟",
                      "遊戲 {game} 沒有聯盟獲勝條件，不能結盟"),
    "no_such_power": ("no power {text!r} in this game: {powers}", "本局没有国家“{text}”：{powers}",
                      "本局沒有國家「{text}」：{powers}"),
    "has_player": ("{power} has a player; EJECT or REPLACE first", "{power}有玩家；请先 EJECT 或 REPLACE",
                   "{power}有玩家；請先 EJECT 或 REPLACE"),
    "nobody_plays": ("nobody plays {power}", "{power}没有玩家", "{power}沒有玩家"),
    "no_press": ("this game has no press", "本局不允许通信", "本局不允許通信"),
    "no_grey_press": ("this game has no grey (anonymous) press", "本局不允许匿名通信", "本局不允許匿名通信"),
    "grey_only": ("this game allows only grey (anonymous) press: add GREY", "本局只允许匿名通信：请加上 GREY",
                  "本局只允許匿名通信：請加上 GREY"),
    "no_gm_press": ("this game has no press to the GM", "本局不允许写信给GM", "本局不允許寫信給GM"),
    "no_private_press": ("this game has no private press: use BROADCAST", "本局不允许私信：请用 BROADCAST",
                         "本局不允許私信：請用 BROADCAST"),
    "deadline_past": ("the new deadline must be in the future", "新的截止时间必须在将来",
                      "新的截止時間必須在將來"),
    "short_password": ("REPLACE POWER PASSWORD (a password of at least 4 characters)",
                       "REPLACE 国家 密码（密码至少4个字符）", "REPLACE 國家 密碼（密碼至少4個字元）"),
    "no_clock": ("game {game} has no running clock", "游戏 {game} 没有在计时", "遊戲 {game} 沒有在計時"),
    "paused_already": ("game {game} is paused already", "游戏 {game} 已经暂停", "遊戲 {game} 已經暫停"),
    "not_paused": ("game {game} is not paused", "游戏 {game} 没有暂停", "遊戲 {game} 沒有暫停"),
    "started_already": ("game {game} has started already", "游戏 {game} 已经开始", "遊戲 {game} 已經開始"),
    "pause_limit": ("a pause lasts more than 0 and at most {limit:g} hours in this game",
                    "本局暂停时长须大于0且不超过{limit:g}小时", "本局暫停時長須大於0且不超過{limit:g}小時"),
    "no_alliance": ("{power} has declared no alliance", "{power}没有宣布结盟", "{power}沒有宣布結盟"),
    "no_draw_vote": ("{power} has not voted for a draw", "{power}没有投票和局", "{power}沒有投票和局"),
    "no_phase": ("game {game} has no adjudicated phase {phase}; it is at {current} now",
                 "游戏 {game} 没有已结算的阶段 {phase}；现在是 {current}",
                 "遊戲 {game} 沒有已結算的階段 {phase}；現在是 {current}"),
    "phase_moved": ("the command was written for {phase}, but game {game} is at {current} now: nothing was "
                    "done (to do it for {current}, send {retry})",
                    "该命令是针对 {phase} 写的，但游戏 {game} 现在是 {current}：未执行（要对 {current} 执行，"
                    "请发送 {retry}）",
                    "該命令是針對 {phase} 寫的，但遊戲 {game} 現在是 {current}：未執行（要對 {current} 執行，"
                    "請發送 {retry}）"),
    "repeated": ("this mail repeats the one done at {at}, and game {game} has moved on since (it is at {current} "
                 "now): not done again (to do it now, send {retry})",
                 "本邮件与 {at} 已执行的邮件相同，而游戏 {game} 此后已有变化（现在是 {current}）：不再执行"
                 "（如确要现在执行，请发送 {retry}）",
                 "本郵件與 {at} 已執行的郵件相同，而遊戲 {game} 此後已有變化（現在是 {current}）：不再執行"
                 "（如確要現在執行，請發送 {retry}）"),
}
_POWER_PARAMS = ("power", "powers")
_LANGS = ("en", "zh-hans", "zh-hant")


class GameError(ValueError):
    """A request the game cannot take: unknown power or phase, bad name, a
    time without a time zone, an order or vote in a game that is over. Nothing
    is changed when it is raised. ``code`` and ``params``: see the module doc
    (None and ``{}`` for an error known only by its English sentence)."""

    def __init__(self, text: str, code: str | None = None, params: dict | None = None):
        super().__init__(text)
        self.code, self.params = code, dict(params or {})

    @classmethod
    def of(cls, code: str, **params) -> "GameError":
        """The error of ``code`` (module doc); its ``str`` is the English sentence."""
        return cls(_render(code, 0, params), code, params)

    def message(self, lang: str = "en") -> str:
        """The sentence in ``lang`` (``en``, ``zh-hans``, ``zh-hant``); the
        English one for an error without a code."""
        if self.code is None:
            return str(self)
        lang = lang.lower().replace("_", "-")
        index = _LANGS.index(lang) if lang in _LANGS else 0
        params = dict(self.params)
        if index:
            for key in _POWER_PARAMS:
                if key in params:
                    params[key] = _power_names(params[key], params.get("map", "standard"), index)
        return _render(self.code, index, params)

    def __reduce__(self):
        return (GameError, (str(self), self.code, self.params))


def _render(code: str, index: int, params: dict) -> str:
    params = dict(params)
    if isinstance(params.get("powers"), (list, tuple)):
        params["powers"] = ("、" if index else ", ").join(params["powers"])
    return _TEXTS[code][index].format(**params)


def _power_names(value, map_name: str, index: int):
    from ..maps import load_names            # the names are read only for a Chinese reader
    names = load_names(map_name).get("powers", {})
    key = ("en", "zh_hans", "zh_hant")[index]

    def one(p):
        return names.get(p, {}).get(key, p)
    return [one(p) for p in value] if isinstance(value, (list, tuple)) else one(value)
