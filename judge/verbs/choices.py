"""A reader's own choices (table ``accounts``), one generic handler for
each ``SET WORD value`` verb whose record says what it keeps:
:func:`choose` makes the handler from the values' words, the function that
keeps the choice, and the sentence each value is answered with (catalogue
entries, :func:`~judge.text.catalogue.N_`, in the record). So a new choice
is its record alone (and its words in the catalogue)::

    Verb('set_map', 'anyone', choose(set_map_format, {'png': N_('...'), ...}), ...)
"""

from __future__ import annotations

from typing import Callable

from .session import CommandLine, Session


def choose(keep: Callable[[object, str, str], None], said: dict[str, str],
           words: dict[str, str] | None = None) -> Callable[[Session, CommandLine], None]:
    """The handler of a choice: the command's words (any case; ``words`` maps
    other words, Chinese ones, to a value) must name one of ``said``'s
    values, else the refusal ``bad_choice`` lists them; the sender's address
    is needed (``no_sender``); ``keep(db, address, value)`` stores it, and
    the answer (kind ``choice_set``) is ``said[value]``."""
    words = {k.lower(): v for k, v in (words or {}).items()}

    def run(s: Session, cmd: CommandLine) -> None:
        text = " ".join(cmd.args).strip().lower()
        value = words.get(text, text)
        if value not in said:
            return s.error(cmd.line, "bad_choice", text=" ".join(cmd.args), allowed=list(said))
        if not s.asker.address:
            return s.error(cmd.line, "no_sender")
        keep(s.db, s.asker.address, value)
        s.results.append({"kind": "choice_set", "line": cmd.line, "said": said[value]})
    return run
