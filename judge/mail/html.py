"""The HTML part of a mail that shows a map (issue 20): the same content as
the text part, laid out for reading, with the map inline (``cid:``).

Templates ``templates/mail/html/``: ``results.html`` for a results mail (its
phases' orders with their outcomes, maps, centres and the next deadline,
from the same data as ``notices/results.txt``), ``text.html`` for any other
mail (the text part's paragraphs, the map after the first). Both extend
``layout.html``: one column at most 820 px wide that narrows with a phone's
screen, light and dark colour schemes, the map scaled to the width with its
``alt`` text. A judgekeeper's copies in the config folder's
``templates/mail/html/`` are taken first, as for the text templates
(:mod:`judge.text.templates`). The ``::`` lines of the text part (for
players' scripts) are not repeated.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from jinja2 import select_autoescape

from ..text.templates import environment

HTML_TEMPLATES = {"notices/results.txt": "html/results.html"}
"""Text template -> its own HTML layout; others get ``html/text.html``."""
HTML_LANG = {"en": "en", "zh-hans": "zh-Hans", "zh-hant": "zh-Hant"}


@lru_cache(maxsize=None)
def _environment(lang: str, overrides: Path | None):
    """The mail templates' environment with HTML escaping for ``.html`` files."""
    env = environment(lang, overrides).overlay(autoescape=select_autoescape(("html",)))
    env.globals = {**env.globals, **env.jinja_gettext}     # Jinja's gettext: it escapes the values, not the text
    return env


def html_body(template: str, lang: str, overrides: Path | None, context: dict, subject: str, text: str,
              pictures: list[dict]) -> str:
    """The HTML of a mail rendered from text ``template`` with ``context``:
    ``subject`` and ``text`` are the text part's; ``pictures``: ``[{cid, alt,
    caption, phase, format}]`` in the order the mail shows them. Raises as
    :func:`judge.text.templates.render_text`."""
    name = HTML_TEMPLATES.get(template, "html/text.html")
    blocks, signature = text_blocks(text)
    return _environment(lang, overrides).get_template(name).render(
        **context, subject=subject, blocks=blocks, signature=signature, pictures=pictures,
        picture_of={p["phase"]: p for p in pictures}, html_lang=HTML_LANG.get(lang, "en"),
        colours=_colours(context))


def text_blocks(text: str) -> tuple[list[dict], list[str]]:
    """The text part as ``[{lines, columns}]`` paragraphs (``columns``: it
    lines things up with spaces, so it keeps a fixed-width font) and the
    signature's lines; the ``::`` lines are left out."""
    body, _, signature = text.partition("\n-- \n")
    blocks = []
    for chunk in re.split(r"\n\s*\n", body.strip("\n")):
        lines = [line for line in chunk.split("\n") if not line.startswith("::")]
        if lines:
            aligned = any(re.search(r"\S {2,}\S", line) or line.startswith("  ") for line in lines)
            blocks.append({"lines": lines, "columns": aligned})
    return blocks, [line for line in signature.strip("\n").split("\n") if line]


def _colours(context: dict) -> dict[str, str]:
    """``{power: "#rrggbb"}`` of the map of the mail's game (empty if none)."""
    n = context.get("n")
    map_name = n.get("map") if isinstance(n, dict) else None
    if not map_name:
        return {}
    from ..maps import load_map
    from ..render import load_geometry
    from ..rules.map import MapError
    try:
        return dict(load_geometry(load_map(map_name)).colours)
    except MapError:                 # colours only decorate: a map without geometry has none
        return {}
