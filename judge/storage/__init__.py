"""Storage: TinyDB in one JSON file, atomic commits, one writer at a time.

Tables: ``"games"`` (key: game name, document: :meth:`judge.game.Game.to_dict`);
the mail daemon adds ``"ledger"``, ``"outbox"``, ``"players"``/``"accounts"``.
"""

from .games import load_game, save_game
from .store import Store, StoreError, Transaction

__all__ = ["Store", "StoreError", "Transaction", "load_game", "save_game"]
