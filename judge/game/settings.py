"""Game settings: the rule profile, the house rules of ``RULES.md`` §3, the
victory conditions (§4) and the scoring (§5).

Settings are grouped so later groups (deadlines, press, victory) can be added as
new fields with defaults: a stored game whose settings lack a group or a key gets
the default; an unknown key or value raises :class:`ValueError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from ..rules.options import PROFILES, RuleOptions
from ..rules.reasons import RuleError
from ..rules.scoring import ScoringSettings
from ..rules.victory import VictorySettings
from .access import AccessSettings
from .deadlines import DeadlineSettings, check_keys, mapping
from .errors import GameError
from .nmr import NmrSettings
from .press import PressSettings

RETREAT_DEFAULTS = ("disband", "house")
"""What happens to a dislodged unit with no usable retreat order or preference:
``"disband"`` (standard rules) or ``"house"`` (the GM default of ``RULES.md`` §3.3)."""

NAME_SETS = ("house", "standard")
"""The name sets the judge writes Chinese names in (``judge.text.names``):
the rule texts' own spellings, or the standard ones."""

MAP_FORMATS = ("png", "svg", "none")
"""How the game's mails show the map (issue 20, :mod:`judge.mail.pictures`):
an HTML part with a PNG, or an SVG, inline — or plain text only."""

DISBAND_DEFAULTS = ("datc", "house")
"""Which units a power that must remove units and gave no usable order loses:
``"datc"`` (civil disorder, DATC 6.J, via the rule profile) or ``"house"``
(``RULES.md`` §3.4)."""


@dataclass(frozen=True)
class HouseRules:
    """The house rules of ``RULES.md`` §3, each on or off per game.

    - ``retreat_preferences``: standing retreat lists given with movement orders
      are accepted and used when no retreat order arrives (§3.1, §3.7).
    - ``priority_lists``: build and disband priority lists are accepted and used
      when no adjustment order arrives (§3.2, §3.7).
    - ``default_retreat``: one of :data:`RETREAT_DEFAULTS` (§3.3).
    - ``default_disband``: one of :data:`DISBAND_DEFAULTS` (§3.4).
    - ``combined_orders``: the combined-order mode (§3.5): retreats and adjustments
      are resolved at once from the lists and adjustment orders sent with the
      movement orders; removals are applied before builds, so a power may remove
      a unit and build on the same home SC; a power may remove units it need not.
    - ``extra_removals``: the online version of the simplified-Chinese text
      (its opening paragraph: 你必须解散一支或多支部队以保证你的部队数与资源点数相同
      （当然也可以小于）): a power short of centres may remove more units than it
      must — a removal beyond those due is made, not taken for a replacement of
      the first. A power that is not short still may not remove a unit (no
      voluntary disband, except of a dislodged unit in a retreat phase).

    Decided where the texts say nothing (issue 13 point 6): two units of one
    power whose standing retreat lists name the same first open place do not
    bounce there by their lists — each takes the first place of its list that
    no other unit of its power retreats to (the unit with fewer open places on
    its list chooses first, then board order); only units that can retreat to
    nowhere else meet there and are destroyed (text §10 e). A written retreat
    is never changed.
    """

    retreat_preferences: bool = True
    priority_lists: bool = True
    default_retreat: str = "disband"
    default_disband: str = "datc"
    combined_orders: bool = False
    extra_removals: bool = False

    def __post_init__(self):
        if self.default_retreat not in RETREAT_DEFAULTS:
            raise GameError("not_a_choice", what="default_retreat", value=repr(self.default_retreat),
                            allowed=RETREAT_DEFAULTS)
        if self.default_disband not in DISBAND_DEFAULTS:
            raise GameError("not_a_choice", what="default_disband", value=repr(self.default_disband),
                            allowed=DISBAND_DEFAULTS)
        for f in fields(self):
            if f.type == "bool" and not isinstance(getattr(self, f.name), bool):
                raise GameError("not_a_flag", what=f.name)


