"""A reader's own choices, kept in table ``accounts`` (address -> {language,
names, map}): what the verbs ``SET LANGUAGE``, ``SET NAMES`` and ``SET MAP``
write and the mail reads when it words and draws a mail to that reader."""

from __future__ import annotations

from ..game.settings import MAP_FORMATS

MAP_CHOICES = (*MAP_FORMATS, "game")
"""``SET MAP``'s values: a format of :data:`~judge.game.settings.MAP_FORMATS`,
or ``game`` (no choice of one's own: the game's ``map=`` counts)."""


def set_map_format(db, address: str, fmt: str) -> None:
    """Keep ``address``'s own choice ``fmt`` (``png``, ``svg``, ``none``;
    ``game``: none of his own, the game's setting counts) in table
    ``accounts`` of ``db`` (a store or a staging). Raises ValueError for
    another value."""
    if fmt not in MAP_CHOICES:
        raise ValueError(f"map format {fmt!r}: one of {', '.join(MAP_FORMATS)} or game")
    row = {k: v for k, v in (db.get("accounts", address) or {}).items() if k != "map"}
    db.put("accounts", address, row if fmt == "game" else dict(row, map=fmt))
