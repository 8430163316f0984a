"""The end-of-game mail commands (``RULES.md`` §4-5, issue 5), after
``SIGNON`` as a power; a mixin of :class:`~judge.mail.commands.MailCommands`::

    ALLY <power>        (结盟 結盟)    declare a two-power alliance
    UNALLY              (解除结盟 解除結盟)
    DRAW [<powers>]     (和局)         vote for a draw (default: all survivors)
    NODRAW              (取消和局)
    CONCEDE <power>     (认输 認輸)    concede the game to a power
    VOTE BEST STRATEGY|DIPLOMACY <power>   (投票) an award vote of the power's leader

A vote that ends the game stops its clock and sends everyone the final report.
"""

from __future__ import annotations

from ..game import GameError, turns


class EndCommands:
    """See module doc. Methods are named ``_<command>`` as the handler dispatches."""

    def _end_command(self, s, cmd, action: str, run) -> None:
        game = self._player(s, cmd)
        if game is None:
            return
        try:
            detail = run(game)
        except GameError as e:
            return self._refused(s, cmd, e)
        self._changed(s, game)
        if game.finished:
            s.notices += turns.ended(game)
        s.results.append({"kind": "vote", "line": cmd.line, "game": game.name, "map": game.map_name,
                          "power": s.power, "action": action, "detail": detail, "over": game.finished})

    def _ally(self, s, cmd) -> None:
        def run(game):
            other = self._power_arg(game, cmd)
            return {"other": other, "allied": game.ally(s.power, other)}
        self._end_command(s, cmd, "ally", run)

    def _unally(self, s, cmd) -> None:
        self._end_command(s, cmd, "unally", lambda game: {"other": game.unally(s.power)})

    def _draw(self, s, cmd) -> None:
        def run(game):
            members = [self._power_arg(game, cmd, [w]) for w in cmd.args] or None
            game.draw(s.power, s.now, members)
            return {"members": members or []}
        self._end_command(s, cmd, "draw", run)

    def _nodraw(self, s, cmd) -> None:
        self._end_command(s, cmd, "nodraw", lambda game: game.nodraw(s.power) or {})

    def _concede(self, s, cmd) -> None:
        def run(game):
            to = self._power_arg(game, cmd)
            game.concede(s.power, to, s.now)
            return {"other": to}
        self._end_command(s, cmd, "concede", run)

    def _vote(self, s, cmd) -> None:
        def run(game):
            words = [w.upper() for w in cmd.args]
            if len(words) < 3 or words[0] != "BEST" or words[1] not in ("STRATEGY", "DIPLOMACY"):
                raise GameError("VOTE BEST STRATEGY <power> or VOTE BEST DIPLOMACY <power>")
            award = words[1].lower()
            candidate = self._power_arg(game, cmd, cmd.args[2:])
            game.vote_award(s.power, award, candidate, by=s.mail.reply_to)
            return {"award": award, "other": candidate}
        self._end_command(s, cmd, "vote", run)
