"""The game's error type, in its own module so that every part of the game
(``game``, ``ending``, ``setting_text``) can raise it without import cycles."""


class GameError(ValueError):
    """A request the game cannot take: unknown power or phase, bad name, a
    time without a time zone, an order or vote in a game that is over. Nothing
    is changed when it is raised."""
