"""``judge web``: the archive's pages served over HTTP (standard library
``http.server``); the pages themselves come from :class:`judge.archive.Site`."""

from .server import make_server

__all__ = ["make_server"]
