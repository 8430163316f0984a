"""The font the PNG map is drawn in: Noto Sans CJK (SIL Open Font License),
whose one collection file has Latin, simplified and traditional Chinese.

Where it is looked for, first found wins:

1. ``$JUDGE_MAP_FONT`` (a ``.ttc``/``.otf``/``.ttf`` file with CJK glyphs);
2. the PyPI package ``noto-cjk-sans-otc``, a dependency of the judge (so
   ``pip install -e .`` brings it: the README's set-up gives a working font);
3. Debian's ``fonts-noto-cjk`` (``/usr/share/fonts/opentype/noto/``; the same
   file byte for byte) and other usual places.

The face is picked by its family name in the collection: ``Noto Sans CJK SC``
for English and simplified Chinese, ``Noto Sans CJK TC`` for traditional
Chinese (the glyph shapes of each script). The collection has no bold or
italic: :mod:`judge.render.png` draws them (a stroke, a slant).
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

CANDIDATES = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJKsc-Regular.otf",
)
FAMILIES = {"en": "Noto Sans CJK SC", "zh-hans": "Noto Sans CJK SC", "zh-hant": "Noto Sans CJK TC"}


class FontMissing(RuntimeError):
    """No CJK font was found; the message says what to install."""


def font_path() -> Path:
    """The font file (see module doc). Raises :class:`FontMissing`."""
    return _font_path()


@lru_cache(maxsize=1)
def _font_path() -> Path:
    own = os.environ.get("JUDGE_MAP_FONT")
    if own:
        if not Path(own).is_file():
            raise FontMissing(f"JUDGE_MAP_FONT={own}: no such file")
        return Path(own)
    try:
        import noto_cjk_sans_otc                      # the PyPI package (a dependency)
        path = Path(str(noto_cjk_sans_otc.FONT_PATH))
        if path.is_file():
            return path
    except ImportError:
        pass
    for candidate in CANDIDATES:
        if Path(candidate).is_file():
            return Path(candidate)
    raise FontMissing("no Noto Sans CJK font for the map pictures: `pip install noto-cjk-sans-otc` "
                      "(a dependency of the judge) or install Debian's fonts-noto-cjk, "
                      "or set JUDGE_MAP_FONT to a font file with Chinese glyphs")


@lru_cache(maxsize=None)
def face_index(lang: str) -> int:
    """The index in the collection of the face for ``lang`` (0 for a single font)."""
    from PIL import ImageFont
    path, want = font_path(), FAMILIES.get(lang, FAMILIES["en"])
    if path.suffix.lower() not in (".ttc", ".otc"):
        return 0
    for i in range(32):
        try:
            family = ImageFont.truetype(str(path), 10, index=i).getname()[0]
        except OSError:
            break
        if family == want:
            return i
    return 0


@lru_cache(maxsize=256)
def font(lang: str, pixels: int):
    """A Pillow FreeType font for ``lang`` at ``pixels`` (cached)."""
    from PIL import ImageFont
    return ImageFont.truetype(str(font_path()), max(pixels, 1), index=face_index(lang))
