"""The map in the judge's mail: which picture a mail shows, in whose words,
and its PNG — rendered once per phase, language and name set, and kept with
the phase's record (issue 20).

A :class:`Picture` is what a :class:`~judge.mail.reply.Reply` asks to show:
the SVG of one phase (:func:`judge.render.render_svg`, the picture the web
archive shows: orders, failures, dislodged units, retreats, SC colours, a
legend, in the reader's language and name set), a file name, a caption and
``alt`` text. :func:`picture` makes it from a game. The worker turns it into
the bytes a mail carries with :class:`Rasters`: the PNG
(:func:`judge.render.png.svg_to_png`) is looked up in table ``pictures``
first (key ``GAME/NNNN/VARIANT``, beside record NNNN of the game's history:
``VARIANT`` is ``phase-`` (the record's orders and results) or ``board-``
(the board at the start of phase NNNN, before any order: the game's start,
its final position, ``MAP`` of the current phase) then the language and,
in Chinese, the name set); a document there holds the SHA-256 of the SVG it
was drawn from, so a phase adjudicated again after a ``ROLLBACK`` is drawn
again. A results mail to eight players renders each picture once. Only the
last :data:`KEPT` records keep theirs (``MAP`` of an older phase draws it
again, in some 70 ms): the store does not grow by a picture a phase.

What a reader gets (:func:`map_format`): ``png`` (HTML mail with the map
inline), ``svg`` (the same with the SVG inline, for mail readers that show
SVG), ``none`` (the plain text only, as njudge mailed) — the reader's own
choice (table ``accounts``, key ``map``) else the game's (``map=``).
"""

from __future__ import annotations

import base64
import hashlib
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace

from ..game.settings import MAP_FORMATS
from ..archive.text import map_svg
from ..storage.games import PICTURE_VARIANTS
from ..text import Words
from ..text.catalogue import N_
from ..text.names import name_set

log = logging.getLogger("judge.mail")

KEPT = 3
"""Records a game keeps pictures for: putting one for record N drops those of
record N-3, so a game's store holds a few pictures, not one per phase
(each is about 90 kB)."""

PNG_WIDTH = 800
"""Pixels across a mailed map (the web archive's width)."""

ALT = N_("Map of game %(game)s, %(title)s (%(phase)s). Supply centres: %(counts)s.")
ALT_RESULTS = N_("Map of game %(game)s, %(title)s (%(phase)s): the orders and their results. "
                 "Supply centres: %(counts)s.")
CAPTION = N_("%(title)s (%(phase)s)")
FINAL = N_("Final position (%(phase)s)")


@dataclass(frozen=True)
class Picture:
    """A map a mail shows. ``key``: its place in table ``pictures`` (see
    module doc); ``svg``: the picture; ``name``: the file name without
    extension (``demo-F1901M``); ``phase``: the phase it shows; ``caption``
    and ``alt`` in the reader's words; ``format``: ``png`` or ``svg`` (how
    the HTML part shows it; ``none``: not shown);
    ``attach``: formats also attached as files (``MAP``: ``("png",)`` or
    ``("png", "svg")``)."""

    key: str
    svg: str
    name: str
    phase: str
    caption: str
    alt: str
    format: str = "png"
    attach: tuple[str, ...] = ()

    @property
    def cid(self) -> str:
        """The Content-ID (without ``<>``) of its inline part: stable, so the
        same mail is made again byte for byte."""
        digest = hashlib.sha256(f"{self.key}\0{self.format}".encode()).hexdigest()[:16]
        return f"map-{digest}@judge"


def map_format(game, account: dict | None) -> str:
    """``png``, ``svg`` or ``none`` for mail about ``game`` to the reader
    whose ``accounts`` row is ``account``: the reader's choice (``map``)
    else the game's setting (``map=``; ``png`` without a game)."""
    own = (account or {}).get("map")
    if own in MAP_FORMATS:
        return own
    return game.settings.map if game is not None else "png"


def map_attachment(game, phase: str | None, lang: str, names: str | None, svg: bool, account: dict | None
                   ) -> Picture:
    """The answer to ``MAP [game] [phase] [SVG]``: the picture of ``phase``
    (default the current board) attached as PNG, and as SVG when ``svg``;
    shown in the HTML part too unless the reader chose ``none``. Raises
    :class:`~judge.game.GameError` for a phase the game has not reached."""
    pic = picture(game, phase, lang, names)
    return replace(pic, format=map_format(game, account), attach=("png", "svg") if svg else ("png",))


def notice_pictures(notice, game, lang: str, names: str | None) -> list[Picture]:
    """The maps a notice's mail shows: a results mail each phase it tells,
    the game's start its opening board, the game-over mail the final board;
    none for other notices, or for a map without a picture
    (:class:`~judge.rules.map.MapError`)."""
    from ..rules.map import MapError
    if notice.kind == "results":
        phases = list(notice.data.get("phases", ()))
    elif notice.kind in ("started", "game_over"):
        phases = [None]
    else:
        return []
    try:
        pictures = [picture(game, phase, lang, names) for phase in phases]
    except MapError as e:
        log.warning("game %s: no map picture (%s)", game.name, e)
        return []
    if notice.kind == "game_over":        # the board the game ended on: told as such
        w = Words(game.map_name, lang, names)
        pictures = [replace(p, caption=w(FINAL, phase=p.phase)) for p in pictures]
    return pictures


