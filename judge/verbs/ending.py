"""The end of the game (``RULES.md`` §4-5): a power's votes, the GM's
rulings, and the judgekeeper's check.

A power, after ``SIGNON`` (on the command line the GM enters them for it)::

    ALLY <power>        (结盟 結盟)    declare a two-power alliance
    UNALLY              (解除结盟 解除結盟)
    DRAW [<powers>]     (和局)         vote for a draw (default: all survivors)
    NODRAW              (取消和局)
    CONCEDE <power>     (认输 認輸)    concede the game to a power
    VOTE BEST STRATEGY|DIPLOMACY <power>   (投票 最佳战略|最佳外交 国家) an award vote of the
                        power's leader, counted when the vote closes

The GM's rulings, after ``SIGNON game gm-password``::

    END [DRAW] [<powers>]              (结束游戏 結束遊戲 终局 終局)  end the game as a
                                       draw (default: every survivor; Game.gm_end)
    PASSIVE <power> <fine>|NONE        (消极 消極 判定消极 判定消極)  rule a player passive,
                                       fined that many points (Appendix 2; NONE withdraws)
    AWARD STRATEGY|DIPLOMACY <power>|NONE   (颁奖 頒獎 授奖 授獎)  name the winner of a
                                       best strategy / best diplomacy award (战略 外交)
    AWARD CLOSE                        (颁奖 结束)  close the leaders' award vote now

A vote or a ruling that ends the game stops its clock and sends everyone the
final report (:func:`judge.game.final_report.game_over_notice`); a passive
ruling or an award after the end sends it again, corrected.
"""

from __future__ import annotations

from ..game import GameError, master, turns
from ..game.scores import AWARD_WORDS, award_name, award_vote_closes, nmr_record
from .session import Session

CLOSE_WORDS = ("结束", "結束", "截止", "关闭", "關閉")
"""``AWARD CLOSE`` in Chinese: 颁奖 结束."""
NONE_WORDS = ("NONE", "无", "無")


def _vote(s: Session, cmd, action: str, run) -> None:
    """A power's vote: ``run(game) -> detail``."""
    game = s.game
    if s.gm and s.asker.role != "keeper":     # the GM entering a power's orders (BECOME) does not vote for it
        raise GameError.of("gm_no_vote", power=s.power, map=game.map_name)
    was_over = game.finished
    before = game.ending.votes
    detail = run(game)
    s.changed(game)
    told = False
    if game.finished and not was_over:
        s.notices += turns.ended(game)          # this vote ended the game
        told = True
    elif action == "vote" and game.finished:    # an award vote after the end: closed by the last one
        closing = turns.close_award_vote(game, s.now)
        s.notices += closing
        told = bool(closing)
    if action == "vote":
        detail = dict(detail, closed=told, closes=award_vote_closes(game), timezone=game.settings.deadlines.timezone)
    elif action in ("draw", "nodraw", "concede", "unconcede") and not game.finished:
        votes = game.ending.votes          # what the vote stands at now
        replaced = "concede" if action == "draw" and s.power in before.concede else \
            "draw" if action == "concede" and s.power in before.draw else None
        detail = dict(detail, replaced=replaced, draw=sorted(p for p in votes.draw if p in game.survivors()),
                      waiting=[p for p in game.survivors() if p not in votes.draw])
    s.results.append({"kind": "vote", "line": cmd.line, "game": game.name, "map": game.map_name,
                      "power": s.power, "action": action, "detail": detail, "over": told})


def ally(s: Session, cmd) -> None:
    def run(game):
        other = s.power_arg(game, cmd.args)
        return {"other": other, "allied": game.ally(s.power, other)}
    _vote(s, cmd, "ally", run)


def unally(s: Session, cmd) -> None:
    _vote(s, cmd, "unally", lambda game: {"other": game.unally(s.power)})


def draw(s: Session, cmd) -> None:
    def run(game):
        members = [s.power_arg(game, [w]) for w in cmd.args] or None
        game.draw(s.power, s.now, members)
        return {"members": members or []}
    _vote(s, cmd, "draw", run)


def nodraw(s: Session, cmd) -> None:
    _vote(s, cmd, "nodraw", lambda game: game.nodraw(s.power) or {})


def concede(s: Session, cmd) -> None:
    def run(game):
        to = s.power_arg(game, cmd.args)
        game.concede(s.power, to, s.now)
        return {"other": to}
    _vote(s, cmd, "concede", run)


