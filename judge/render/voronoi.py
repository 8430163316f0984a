"""Regions from seed points: a Voronoi partition of a box, merged per owner.

Pure plane geometry (picture units, y down). :func:`regions` gives each owner
(a province code) the union of the Voronoi cells of its seeds, as closed rings;
the SVG renderer clips land regions to the coastline itself (``clipPath``), so
no polygon-against-coastline clipping is done here.
"""

from __future__ import annotations

import math

Point = tuple[float, float]


def _clip(poly: list[Point], tags: list[int], site: Point, other: Point, tag: int):
    """Keep the part of convex ``poly`` nearer to ``site`` than to ``other``.
    ``tags[i]`` names what lies across the edge ``poly[i] -> poly[i+1]``; the new
    edge along the bisector gets ``tag``."""
    nx, ny = other[0] - site[0], other[1] - site[1]
    c = (nx * (site[0] + other[0]) + ny * (site[1] + other[1])) / 2   # inside: n.p <= c
    out_p: list[Point] = []
    out_t: list[int] = []
    n = len(poly)
    for i in range(n):
        p, q, t = poly[i], poly[(i + 1) % n], tags[i]
        dp = nx * p[0] + ny * p[1] - c
        dq = nx * q[0] + ny * q[1] - c
        if dp <= 0:
            out_p.append(p)
            out_t.append(t)
        if (dp <= 0) != (dq <= 0):
            s = dp / (dp - dq)
            out_p.append((p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1])))
            out_t.append(tag if dp <= 0 else t)
    return out_p, out_t


def cells(sites: list[Point], box: tuple[float, float, float, float]):
    """The Voronoi cell of every site inside ``box`` = (x0, y0, x1, y1).

    Returns ``[(vertices, tags)]`` in site order; ``tags[i]`` is the index of the
    site across edge ``i`` or ``-1`` for the box. Sites must be distinct.

    Each cell starts as the box and is cut by the bisectors with the other sites
    nearest first, found ring by ring in a bucket grid (about one or two sites a
    bucket), until the next ring lies beyond twice the cell's reach: no farther
    site's bisector can cut it."""
    x0, y0, x1, y1 = box
    if not sites:
        return []
    sx0, sy0 = min(p[0] for p in sites), min(p[1] for p in sites)
    sx1, sy1 = max(p[0] for p in sites), max(p[1] for p in sites)
    size = max(math.sqrt(max(sx1 - sx0, 1e-9) * max(sy1 - sy0, 1e-9) * 1.5 / len(sites)), 1e-6)
    buckets: dict[tuple[int, int], list[int]] = {}
    for j, (px, py) in enumerate(sites):
        buckets.setdefault((int((px - sx0) // size), int((py - sy0) // size)), []).append(j)
    nx, ny = int((sx1 - sx0) // size) + 1, int((sy1 - sy0) // size) + 1
    out = []
    for i, s in enumerate(sites):
        poly = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        tags = [-1, -1, -1, -1]
        cx, cy = int((s[0] - sx0) // size), int((s[1] - sy0) // size)
        ring = 0
        reach = max(math.dist(s, v) for v in poly)
        while True:
            near = []
            for gx in range(cx - ring, cx + ring + 1):
                edge = gx in (cx - ring, cx + ring)
                for gy in (range(cy - ring, cy + ring + 1) if edge else (cy - ring, cy + ring)):
                    for j in buckets.get((gx, gy), ()):
                        if j != i:
                            near.append((math.dist(s, sites[j]), j))
            for d, j in sorted(near):
                if d > 2 * reach:
                    break   # this and all farther sites' bisectors miss the cell
                o = sites[j]
                nx, ny = o[0] - s[0], o[1] - s[1]
                c = (nx * (s[0] + o[0]) + ny * (s[1] + o[1])) / 2
                if all(nx * px + ny * py <= c for px, py in poly):
                    continue   # the bisector misses the cell
                poly, tags = _clip(poly, tags, s, o, j)
                reach = max(math.dist(s, v) for v in poly) if poly else 0.0
            # every site not yet seen is at least ring * size away (outside this ring)
            if ring * size > 2 * reach or (cx - ring < 0 and cy - ring < 0 and cx + ring >= nx and cy + ring >= ny):
                break
            ring += 1
        out.append((poly, tags))
    return out


def regions(sites: list[Point], owners: list[str | None],
            box: tuple[float, float, float, float], tol: float = 1e-3) -> dict[str, list[list[Point]]]:
    """``{owner: [ring, ...]}``: the union of the Voronoi cells of each owner's
    sites as closed rings (without the repeated first point). Sites owned by
    ``None`` take part in the partition but get no region. Vertices closer than
    ``tol`` are one vertex."""
    snapped: dict[tuple[int, int], Point] = {}

    def snap(p: Point) -> Point:
        # one canonical vertex for points that differ only by rounding
        k = (round(p[0] / tol), round(p[1] / tol))
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                q = snapped.get((k[0] + dx, k[1] + dy))
                if q is not None and abs(q[0] - p[0]) <= tol and abs(q[1] - p[1]) <= tol:
                    return q
        snapped[k] = p
        return p

    edges: dict[str, dict[Point, list[Point]]] = {}
    for i, (poly, tags) in enumerate(cells(sites, box)):
        owner = owners[i]
        if owner is None:
            continue
        table = edges.setdefault(owner, {})
        n = len(poly)
        for k in range(n):
            if tags[k] >= 0 and owners[tags[k]] == owner:
                continue   # inside the region
            a, b = snap(poly[k]), snap(poly[(k + 1) % n])
            if a != b:
                table.setdefault(a, []).append(b)
    out: dict[str, list[list[Point]]] = {}
    for owner, table in edges.items():
        rings = []
        while table:
            start = next(iter(table))
            ring, cur = [start], start
            while True:
                nxt = table[cur].pop()
                if not table[cur]:
                    del table[cur]
                if nxt == start or nxt not in table:
                    break
                ring.append(nxt)
                cur = nxt
            ring = _drop_collinear(ring)
            if len(ring) >= 3:
                rings.append(ring)
        out[owner] = rings
    return out


def _drop_collinear(ring: list[Point]) -> list[Point]:
    """``ring`` without vertices that lie on the line through their neighbours."""
    out = []
    n = len(ring)
    for i, (bx, by) in enumerate(ring):
        (ax, ay), (cx, cy) = ring[i - 1], ring[(i + 1) % n]
        if abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) > 1e-9 * (1 + abs(cx - ax) + abs(cy - ay)) ** 2:
            out.append((bx, by))
    return out
