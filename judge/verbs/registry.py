"""Every verb the judge knows, one record each: who may send it, its words in
each language, usage, HELP entry, what it reads and changes, and its handler.

Mail (:mod:`judge.mail.handler`) reads a mail line by line and hands each
command line to its verb (:func:`read_command`); the judgekeeper's command
line (``judge game ...``, :mod:`judge.commands`) derives its GM and
end-of-game subcommands from the records' ``cli`` names and hands its work
to the same verbs. Both run a verb with :meth:`Session.perform
<judge.verbs.session.Session.perform>`: who may send it is checked there,
and a refused command is undone there (validate, then apply). From the
records also come the suggestion for a misspelt command
(:func:`suggest_command`), the usage line of a usage error, and the HELP
text (:func:`help_sections`, rendered by ``templates/mail/parts/help.txt``).

Adding a verb (three places):

1. its **record** here, in :data:`VERBS` (HELP shows the entries in this
   order, in the section of ``who``): ``Verb("status", "player",
   run=player.status, en=("STATUS",), zh=("状态", "狀態"),
   usage=N_("STATUS [GAME]"), help=(N_("STATUS [GAME]  ..."),),
   reads=("game",))``;
2. its **handler**, one function ``f(s: Session, cmd: CommandLine)`` in the
   module of its kind (``anyone``, ``player``, ``orders``, ``gm``,
   ``ending``, ``archive``, ``keeper``): it checks everything first — by
   the game layer, which raises :class:`~judge.game.GameError` with the
   reason — then changes the game, marks it ``s.changed(game)``, and adds
   a result (``s.results.append({"kind": ...})``) or a refusal
   (``s.error(cmd.line, code, ...)``, ``s.usage(cmd)``), and the notices
   its change calls for (``s.notices``);
3. the **catalogue**: its usage and HELP lines (and any new words of its
   answer) in ``templates/locale/*/LC_MESSAGES/messages.po`` (both Chinese
   scripts; see :mod:`judge.text.catalogue`). An answer of a new shape
   also needs its words, ``templates/mail/parts/<kind>.txt``; an answer of
   an existing kind (``gm``, ``vote``, ``ruling``, ``archive``, ...) needs none.

A reader's choice kept with his address (``SET MAP``) needs no handler of
its own: its record's ``run`` is :func:`judge.verbs.choices.choose` over the
function that keeps it, so the verb is its record and its catalogue words
(``SET MAP`` was added so: three files, ``git show --stat`` of its commit).

Record fields: ``who`` — ``anyone``; ``player`` (signed on as a power;
``gm_too``: or as the GM); ``gm`` (signed on as the GM; the command line
has the GM's powers); ``keeper`` (the judge's command line only). ``en``:
English words (the ``SET`` family written ``"SET WORD"``); ``zh``: Chinese
words, both scripts (a line that starts with one is that command, the
longest word first); ``veterans``: the forms njudge's and DPjudge's users
type, read as this verb too (``"SET NO WAIT"``); ``usage`` and ``help``:
catalogue entries (:func:`N_`) whose capitals are the verb's words and what
it takes (``help`` may hold ``%(day)s``, a date in the future; a record with
no ``help`` is named by another's entry); ``reads``/``changes``: what the
verb reads and changes — ``game`` (a game's live state), ``gm`` (its GM's
record), ``accounts`` (a reader's choices), ``joins`` (JOINs waiting for
approval), ``catalogue`` (the list of games), ``archive`` (past phases),
``games`` (whole games in or out), ``mail`` (mails to others), ``diary``
(the writers' private notes, table ``diary``); a verb that
changes nothing is a question (the command line runs it without the
writer, and nothing needs undoing); ``secret``: the index, among the
arguments without ``=``, of a password (masked in every mail the judge
sends; negative: from the end, and only with two or more); ``cli``: its
name on the command line and in the writer's work items (``judge game gm
NAME <cli> ...``, and ``judge game <cli> NAME ...`` where ``cli_args`` says
what follows: a ``player`` verb's first word there is the power it is
done for), ``cli_options``: options whose values are more words
(``--members``), ``cli_params``: ``(option, help)`` of options the handler
reads from ``cmd.params`` (``--tz``). A ``keeper`` verb's ``help`` is the
command line's, in English (mail never reads it). ``takes``: what the mail
hands the verb as its ``body`` (:func:`body_of`): ``lines`` (the lines
after it up to the next command: PHASE's orders) or ``block`` (up to an end
line: a DIARY entry).

``veterans`` words are read as the verb; DPjudge's ``power@game`` forms,
njudge's ``SIGNON ?game`` and a line ending in ``SIGNOFF`` are read by
:func:`read_commands`; the veterans' rare commands and njudge's other ``SET
WORD`` lines are the ``our_way`` verb's (:mod:`judge.verbs.veterans`),
answered with this judge's way. The README's table "Commands of other
judges" lists them all.

``SET key=value ...`` (the GM's game settings) is read as ``set_settings``;
``SIGN ON``/``SIGN OFF`` as ``SIGNON``/``SIGNOFF``. Order lines and press
blocks are the mail's to read (:mod:`judge.notation`,
:mod:`judge.game.press`); their records (``orders``, ``press``) have no words.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
import unicodedata
from dataclasses import dataclass
from datetime import timedelta
from typing import Callable

from ..notation.lexicon import clean_line
from ..storage.accounts import set_map_format
from ..text.catalogue import N_
from . import anyone, archive, ending, gm, keeper, orders, player, veterans
from .choices import choose
from .session import CommandLine, Session


def help_text(s: Session, cmd: CommandLine) -> None:
    """HELP: the sections of :func:`help_sections`, in the reader's language;
    HELP VARIANTS (帮助 变体): the VARIANTS list."""
    if cmd.args and cmd.args[0].casefold() in ("variants", "variant", "变体", "變體"):
        return anyone.list_variants(s, cmd)
    day = (s.now + timedelta(days=14)).date()          # the examples' dates: in the future
    s.results.append({"kind": "help", "line": cmd.line, "day": day.isoformat(), "sections": help_sections()})


@dataclass(frozen=True)
class Verb:
    """One verb (see module doc)."""
    name: str
    who: str
    run: Callable[[Session, CommandLine], None]
    en: tuple[str, ...] = ()
    zh: tuple[str, ...] = ()
    veterans: tuple[str, ...] = ()
    usage: str | None = None
    help: tuple[str, ...] = ()
    reads: tuple[str, ...] = ()
    changes: tuple[str, ...] = ()
    gm_too: bool = False
    secret: int | None = None
    cli: str | None = None
    cli_args: str = ""
    cli_options: tuple[str, ...] = ()
    cli_params: tuple[tuple[str, str], ...] = ()
    takes: str = ""


VERBS: tuple[Verb, ...] = (
    # ---- anyone ----
    Verb('help', 'anyone', help_text, en=('HELP',), zh=('帮助', '幫助', '说明', '說明'),
         help=(N_('HELP                        this text'),)),
    Verb('create', 'anyone', anyone.create, en=('CREATE',), zh=('创建', '創建', '建立'),
         usage=N_('CREATE GAME PASSWORD [deadline=YYYY-MM-DDTHH:MM] [key=value ...]'),
         help=(N_('CREATE GAME PASSWORD [key=value ...]\n'
                  '                            create a game; you are its GM. Settings such as\n'
                  '                            deadline=%(day)sT20:00 timezone=Asia/Shanghai\n'
                  '                            movement=48h press=white rules=datc|droidippy;\n'
                  '                            preset=house: every house rule of the\n'
                  '                            simplified-Chinese text, each named in the reply'),),
         reads=('catalogue',), changes=('game', 'gm'), secret=1),
    Verb('join', 'anyone', anyone.join, en=('JOIN',), zh=('加入',), veterans=('TAKEOVER',),
         usage=N_('JOIN GAME PASSWORD [POWER] [join_password=JOIN-PASSWORD]'),
         help=(N_('JOIN GAME PASSWORD [POWER]  join a game as a player; the password is yours\n'
                  '                            (a password has at least 4 characters)'),),
         reads=('game', 'accounts'), changes=('game', 'joins', 'mail'), secret=1),
    Verb('signon', 'anyone', anyone.signon, en=('SIGNON',), zh=('登录', '登錄', '登入', '签到', '簽到'),
         usage=N_('SIGNON GAME [PASSWORD]'),
         help=(N_('SIGNON GAME [PASSWORD]      (or SIGN ON; njudge\'s "SIGNON Fgame pw" works)\n'
                  '                            sign on to a game you play or run; the lines\n'
                  '                            after it are orders. The password is needed\n'
                  '                            from an address not on record'),),
         reads=('game', 'gm'), secret=1),
    Verb('variants', 'anyone', anyone.list_variants, en=('VARIANTS',), zh=('变体', '變體'),
         usage=N_('VARIANTS'),
         help=(N_('VARIANTS                    (or HELP VARIANTS) the variants a game can be\n'
                  '                            created on: powers, players, supply centres to\n'
                  '                            win, designer. CREATE GAME PASSWORD variant=ancmed'),),
         reads=('catalogue',)),
    Verb('list', 'anyone', anyone.list_games, en=('LIST',), zh=('列表', '查看'),
         usage=N_('LIST [GAME]'),
         help=(N_('LIST [GAME]                 show a game (or the games you play)'),),
         reads=('game', 'catalogue')),
    Verb('observe', 'anyone', anyone.observe, en=('OBSERVE',), zh=('旁观', '旁觀', '观战', '觀戰'), veterans=('WATCH',),
         usage=N_('OBSERVE GAME'),
         help=(N_("OBSERVE GAME                receive a game's results and broadcasts"),),
         reads=('game',), changes=('game',)),
    Verb('history', 'anyone', archive.history, en=('HISTORY',), zh=('历史', '歷史'),
         usage=N_('HISTORY [GAME] [FROM PHASE] [TO PHASE]'),
         help=(N_('HISTORY [GAME] [FROM PHASE] [TO PHASE]\n'
                  '                            results of past phases (PHASE: S1901M, ...)'),),
         reads=('archive',)),
    Verb('summary', 'anyone', archive.summary, en=('SUMMARY',), zh=('概要', '摘要'),
         usage=N_('SUMMARY [GAME]'),
         help=(N_('SUMMARY [GAME]              who played each power; supply centres by year'),),
         reads=('archive',)),
    Verb('map', 'anyone', archive.map_picture, en=('MAP',), zh=('地图', '地圖'),
         usage=N_('MAP [GAME] [PHASE] [SVG]'),
         help=(N_('MAP [GAME] [PHASE] [SVG]    the map as a picture (and as SVG if asked)'),),
         reads=('archive',)),
    Verb('set_language', 'anyone', anyone.set_language, en=('SET LANGUAGE', 'SET LANG'),
         zh=('设置语言', '設定語言', '設置語言'),
         usage=N_('SET LANGUAGE en|zh-hans|zh-hant'),
         help=(N_('SET LANGUAGE en|zh-hans|zh-hant\n'
                  '                            (or SET LANG) the language of replies to you'),),
         changes=('accounts', 'game', 'gm')),
    Verb('set_names', 'anyone', anyone.set_names, en=('SET NAMES',), zh=('设置地名', '設定地名'),
         usage=N_('SET NAMES house|standard'),
         help=(N_('SET NAMES house|standard    the names the judge writes you: the rule\n'
                  "                            texts' own spellings, or the standard ones"),),
         changes=('accounts',)),
    Verb('set_map', 'anyone',
         choose(set_map_format, {'png': N_('Mails about games will show the map as a picture (PNG).'),
                                 'svg': N_('Mails about games will show the map as SVG.'),
                                 'none': N_('Mails about games will show no map.'),
                                 'game': N_("Mails about games will show the map as each game's GM set it.")},
                words={'图片': 'png', '圖片': 'png', '无': 'none', '無': 'none', '不要': 'none',
                       '游戏': 'game', '遊戲': 'game'}),
         en=('SET MAP',), zh=('设置地图', '設定地圖', '設置地圖'),
         usage=N_('SET MAP png|svg|none|game'),
         help=(N_('SET MAP png|svg|none|game   how mails about games show you the map (game:\n'
                  "                            as the game's GM set it)"),),
         changes=('accounts',)),
    Verb('our_way', 'anyone', veterans.our_way,
         help=(N_("njudge's and DPjudge's commands work too: SIGNON france@game, SIGNON\n"
                  '                            ?game, TAKEOVER, SET DRAW, SET NO WAIT, WATCH,\n'
                  "                            ENDBROADCAST, // comments ...; the others are\n"
                  "                            answered with this judge's way to do them"),),
         veterans=tuple(w for w in veterans.OURS if w not in ('SET', 'VOTE DRAW'))),
    Verb('signoff', 'anyone', anyone.signoff, en=('SIGNOFF',), zh=('结束', '結束', '签退', '簽退'),
         help=(N_('SIGNOFF                     (or SIGN OFF) stop reading this mail here'),)),
    # ---- a player, after SIGNON ----
    Verb('orders', 'player', orders.orders, cli='orders',
         help=(N_('orders, one per line        A Par - Bur  F Lon S F Nth  华沙陆军移动到莫斯科'),),
         reads=('game',), changes=('game',)),
    Verb('set_password', 'player', player.set_password, en=('SET PASSWORD',),
         zh=('设置密码', '設定密碼', '設置密碼', '修改密码', '修改密碼'), gm_too=True, secret=0,
         usage=N_('SET PASSWORD NEW-PASSWORD'),
         help=(N_('SET PASSWORD NEW            change your password for that game'),),
         changes=('game', 'gm')),
    Verb('set_address', 'player', player.set_address, en=('SET ADDRESS',),
         zh=('设置地址', '設定地址', '設置地址', '修改地址'), gm_too=True,
         usage=N_('SET ADDRESS NEW@ADDRESS'),
         help=(N_('SET ADDRESS NEW@ADDRESS     mail for that game goes to the new address (the\n'
                  '                            old one gets no more)'),),
         changes=('game', 'gm')),
    Verb('advisor', 'player', player.advisor, en=('ADVISOR',), zh=('幕僚',),
         usage=N_('ADVISOR ADD NAME@ADDRESS [NOMAIL] | ADVISOR REMOVE NAME@ADDRESS'),
         help=(N_('ADVISOR ADD ADDRESS [NOMAIL] | ADVISOR REMOVE ADDRESS\n'
                  '                            the leader adds (or removes) an advisor, who\n'
                  "                            gets the power's mail (NOMAIL: does not) and\n"
                  '                            scores nothing; ADVISOR alone lists them'),),
         reads=('game',), changes=('game', 'mail')),
    Verb('set_wait', 'player', player.set_wait, en=('SET WAIT',), zh=('等待',), cli='wait', cli_args='POWER',
         help=(N_('SET WAIT | SET NOWAIT       hold the phase until its deadline / allow early\n'
                  "                            processing once every power's orders are in"),),
         changes=('game',)),
    Verb('set_nowait', 'player', player.set_nowait, en=('SET NOWAIT',), zh=('不等待',), veterans=('SET NO WAIT',),
         cli='nowait',
         cli_args='POWER', changes=('game',)),
    Verb('set_absence', 'player', player.set_absence, en=('SET ABSENCE',), veterans=('SET HOLIDAY', 'SET VACATION'),
         zh=('设置缺席', '設定缺席', '请假', '請假'),
         cli='absence',
         cli_args='POWER FROM DATE TO DATE',
         usage=N_('SET ABSENCE FROM DATE TO DATE'),
         help=(N_('SET ABSENCE FROM DATE TO DATE\n'
                  '                            (dates like %(day)s) no deadline falls while\n'
                  '                            you are away'),),
         changes=('game', 'mail')),
    Verb('press', 'player', orders.press, gm_too=True,
         help=(N_('PRESS TO POWER ... [GREY]   a message to those powers (TO GM: to the GM),'),
               N_('BROADCAST [GREY]            or to everyone. The text follows on the next\n'
                  '                            lines, then a line ENDPRESS. GREY: unsigned'),),
         changes=('game', 'mail')),
    Verb('ally', 'player', ending.ally, en=('ALLY',), zh=('结盟', '結盟', '同盟', '联盟', '聯盟'),
         cli='ally', cli_args='POWER OTHER',
         help=(N_('ALLY POWER | UNALLY         declare (or withdraw) a two-power alliance'),),
         changes=('game',)),
    Verb('unally', 'player', ending.unally, en=('UNALLY',), zh=('解除结盟', '解除結盟', '解除同盟', '解除联盟', '解除聯盟'),
         cli='unally', cli_args='POWER', changes=('game',)),
    Verb('draw', 'player', ending.draw, en=('DRAW',), zh=('和局', '平局'), veterans=('SET DRAW',),
         cli='draw', cli_args='POWER [POWERS ...]', cli_options=('--members',),
         help=(N_('DRAW [POWERS] | NODRAW      vote for a draw (default: every survivor) /\n'
                  '                            withdraw the vote'),),
         changes=('game', 'mail')),
    Verb('nodraw', 'player', ending.nodraw, en=('NODRAW',), zh=('取消和局', '取消平局'),
         veterans=('SET NODRAW', 'SET NO DRAW'),
         cli='nodraw', cli_args='POWER', changes=('game',)),
    Verb('concede', 'player', ending.concede, en=('CONCEDE',), zh=('认输', '認輸', '投降'), veterans=('SET CONCEDE',),
         cli='concede', cli_args='POWER TO',
         help=(N_('CONCEDE POWER               concede the game to that power'),),
         changes=('game', 'mail')),
    Verb('unconcede', 'player', ending.unconcede, veterans=('SET NOCONCEDE', 'SET NO CONCEDE'), cli='unconcede',
         cli_args='POWER', changes=('game',)),
    Verb('vote', 'player', ending.vote, en=('VOTE',), zh=('投票',),
         cli='vote', cli_args='POWER STRATEGY|DIPLOMACY CANDIDATE',
         usage=N_('VOTE BEST STRATEGY|DIPLOMACY POWER'),
         help=(N_('VOTE BEST STRATEGY|DIPLOMACY POWER\n'
                  "                            the leader's vote for an award; the vote\n"
                  '                            closes award_window after the end of the game\n'
                  '                            (or once every leader has voted for both), and\n'
                  '                            the awards are announced then'),),
         changes=('game', 'mail')),
    Verb('resign', 'player', player.resign, en=('RESIGN',), zh=('辞职', '辭職', '退出游戏', '退出遊戲'),
         veterans=('WITHDRAW',),
         help=(N_('RESIGN                      leave the game'),),
         changes=('game', 'mail')),
    Verb('clear', 'player', orders.clear, en=('CLEAR',), zh=('清除命令',),
         help=(N_('CLEAR                       withdraw every order of this phase'),),
         changes=('game',)),
    Verb('phase', 'player', orders.phase_orders, en=('PHASE',), zh=('回合',), takes='lines',
         usage=N_('PHASE F1901M (or PHASE Fall 1901 Movement), then the orders for that phase'),
         help=(N_('PHASE F1901M [CLEAR]        the order lines after it are for that later phase:\n'
                  '                            kept, and applied when it opens if still legal\n'
                  '                            (you get a note either way); CLEAR drops them'),),
         changes=('game',)),
    Verb('set_noabsence', 'player', veterans.set_noabsence, en=('SET NOABSENCE',), zh=('取消缺席',),
         veterans=('SET NO ABSENCE',),
         help=(N_('SET NOABSENCE               withdraw your absences'),),
         changes=('game',)),
    Verb('standing', 'anyone', orders.standing, en=('STATUS',), zh=('状况', '狀況'),
         usage=N_('STATUS [GAME]'),
         help=(N_('STATUS [GAME]               after SIGNON: your orders as they stand and the\n'
                  '                            units without orders; else LIST GAME'),),
         reads=('game',)),
    Verb('diary', 'anyone', veterans.diary, en=('DIARY',), zh=('日记', '日記'), takes='block',
         usage=N_('DIARY [RECORD] | DIARY LIST | DIARY READ N | DIARY DELETE N | DIARY GAME'),
         help=(N_('DIARY ... ENDDIARY          (after SIGNON) a private note: nobody else reads\n'
                  '                            it while the game runs; DIARY LIST, DIARY READ N,\n'
                  '                            DIARY DELETE N; after the end DIARY GAME shows all'),),
         reads=('game',), changes=('diary',)),
    # ---- the GM, after SIGNON with the GM password ----
    Verb('set_deadline', 'gm', gm.set_deadline, en=('SET DEADLINE',), zh=('设置截止', '設定截止', '設置截止'),
         cli='deadline', cli_args='WHEN',
         help=(N_("SET DEADLINE DATE TIME      SET DEADLINE %(day)s 20:00 (the game's time\n"
                  '                            zone) or SET DEADLINE %(day)sT20:00+08:00'),),
         changes=('game', 'mail')),
    Verb('start', 'gm', gm.start, en=('START',), zh=('开始', '開始'), veterans=('FORCE BEGIN',), cli='start',
         cli_args='[WHEN]',
         help=(N_('START [DATE TIME]           start the clock before every power is taken\n'
                  '                            (first deadline DATE TIME, else by the settings)'),),
         changes=('game', 'mail')),
    Verb('extend', 'gm', gm.extend, en=('EXTEND',), zh=('延长', '延長'), cli='extend', cli_args='[LENGTH]',
         help=(N_('EXTEND 24h                  move the deadline later'),),
         changes=('game', 'mail')),
    Verb('pause', 'gm', gm.pause, en=('PAUSE',), zh=('暂停', '暫停'), cli='pause', cli_args='[LENGTH]',
         help=(N_('PAUSE [48h] | RESUME        stop the clock (at most pause_limit) / go on:\n'
                  '                            the phase gets back the time it had left, at\n'
                  '                            least an hour'),),
         changes=('game', 'mail')),
    Verb('resume', 'gm', gm.resume, en=('RESUME',), zh=('恢复', '恢復'), cli='resume', changes=('game', 'mail')),
    Verb('process', 'gm', gm.process, en=('PROCESS',), zh=('结算', '結算'), cli='process', cli_args='[PHASE]',
         help=(N_('PROCESS [PHASE]             adjudicate the phase now (with PHASE: only if the\n'
                  '                            game is still in it, PROCESS S1901M)'),),
         changes=('game', 'archive', 'mail')),
    Verb('rollback', 'gm', gm.rollback, en=('ROLLBACK',), zh=('回退', '回滚', '回滾'), cli='rollback',
         cli_args='PHASE',
         help=(N_('ROLLBACK PHASE              back to the start of PHASE (ROLLBACK F1901M)'),),
         changes=('game', 'archive', 'mail')),
    Verb('set_settings', 'gm', gm.set_settings, cli='set', cli_args='[KEY=VALUE ...]', usage=N_("SET key=value ..."),
         cli_params=(('--tz', "time zone of an end_at without offset (default: the game's)"),),
         help=(N_("SET key=value ...           change the game's settings (the keys of CREATE)"),),
         changes=('game', 'mail')),
    Verb('eject', 'gm', gm.eject, en=('EJECT',), zh=('撤下', '逐出'), cli='eject', cli_args='POWER',
         help=(N_("EJECT POWER                 remove a power's player; the power is vacant"),),
         changes=('game', 'mail')),
    Verb('replace', 'gm', gm.replace, en=('REPLACE',), zh=('替补', '替補'), cli='replace', cli_args='POWER PASSWORD', secret=-1,
         help=(N_('REPLACE POWER PASSWORD      open a power to a replacement, who joins with\n'
                  '                            JOIN GAME PASSWORD POWER'),),
         changes=('game', 'mail')),
    Verb('approve', 'gm', gm.approve, en=('APPROVE',), zh=('批准', '准许', '准許'),
         usage=N_('APPROVE ADDRESS|POWER'),
         help=(N_('APPROVE ADDRESS | REJECT ADDRESS\n'
                  '                            answer a JOIN that waits for approval (approve=yes)'),),
         reads=('joins',), changes=('game', 'joins', 'mail')),
    Verb('reject', 'gm', gm.reject, en=('REJECT',), zh=('拒绝', '拒絕', '驳回', '駁回'),
         usage=N_('REJECT ADDRESS|POWER'), reads=('joins',), changes=('joins', 'mail')),
    Verb('become', 'gm', gm.become, en=('BECOME',), zh=('代理',),
         help=(N_("BECOME POWER                enter a vacant or abandoned power's orders: the\n"
                  "                            order lines that follow are that power's"),),
         reads=('game',)),
    Verb('end', 'gm', ending.end, en=('END',), zh=('结束游戏', '結束遊戲', '终局', '終局'), veterans=('TERMINATE',),
         cli='end', cli_args='[POWERS ...]', cli_options=('--members',),
         help=(N_('END [DRAW] [POWERS]         end the game as a draw (default: every survivor)'),),
         changes=('game', 'mail')),
    Verb('passive', 'gm', ending.passive, en=('PASSIVE',), zh=('判定消极', '判定消極', '消极', '消極'),
         cli='passive', cli_args='POWER FINE|none',
         usage=N_('PASSIVE POWER FINE|NONE'),
         help=(N_('PASSIVE POWER FINE|NONE     rule a player passive, fined FINE points (NONE:\n'
                  '                            withdraw the ruling)'),),
         changes=('game', 'mail')),
    Verb('award', 'gm', ending.award, en=('AWARD',), zh=('颁奖', '頒獎', '授奖', '授獎'),
         cli='award', cli_args='STRATEGY|DIPLOMACY POWER|none | close',
         usage=N_('AWARD [BEST] STRATEGY|DIPLOMACY POWER|NONE'),
         help=(N_('AWARD [BEST] STRATEGY|DIPLOMACY POWER|NONE\n'
                  '                            name the winner of an award (NONE: withdraw)'),
               N_("AWARD CLOSE                 close the leaders' award vote now"),),
         changes=('game', 'mail')),
    # ---- the judgekeeper's command line ----
    Verb('new', 'keeper', keeper.new, cli='new', changes=('games',)),
    Verb('status', 'keeper', keeper.status, cli='status', reads=('game',),
         help=('state (running, paused, waiting, finished), deadline, pause, WAIT flags, NMR record',)),
    Verb('check', 'keeper', ending.check, cli='check', reads=('game',), changes=('game', 'mail'),
         help=('check the victory conditions now (the end time, a deadline)',)),
    Verb('archive_import', 'keeper', keeper.take_in, cli='archive import', changes=('games',)),
    Verb('arrive', 'keeper', keeper.take_in, cli='game arrive', changes=('games',)),
    Verb('leave', 'keeper', keeper.leave, cli='leave', reads=('game',), changes=('games',)),
    Verb('mail_notices', 'keeper', keeper.mail_notices, cli='mail notices', changes=('mail',)),
)

SECTIONS = (("anyone", N_("Anyone:")), ("player", N_("After SIGNON, as a player:")),
            ("gm", N_("After SIGNON as the GM (with the game's GM password):")))
"""The HELP sections: ``who`` of :class:`Verb`, and the section's title."""

