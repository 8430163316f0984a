"""The archive's verbs (issue 6), answered with the texts of
:mod:`judge.archive.text` in the reader's language::

    HISTORY [<game>] [FROM <phase>] [TO <phase>]   (历史 歷史)  the results as the results mails told them
    SUMMARY [<game>]                               (概要 摘要)  players and supply centres by year
    MAP [<game>] [<phase>] [SVG]                   (地图 地圖)  the map: a PNG shown and attached (and the SVG)

Without a game name, the game signed on to. Nobody needs a password: the
archive shows only adjudicated phases and the current position; a private
game (unlisted or invite-only) only to who may see it
(:meth:`~judge.verbs.session.Session.sees`), to anyone else as if it did not exist.
"""

from __future__ import annotations

from ..archive.text import history_text, summary_text
from ..game import GameError
from ..game.future import read_phase
from ..rules.phase import Phase
from .session import MapShown, Session
from .veterans import diaries


def _archive_game(s: Session, cmd, args: list[str]):
    """The game the command names first in ``args`` (taken off), else the
    game signed on; None after an error line."""
    if args and args[0].upper() not in ("FROM", "TO") and not _is_phase(args[0]):
        game = s.find_game(args.pop(0))
        if game is None or not s.sees(game):         # a private game: as if there were none
            s.error(cmd.line, "no_such_game", game=cmd.args[0])
            return None
        return game
    if s.game is None:
        s.usage(cmd)
    return s.game


def history(s: Session, cmd) -> None:
    args = list(cmd.args)
    game = _archive_game(s, cmd, args)
    if game is None:
        return
    first, last = _phase_span(args)
    text = history_text(game, first, last, s.language(), names=s.names(s.asker.address),
                        templates=s.defaults.templates)
    s.last_game = game.name
    s.results.append({"kind": "archive", "line": cmd.line, "text": text})


def summary(s: Session, cmd) -> None:
    game = _archive_game(s, cmd, list(cmd.args))
    if game is None:
        return
    s.last_game = game.name
    s.results.append({"kind": "archive", "line": cmd.line, "text": summary_text(game, s.language())})
    if game.finished and s.db.get("diary", game.name):          # after the end the diaries are the archive's
        s.results.append(dict(diaries(s, game, cmd.line), line=""))


def map_picture(s: Session, cmd) -> None:
    """MAP: the picture of a phase the game has reached (GameError for
    another), the mail draws it (:class:`~judge.verbs.session.MapShown`)."""
    args = list(cmd.args)
    svg = bool(args) and args[-1].upper() == "SVG" and bool(args.pop())
    game = _archive_game(s, cmd, args)
    if game is None:
        return
    phase = args[0] if args else None
    shown = game.position.phase if phase is None or phase == game.position.phase else game.record(phase).phase
    s.attachments.append(MapShown(game.name, phase, svg, s.language(), s.names(s.asker.address)))
    s.last_game = game.name
    s.results.append({"kind": "archive", "line": cmd.line, "text": "",
                      "attachment": ", ".join(f"{game.name}-{shown}.{fmt}" for fmt in ("png", "svg")[:1 + svg])})


def _is_phase(text: str) -> bool:
    try:
        Phase.parse(text)
        return True
    except ValueError:
        return False


def _phase_span(args: list[str]) -> tuple[str | None, str | None]:
    """``FROM phase TO phase`` of HISTORY, each phase as njudge's users write
    it too (``FROM Spring 1901 Movement TO F1902M``; :func:`read_phase`):
    ``(first, last)``, None where not given; a phase not read is passed on
    as written (the archive names it in its refusal)."""
    words = [a.upper() for a in args]
    out = []
    for key, stop in (("FROM", "TO"), ("TO", None)):
        if key not in words[:-1]:
            out.append(None)
            continue
        i = words.index(key) + 1
        j = words.index(stop, i) if stop and stop in words[i:] else len(args)
        text = " ".join(args[i:j])
        try:
            out.append(read_phase(text))
        except GameError:
            out.append(args[i])
    return out[0], out[1]