def unconcede(s: Session, cmd) -> None:
    _vote(s, cmd, "unconcede", lambda game: game.unconcede(s.power) or {})


def vote(s: Session, cmd) -> None:
    def run(game):
        award, rest = _award_words(cmd.args)
        if award is None or not rest:
            raise GameError("usage", usage=cmd.verb.usage)
        candidate = s.power_arg(game, rest)
        by = s.asker.address if s.asker.role != "keeper" else None     # the keeper enters it for the leader
        game.vote_award(s.power, award, candidate, by=by)
        return {"award": award.removeprefix("best_"), "other": candidate}
    _vote(s, cmd, "vote", run)


# ---- the GM's rulings -----------------------------------------------------------------
def _ruling(s: Session, cmd, action: str, run) -> None:
    """A GM's ruling: ``run(game) -> (notices, result data)``."""
    game = s.game
    try:
        notices, detail = run(game)
    except (GameError, ValueError) as e:
        return s.refuse(cmd, e)
    s.notices += notices
    s.changed(game)
    s.results.append({"kind": "ruling", "line": cmd.line, "game": game.name, "map": game.map_name,
                      "action": action, "over": game.finished, **detail})


def end(s: Session, cmd) -> None:
    def run(game):
        words = list(cmd.args)
        if words and words[0].upper() in ("DRAW", "和局"):
            words = words[1:]
        members = [s.power_arg(game, [w]) for w in words] or None
        notices = master.end_game(game, s.now, members)
        return notices, {"members": list(game.ending.result.winners)}
    _ruling(s, cmd, "end", run)


def passive(s: Session, cmd) -> None:
    def run(game):
        if len(cmd.args) < 2:
            raise GameError("usage", usage=cmd.verb.usage)
        power = s.power_arg(game, cmd.args[:-1])
        text = cmd.args[-1]
        if text.upper() in NONE_WORDS:
            fine = None
        elif text.isascii() and text.isdigit():
            fine = int(text)
        else:
            raise GameError("not_points", text=text)
        notices = master.rule_passive(game, power, fine, s.now)
        return notices, {"power": power, "fine": fine, "missed": list(nmr_record(game)[power])}
    _ruling(s, cmd, "passive", run)


def award(s: Session, cmd) -> None:
    if len(cmd.args) == 1 and (cmd.args[0].upper() == "CLOSE" or cmd.args[0] in CLOSE_WORDS):
        return _ruling(s, cmd, "award_close", lambda game: (turns.close_award_vote(game, s.now, by_gm=True), {}))

    def run(game):
        award, rest = _award_words(cmd.args)
        if award is None:
            raise GameError("usage", usage=cmd.verb.usage)
        if not rest:
            raise GameError("name_power")
        none = len(rest) == 1 and rest[0].upper() in NONE_WORDS
        power = None if none else s.power_arg(game, rest)
        notices = master.name_award(game, award, power, s.now)
        return notices, {"award": award.removeprefix("best_"), "power": power}
    _ruling(s, cmd, "award", run)


def _award_words(args) -> tuple[str | None, list[str]]:
    """``(award code, the words after it)`` of ``STRATEGY France``, ``BEST
    DIPLOMACY France``, ``最佳战略 法国``, ``最佳战略奖法国``; ``(None, [])`` when
    no award is named."""
    args = list(args)
    for n in (1, 2):
        try:
            return award_name(" ".join(args[:n])), args[n:]
        except GameError:
            continue
    if args:                                    # 最佳战略法国: the award and the power run together
        for word in sorted((w for ws in AWARD_WORDS.values() for w in ws if not w.isascii()), key=len,
                           reverse=True):
            if args[0].startswith(word) and len(args[0]) > len(word):
                return award_name(word), [args[0][len(word):]] + args[1:]
    return None, []


# ---- the judgekeeper ------------------------------------------------------------------
def check(s: Session, cmd) -> None:
    """The victory conditions checked now (the end time, a deadline); a game
    that ends now is ended as a deadline would end it."""
    game = s.game
    was_over = game.finished
    found = game.check_end(s.now)
    if game.finished and not was_over:
        s.notices += turns.ended(game)
    s.changed(game)
    s.results.append({"kind": "check", "line": cmd.line, "game": game.name, "map": game.map_name,
                      "over": game.finished, "result": found.result, "tie": found.tie})