BY_NAME = {v.name: v for v in VERBS}
BY_CLI = {v.cli: v for v in VERBS if v.cli}
"""The verbs of the command line (and of the writer's work items) by their ``cli`` name."""
_EN = {w: v for v in VERBS for w in v.en + v.veterans if " " not in w}
_PHRASES = {w: v for v in VERBS for w in v.veterans if " " in w and not w.startswith("SET ")}
_EN_SET = {w.split(maxsplit=1)[1]: v for v in VERBS for w in v.en + v.veterans if w.startswith("SET ")}
_ZH_WORDS = sorted(((w, v) for v in VERBS for w in v.zh), key=lambda x: -len(x[0]))
_ZH_BY_FIRST = {c: tuple(x for x in _ZH_WORDS if x[0][0] == c) for c in {w[0] for w, _ in _ZH_WORDS}}
""":data:`_ZH_WORDS` by their first character (longest first in each): a
line is tried only against the words that start as it does (issue 23: an
order line had been tried against all 124 of them)."""
ENGLISH_WORDS = tuple(w for v in VERBS for w in v.en)
"""Every English command word of this judge (``SET`` words as ``"SET
WORD"``); the veterans' forms are the README table's."""


def read_commands(line: str) -> list[CommandLine]:
    """The commands on ``line``: :func:`read_command`'s, with the veterans'
    forms that name a power and a game (:func:`_power_at_game`): DPjudge's
    ``SIGNON france@game pw`` (njudge's ``SIGNON Fgame pw``), ``JOIN`` /
    ``TAKEOVER france@game pw`` (``JOIN game pw France``), ``OBSERVE
    x@game``, ``RESIGN france@game pw`` (a SIGNON, then RESIGN); njudge's
    ``SIGNON ?game pw`` (``JOIN game pw``), ``SIGNON ?`` (``LIST``) and
    ``CREATE ?game pw`` (``CREATE game pw``); a
    line ending in SIGNOFF (``JOIN g pw France SIGNOFF``): its command, then
    SIGNOFF. An empty list: no command."""
    cmd = read_command(line)
    if cmd is None:
        return []
    if cmd.name != "signoff" and len(cmd.args) > 0 and cmd.args[-1].upper() == "SIGNOFF":
        # "JOIN g pw France SIGNOFF": the line's command, then SIGNOFF
        return read_commands(cmd.line[:cmd.line.upper().rindex("SIGNOFF")]) + [_line(BY_NAME["signoff"], (), "SIGNOFF")]
    args = cmd.args
    if cmd.name == "create" and args and args[0].startswith("?") and len(args[0]) > 1:   # njudge's CREATE ?game pw
        return [dataclasses.replace(cmd, args=(args[0][1:],) + args[1:])]
    if cmd.name == "signon" and args and args[0].startswith("?"):
        if args[0] == "?":
            return [_line(BY_NAME["list"], (), cmd.line)]
        return [_line(BY_NAME["join"], (args[0][1:],) + args[1:], cmd.line)]
    at = _power_at_game(args[0]) if args else None
    if at is None:
        return [cmd]
    power, game = at
    if cmd.name == "signon":
        letter = "M" if power.upper() in ("MASTER", "GM", "M") else power[0].upper()
        return [dataclasses.replace(cmd, args=(letter + game,) + args[1:])]
    if cmd.name == "join":
        return [dataclasses.replace(cmd, args=(game,) + args[1:2] + (power,) + args[2:])]
    if cmd.name == "observe":
        return [dataclasses.replace(cmd, args=(game,) + args[1:])]
    if cmd.name == "resign" and len(args) > 1:
        return [_line(BY_NAME["signon"], (power[0].upper() + game, args[1]), cmd.line),
                dataclasses.replace(cmd, args=args[2:])]
    return [cmd]


