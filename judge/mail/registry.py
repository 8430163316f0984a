"""The mail commands, one record each: words in each language, usage, HELP.

Every mail command the judge reads is a :class:`Command` in :data:`COMMANDS`;
from it come the reading of command lines (:func:`read_command`), the
suggestion for a misspelt one (:func:`suggest_command`), the usage line of a
usage error (:func:`usage_of`) and the HELP text (:func:`help_sections`,
rendered by ``templates/mail/parts/help.txt``). The handler of command
``name`` is the method ``_<name>`` of :class:`judge.mail.commands.MailCommands`
(and of the mixins it is made of); ``tests/test_mail_help.py`` checks that
each has one.

A record with no ``name`` is help only: order lines (read by
:mod:`judge.notation`) and press (:mod:`judge.game.press`). English words of
the ``SET`` family are written ``"SET WORD"``; ``SET key=value ...`` (the GM's
game settings) is read as ``set_settings``. Chinese words are in both
scripts; a line that starts with one is that command (the longest word
first). ``usage`` and ``help`` are catalogue entries (:func:`N_`): their
capitals are the command's words and what it takes, worded in the reader's
language (``JOIN 游戏名 密码 [国家]``); ``help`` entries may hold ``%(day)s``,
a date in the future for the examples.
"""

from __future__ import annotations

import difflib
import unicodedata
from dataclasses import dataclass

from ..notation.lexicon import clean_line
from ..text.catalogue import N_


@dataclass(frozen=True)
class Command:
    """One mail command (see module doc): ``name`` (the handler is
    ``_<name>``; None: help only), ``who`` may send it (``anyone``,
    ``player``, ``gm``: its HELP section), English words ``en``, Chinese words
    ``zh``, the ``usage`` line (None: the first help line says it) and the HELP
    entries ``help`` (empty: another record's entry names it)."""
    name: str | None
    who: str
    en: tuple[str, ...] = ()
    zh: tuple[str, ...] = ()
    usage: str | None = None
    help: tuple[str, ...] = ()


