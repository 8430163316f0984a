"""Drawing primitives of the map picture: unit symbols, arrows, crosses.

Each function returns an SVG fragment (``str``) in picture units; colours are
``"#rrggbb"`` strings.
"""

from __future__ import annotations

import math

from .projection import Point

INK, FAIL_RED = "#222222", "#d50000"
UNIT_R = 7.0
"""Half the size of a unit symbol (picture units)."""


def fmt(v: float) -> str:
    """A coordinate with at most one decimal."""
    return f"{v:.1f}".rstrip("0").rstrip(".")


def points(pts) -> str:
    """``"x1,y1 x2,y2 ..."`` for a ``points=`` attribute."""
    return " ".join(f"{fmt(x)},{fmt(y)}" for x, y in pts)


def text_colour(fill: str) -> str:
    """Dark or white, whichever reads better on ``fill``."""
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def unit_shape(kind: str, colour: str) -> str:
    """A unit symbol centred on (0, 0): an army is a disc with a letter A, a
    fleet a ship's hull under a sail."""
    if kind == "A":
        return (f'<circle r="{fmt(UNIT_R)}" fill="{colour}" stroke="{INK}" stroke-width="1.2"/>'
                f'<text y="3.4" font-size="9.5" font-weight="bold" text-anchor="middle" '
                f'fill="{text_colour(colour)}" stroke="none">A</text>')
    return (f'<path d="M-9,0.5 L9,0.5 L6,6 L-6,6 Z M-1,-0.5 L-1,-8.5 L6,-1.5 Z M-2.5,-0.5 L-2.5,-6.5 L-7,-1.5 Z" '
            f'fill="{colour}" stroke="{INK}" stroke-width="1.1" stroke-linejoin="round"/>')


def toward(a: Point, b: Point, dist: float) -> Point:
    """The point ``dist`` from ``a`` on the way to ``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1.0
    return a[0] + dx / n * dist, a[1] + dy / n * dist


def arrow(pts: list[Point], colour: str, width: float, dash: str | None, head: bool,
          start_gap: float = UNIT_R, end_gap: float = UNIT_R + 1.5, head_size: float = 9.0):
    """An arrow along ``pts`` (a polyline, trimmed by the gaps at both ends).
    Returns (svg, point for a failure cross: 60% of the way)."""
    pts = list(pts)
    if start_gap and math.dist(pts[0], pts[1]) > start_gap:
        pts[0] = toward(pts[0], pts[1], start_gap)
    if end_gap and math.dist(pts[-1], pts[-2]) > end_gap:
        pts[-1] = toward(pts[-1], pts[-2], end_gap)
    tip = pts[-1]
    if head:
        base = toward(tip, pts[-2], head_size) if math.dist(tip, pts[-2]) > head_size else pts[-2]
        pts[-1] = toward(tip, pts[-2], head_size * 0.6) if math.dist(tip, pts[-2]) > head_size else tip
    d = "M" + " L".join(f"{fmt(x)},{fmt(y)}" for x, y in pts)
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    svg = (f'<path d="{d}" stroke="#ffffff" stroke-opacity="0.75" stroke-width="{fmt(width + 2.4)}"/>'
           f'<path d="{d}" stroke="{colour}" stroke-width="{fmt(width)}"{dash_attr}/>')
    if head:
        dx, dy = tip[0] - base[0], tip[1] - base[1]
        n = math.hypot(dx, dy) or 1.0
        px, py = -dy / n * head_size * 0.5, dx / n * head_size * 0.5
        svg += (f'<polygon points="{points([tip, (base[0] + px, base[1] + py), (base[0] - px, base[1] - py)])}" '
                f'fill="{colour}" stroke="#ffffff" stroke-width="0.6"/>')
    total = sum(math.dist(pts[i], pts[i + 1]) for i in range(len(pts) - 1))
    want, mark = total * 0.6, pts[-1]
    for i in range(len(pts) - 1):
        seg = math.dist(pts[i], pts[i + 1])
        if want <= seg:
            mark = toward(pts[i], pts[i + 1], want)
            break
        want -= seg
    return svg, mark


def cross(c: Point, r: float, colour: str, width: float, halo: bool = False) -> str:
    """An x of half-size ``r`` centred on ``c``, on a white halo if ``halo``."""
    x, y = c
    d = f"M{fmt(x - r)},{fmt(y - r)} L{fmt(x + r)},{fmt(y + r)} M{fmt(x - r)},{fmt(y + r)} L{fmt(x + r)},{fmt(y - r)}"
    under = f'<path d="{d}" stroke="#ffffff" stroke-width="{fmt(width + 2)}"/>' if halo else ""
    return f'{under}<path d="{d}" stroke="{colour}" stroke-width="{fmt(width)}" stroke-linecap="round"/>'


def octagon(c: Point, r: float, colour: str) -> str:
    """An unfilled octagon of radius ``r`` round ``c`` (the mark of a hold)."""
    pts = [(c[0] + r * math.cos(math.pi / 8 + k * math.pi / 4), c[1] + r * math.sin(math.pi / 8 + k * math.pi / 4))
           for k in range(8)]
    return f'<polygon points="{points(pts)}" stroke="{colour}" stroke-width="1.2"/>'