_AT = re.compile(r"^([A-Za-z][A-Za-z-]*)@([A-Za-z0-9_-]{1,32})$")


def _power_at_game(word: str) -> tuple[str, str] | None:
    """``("france", "game")`` of DPjudge's ``france@game`` (a mail address,
    with a dot after the @, is not one)."""
    m = _AT.match(word)
    return (m.group(1), m.group(2)) if m else None


_VOTE_DRAW = ("YES", "NO", "ACCEPT", "REJECT", "DRAW", "DIAS", "SOLO", "NONE")


def read_command(line: str) -> CommandLine | None:
    """The command on ``line`` (see module doc), or None if it holds none.
    Invisible characters (a byte-order mark, zero-width spaces) are ignored;
    ``SIGN ON``/``SIGN OFF`` are ``SIGNON``/``SIGNOFF``; a trailing colon on
    the command word is allowed. The veterans' rare commands are the
    ``our_way`` verb's (:mod:`judge.verbs.veterans`), and so is any other
    ``SET WORD`` without ``=`` (njudge's GM settings)."""
    line = clean_line(line)
    text = unicodedata.normalize("NFKC", line).strip()
    words = text.split()
    if not words:
        return None
    first = words[0].upper().rstrip(":")
    if first == "SIGN" and len(words) > 1 and words[1].upper() in ("ON", "OFF"):
        first, words = "SIGN" + words[1].upper(), ["SIGN" + words[1].upper()] + words[2:]
    if first == "SET" and len(words) == 1:      # SET alone: the settings' usage, not "did you mean SET?"
        verb = BY_NAME["set_settings"]
        return CommandLine(verb.name, (), line.strip(), verb, (), {"bare": True})
    if first == "SET" and len(words) > 1:
        for n in (3, 2, 1):                     # SET NO WAIT before SET NO
            key = " ".join(words[1:1 + n]).upper().rstrip(":")
            if len(words) > n and key in _EN_SET:
                return _line(_EN_SET[key], words[1 + n:], line)
        if "=" in words[1]:                     # the GM's game settings
            return _line(BY_NAME["set_settings"], words[1:], line)
        if words[1].isascii() and words[1].isalpha():     # njudge's SET WORD of a GM: our way
            return _veteran(words, line, f"SET {words[1].upper()}")
    for n in (3, 2):                            # FORCE BEGIN, BECOME MASTER, I AM ALSO x@y
        key = " ".join(words[:n]).upper()
        if len(words) >= n and key in _PHRASES and (key != "I AM ALSO" or "@" in " ".join(words[3:4])):
            verb = _PHRASES[key]
            if verb.name == "our_way":
                return _veteran(words, line, key)
            return _line(verb, words[n:], line)
    if first == "VOTE" and len(words) > 1 and (words[1].isdigit() or words[1].upper() in _VOTE_DRAW):
        return _veteran(words, line, "VOTE DRAW")       # DPjudge's draw vote
    if first in _EN and (_EN[first].name != "our_way" or len(words) <= 3):
        return _line(_EN[first], words[1:], line)
    for word, verb in _ZH_BY_FIRST.get(text[0], ()):
        if text.startswith(word):
            return _line(verb, text[len(word):].lstrip(" :").split(), line)
    return None