COMMANDS: tuple[Command, ...] = (
    # ---- anyone ----
    Command('help', 'anyone', en=('HELP',), zh=('帮助', '幫助', '说明', '說明'),
            help=(N_('HELP                        this text'),)),
    Command('create', 'anyone', en=('CREATE',), zh=('创建', '創建', '建立'),
            usage=N_('CREATE GAME PASSWORD [deadline=YYYY-MM-DDTHH:MM] [key=value ...]'),
            help=(N_('CREATE GAME PASSWORD [key=value ...]\n'
                     '                            create a game; you are its GM. Settings such as\n'
                     '                            deadline=%(day)sT20:00 timezone=Asia/Shanghai\n'
                     '                            movement=48h press=white rules=datc|droidippy;\n'
                     '                            preset=house: every house rule of the\n'
                     '                            simplified-Chinese text, each named in the reply'),)),
    Command('join', 'anyone', en=('JOIN',), zh=('加入',),
            usage=N_('JOIN GAME PASSWORD [POWER] [join_password=JOIN-PASSWORD]'),
            help=(N_('JOIN GAME PASSWORD [POWER]  join a game as a player; the password is yours\n'
                     '                            (a password has at least 4 characters)'),)),
    Command('signon', 'anyone', en=('SIGNON',), zh=('登录', '登錄', '登入', '签到', '簽到'),
            usage=N_('SIGNON GAME [PASSWORD]'),
            help=(N_('SIGNON GAME [PASSWORD]      (or SIGN ON; njudge\'s "SIGNON Fgame pw" works)\n'
                     '                            sign on to a game you play or run; the lines\n'
                     '                            after it are orders. The password is needed\n'
                     '                            from an address not on record'),)),
    Command('list', 'anyone', en=('LIST',), zh=('列表', '查看'),
            usage=N_('LIST [GAME]'),
            help=(N_('LIST [GAME]                 show a game (or the games you play)'),)),
    Command('observe', 'anyone', en=('OBSERVE',), zh=('旁观', '旁觀', '观战', '觀戰'),
            usage=N_('OBSERVE GAME'),
            help=(N_("OBSERVE GAME                receive a game's results and broadcasts"),)),
    Command('history', 'anyone', en=('HISTORY',), zh=('历史', '歷史'),
            usage=N_('HISTORY [GAME] [FROM PHASE] [TO PHASE]'),
            help=(N_('HISTORY [GAME] [FROM PHASE] [TO PHASE]\n'
                     '                            results of past phases (PHASE: S1901M, ...)'),)),
    Command('summary', 'anyone', en=('SUMMARY',), zh=('概要', '摘要'),
            usage=N_('SUMMARY [GAME]'),
            help=(N_('SUMMARY [GAME]              who played each power; supply centres by year'),)),
    Command('map', 'anyone', en=('MAP',), zh=('地图', '地圖'),
            usage=N_('MAP [GAME] [PHASE] [SVG]'),
            help=(N_('MAP [GAME] [PHASE] [SVG]    the map as a picture (and as SVG if asked)'),)),
    Command('set_language', 'anyone', en=('SET LANGUAGE', 'SET LANG'), zh=('设置语言', '設定語言', '設置語言'),
            usage=N_('SET LANGUAGE en|zh-hans|zh-hant'),
            help=(N_('SET LANGUAGE en|zh-hans|zh-hant\n'
                     '                            (or SET LANG) the language of replies to you'),)),
    Command('set_names', 'anyone', en=('SET NAMES',), zh=('设置地名', '設定地名'),
            usage=N_('SET NAMES house|standard'),
            help=(N_('SET NAMES house|standard    the names the judge writes you: the rule\n'
                     "                            texts' own spellings, or the standard ones"),)),
    Command('signoff', 'anyone', en=('SIGNOFF',), zh=('结束', '結束', '签退', '簽退'),
            help=(N_('SIGNOFF                     (or SIGN OFF) stop reading this mail here'),)),
    # ---- a player, after SIGNON ----
    Command(None, 'player', en=(), zh=(),
            help=(N_('orders, one per line        A Par - Bur  F Lon S F Nth  华沙陆军移动到莫斯科'),)),
    Command('set_password', 'player', en=('SET PASSWORD',), zh=('设置密码', '設定密碼', '設置密碼', '修改密码', '修改密碼'),
            usage=N_('SET PASSWORD NEW-PASSWORD'),
            help=(N_('SET PASSWORD NEW            change your password for that game'),)),
    Command('set_address', 'player', en=('SET ADDRESS',), zh=('设置地址', '設定地址', '設置地址', '修改地址'),
            usage=N_('SET ADDRESS NEW@ADDRESS'),
            help=(N_('SET ADDRESS NEW@ADDRESS     mail for that game goes to the new address (the\n'
                     '                            old one gets no more)'),)),
    Command('advisor', 'player', en=('ADVISOR',), zh=('幕僚',),
            usage=N_('ADVISOR ADD NAME@ADDRESS [NOMAIL] | ADVISOR REMOVE NAME@ADDRESS'),
            help=(N_('ADVISOR ADD ADDRESS [NOMAIL] | ADVISOR REMOVE ADDRESS\n'
                     '                            the leader adds (or removes) an advisor, who\n'
                     "                            gets the power's mail (NOMAIL: does not) and\n"
                     '                            scores nothing; ADVISOR alone lists them'),)),
    Command('set_wait', 'player', en=('SET WAIT',), zh=('等待',),
            help=(N_('SET WAIT | SET NOWAIT       hold the phase until its deadline / allow early\n'
                     "                            processing once every power's orders are in"),)),
    Command('set_nowait', 'player', en=('SET NOWAIT',), zh=('不等待',)),
    Command('set_absence', 'player', en=('SET ABSENCE',), zh=(),
            usage=N_('SET ABSENCE FROM DATE TO DATE'),
            help=(N_('SET ABSENCE FROM DATE TO DATE\n'
                     '                            (dates like %(day)s) no deadline falls while\n'
                     '                            you are away'),)),
    Command(None, 'player', en=(), zh=(),
            help=(N_('PRESS TO POWER ... [GREY]   a message to those powers (TO GM: to the GM),'),
                  N_('BROADCAST [GREY]            or to everyone. The text follows on the next\n'
                     '                            lines, then a line ENDPRESS. GREY: unsigned'),)),
    Command('ally', 'player', en=('ALLY',), zh=('结盟', '結盟', '同盟', '联盟', '聯盟'),
            help=(N_('ALLY POWER | UNALLY         declare (or withdraw) a two-power alliance'),)),
    Command('unally', 'player', en=('UNALLY',), zh=('解除结盟', '解除結盟', '解除同盟', '解除联盟', '解除聯盟')),
    Command('draw', 'player', en=('DRAW',), zh=('和局', '平局'),
            help=(N_('DRAW [POWERS] | NODRAW      vote for a draw (default: every survivor) /\n'
                     '                            withdraw the vote'),)),
    Command('nodraw', 'player', en=('NODRAW',), zh=('取消和局', '取消平局')),
    Command('concede', 'player', en=('CONCEDE',), zh=('认输', '認輸', '投降'),
            help=(N_('CONCEDE POWER               concede the game to that power'),)),
    Command('vote', 'player', en=('VOTE',), zh=('投票',),
            usage=N_('VOTE BEST STRATEGY|DIPLOMACY POWER'),
            help=(N_('VOTE BEST STRATEGY|DIPLOMACY POWER\n'
                     "                            the leader's vote for an award; the vote\n"
                     '                            closes award_window after the end of the game\n'
                     '                            (or once every leader has voted for both), and\n'
                     '                            the awards are announced then'),)),
    Command('resign', 'player', en=('RESIGN',), zh=('辞职', '辭職', '退出游戏', '退出遊戲'),
            help=(N_('RESIGN                      leave the game'),)),
    # ---- the GM, after SIGNON with the GM password ----
    Command('set_deadline', 'gm', en=('SET DEADLINE',), zh=('设置截止', '設定截止', '設置截止'),
            help=(N_("SET DEADLINE DATE TIME      SET DEADLINE %(day)s 20:00 (the game's time\n"
                     '                            zone) or SET DEADLINE %(day)sT20:00+08:00'),)),
    Command('start', 'gm', en=('START',), zh=(),
            help=(N_('START [DATE TIME]           start the clock before every power is taken\n'
                     '                            (first deadline DATE TIME, else by the settings)'),)),
    Command('extend', 'gm', en=('EXTEND',), zh=('延长', '延長'),
            help=(N_('EXTEND 24h                  move the deadline later'),)),
    Command('pause', 'gm', en=('PAUSE',), zh=('暂停', '暫停'),
            help=(N_('PAUSE [48h] | RESUME        stop the clock (at most pause_limit) / go on:\n'
                     '                            the phase gets back the time it had left, at\n'
                     '                            least an hour'),)),
    Command('resume', 'gm', en=('RESUME',), zh=('恢复', '恢復')),
    Command('process', 'gm', en=('PROCESS',), zh=('结算', '結算'),
            help=(N_('PROCESS [PHASE]             adjudicate the phase now (with PHASE: only if the\n'
                     '                            game is still in it, PROCESS S1901M)'),)),
    Command('rollback', 'gm', en=('ROLLBACK',), zh=('回退', '回滚', '回滾'),
            help=(N_('ROLLBACK PHASE              back to the start of PHASE (ROLLBACK F1901M)'),)),
    Command('set_settings', 'gm', en=(), zh=(),
            help=(N_("SET key=value ...           change the game's settings (the keys of CREATE)"),)),
    Command('eject', 'gm', en=('EJECT',), zh=(),
            help=(N_("EJECT POWER                 remove a power's player; the power is vacant"),)),
    Command('replace', 'gm', en=('REPLACE',), zh=(),
            help=(N_('REPLACE POWER PASSWORD      open a power to a replacement, who joins with\n'
                     '                            JOIN GAME PASSWORD POWER'),)),
    Command('approve', 'gm', en=('APPROVE',), zh=('批准', '准许', '准許'),
            usage=N_('APPROVE ADDRESS|POWER'),
            help=(N_('APPROVE ADDRESS | REJECT ADDRESS\n'
                     '                            answer a JOIN that waits for approval (approve=yes)'),)),
    Command('reject', 'gm', en=('REJECT',), zh=('拒绝', '拒絕', '驳回', '駁回'),
            usage=N_('REJECT ADDRESS|POWER')),
    Command('become', 'gm', en=('BECOME',), zh=(),
            help=(N_("BECOME POWER                enter a vacant or abandoned power's orders: the\n"
                     "                            order lines that follow are that power's"),)),
    Command('end', 'gm', en=('END',), zh=('结束游戏', '結束遊戲', '终局', '終局'),
            help=(N_('END [DRAW] [POWERS]         end the game as a draw (default: every survivor)'),)),
    Command('passive', 'gm', en=('PASSIVE',), zh=('判定消极', '判定消極', '消极', '消極'),
            usage=N_('PASSIVE POWER FINE|NONE'),
            help=(N_('PASSIVE POWER FINE|NONE     rule a player passive, fined FINE points (NONE:\n'
                     '                            withdraw the ruling)'),)),
    Command('award', 'gm', en=('AWARD',), zh=('颁奖', '頒獎', '授奖', '授獎'),
            usage=N_('AWARD [BEST] STRATEGY|DIPLOMACY POWER|NONE'),
            help=(N_('AWARD [BEST] STRATEGY|DIPLOMACY POWER|NONE\n'
                     '                            name the winner of an award (NONE: withdraw)'),
                  N_("AWARD CLOSE                 close the leaders' award vote now"),)),
)

