"""Map pictures drawn by the project: :func:`render_svg` (SVG of one phase) from
the map's own geometry file (:func:`load_geometry`, ``maps/<name>/geometry.json``).
Standard library only."""

from .geometry import Geometry, load_geometry
from .svg import render_svg

__all__ = ["Geometry", "load_geometry", "render_svg"]
