"""The archive: every past phase of a game, by mail, on web pages and as JSON.

Module map: ``views`` (what is shown, in one language), ``text`` (the mail
answers ``HISTORY``, ``SUMMARY``, ``MAP``: :func:`history_text`,
:func:`summary_text`, :func:`map_svg`), ``site`` (the web pages, served by
:mod:`judge.web` or written by ``judge archive build``), ``export`` (the JSON
export and its replay check), ``final`` (a finished game's result, final SCs
and scores), ``records`` (recorded games played as games), ``i18n``
(languages and catalogues).
"""

from .export import check_export, export_game
from .records import game_from_record
from .site import Site, site_of
from .text import history_text, map_svg, summary_text

__all__ = ["Site", "site_of", "check_export", "export_game", "game_from_record", "history_text", "map_svg",
           "summary_text"]
