"""``judge game ally|unally|draw|nodraw|concede|unconcede|vote|passive|award|end|check|scores``:
the end-of-game commands (``RULES.md`` §4-5, issue 5) — a power's alliances,
draw and concession votes and award votes, entered by the GM on its behalf,
and the GM's rulings, checks and scores. Registered by :mod:`judge.commands.game`.
The one writer does what they change (:mod:`judge.actions.ending`); a
command that ends the game, or a ruling after its end, mails everyone the
final report. ``scores`` only reads.
"""

from __future__ import annotations

from ..text import english
from ..text.reasons import tie_reason
from ..text.words import phase_title
from .common import fail, load_stored_game, update_game


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
