"""The end-of-game actions of ``judge game ally|unally|draw|nodraw|concede|
unconcede|vote|passive|award|end|check`` (``RULES.md`` §4-5; see
:mod:`judge.commands.game_end` and :mod:`judge.actions.registry`): a
power's alliances, draw and concession votes and award votes, entered by the
GM on its behalf, and the GM's rulings and checks. An action that ends the
game, or a ruling after its end, mails everyone the final report."""

from __future__ import annotations

from ..game import GameError, master, turns
from ..text import english
from ..text.reasons import tie_reason
from .registry import game_action, power_arg


def _ended(game, head: str) -> str:
    """``head``, and the final report when the game is over."""
    if not game.finished:
        return head
    from ..text.reports import final_text
    return f"{head}\n\n{final_text(game)}"


@game_action("ally")
def ally_action(game, now, args):
    power, other = power_arg(game, args.power), power_arg(game, args.other)
    mutual = game.ally(power, other)
    return (f"{power} and {other} are allied." if mutual else
            f"{power} declared an alliance with {other}; it stands once {other} declares {power}.")


@game_action("unally")
def unally_action(game, now, args):
    power = power_arg(game, args.power)
    return f"{power} withdrew its alliance with {game.unally(power)}."


@game_action("draw")
def draw_action(game, now, args):
    power = power_arg(game, args.power)
    members = None if args.members is None else [power_arg(game, m) for m in args.members]
    result = game.draw(power, now, members)
    return _ended(game, english(result.reason) if result else f"{power} voted for a draw.")


@game_action("nodraw")
def nodraw_action(game, now, args):
    power = power_arg(game, args.power)
    game.nodraw(power)
    return f"{power} withdrew its draw vote."


@game_action("concede")
def concede_action(game, now, args):
    power, to = power_arg(game, args.power), power_arg(game, args.to)
    result = game.concede(power, to, now)
    return _ended(game, english(result.reason) if result else f"{power} conceded the game to {to}.")


@game_action("unconcede")
def unconcede_action(game, now, args):
    power = power_arg(game, args.power)
    game.unconcede(power)
    return f"{power} withdrew its concession."


@game_action("vote")
def vote_action(game, now, args):
    power, candidate = power_arg(game, args.power), power_arg(game, args.candidate)
    game.vote_award(power, args.award, candidate)
    notices = turns.close_award_vote(game, now) if game.finished else []
    closed = " Every leader has voted: the award vote is closed and everyone is sent the final report." \
        if notices else ""
    return f"{power} voted for {candidate} ({args.award}).{closed}", notices


@game_action("passive")
def passive_action(game, now, args):
    from ..game.scores import nmr_record
    power = power_arg(game, args.power)
    fine = None if args.fine.lower() == "none" else _whole(args.fine)
    notices = master.rule_passive(game, power, fine, now)
    missed = ", ".join(nmr_record(game)[power]) or "none"
    ruling = f"{power} ruled passive, fined {fine} points" if fine is not None \
        else f"passive ruling on {power} withdrawn"
    return f"{ruling}. Phases without orders: {missed}.{_again(notices)}", notices


def _again(notices) -> str:
    return " Everyone is sent the final report again." if notices else ""


def _whole(text: str) -> int:
    if not text.isdigit():
        raise ValueError(f"{text!r} is not a whole number of points (or none)")
    return int(text)


@game_action("award")
def award_action(game, now, args):
    if args.award.lower() == "close":          # the GM closes the leaders' vote now
        notices = turns.close_award_vote(game, now, by_gm=True)
        return "The award vote is closed; everyone is sent the final report with the awards.", notices
    if args.power is None:
        raise GameError("name_power")
    power = None if args.power.lower() == "none" else power_arg(game, args.power)
    notices = master.name_award(game, args.award, power, now)
    return f"{args.award} award: {power or 'withdrawn'}.{_again(notices)}", notices


@game_action("end")
def end_action(game, now, args):
    members = None if args.members is None else [power_arg(game, m) for m in args.members]
    notices = master.end_game(game, now, members)
    return _ended(game, english(game.ending.result.reason)), notices


@game_action("check")
def check_action(game, now, args):
    check = game.check_end(now)
    if check.result:
        return _ended(game, english(check.result.reason))
    return english(tie_reason(check.tie)) if check.tie else f"Game {game.name} goes on: no victory condition is met."
