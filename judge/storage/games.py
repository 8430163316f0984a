"""Games in the store: table ``"games"``, keyed by game name."""

from __future__ import annotations

from ..game import Game
from .store import Store, StoreError, Transaction

GAMES = "games"


def load_game(store: Store, name: str) -> Game | None:
    """The stored game ``name``, or None. Raises StoreError for a malformed document."""
    doc = store.get(GAMES, name)
    if doc is None:
        return None
    try:
        return Game.from_dict(doc)
    except (KeyError, TypeError, ValueError) as e:
        raise StoreError(f"{store.path}: games/{name}: malformed game: {e}") from None


def save_game(tx: Transaction, game: Game) -> None:
    tx.put(GAMES, game.name, game.to_dict())
