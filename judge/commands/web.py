"""``judge web [--host H] [--port N] [--data DIR | --config FILE]``: serve the
archive's pages from the store ``judge serve`` uses (see :mod:`judge.commands.game`),
and the judge's health for Prometheus at ``/metrics`` (:mod:`judge.status`)."""

from __future__ import annotations

import logging
import sys


def register(sub) -> None:
    p = sub.add_parser("web", help="serve the archive's web pages",
                       description="Serve the list of games, each game and each phase (map, "
                                   "orders and results, SCs) in English and Chinese, and each "
                                   "game's JSON export at /games/NAME.json, from the store of the "
                                   "data folder (DATA/store, read afresh for every page), and the judge's "
                                   "health for Prometheus at /metrics. Stop with Ctrl-C.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8080, help="port (default: 8080; 0: any free port)")
    from .common import add_data_options
    add_data_options(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..archive import site_of
    from ..storage import StoreError
    from ..web import make_server
    from .common import open_store
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        store = open_store(args)
        server = make_server(site_of(store), args.host, args.port, metrics=_metrics(args))
    except (OSError, StoreError) as e:
        print(f"judge web: {e}", file=sys.stderr)
        return 2
    host, port = server.server_address[:2]
    print(f"judge web: serving {store.path} at http://{host}:{port}/ (stop with Ctrl-C)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def _metrics(args):
    """The ``/metrics`` page's maker for the data folder of ``args``."""
    from prometheus_client import CollectorRegistry, generate_latest

    from ..status import metrics
    from .submit import config_of
    registry = CollectorRegistry()
    registry.register(metrics(config_of(args)))
    return lambda: generate_latest(registry)
