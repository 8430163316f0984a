"""The map picture as PNG, for mail: the judge's own SVG (:mod:`judge.render.svg`,
the picture the web archive shows) painted with Pillow.

Why not a general SVG rasteriser: measured on this project's maps
(``benchmarks/render.py``, figures in ``benchmarks/README.md``) cairosvg drew
every label under its own halo (it ignores ``paint-order``) and needs the
system's libcairo, resvg took six times as long; this painter reads only
the SVG that :func:`~judge.render.render_svg` writes and draws it in a few
tens of milliseconds with Pillow's wheels alone.

It knows exactly that subset — ``g`` (``translate``/``scale`` transforms,
``opacity``, ``clip-path``), ``path`` (``M``/``L``/``Z``), ``polygon``,
``circle``, ``rect`` (``rx``; a fill by a ``pattern`` of stripes), ``line``,
``text``/``tspan`` (anchors, ``dominant-baseline: central``, bold, italic,
a halo by ``paint-order: stroke``), the presentation attributes the picture
uses (inherited as in SVG: fill, stroke, widths, opacities, dashes, caps,
joins, fill rule, fonts) — and raises :class:`Unsupported` for anything else,
so a change to the SVG that this painter would draw wrongly fails the tests
(``tests/test_render_png.py``) instead of mailing a wrong map.

Drawing is done at :data:`SUPERSAMPLE` times the size and reduced (edges
anti-aliased), then quantised to a 256-colour palette (a map has few colours:
the PNG is a third of a true-colour one). Fonts: :mod:`judge.render.fonts`.
"""

from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as ET
from functools import lru_cache

from PIL import Image, ImageChops, ImageColor, ImageDraw

from . import fonts

SUPERSAMPLE = 2
"""Drawing scale over the output size (edges anti-aliased by the reduction)."""

SVG = "{http://www.w3.org/2000/svg}"
INHERITED = {"fill": "#000000", "stroke": "none", "stroke-width": "1", "stroke-opacity": "1",
             "fill-opacity": "1", "stroke-dasharray": "none", "stroke-linecap": "butt",
             "stroke-linejoin": "miter", "font-size": "16", "font-weight": "normal", "font-style": "normal",
             "text-anchor": "start", "dominant-baseline": "auto", "paint-order": "normal",
             "fill-rule": "nonzero", "clip-rule": "nonzero"}
"""Presentation attributes passed down to children, with SVG's initial values."""
OWN = {"id", "class", "transform", "opacity", "clip-path", "d", "points", "x", "y", "width", "height", "rx",
       "cx", "cy", "r", "x1", "y1", "x2", "y2", "viewBox", "lang", "font-family", "xmlns",
       "patternUnits", "patternTransform"}
"""Attributes read by the element itself (or without effect on the picture)."""
IGNORED = {"title", "defs", "clipPath", "pattern"}
"""Elements drawn only through a reference (``url(#id)``), or not at all."""
SLANT = 0.2
"""Horizontal shear of italic text (there is no italic face)."""


class Unsupported(ValueError):
    """The SVG uses something this painter does not draw (the message says what)."""


def svg_to_png(svg: str, width: int = 800) -> bytes:
    """``svg`` (as :func:`judge.render.render_svg` writes it) as PNG bytes,
    ``width`` pixels wide (the height keeps the viewBox's proportions).
    Raises :class:`Unsupported`, :class:`~judge.render.fonts.FontMissing`,
    and xml.etree.ElementTree.ParseError for text that is not XML."""
    root = ET.fromstring(svg)
    painter = _Painter(root, width)
    painter.paint()
    return painter.png()


# ---- reading attributes -------------------------------------------------------------
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_OTHER = re.compile(r"[A-DF-KN-Ya-df-kn-y]")
_PATH = re.compile(r"([MLZmlz])|(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")


def _numbers(text: str) -> list[float]:
    return [float(v) for v in _NUMBER.findall(text or "")]


