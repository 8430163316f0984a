"""From a geometry file's coordinates to picture units.

Two kinds (the ``projection`` section of ``geometry.json``, ``maps/README.md``):

- ``"lonlat"``: points are ``[longitude, latitude]`` in degrees. Equirectangular
  with a standard parallel (x = longitude * cos(parallel), y = latitude), then
  optional *lenses*, applied in order: each enlarges the land around its
  ``centre`` ``magnify`` times and fades out smoothly at ``radius`` (degrees of
  latitude), so crowded regions get room; then scaled so ``bounds`` (west,
  south, east, north) span the picture width.
- ``"plane"``: points are ``[x, y]`` in a drawing of ``size`` = [w, h] units,
  y down; optional lenses as above (``centre`` [x, y], ``radius`` in drawing
  units), the box widened to hold its edges as the lenses bulge them, then
  scaled to the picture width.
"""

from __future__ import annotations

import math

Point = tuple[float, float]


class Projection:
    """``proj(point) -> (x, y)`` in picture units for a picture ``width`` wide;
    ``height`` follows from the bounds: (west, south, east, north) in degrees for
    ``"lonlat"``, (x0, y0, x1, y1) for ``"plane"``. Build with :meth:`from_dict`
    (the caller validates the dict)."""

    def __init__(self, kind: str, bounds: tuple[float, float, float, float], width: float,
                 parallel: float = 0.0, lenses: tuple[tuple[Point, float, float], ...] = ()):
        self.kind = kind
        self.k = math.cos(math.radians(parallel)) if kind == "lonlat" else 1.0
        self.lenses: list[tuple[Point, float, float]] = []   # (centre in the plane, radius, magnify)
        for centre, radius, magnify in lenses:
            self.lenses.append((self._plane(centre), radius, magnify))
        if kind == "lonlat":
            west, south, east, north = bounds
            mid_lon, mid_lat = (west + east) / 2, (south + north) / 2
            x0 = self._plane((west, mid_lat))[0]
            x1 = self._plane((east, mid_lat))[0]
            y0 = self._plane((mid_lon, north))[1]
            y1 = self._plane((mid_lon, south))[1]
        else:
            x0, y0, x1, y1 = bounds   # the drawing's box, y down
            if self.lenses:           # widened to hold the box's edges as the lenses bulge them
                edge = [(x0 + (x1 - x0) * i / 200, y) for i in range(201) for y in (y0, y1)]
                edge += [(x, y0 + (y1 - y0) * i / 200) for i in range(201) for x in (x0, x1)]
                moved = [self._plane(p) for p in edge]
                x0, y0 = min(x0, *(p[0] for p in moved)), min(y0, *(p[1] for p in moved))
                x1, y1 = max(x1, *(p[0] for p in moved)), max(y1, *(p[1] for p in moved))
        self.origin = (x0, y0)
        self.scale = width / (x1 - x0)
        self.width = width
        self.height = (y1 - y0) * self.scale

    @classmethod
    def from_dict(cls, d: dict, width: float) -> "Projection":
        lenses = tuple((tuple(f["centre"]), f["radius"], f["magnify"]) for f in d.get("lenses", ()))
        if d["type"] == "plane":
            w, h = d["size"]
            return cls("plane", (0.0, 0.0, w, h), width, lenses=lenses)
        return cls("lonlat", tuple(d["bounds"]), width, d.get("parallel", 0.0), lenses)

    def _plane(self, p: Point) -> Point:
        """lon/lat -> the flat plane (y down) before scaling, the lenses built so far applied.

        A lens maps distance r from its centre to R*g(r/R) with g(t) = t + (m-1)t(1-t)^2:
        m times larger at the centre, g(1) = 1 and g'(1) = 1 at the rim (no seam),
        and one-to-one for 0 < m <= 4 (m < 1 shrinks)."""
        x, y = (p[0] * self.k, -p[1]) if self.kind == "lonlat" else p
        for (cx, cy), radius, m in self.lenses:
            dx, dy = x - cx, y - cy
            r = math.hypot(dx, dy)
            if 0 < r < radius:
                t = r / radius
                f = 1 + (m - 1) * (1 - t) ** 2      # g(t) / t
                x, y = cx + dx * f, cy + dy * f
        return x, y

    def __call__(self, p: Point) -> Point:
        x, y = self._plane(p)
        return (x - self.origin[0]) * self.scale, (y - self.origin[1]) * self.scale
