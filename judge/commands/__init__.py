"""Subcommands of the ``judge`` CLI: each module has ``register(subparsers)``."""