@lru_cache(maxsize=4096)
def _path(d: str) -> list[tuple[list[tuple[float, float]], bool]]:
    """``d`` -> ``[(points, closed)]``: absolute M, L and Z only. Kept per
    ``d`` (the provinces' outlines are the same in every picture): callers
    read it, never change it."""
    out: list[tuple[list, bool]] = []
    cmd, nums, pts = None, [], None
    for token, number in _PATH.findall(d):
        if token:
            if token in "mlz":
                raise Unsupported(f"path command {token!r} (relative)")
            if token == "Z":
                if pts:
                    out[-1] = (pts, True)
                pts = None
            cmd = token
            continue
        nums.append(float(number))
        if len(nums) == 2:
            if cmd == "M" or pts is None:
                pts = [tuple(nums)]
                out.append((pts, False))
                cmd = "L"
            else:
                pts.append(tuple(nums))
            nums = []
    if nums:
        raise Unsupported(f"path data with an odd number of coordinates: {d[:40]!r}")
    if _OTHER.search(d):
        raise Unsupported(f"path data {d[:40]!r}: only M, L and Z are drawn")
    return out


def _colour(value: str | None):
    if value is None or value == "none":
        return None
    try:
        return ImageColor.getrgb(value)[:3]
    except ValueError:
        raise Unsupported(f"colour {value!r}") from None


def _transform(text: str | None) -> tuple[float, float, float]:
    """``translate(x,y) scale(s)`` -> (s, x, y): p -> (x + s*px, y + s*py)."""
    s, tx, ty = 1.0, 0.0, 0.0
    for name, args in re.findall(r"(\w+)\(([^)]*)\)", text or ""):
        v = _numbers(args)
        if name == "translate":
            dx, dy = v[0], v[1] if len(v) > 1 else 0.0
            tx, ty = tx + s * dx, ty + s * dy
        elif name == "scale" and (len(v) == 1 or v[0] == v[1]):
            s *= v[0]
        else:
            raise Unsupported(f"transform {name}({args})")
    return s, tx, ty


