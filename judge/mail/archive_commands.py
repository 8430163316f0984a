"""The archive by mail (issue 6): a mixin of
:class:`~judge.mail.commands.MailCommands`, answering with the texts of
:mod:`judge.archive.text` in the reader's language::

    HISTORY [<game>] [FROM <phase>] [TO <phase>]   (历史 歷史)  the results as the results mails told them
    SUMMARY [<game>]                               (概要 摘要)  players and supply centres by year
    MAP [<game>] [<phase>] [SVG]                   (地图 地圖)  the map: a PNG shown and attached (and the SVG)

Without a game name, the game signed on to. Nobody needs a password: the
archive shows only adjudicated phases and the current position.
"""

from __future__ import annotations

from ..archive.text import history_text, summary_text
from ..game import GameError
from ..rules.phase import Phase
from .pictures import map_attachment
from .registry import usage_of



class ArchiveCommands:
    """See module doc. Methods are named ``_<command>`` as the handler dispatches."""

    def _archive_game(self, s, cmd, args: list[str]):
        if args and args[0].upper() not in ("FROM", "TO") and not _is_phase(args[0]):
            game = self._find_game(s, args.pop(0))
            if game is None:
                self._error(s, cmd.line, "no_such_game", game=cmd.args[0])
            return game
        if s.game is None:
            self._error(s, cmd.line, "usage", usage=usage_of(cmd.name))
        return s.game

    def _history(self, s, cmd) -> None:
        args = list(cmd.args)
        game = self._archive_game(s, cmd, args)
        if game is None:
            return
        words = [a.upper() for a in args]
        first = args[words.index("FROM") + 1] if "FROM" in words[:-1] else None
        last = args[words.index("TO") + 1] if "TO" in words[:-1] else None
        try:
            text = history_text(game, first, last, self._language(s), names=self._names(s, s.mail.sender),
                                templates=self.cfg.templates_dir)
        except GameError as e:
            return self._refused(s, cmd, e)
        s.last_game = game.name
        s.results.append({"kind": "archive", "line": cmd.line, "text": text})

    def _summary(self, s, cmd) -> None:
        game = self._archive_game(s, cmd, list(cmd.args))
        if game is None:
            return
        s.last_game = game.name
        s.results.append({"kind": "archive", "line": cmd.line, "text": summary_text(game, self._language(s))})

    def _map(self, s, cmd) -> None:
        args = list(cmd.args)
        svg = bool(args) and args[-1].upper() == "SVG" and bool(args.pop())
        game = self._archive_game(s, cmd, args)
        if game is None:
            return
        try:
            pic = map_attachment(game, args[0] if args else None, self._language(s),
                                 self._names(s, s.mail.sender), svg,
                                 s.db.get("accounts", s.mail.sender) if s.mail.sender else None)
        except GameError as e:
            return self._refused(s, cmd, e)
        s.attachments.append(pic)
        s.last_game = game.name
        s.results.append({"kind": "archive", "line": cmd.line, "text": "",
                          "attachment": ", ".join(f"{pic.name}.{fmt}" for fmt in pic.attach)})


def _is_phase(text: str) -> bool:
    try:
        Phase.parse(text)
        return True
    except ValueError:
        return False
