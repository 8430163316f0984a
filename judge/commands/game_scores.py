"""``judge game scores NAME``: the final scores of a game (``RULES.md``
§4-5), or the standing of a running one (SC counts, alliances, votes,
rulings, the NMR record). It only reads. The end-of-game verbs themselves
(``ally``, ``draw``, ``end``, ``passive``, ...) are :mod:`judge.commands.game_verbs`'.
"""

from __future__ import annotations

from ..text import english
from ..text.reasons import tie_reason
from ..text.words import phase_title
from .common import fail, load_stored_game


def register_scores(gsub, common) -> None:
    sc = gsub.add_parser("scores", parents=[common], help="the final scores, or the standing of a running game",
                         description="The final scores, or the standing of a running game.")
    sc.add_argument("name")
    sc.add_argument("--lang", default="en", choices=("en", "zh-hans", "zh-hant"))
    sc.add_argument("--tz", help="time zone for the times shown (default: the game's)")
    sc.set_defaults(func=run_scores)


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