class _Painter:
    def __init__(self, root: ET.Element, width: int):
        if root.tag != SVG + "svg":
            raise Unsupported(f"root element {root.tag!r}")
        x0, y0, w, h = _numbers(root.get("viewBox", ""))
        self.width, self.height = width, max(1, round(width * h / w))
        self.k = width * SUPERSAMPLE / w
        self.im = Image.new("RGB", (self.width * SUPERSAMPLE, self.height * SUPERSAMPLE), "#ffffff")
        self.lang = root.get("lang", "en")
        self.root = root
        self.defs = {e.get("id"): e for e in root.iter() if e.get("id")}
        self.masks = _MASKS              # even-odd masks: the coastline is the same in every picture

    def paint(self) -> None:
        m = (self.k, -self._vb(0) * self.k, -self._vb(1) * self.k)
        self._children(self.root, dict(INHERITED), m, 1.0)

    def _vb(self, i: int) -> float:
        return _numbers(self.root.get("viewBox"))[i]

    def png(self) -> bytes:
        im = self.im.reduce(SUPERSAMPLE) if SUPERSAMPLE > 1 else self.im
        im = im.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        buf = io.BytesIO()
        im.save(buf, "PNG", compress_level=6)
        return buf.getvalue()

    # ---- tree ------------------------------------------------------------------------
    def _children(self, el: ET.Element, style: dict, m, alpha: float) -> None:
        for child in el:
            self._element(child, style, m, alpha)

    def _element(self, el: ET.Element, style: dict, m, alpha: float) -> None:
        tag = el.tag.removeprefix(SVG)
        if tag in IGNORED:
            return
        style = dict(style)
        for name, value in el.attrib.items():
            if name in INHERITED:
                style[name] = value
            elif name not in OWN and not name.startswith("data-"):
                raise Unsupported(f"attribute {name!r} on <{tag}>")
        if el.get("transform"):
            s, tx, ty = _transform(el.get("transform"))
            m = (m[0] * s, m[1] + m[0] * tx, m[2] + m[0] * ty)
        alpha *= float(el.get("opacity", 1))
        draw = getattr(self, "_" + tag, None)
        if draw is None:
            raise Unsupported(f"element <{tag}>")
        clip = el.get("clip-path")
        box = self._clip_box(clip, m) if clip else None
        if box:                                      # a rectangle: what lies outside is put back
            outside = [(b, self.im.crop(b)) for b in _outside(box, self.im.size)]
            draw(el, style, m, alpha)
            for b, part in outside:
                self.im.paste(part, b)
        elif clip:
            under = self.im
            self.im = under.copy()
            draw(el, style, m, alpha)
            under.paste(self.im, (0, 0), self._clip_mask(clip, m))
            self.im = under
        else:
            draw(el, style, m, alpha)

    def _g(self, el, style, m, alpha) -> None:
        self._children(el, style, m, alpha)

    # ---- shapes --------------------------------------------------------------------------
    def _path(self, el, style, m, alpha) -> None:
        self._shape(_path(el.get("d", "")), style, m, alpha)

    def _polygon(self, el, style, m, alpha) -> None:
        v = _numbers(el.get("points", ""))
        self._shape([(list(zip(v[::2], v[1::2])), True)], style, m, alpha)

    def _line(self, el, style, m, alpha) -> None:
        pts = [(float(el.get("x1", 0)), float(el.get("y1", 0))), (float(el.get("x2", 0)), float(el.get("y2", 0)))]
        self._shape([(pts, False)], dict(style, fill="none"), m, alpha)

    def _rect(self, el, style, m, alpha) -> None:
        x, y = float(el.get("x", 0)), float(el.get("y", 0))
        w, h, rx = float(el.get("width", 0)), float(el.get("height", 0)), float(el.get("rx", 0))
        if rx:
            box = [self._xy((x, y), m), self._xy((x + w, y + h), m)]
            fill, stroke = self._paint(style, "fill", alpha), self._paint(style, "stroke", alpha)
            sw = self._width(style, m)
            self._blended(fill, box, lambda d, ink, o: d.rounded_rectangle(_moved(box, o), rx * m[0], fill=ink))
            if stroke and sw:
                self._blended(stroke, box, lambda d, ink, o: d.rounded_rectangle(
                    _moved(box, o), rx * m[0], outline=ink, width=sw))
            return
        ring = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
        self._shape([(ring, True)], style, m, alpha)

    def _circle(self, el, style, m, alpha) -> None:
        cx, cy, r = float(el.get("cx", 0)), float(el.get("cy", 0)), float(el.get("r", 0))
        fill, stroke = self._paint(style, "fill", alpha), self._paint(style, "stroke", alpha)
        (px, py), pr = self._xy((cx, cy), m), r * m[0]
        box = [(px - pr, py - pr), (px + pr, py + pr)]
        if fill:
            self._blended(fill, box, lambda d, ink, o: d.ellipse(_moved(box, o), fill=ink))
        if stroke and style["stroke-dasharray"] != "none":
            n = max(24, int(pr))
            ring = [(cx + r * math.cos(2 * math.pi * i / n), cy + r * math.sin(2 * math.pi * i / n)) for i in range(n)]
            self._stroke([(ring, True)], style, m, stroke)
        elif stroke:
            sw = self._width(style, m)
            self._blended(stroke, box, lambda d, ink, o: d.ellipse(_moved(box, o), outline=ink, width=sw))

    def _shape(self, subpaths, style, m, alpha) -> None:
        fill = style["fill"]
        if fill.startswith("url("):
            self._pattern(fill, subpaths, style, m, alpha)
        else:
            ink = self._paint(style, "fill", alpha)
            if ink:
                rings = [[self._xy(p, m) for p in pts] for pts, _closed in subpaths if len(pts) > 2]
                if len(rings) > 1 and style["fill-rule"] == "evenodd":
                    self.im.paste(ink[0], None, self._evenodd(rings, ink[1]))
                else:
                    for ring in rings:
                        self._blended(ink, ring, lambda d, c, o, ring=ring: d.polygon(_moved(ring, o), fill=c))
        stroke = self._paint(style, "stroke", alpha)
        if stroke:
            self._stroke(subpaths, style, m, stroke)

    def _stroke(self, subpaths, style, m, ink) -> None:
        """Strokes, dashed when asked, with round caps and joins when asked."""
        w = float(style["stroke-width"]) * m[0]
        width = max(1, round(w))
        dash = [v * m[0] for v in _numbers(style["stroke-dasharray"])] if style["stroke-dasharray"] != "none" else []
        round_cap = style["stroke-linecap"] == "round"
        joint = "curve" if style["stroke-linejoin"] == "round" else None
        lines = []
        for pts, closed in subpaths:
            xy = [self._xy(p, m) for p in pts] + ([self._xy(pts[0], m)] if closed else [])
            lines += _dashes(xy, dash) if dash else [xy]
        every = [p for line in lines for p in line]
        if not every:
            return

        def draw(d, c, o):
            for line in lines:
                line = _moved(line, o)
                if len(line) > 1 and math.dist(line[0], line[-1]) + len(line) > 2:
                    d.line(line, fill=c, width=width, joint=joint)
                if round_cap:
                    for x, y in (line[0], line[-1]):
                        d.ellipse([(x - w / 2, y - w / 2), (x + w / 2, y + w / 2)], fill=c)
        self._blended(ink, every, draw, pad=w)

    def _pattern(self, fill: str, subpaths, style, m, alpha) -> None:
        """A fill by ``<pattern>`` of a background rect and vertical lines
        (``patternTransform="rotate(a)"``): stripes."""
        pattern = self.defs.get(fill[5:-1].lstrip("#"))
        if pattern is None or pattern.tag != SVG + "pattern":
            raise Unsupported(f"fill {fill}")
        period = float(pattern.get("width", 0)) * m[0]
        angle = _numbers(re.sub(r"^rotate\(|\)$", "", pattern.get("patternTransform", "rotate(0)")))
        background, lines = None, []
        for part in pattern:
            tag = part.tag.removeprefix(SVG)
            if tag == "rect":
                background = _colour(part.get("fill"))
            elif tag == "line" and part.get("x1") == part.get("x2"):
                lines.append((float(part.get("x1")) * m[0], _colour(part.get("stroke")),
                              float(part.get("stroke-width", 1)) * m[0]))
            else:
                raise Unsupported(f"pattern {pattern.get('id')}: <{tag}>")
        rings = [[self._xy(p, m) for p in pts] for pts, _c in subpaths if len(pts) > 2]
        x0, y0, x1, y1 = _box([p for r in rings for p in r], 0, self.im.size)
        if x1 <= x0 or y1 <= y0:
            return
        tile = Image.new("RGB", (x1 - x0, y1 - y0), background or (255, 255, 255))
        d = ImageDraw.Draw(tile)
        a = math.radians(angle[0] if angle else 0.0)
        ux, uy = math.cos(a), math.sin(a)            # across the stripes
        vx, vy = -uy, ux                             # along them
        reach = math.hypot(x1 - x0, y1 - y0)
        for offset, colour, width in lines:
            k = math.floor(-(abs(x0 * ux + y0 * uy) + reach) / period) - 1
            while k * period < abs(x0 * ux + y0 * uy) + 2 * reach + period:
                t = k * period + offset
                cx, cy = t * ux - x0, t * uy - y0
                d.line([(cx - vx * 3 * reach, cy - vy * 3 * reach), (cx + vx * 3 * reach, cy + vy * 3 * reach)],
                       fill=colour, width=max(1, round(width)))
                k += 1
        mask = Image.new("L", tile.size, 0)
        md = ImageDraw.Draw(mask)
        for ring in rings:
            md.polygon([(x - x0, y - y0) for x, y in ring], fill=round(255 * alpha))
        self.im.paste(tile, (x0, y0), mask)
        stroke = self._paint(style, "stroke", alpha)
        if stroke:
            self._stroke(subpaths, style, m, stroke)

    # ---- text ------------------------------------------------------------------------------
    def _text(self, el, style, m, alpha) -> None:
        runs = []                                   # (text, bold)
        bold = style["font-weight"] == "bold"
        if el.text:
            runs.append((el.text, bold))
        for span in el:
            tag = span.tag.removeprefix(SVG)
            if tag != "tspan" or set(span.attrib) - {"font-weight"}:
                raise Unsupported(f"<{tag}> in text with {sorted(span.attrib)}")
            if span.text:
                runs.append((span.text, span.get("font-weight", style["font-weight"]) == "bold"))
            if span.tail:
                runs.append((span.tail, bold))
        if not runs:
            return
        size = float(style["font-size"]) * m[0]
        fill = self._paint(style, "fill", alpha)
        halo = self._paint(style, "stroke", alpha) if style["paint-order"].startswith("stroke") else None
        if style["stroke"] != "none" and not style["paint-order"].startswith("stroke"):
            raise Unsupported("stroked text without paint-order: stroke")
        central = style["dominant-baseline"] == "central"
        halo_mask, text_mask, total, (dx, dy) = _text_masks(
            tuple(runs), self.lang, round(size), round(float(style["stroke-width"]) * m[0] / 2) if halo else 0,
            style["font-style"] == "italic", central)
        x, y = self._xy((float(el.get("x", 0)), float(el.get("y", 0))), m)
        x -= {"start": 0, "middle": total / 2, "end": total}[style["text-anchor"]]
        at = (round(x + dx), round(y + dy))
        if halo:
            self.im.paste(halo[0], at + (at[0] + halo_mask.width, at[1] + halo_mask.height), _faded(halo_mask, halo[1]))
        if fill:
            self.im.paste(fill[0], at + (at[0] + text_mask.width, at[1] + text_mask.height), _faded(text_mask, fill[1]))

    # ---- helpers -----------------------------------------------------------------------
    def _xy(self, p, m) -> tuple[float, float]:
        return m[1] + m[0] * p[0], m[2] + m[0] * p[1]

    def _width(self, style, m) -> int:
        return max(1, round(float(style["stroke-width"]) * m[0]))

    def _paint(self, style, which: str, alpha: float):
        """``((r, g, b), alpha 0-255)`` of the fill or stroke, or None."""
        value = style[which]
        if value.startswith("url("):
            raise Unsupported(f"{which} {value}")
        rgb = _colour(value)
        if rgb is None:
            return None
        a = alpha * float(style[f"{which}-opacity"])
        return (rgb, round(255 * a)) if a > 0 else None

    def _blended(self, ink, pts, draw, pad: float = 2.0) -> None:
        """``draw(drawing, colour, offset)`` with ``ink``: straight onto the picture
        when opaque, else through a mask of the points' box (one blend, however
        the shapes overlap)."""
        if ink is None:
            return
        colour, a = ink
        if a >= 255:
            draw(ImageDraw.Draw(self.im), colour, (0, 0))
            return
        x0, y0, x1, y1 = _box(pts, pad, self.im.size)
        if x1 <= x0 or y1 <= y0:
            return
        mask = Image.new("L", (x1 - x0, y1 - y0), 0)
        draw(ImageDraw.Draw(mask), a, (-x0, -y0))
        self.im.paste(colour, (x0, y0, x1, y1), mask)

    def _evenodd(self, rings, value: int = 255) -> Image.Image:
        """A mask of ``rings`` filled even-odd (cached: the coastline serves twice)."""
        key = repr((rings[0][:3], len(rings), value, self.im.size))
        if key not in self.masks:
            mask = Image.new("1", self.im.size, 0)
            for ring in rings:
                x0, y0, x1, y1 = _box(ring, 1, self.im.size)
                if x1 <= x0 or y1 <= y0:
                    continue
                one = Image.new("1", (x1 - x0, y1 - y0), 0)
                ImageDraw.Draw(one).polygon([(x - x0, y - y0) for x, y in ring], fill=1)
                box = (x0, y0, x1, y1)
                mask.paste(ImageChops.logical_xor(mask.crop(box), one), box)
            self.masks[key] = mask.convert("L").point(lambda v: value if v else 0)
        return self.masks[key]

    def _clip_shape(self, ref: str) -> ET.Element:
        clip = self.defs.get(ref[5:-1].lstrip("#")) if ref.startswith("url(") else None
        if clip is None or clip.tag != SVG + "clipPath" or len(clip) != 1:
            raise Unsupported(f"clip-path {ref}")
        return clip[0]

    def _clip_box(self, ref: str, m) -> tuple[int, int, int, int] | None:
        """The pixel box of a rectangular clip path, or None for another shape."""
        shape = self._clip_shape(ref)
        if shape.tag != SVG + "rect" or shape.get("rx"):
            return None
        x, y = float(shape.get("x", 0)), float(shape.get("y", 0))
        (x0, y0), (x1, y1) = self._xy((x, y), m), self._xy((x + float(shape.get("width")),
                                                             y + float(shape.get("height"))), m)
        return round(x0), round(y0), round(x1), round(y1)

    def _clip_mask(self, ref: str, m) -> Image.Image:
        shape = self._clip_shape(ref)
        tag = shape.tag.removeprefix(SVG)
        if tag == "path":
            rings = [[self._xy(p, m) for p in pts] for pts, _c in _path(shape.get("d", ""))]
            if shape.get("clip-rule") == "evenodd":
                return self._evenodd(rings)
            mask = Image.new("L", self.im.size, 0)
            for ring in rings:
                ImageDraw.Draw(mask).polygon(ring, fill=255)
            return mask
        raise Unsupported(f"clip-path {ref}: <{tag}>")


