"""The archive's web pages, one renderer for ``judge web`` (served live) and
``judge archive build`` (written as static files), so both give the same pages.

Paths (no leading slash; the English pages have no prefix, the Chinese ones
``zh-hans/`` or ``zh-hant/``)::

    games/                      the list of games (also the site root "")
    games/NAME/                 a game: powers, players, SC history, phases; when
                                it is over, the result, final SCs and scores
    games/NAME/S1901M/          one phase: map, orders and results, SCs, press
                                (a finished game's last phase: the final position)
    games/NAME.json             the JSON export (:mod:`.export`), one for all languages
    static/archive.css|.js      style and arrow-key navigation

Only public games are shown (issue 19, point 3): a game that is unlisted
(``listed=no``) or invite-only (``access=invite``) has no page, no phase page
and no JSON — each of its paths answers exactly as for a game that does not
exist (the same 404 page), and a static build writes none of them. The web
has no login: its players and GM read it by mail (HISTORY, SUMMARY, MAP).

Pages link to each other by relative URLs, so a built archive works under
any folder of any web server. Templates: ``templates/web/*.html`` (Jinja2 with
the i18n extension; the one catalogue of :mod:`judge.text.catalogue`).
"""

from __future__ import annotations

import json
import posixpath
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Callable

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from ..game import Game
from ..game.codec import time_from_str
from ..maps import load_map, load_names
from ..notation.names import LANGS, name_index
from ..render import load_geometry, render_svg
from ..rules.map import MapError
from ..rules.phase import Phase
from .export import export_game
from .final import KINDS, end_view
from ..text.catalogue import LANG_LABELS, TEMPLATES_DIR, gettext, translations
from ..text.reports import map_words
from .views import TIME_FORMAT, game_view, names_of, phase_title, phase_view, phases

WEB_TEMPLATES = TEMPLATES_DIR / "web"

STATIC = {"static/archive.css": "text/css; charset=utf-8",
          "static/archive.js": "text/javascript; charset=utf-8"}
HTML = "text/html; charset=utf-8"
JSON = "application/json; charset=utf-8"
HTML_LANG = {"en": "en", "zh-hans": "zh-Hans", "zh-hant": "zh-Hant"}


@dataclass(frozen=True)
class Page:
    """A response: ``status`` 200 with ``body``, 301 to ``location`` (a path
    with a leading slash), or 404."""

    status: int
    content_type: str = HTML
    body: bytes = b""
    location: str | None = None


def lang_path(lang: str, rest: str) -> str:
    """The path of page ``rest`` (``"games/x/"``) in ``lang``."""
    return rest if lang == "en" else f"{lang}/{rest}"


def relative(frm: str, to: str) -> str:
    """The relative URL from page path ``frm`` to path ``to``:
    ``relative("games/g/S1901M/", "games/g/F1901M/") == "../F1901M/"``."""
    base = frm.rpartition("/")[0] or "."
    rel = posixpath.relpath(to.rstrip("/") or ".", base)
    if to == "" or to.endswith("/"):
        rel = "./" if rel == "." else rel + "/"
    return rel