SECTIONS = (("anyone", N_("Anyone:")), ("player", N_("After SIGNON, as a player:")),
            ("gm", N_("After SIGNON as the GM (with the game's GM password):")))
"""The HELP sections: ``who`` of :class:`Command`, and the section's title."""

BY_NAME = {c.name: c for c in COMMANDS if c.name}
_EN = {w: c.name for c in COMMANDS for w in c.en if " " not in w}
_EN_SET = {w.split()[1]: c.name for c in COMMANDS for w in c.en if w.startswith("SET ")}
_ZH_WORDS = sorted(((w, c.name) for c in COMMANDS for w in c.zh), key=lambda x: -len(x[0]))
ENGLISH_WORDS = tuple(_EN) + tuple(f"SET {w}" for w in _EN_SET)
"""Every English command word (``SET`` words as ``"SET WORD"``)."""


@dataclass(frozen=True)
class CommandLine:
    """One command line: ``name`` (e.g. ``"signon"``), ``args``, ``line`` as written."""
    name: str
    args: tuple[str, ...]
    line: str


def read_command(line: str) -> CommandLine | None:
    """The command on ``line`` (see module doc), or None if it holds none.
    Invisible characters (a byte-order mark, zero-width spaces) are ignored;
    ``SIGN ON``/``SIGN OFF`` are ``SIGNON``/``SIGNOFF``; a trailing colon on
    the command word is allowed."""
    line = clean_line(line)
    text = unicodedata.normalize("NFKC", line).strip()
    words = text.split()
    if not words:
        return None
    first = words[0].upper().rstrip(":")
    if first == "SIGN" and len(words) > 1 and words[1].upper() in ("ON", "OFF"):
        first, words = "SIGN" + words[1].upper(), ["SIGN" + words[1].upper()] + words[2:]
    if first == "SET" and len(words) > 1 and words[1].upper().rstrip(":") in _EN_SET:
        return CommandLine(_EN_SET[words[1].upper().rstrip(":")], tuple(words[2:]), line.strip())
    if first == "SET" and len(words) > 1 and "=" in words[1]:       # the GM's game settings
        return CommandLine("set_settings", tuple(words[1:]), line.strip())
    if first in _EN:
        return CommandLine(_EN[first], tuple(words[1:]), line.strip())
    for word, name in _ZH_WORDS:
        if text.startswith(word):
            return CommandLine(name, tuple(text[len(word):].lstrip(" :").split()), line.strip())
    return None


def suggest_command(line: str) -> str | None:
    """The command word nearest to the first word of ``line`` ("SINGON" -> "SIGNON")."""
    words = unicodedata.normalize("NFKC", line).split()
    if not words:
        return None
    hits = difflib.get_close_matches(words[0].upper(), list(_EN) + ["SET"], n=1, cutoff=0.75)
    return hits[0] if hits else None


def usage_of(name: str) -> str:
    """The usage line (a catalogue entry) of command ``name``, for its usage
    error. KeyError for a name without one (``tests/test_mail_help.py``
    checks that every usage error names a command that has one)."""
    usage = BY_NAME[name].usage
    if usage is None:
        raise KeyError(name)
    return usage


def help_sections() -> list[tuple[str, list[str]]]:
    """The HELP text's sections: ``[(title, [entry, ...]), ...]``, catalogue
    entries in :data:`COMMANDS`' order."""
    return [(title, [h for c in COMMANDS if c.who == who for h in c.help]) for who, title in SECTIONS]
