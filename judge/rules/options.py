"""Rule choices a game can make where rulebooks differ.

The default is DATC v3.2's preference. ``PROFILES["droidippy"]`` reproduces
the older choices the droidippy records were judged by (``shared/games/README.md``,
"Rule choices these records need").
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from .reasons import RuleError


@dataclass(frozen=True)
class RuleOptions:
    """``via_convoy_land_fallback``: an army ordered ``via convoy`` to an adjacent
    province with no convoy ordered moves over land (DATC v2.4 6.G.8) instead of
    the order being void (v3.2).

    ``civil_disorder_distance``: ``"owned"`` — removals in civil disorder go by
    distance to the power's owned SCs, fleets over fleet moves, armies over any
    province (DATC v3.2 6.J); ``"home"`` — distance to home centres, every step
    alike for fleets and armies (older rulebooks, godip)."""

    via_convoy_land_fallback: bool = False
    civil_disorder_distance: str = "owned"

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict) -> "RuleOptions":
        """Raises ValueError for an unknown key or value."""
        known = {f.name for f in fields(cls)}
        extra = set(data) - known
        if extra:
            raise RuleError("unknown_settings", group="rules", keys=sorted(extra))
        opts = cls(**data)
        if opts.civil_disorder_distance not in ("owned", "home"):
            raise RuleError("not_a_choice", what="civil_disorder_distance", value=repr(opts.civil_disorder_distance),
                            allowed=("owned", "home"))
        return opts


DEFAULT_RULES = RuleOptions()
PROFILES = {
    "datc": DEFAULT_RULES,
    "droidippy": RuleOptions(via_convoy_land_fallback=True, civil_disorder_distance="home"),
}
