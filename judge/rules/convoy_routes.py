"""Convoy route geometry: which seas could ever carry an army from one province
to another (DATC 6.F.1, 6.F.12, 6.G.19, 6.D.31).

A *route* is a chain of sea provinces, each adjacent to the next, the first
adjacent to the army's province and the last to its destination. A fleet is
*on a route* only if it is necessary for it: the route is chordless (no sea of
it could be skipped). An order to convoy by a fleet on no route is illegal.
Results are memoised per :class:`~judge.rules.map.Map` instance.
"""

from __future__ import annotations

from .map import Map


class RouteGeometry:
    """Route queries on one map. ``sea_adj[p]`` is the set of provinces a fleet
    in sea ``p`` touches; ``shore[p]`` the seas touching land province ``p``."""

    def __init__(self, game_map: Map):
        self.map = game_map
        provs = game_map.provinces
        # a port (a coastal province a map marks, RULES.md §7) carries convoys as a sea does
        self.seas = frozenset(c for c, p in provs.items() if p.kind == "sea" or p.port)
        self.sea_adj = {s: frozenset().union(*(game_map.fleet_prov_adj.get(loc, frozenset())
                                              for loc in (game_map.coasts_of(s) or (s,))))
                        for s in self.seas}
        shore: dict[str, set[str]] = {}
        for s in self.seas:
            for p in self.sea_adj[s]:
                if provs[p].is_land:
                    shore.setdefault(p, set()).add(s)
        self.shore = {p: frozenset(v) for p, v in shore.items()}
        self._on_route: dict[tuple[str, str, str], bool] = {}
        self._exists: dict[tuple[str, str, frozenset], bool] = {}

    def route_exists(self, src: str, dst: str, without: frozenset = frozenset()) -> bool:
        """True if some chain of seas (none in ``without``) links ``src`` to ``dst``."""
        key = (src, dst, without)
        if key not in self._exists:
            start = self.shore.get(src, frozenset()) - without
            goal = self.shore.get(dst, frozenset())
            seen, todo = set(start), list(start)
            found = False
            while todo:
                s = todo.pop()
                if s in goal:
                    found = True
                    break
                for n in self.sea_adj[s]:
                    if n in self.seas and n not in seen and n not in without:
                        seen.add(n)
                        todo.append(n)
            self._exists[key] = found
        return self._exists[key]

    def on_route(self, sea: str, src: str, dst: str) -> bool:
        """True if ``sea`` is a necessary link of some chordless route ``src``→``dst``."""
        key = (sea, src, dst)
        if key not in self._on_route:
            self._on_route[key] = sea in self.seas and self._search(sea, src, dst)
        return self._on_route[key]

    def _search(self, sea: str, src: str, dst: str) -> bool:
        start = self.shore.get(src, frozenset())
        goal = self.shore.get(dst, frozenset())
        adj = self.sea_adj
        seas = self.seas

        def reaches(n: str, forbidden: set[str], targets) -> bool:
            """Some chain of seas outside ``forbidden`` leads from ``n`` into ``targets``
            (a necessary condition for extending a chordless route through ``n``:
            it prunes the search, which on a large ocean, Youngstown's, would
            otherwise walk every chordless path)."""
            if n in targets:
                return True
            seen, todo = {n}, [n]
            while todo:
                for m in adj[todo.pop()]:
                    if m in seas and m not in seen and m not in forbidden:
                        if m in targets:
                            return True
                        seen.add(m)
                        todo.append(m)
            return False

        def extend(path: list[str], has: bool, near: set[str]) -> bool:
            # near: seas touching path[:-1] (a later sea may touch only the last one)
            last = path[-1]
            if last in goal:
                return has
            for n in adj[last]:
                if n not in seas or n in path:
                    continue
                # chordless: n touches no earlier sea but ``last``, and not the source
                if n in start or n in near:
                    continue
                forbidden = set(path) | near | adj[last] | start
                forbidden.discard(n)
                if not reaches(n, forbidden, goal) or (not has and n != sea and not reaches(n, forbidden, {sea})):
                    continue
                path.append(n)
                if extend(path, has or n == sea, near | adj[last]):
                    return True
                path.pop()
            return False

        for s in start:
            if extend([s], s == sea, set()):
                return True
        return False
