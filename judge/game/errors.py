"""The game's error type, in its own module so that every part of the game
(``game``, ``ending``, ``setting_text``) can raise it without import cycles.

A :class:`GameError` is a code with parameters, like a rules core reason
(:mod:`judge.rules.reasons`): ``GameError("not_started", game="g7")``. Its
words, in English and Chinese, are the text layer's
(:data:`judge.text.reasons.TEXTS` lists every code and its params); the mail
says it in the reader's language. ``{power}``-like parameters name powers
in English; ``map`` (optional) names the map, for the powers' names.
"""

from __future__ import annotations

from ..rules.reasons import Reason, RuleError


class GameError(ValueError):
    """A request the game cannot take: unknown power or phase, bad name, a
    time without a time zone, an order or vote in a game that is over.
    Nothing is changed when it is raised. ``code`` and ``params``: see the
    module doc. A code the text layer does not know (a sentence, as the
    command line's own errors are) is shown as it is. ``str()`` is the
    English sentence, for logs and the command line."""

    def __init__(self, code: str, **params):
        super().__init__(code)
        self.code, self.params = code, dict(params)

    @classmethod
    def of(cls, code: str, **params) -> "GameError":
        return cls(code, **params)

    @classmethod
    def wrap(cls, error: ValueError, **extra) -> "GameError":
        """A rules core :class:`~judge.rules.reasons.RuleError` (or another
        GameError) as a GameError with the same code and params (plus
        ``extra``); any other ValueError as code ``unworded`` with its text."""
        if isinstance(error, (RuleError, GameError)):
            return cls(error.code, **{**error.params, **extra})
        return cls("unworded", text=str(error), **extra)

    @property
    def reason(self) -> Reason:
        return Reason(self.code, **self.params)

    def __str__(self) -> str:
        from ..text import english       # the words are the text layer's
        return english(self)

    def __reduce__(self):
        return (_game_error, (self.code, self.params))


def _game_error(code: str, params: dict) -> GameError:
    return GameError(code, **params)