class Site:
    """The archive of the games of a store: ``catalogue()`` gives the
    catalogue index (``{name: row}``, :mod:`judge.storage.indexes`; the list
    of games is made from it alone) and ``game(name)`` a game, or None (its
    history read as the pages need it). Both are asked again for every page.
    :func:`site_of` makes a Site of a :class:`~judge.storage.Store`."""

    def __init__(self, catalogue: Callable[[], dict[str, dict]], game: Callable[[str], Game | None]):
        self.catalogue, self.load = catalogue, game

    # ---- routing -----------------------------------------------------------------
    def render(self, path: str) -> Page:
        """The page at ``path`` (no leading slash, no query, %-decoded). Raises
        what the documents source raises, and ValueError/KeyError for a
        malformed game document."""
        if path in STATIC:
            return Page(200, STATIC[path], (WEB_TEMPLATES / path).read_bytes())
        lang, rest = "en", path
        head, _, tail = path.partition("/")
        if head in LANGS and head != "en":
            lang, rest = head, tail
        parts = rest.split("/")
        if rest in ("", "games/"):
            return self._html(path, lang, "index.html", games=self._index(lang))
        if parts[0] != "games":
            return self._not_found(path, lang)
        if len(parts) == 2 and parts[1].endswith(".json"):
            if lang != "en":
                return Page(301, location="/" + rest)     # one export for all languages
            game = self._game(parts[1][:-5])
            if game is None:
                return self._not_found(path, lang)
            body = json.dumps(export_game(game), ensure_ascii=False, indent=1) + "\n"
            return Page(200, JSON, body.encode("utf-8"))
        if rest in ("games",) or (len(parts) in (2, 3) and parts[-1] != ""):
            return Page(301, location="/" + path + "/")
        game = self._game(parts[1]) if len(parts) >= 3 else None
        if game is None:
            return self._not_found(path, lang)
        if len(parts) == 3:
            return self._game_page(path, lang, game)
        if len(parts) == 4 and parts[3] == "":
            try:
                phase = str(Phase.parse(parts[2]))
            except ValueError:
                return self._not_found(path, lang)
            if phase != parts[2]:
                return Page(301, location="/" + lang_path(lang, f"games/{game.name}/{phase}/"))
            if phase in phases(game):
                return self._phase_page(path, lang, game, phase)
        return self._not_found(path, lang)

    def paths(self) -> list[str]:
        """Every path of the archive, for a static build (public games only)."""
        out = list(STATIC)
        for name in sorted(self.catalogue()):
            game = self._game(name)
            if game is None:
                continue
            out.append(f"games/{name}.json")
            for lang in LANGS:
                out.append(lang_path(lang, f"games/{name}/"))
                out += [lang_path(lang, f"games/{name}/{ph}/") for ph in phases(game)]
        for lang in LANGS:
            out += [lang_path(lang, ""), lang_path(lang, "games/")]
        return out

    def write(self, directory: Path) -> int:
        """Write every page under ``directory`` (``games/x/`` as
        ``games/x/index.html``); returns the number of files written."""
        n = 0
        for path in self.paths():
            page = self.render(path)
            target = Path(directory) / (path + "index.html" if path == "" or path.endswith("/") else path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(page.body)
            n += 1
        return n

    # ---- pages -------------------------------------------------------------------
    def _game(self, name: str) -> Game | None:
        """The public game ``name``, or None (no such game, or a private one)."""
        row = self.catalogue().get(name)
        if row is None or not self._public(name, row):
            return None
        return self.load(name)

    def _public(self, name: str, row: dict) -> bool:
        """Whether the game of catalogue ``row`` is shown on the web: listed
        and not invite-only (see module doc). A row written before the
        catalogue kept ``access`` asks the game itself."""
        if not row.get("listed", True):
            return False
        access = row.get("access")
        if access is None:
            game = self.load(name)
            access = game.settings.access.access if game is not None else "invite"
        return access != "invite"

    def _index(self, lang: str) -> list[dict]:
        """The list of games, from the catalogue alone (no game is read)."""
        _ = gettext(lang)
        rows = []
        for name, row in sorted(self.catalogue().items()):
            if not self._public(name, row):        # unlisted or invite-only: not on the web at all
                continue
            names = name_index(load_map(row["map"]), load_names(row["map"]))
            rows.append({"name": name, "title": phase_title(row["phase"], lang), "phases": row.get("phases", 0),
                         "over": _(KINDS[row["result"]]) if row.get("result") in KINDS else None,
                         "last": time_from_str(row.get("last")),
                         "counts": [(names.power_name(p, lang), n) for p, n in (row.get("centres") or {}).items()
                                    if n]})
        return rows

    def _game_page(self, path: str, lang: str, game: Game) -> Page:
        view = game_view(game, lang)
        current = phase_view(game, game.position.phase, lang)
        return self._html(path, lang, "game.html", game=view, power_rows=list(zip(view.powers, current.centres)),
                          end=end_view(game, lang), colours=_colours(game))

    def _phase_page(self, path: str, lang: str, game: Game, phase: str) -> Page:
        view = phase_view(game, phase, lang)
        order = phases(game)
        i = order.index(phase)
        try:
            svg = render_svg(game.map, names_of(game), view.position, view.results, lang,
                             words=map_words(view.position.phase, lang))
        except MapError:             # a variant not drawn yet: the page goes without its picture
            svg = ""
        nav = {"prev": order[i - 1] if i > 0 else None,
               "next": order[i + 1] if i + 1 < len(order) else None,
               "index": i + 1, "count": len(order)}
        return self._html(path, lang, "phase.html", view=view, svg=Markup(svg), nav=nav,
                          end=end_view(game, lang) if view.game_over else None,
                          colours=_colours(game), game_name=game.name)

    def _not_found(self, path: str, lang: str) -> Page:
        page = self._html(path, lang, "not_found.html", missing="/" + path)
        return Page(404, page.content_type, page.body)

    def _html(self, path: str, lang: str, template: str, **context) -> Page:
        rest = path[len(lang) + 1:] if lang != "en" else path

        def url(to: str) -> str:
            return relative(path, to)

        def link(to: str) -> str:
            return relative(path, lang_path(lang, to))

        langs = [{"code": code, "label": LANG_LABELS[code], "url": url(lang_path(code, rest)),
                  "current": code == lang} for code in LANGS]
        html = _environment(lang).get_template(template).render(
            lang=lang, html_lang=HTML_LANG[lang], url=url, link=link, langs=langs,
            when=_when, **context)
        return Page(200, HTML, html.encode("utf-8"))


def _colours(game: Game) -> dict:
    """``{power: colour}`` of the game's map picture; ``{}`` for a map not drawn
    yet (a variant whose ``geometry.json`` is still to come: issue 24)."""
    try:
        return dict(load_geometry(game.map).colours)
    except MapError:
        return {}


def _when(dt: datetime | None) -> str:
    return dt.strftime(TIME_FORMAT) if dt else ""


@lru_cache(maxsize=None)
def _environment(lang: str) -> Environment:
    env = Environment(loader=FileSystemLoader(str(WEB_TEMPLATES)), autoescape=select_autoescape(["html"]),
                      extensions=["jinja2.ext.i18n"], trim_blocks=True, lstrip_blocks=True)
    env.install_gettext_translations(translations(lang), newstyle=True)
    return env



def site_of(store) -> Site:
    """The archive of a :class:`judge.storage.Store` (every game in its catalogue)."""
    from ..storage import load_game
    return Site(lambda: store.all("catalogue"), lambda name: load_game(store, name))
