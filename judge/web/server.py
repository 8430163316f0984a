"""A small threaded HTTP server for the archive (GET and HEAD only).

Every request reads the games afresh from the documents source, so a game the
daemon has just adjudicated shows at once. ``?lang=zh-hans`` (or ``zh-hant``,
``en``) redirects to the page's path in that language; a directory path
without its final ``/`` redirects to it. Errors in a game document give a 500
page naming the error; nothing is written anywhere.
"""

from __future__ import annotations

import logging
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable
from urllib.parse import parse_qs, quote, unquote, urlsplit

from ..archive.site import Page, Site, lang_path
from ..notation.names import LANGS, lang_key

log = logging.getLogger(__name__)
METRICS_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def make_server(site: Site, host: str = "127.0.0.1", port: int = 8080,
                metrics: Callable[[], bytes] | None = None) -> ThreadingHTTPServer:
    """A server for ``site`` bound to ``host:port`` (port 0: any free port; the
    bound one is ``server.server_address[1]``); ``metrics``: the page
    ``/metrics`` (Prometheus' text format, :func:`judge.status.metrics`).
    Call ``serve_forever()`` to run it and ``shutdown()`` from another
    thread to stop it. Raises OSError when the address cannot be bound."""

    class Handler(_Handler):
        pass

    Handler.site = site
    Handler.metrics = staticmethod(metrics) if metrics else None
    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    return server


class _Handler(BaseHTTPRequestHandler):
    site: Site
    metrics: Callable[[], bytes] | None = None
    server_version = "judge-archive"

    def do_GET(self) -> None:
        self._answer(head=False)

    def do_HEAD(self) -> None:
        self._answer(head=True)

    def _answer(self, head: bool) -> None:
        url = urlsplit(self.path)
        path = unquote(url.path).lstrip("/")
        wanted = parse_qs(url.query).get("lang")
        try:
            if path == "metrics" and self.metrics is not None:
                page = Page(200, METRICS_TYPE, self.metrics())
            elif wanted:
                page = Page(302, location="/" + quote(lang_path(lang_key(wanted[0]), _without_lang(path))))
            else:
                page = self.site.render(path)
        except Exception as e:   # a broken game document: say so, keep serving
            log.exception("archive page %s", path)
            page = Page(500, "text/plain; charset=utf-8", f"500 internal error: {e}\n".encode("utf-8"))
        self.send_response(page.status)
        if page.location:
            self.send_header("Location", page.location)
        self.send_header("Content-Type", page.content_type)
        self.send_header("Content-Length", str(len(page.body)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        if not head:
            self.wfile.write(page.body)

    def log_message(self, format: str, *args) -> None:
        log.info("%s %s", self.address_string(), format % args)


def _without_lang(path: str) -> str:
    head, _, tail = path.partition("/")
    return tail if head in LANGS else path