def _line(verb: Verb, args, line: str) -> CommandLine:
    return CommandLine(verb.name, tuple(args), line.strip(), verb)


def _veteran(words, line: str, word: str) -> CommandLine:
    """A veteran's rare command: the ``our_way`` verb, told which it is."""
    verb = BY_NAME["our_way"]
    return CommandLine(verb.name, tuple(words[1:]), line.strip(), verb, (), {"veteran": word})


def body_of(cmd: CommandLine) -> str:
    """What the mail hands ``cmd`` as its ``body``: ``"lines"`` (the lines
    after it up to the next command: PHASE's orders), ``"block"`` (up to an
    end line: a DIARY entry; DIARY LIST, READ, DELETE and DIARY GAME take
    none) or ``""``."""
    if cmd.verb.takes == "block" and veterans.diary_action(cmd) != "record":
        return ""
    return cmd.verb.takes


def command(name: str, args=(), line: str = "", body=(), params: dict | None = None) -> CommandLine:
    """A command of verb ``name`` made by the program (order lines, a press
    block, a command-line work item), not read from a line."""
    verb = BY_NAME[name]
    return CommandLine(verb.name, tuple(args), line, verb, tuple(body), dict(params or {}))


def suggest_command(line: str) -> str | None:
    """The command word nearest to the first word of ``line`` ("SINGON" -> "SIGNON")."""
    words = unicodedata.normalize("NFKC", line).split()
    return _nearest_verb(words[0].upper()[:40]) if words else None


@functools.lru_cache(maxsize=4096)
def _nearest_verb(word: str) -> str | None:
    """The command word nearest to ``word`` (difflib, cutoff 0.75), or None;
    kept: the first words of order lines (``A``, ``F``, ``PAR``) repeat."""
    hits = difflib.get_close_matches(word, list(_EN) + ["SET"], n=1, cutoff=0.75)
    return hits[0] if hits else None


def help_sections() -> list[tuple[str, list[str]]]:
    """The HELP text's sections: ``[(title, [entry, ...]), ...]``, catalogue
    entries in :data:`VERBS`' order."""
    return [(title, [h for v in VERBS if v.who == who for h in v.help]) for who, title in SECTIONS]
