"""``judge game ally|unally|draw|nodraw|concede|unconcede|vote|passive|award|end|check|scores``:
the end-of-game commands (``RULES.md`` §4-5, issue 5) — a power's alliances,
draw and concession votes and award votes, entered by the GM on its behalf,
and the GM's rulings, checks and scores. Registered by :mod:`judge.commands.game`,
whose store and power-name helpers they use. A command that ends the game,
or a ruling after its end, mails everyone the final report (the one writer
does it: see :mod:`judge.commands.game`).
"""

from __future__ import annotations

from ..game import GameError, master, turns
from ..text import english
from ..text.reasons import tie_reason
from ..text.words import phase_title
from .common import fail, load_stored_game, power_arg, update_game
from .work import game_action


def register_ending(gsub, common) -> None:
    """The end-of-game subcommands (RULES.md 4-5)."""
    def add(name, func, help_text, *args):
        """A subcommand; ``func`` None: the game action ``name`` run by the writer."""
        sp = gsub.add_parser(name, parents=[common], help=help_text, description=help_text)
        sp.add_argument("name")
        for a in args:
            sp.add_argument(a)
        sp.set_defaults(func=func or (lambda a, action=name: update_game(a, action)))
        return sp

    add("ally", None, "POWER declares an alliance with OTHER (ALLY)", "power", "other")
    add("unally", None, "POWER withdraws its alliance declaration (UNALLY)", "power")
    d = add("draw", None, "POWER votes for a draw (DRAW)", "power")
    d.add_argument("--members", nargs="+", metavar="POWER", help="the powers in the draw (default: all survivors)")
    add("nodraw", None, "POWER withdraws its draw vote (NODRAW)", "power")
    add("concede", None, "POWER concedes the game to TO (CONCEDE)", "power", "to")
    add("unconcede", None, "POWER withdraws its concession", "power")
    v = add("vote", None, "POWER's leader votes for an award (VOTE BEST STRATEGY|DIPLOMACY)", "power")
    v.add_argument("award", help="strategy or diplomacy")
    v.add_argument("candidate")
    pa = add("passive", None, "the GM rules POWER's player passive with a fine in points "
             "(none withdraws the ruling); shows the NMR record", "power")
    pa.add_argument("fine", help="points, or none")
    aw = add("award", None, "the GM names the winner of an award (none withdraws), or closes the "
             "leaders' award vote now (award NAME close)")
    aw.add_argument("award", help="strategy, diplomacy, or close")
    aw.add_argument("power", nargs="?")
    e = add("end", None, "the GM ends the game as a draw")
    e.add_argument("--members", nargs="+", metavar="POWER", help="the powers in the draw (default: all survivors)")
    add("check", None, "check the victory conditions now (the end time, a deadline)")
    sc = add("scores", run_scores, "the final scores, or the standing of a running game")
    sc.add_argument("--lang", default="en", choices=("en", "zh-hans", "zh-hant"))
    sc.add_argument("--tz", help="time zone for the times shown (default: the game's)")


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


def run_scores(args) -> int:
    from ..game import GameError
    from ..text.reports import final_text
    from ..storage import StoreError
    try:
        game = load_stored_game(args)
        text = final_text(game, args.lang, args.tz) if game.finished else standing_text(game)
    except (GameError, StoreError) as e:
        return fail(str(e))
    print(text, end="")
    return 0


def standing_text(game) -> str:
    """A running game's state for the GM: SC counts, alliances, draw and
    concession votes (all of them), award votes, passive rulings and the NMR record."""
    from ..game.scores import nmr_record
    end = game.ending
    lines = [f"Game {game.name} is running: {phase_title(str(game.phase))} ({game.phase}).",
             "Supply centres: " + ", ".join(f"{p} {n}" for p, n in game.sc_counts().items())]
    if end.allies:
        lines.append("Alliance declarations: " + ", ".join(f"{p} -> {a}" for p, a in sorted(end.allies.items()))
                     + "; in force: " + (", ".join(" + ".join(sorted(a)) for a in game.alliances()) or "none"))
    votes = game.visible_votes()
    for voter, members in votes["draw"].items():
        lines.append(f"{voter} votes for a draw of {', '.join(members)}.")
    for voter, winner in votes["concede"].items():
        lines.append(f"{voter} concedes to {winner}.")
    if end.tie:
        lines.append(english(tie_reason(end.tie)))
    for award, ballots in sorted(end.award_votes.items()):
        lines.append(f"{award} votes: " + ", ".join(f"{v} -> {c}" for v, c in sorted(ballots.items())))
    for award, power in sorted(end.gm_awards.items()):
        lines.append(f"{award} named by the GM: {power}")
    for power, fine in sorted(end.passive.items()):
        lines.append(f"{power} ruled passive, fined {fine} points.")
    missed = {p: ph for p, ph in nmr_record(game).items() if ph}
    if missed:
        lines.append("Phases without orders: " + "; ".join(f"{p} {', '.join(ph)}" for p, ph in missed.items()))
    return "\n".join(lines) + "\n"
