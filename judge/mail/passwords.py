"""Per-game passwords: see :mod:`judge.game.passwords` (kept there so game
settings, such as a join password, hash with the same function); the mail
commands import them from here."""

from ..game.passwords import hash_password, verify_password  # noqa: F401