def picture(game, phase: str | None, lang: str, names: str | None = None) -> Picture:
    """The picture of ``game``'s adjudicated ``phase`` (its orders and
    results drawn on the board it started from), or with ``phase`` None of
    the current board (no order shown), in ``lang`` and name set ``names``
    (default the game's). Raises :class:`~judge.game.GameError` for a phase
    the game has not reached."""
    names = name_set(names or game.settings.names)
    if phase is None or phase == game.position.phase:
        index, position, results, kind = len(game.history), game.position, (), "board"
    else:
        record = game.record(phase)
        index = _index(game, record.phase)
        position, results, kind = record.position_before, record.results, "phase"
    shown = position.phase
    svg = map_svg(game, None if kind == "board" else shown, lang, names=names)
    w = Words(game.map_name, lang, names)
    title = w.phase(shown)
    counts = position.centre_counts()
    listed = w.join([f"{w.power(p)} {counts[p]}" for p in game.map.powers if counts.get(p)])
    alt = w(ALT_RESULTS if results else ALT, game=game.name, title=title, phase=shown, counts=listed)
    variant = f"{kind}-{lang}" + (f"-{names}" if lang != "en" else "")
    return Picture(key=f"{game.name}/{index:04d}/{variant}", svg=svg, name=f"{game.name}-{shown}", phase=shown,
                   caption=w(CAPTION, title=title, phase=shown), alt=alt)


def for_reader(pic: Picture, fmt: str) -> Picture | None:
    """``pic`` as a reader whose format is ``fmt`` sees it (None: ``none``)."""
    return None if fmt == "none" else replace(pic, format=fmt)


def _index(game, phase: str) -> int:
    for i in range(len(game.history) - 1, -1, -1):
        if game.history[i].phase == phase:
            return i
    raise ValueError(f"{game.name}: no record of {phase}")


class Rasters:
    """PNG bytes of pictures: from table ``pictures`` of the store, else from
    a small memory cache shared by the process (by the SVG's digest: the same
    board drawn for another game or reader), else drawn — and put in the
    table, in the caller's staged changes: with the mails that show it.
    Thread-safe."""

    _cache: OrderedDict[str, bytes] = OrderedDict()
    _lock = threading.Lock()
    SIZE = 32
    """Pictures kept in memory (about 70 kB each)."""

    def png(self, pic: Picture, db=None) -> bytes:
        """The PNG of ``pic``; ``db``: the staged store (None: not kept).
        Raises as :func:`judge.render.png.svg_to_png`."""
        from ..render.png import svg_to_png      # Pillow: loaded when a picture is first drawn
        digest = hashlib.sha256(pic.svg.encode()).hexdigest()
        doc = db.get("pictures", pic.key) if db is not None else None
        if doc and doc.get("sha256") == digest:
            return base64.b64decode(doc["png"])
        with self._lock:
            hit = self._cache.get(digest)
        if hit is None:
            hit = svg_to_png(pic.svg, PNG_WIDTH)
        if db is not None:
            db.put("pictures", pic.key, {"sha256": digest, "png": base64.b64encode(hit).decode("ascii")})
            game, index, _variant = pic.key.split("/")
            if int(index) >= KEPT:              # the game has moved on: an old phase is drawn again if asked
                for variant in PICTURE_VARIANTS:
                    db.delete("pictures", f"{game}/{int(index) - KEPT:04d}/{variant}")
        with self._lock:
            self._cache[digest] = hit
            self._cache.move_to_end(digest)
            while len(self._cache) > self.SIZE:
                self._cache.popitem(last=False)
        return hit


def mail_parts(reply, subject: str, body: str, rasters: Rasters, db=None, overrides=None):
    """What the composer adds to the text of ``reply`` for its pictures:
    ``(html or None, inline parts, attachments)`` (see
    :func:`judge.mail.compose.compose`). The pictures are ``reply.pictures``
    and any :class:`Picture` among ``reply.attachments`` (``MAP``: shown
    and attached as files); a picture whose format is ``none`` is only
    attached. ``db``: the staged store, where PNGs are kept."""
    pictures = list(reply.pictures) + [a for a in reply.attachments if isinstance(a, Picture)]
    files = [a for a in reply.attachments if not isinstance(a, Picture)]
    if not pictures:
        return None, (), tuple(files)
    inline, shown = [], []
    for pic in pictures:
        try:
            png = rasters.png(pic, db) if pic.format == "png" or "png" in pic.attach else None
        except Exception:  # noqa: BLE001 - a picture that cannot be drawn (no font...) must not stop the mail
            log.exception("map %s could not be drawn: the mail goes without it", pic.key)
            continue
        for fmt in pic.attach:
            files.append((f"{pic.name}.{fmt}", "image/png" if fmt == "png" else "image/svg+xml",
                          png if fmt == "png" else pic.svg))
        if pic.format == "none":
            continue
        data, mimetype = (png, "image/png") if pic.format == "png" else (pic.svg.encode("utf-8"), "image/svg+xml")
        inline.append((pic.cid, f"{pic.name}.{pic.format}", mimetype, data))
        shown.append({"cid": pic.cid, "alt": pic.alt, "caption": pic.caption, "phase": pic.phase,
                      "format": pic.format})
    if not shown:
        return None, (), tuple(files)
    from .html import html_body
    html = html_body(reply.template, reply.lang, overrides, reply.context, subject, body, shown)
    return html, tuple(inline), tuple(files)


def warm_pictures() -> None:
    """Load what drawing a picture needs (Pillow, the font in each script, the
    standard map's geometry): a worker does it at start, not at a deadline."""
    from ..maps import load_map
    from ..render import load_geometry
    from ..render.png import svg_to_png
    load_geometry(load_map("standard"))
    svg_to_png('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20" lang="zh-hant">'
               '<text x="2" y="12" font-size="9">A 巴黎</text></svg>', 40)
    for lang in ("en", "zh-hans"):
        svg_to_png(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20" lang="{lang}">'
                   '<text x="2" y="12" font-size="9">A 巴黎</text></svg>', 40)