_MASKS: dict[str, Image.Image] = {}
"""Even-odd masks by their rings' start, count, value and picture size (a
map's land and sea: the same in every picture of the map, issue 23)."""
_FADED: dict[tuple[int, int], tuple[Image.Image, Image.Image]] = {}


def _faded(mask: Image.Image, alpha: int) -> Image.Image:
    """``mask`` with every value times ``alpha``/255 (``mask`` itself when
    opaque). Kept per mask and alpha: the label masks of
    :func:`_text_masks` come back in every picture."""
    if alpha >= 255:
        return mask
    hit = _FADED.get((id(mask), alpha))
    if hit is not None and hit[0] is mask:
        return hit[1]
    faded = mask.point([round(v * alpha / 255) for v in range(256)])
    if len(_FADED) < 8192:
        _FADED[(id(mask), alpha)] = (mask, faded)
    return faded


@lru_cache(maxsize=2048)
def _text_masks(runs: tuple[tuple[str, bool], ...], lang: str, size: int, halo: int, italic: bool, central: bool):
    """``(halo mask, text mask, width, (dx, dy))`` of a line of ``runs``
    ((text, bold) each) at ``size`` pixels with a halo ``halo`` pixels wide:
    the masks go at (x + dx, y + dy) for text starting at x whose ``y`` is
    its baseline (its middle when ``central``). Cached: the same labels come
    back in every picture of a language."""
    font = fonts.font(lang, size)
    embolden = max(1, round(size / 30))
    widths = [font.getlength(t) + (embolden if b else 0) for t, b in runs]
    total = sum(widths)
    ascent, descent = font.getmetrics()
    pad = int(halo + size * (SLANT + 0.5)) + 2
    height = ascent + descent + 2 * pad
    halo_mask = Image.new("L", (int(total) + 2 * pad + 1, height), 0)
    text_mask = Image.new("L", halo_mask.size, 0)
    hd, td = ImageDraw.Draw(halo_mask), ImageDraw.Draw(text_mask)
    cx = pad
    for (text, bold), w in zip(runs, widths):
        if halo:
            hd.text((cx, pad), text, font=font, fill=255, anchor="la", stroke_width=halo + (embolden if bold else 0),
                    stroke_fill=255)
        td.text((cx, pad), text, font=font, fill=255, anchor="la", stroke_width=embolden if bold else 0,
                stroke_fill=255)
        cx += w
    if italic:
        shear = (1, SLANT, -SLANT * (pad + ascent), 0, 1, 0)     # slanted about the baseline
        halo_mask = halo_mask.transform(halo_mask.size, Image.Transform.AFFINE, shear, Image.Resampling.BILINEAR)
        text_mask = text_mask.transform(text_mask.size, Image.Transform.AFFINE, shear, Image.Resampling.BILINEAR)
    top = -(pad + (ascent + descent) / 2) if central else -(pad + ascent)
    return halo_mask, text_mask, total, (-pad, top)