@dataclass(frozen=True)
class Settings:
    """All settings of one game. ``rules`` names a profile of
    :data:`judge.rules.options.PROFILES` (``"datc"``: DATC v3.2, ``"droidippy"``);
    ``house``: the house rules (§3); ``victory``: how the game can end (§4,
    :class:`~judge.rules.victory.VictorySettings`: solo at 18 by default);
    ``scoring``: the scoring system and how awards are given (§5,
    :class:`~judge.rules.scoring.ScoringSettings`: Appendix 2 by default);
    ``deadlines``, ``nmr``, ``press``: the clock, the NMR policy and the press
    rules of issue 4 (:mod:`judge.game.deadlines`, :mod:`judge.game.nmr`,
    :mod:`judge.game.press`); ``names``: the name set of the game's mails,
    one of :data:`NAME_SETS` (a player may choose his own); ``map``: how its
    mails show the map, one of :data:`MAP_FORMATS` (a player may choose his
    own); ``access``: who
    may join and how a player's mail is believed (issue 12,
    :mod:`judge.game.access`)."""

    rules: str = "datc"
    house: HouseRules = field(default_factory=HouseRules)
    victory: VictorySettings = field(default_factory=VictorySettings)
    scoring: ScoringSettings = field(default_factory=ScoringSettings)
    deadlines: DeadlineSettings = field(default_factory=DeadlineSettings)
    nmr: NmrSettings = field(default_factory=NmrSettings)
    press: PressSettings = field(default_factory=PressSettings)
    names: str = "standard"
    access: AccessSettings = field(default_factory=AccessSettings)
    map: str = "png"

    def __post_init__(self):
        if self.rules not in PROFILES:
            raise GameError("not_a_choice", what="rules", value=repr(self.rules), allowed=tuple(PROFILES))
        if self.names not in NAME_SETS:
            raise GameError("not_a_choice", what="names", value=repr(self.names), allowed=NAME_SETS)
        if self.map not in MAP_FORMATS:
            raise GameError("not_a_choice", what="map", value=repr(self.map), allowed=MAP_FORMATS)

    def check_map(self, game_map) -> None:
        """Raises ValueError when a victory threshold is more than the map's
        number of supply centres (no power could ever reach it)."""
        try:
            self.victory.check_map(game_map)
        except RuleError as e:
            raise GameError.wrap(e) from None

    @property
    def rule_options(self) -> RuleOptions:
        return PROFILES[self.rules]

    def to_dict(self) -> dict:
        return {"rules": self.rules, "house": _group_to_dict(self.house),
                "victory": self.victory.to_dict(), "scoring": self.scoring.to_dict(),
                "deadlines": self.deadlines.to_dict(), "nmr": self.nmr.to_dict(),
                "press": self.press.to_dict(), "names": self.names, "access": self.access.to_dict(),
                **({"map": self.map} if self.map != "png" else {})}

    @classmethod
    def from_dict(cls, data: dict) -> "Settings":
        """Raises ValueError for an unknown key or a bad value. A group or key
        missing (a game stored before it existed) takes its default."""
        check_keys(data, {"rules", "house", "victory", "scoring", "deadlines", "nmr", "press", "names",
                          "access", "map"}, "settings")
        return cls(rules=data.get("rules", "datc"), names=data.get("names", "standard"), map=data.get("map", "png"),
                   house=_group_from_dict(HouseRules, data.get("house", {}), "settings.house"),
                   victory=VictorySettings.from_dict(mapping(data.get("victory", {}), "settings.victory")),
                   scoring=ScoringSettings.from_dict(mapping(data.get("scoring", {}), "settings.scoring")),
                   deadlines=DeadlineSettings.from_dict(mapping(data.get("deadlines", {}), "settings.deadlines")),
                   nmr=NmrSettings.from_dict(mapping(data.get("nmr", {}), "settings.nmr")),
                   press=PressSettings.from_dict(mapping(data.get("press", {}), "settings.press")),
                   access=AccessSettings.from_dict(mapping(data.get("access", {}), "settings.access")))


def _group_to_dict(group) -> dict:
    return {f.name: getattr(group, f.name) for f in fields(group)}


def _group_from_dict(cls, data: dict, where: str):
    check_keys(data, {f.name for f in fields(cls)}, where)
    return cls(**data)
