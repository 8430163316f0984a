"""Storage: a folder of small TinyDB files — one per game, its history one
file per phase, judge-wide tables sharded by key — committed through a
journal by one writer (:mod:`.store`, :mod:`.layout`, :mod:`.journal`);
games and their indexes (:mod:`.games`, :mod:`.indexes`); the upgrade of a
one-file store of an earlier release (:mod:`.upgrade`).
"""

from .games import delete_game, find_game, games_of, load_game, save_game, save_gm
from .store import Store, StoreError, Transaction, open_tinydb

__all__ = ["Store", "StoreError", "Transaction", "delete_game", "find_game", "games_of", "load_game", "open_tinydb",
           "save_game", "save_gm"]