def _outside(box, size) -> list[tuple[int, int, int, int]]:
    """The strips of a picture of ``size`` outside ``box`` (left, top, right, bottom)."""
    x0, y0, x1, y1 = max(box[0], 0), max(box[1], 0), min(box[2], size[0]), min(box[3], size[1])
    strips = [(0, 0, size[0], y0), (0, y1, size[0], size[1]), (0, y0, x0, y1), (x1, y0, size[0], y1)]
    return [b for b in strips if b[2] > b[0] and b[3] > b[1]]


def _moved(pts, offset):
    dx, dy = offset
    return [(x + dx, y + dy) for x, y in pts]


def _box(pts, pad: float, size) -> tuple[int, int, int, int]:
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (max(0, int(min(xs) - pad - 1)), max(0, int(min(ys) - pad - 1)),
            min(size[0], int(max(xs) + pad + 2)), min(size[1], int(max(ys) + pad + 2)))


def _dashes(line: list[tuple[float, float]], pattern: list[float]) -> list[list[tuple[float, float]]]:
    """The drawn pieces of ``line`` under a dash ``pattern`` (on, off, on, ...)."""
    if len(pattern) % 2:
        pattern = pattern * 2
    if sum(pattern) <= 0:
        return [line]
    out, i, left, on = [], 0, pattern[0], True
    piece = [line[0]]
    for a, b in zip(line, line[1:]):
        seg = math.dist(a, b)
        pos = 0.0
        while seg - pos > left:
            pos += left
            t = pos / seg
            p = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            if on:
                piece.append(p)
                out.append(piece)
            else:
                piece = [p]
            on = not on
            i = (i + 1) % len(pattern)
            left = pattern[i]
        left -= seg - pos
        if on:
            piece.append(b)
    if on and len(piece) > 1:
        out.append(piece)
    return out
