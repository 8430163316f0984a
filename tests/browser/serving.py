"""The archive served for real on a free local port, in a thread."""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path

from judge.archive import site_of
from judge.game import Game
from judge.storage import Store, save_game
from judge.web import make_server


def store_with(path: Path, *games: Game) -> Store:
    """A store folder at ``path`` holding ``games``."""
    store = Store(path)
    with store.transaction() as tx:
        for g in games:
            save_game(tx, g)
    return store


@contextlib.contextmanager
def serving(store: Store):
    """Serve the archive of ``store`` on 127.0.0.1 (a free port); yields the
    base URL (``http://127.0.0.1:PORT/``)."""
    server = make_server(site_of(store), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
