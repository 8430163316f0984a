"""Game settings and the plain-data forms of orders and positions."""

from __future__ import annotations

import json

import pytest

from judge.game import HouseRules, Settings
from judge.game.codec import order_from_dict, order_to_dict, position_from_dict, position_to_dict
from judge.rules.options import PROFILES
from judge.rules.orders import (
    Build, BuildPriority, Convoy, Disband, DisbandPriority, Hold, Move, Retreat, RetreatPreference,
    Support, Waive,
)
from judge.rules.position import DislodgedUnit, Position, Unit


def test_defaults_are_the_standard_rules():
    s = Settings()
    assert s.rules == "datc" and s.rule_options == PROFILES["datc"]
    h = s.house
    assert (h.default_retreat, h.default_disband, h.combined_orders) == ("disband", "datc", False)


def test_round_trip_and_missing_keys():
    s = Settings("droidippy", HouseRules(False, False, "house", "house", True))
    assert Settings.from_dict(json.loads(json.dumps(s.to_dict()))) == s
    assert Settings.from_dict({}) == Settings()
    assert Settings.from_dict({"house": {"combined_orders": True}}).house.combined_orders


@pytest.mark.parametrize("data, message", [
    ({"rules": "1971"}, "rules must be one of datc, droidippy"),
    ({"colour": "red"}, "unknown key in settings: colour"),
    ({"house": {"default_retreat": "random"}}, "default_retreat must be one of"),
    ({"house": {"default_disband": "oldest"}}, "default_disband must be one of"),
    ({"house": {"combined_orders": "yes"}}, "combined_orders must be yes or no"),
    ({"house": {"nmr": 1}}, "unknown key in settings.house: nmr"),
    ({"names": "pinyin"}, "names must be one of house, standard"),
])
def test_bad_settings(data, message):
    with pytest.raises(ValueError, match=message):
        Settings.from_dict(data)


ORDERS = [
    Hold("A", "par"), Hold(None, "par"), Move("A", "lon", "nwy", True, ("nth",)), Move("F", "mao", "spa/nc"),
    Support("A", "mun", "A", "ber", "sil"), Support("F", "nth", None, "hol"),
    Convoy("F", "nth", "lon", "nwy"), Retreat("F", "spa/sc", "por"), Disband(None, "ber"),
    Build("F", "stp/nc"), Waive(), RetreatPreference("F", "spa/sc", ("por", "wes", "mar")),
    BuildPriority((Build("F", "ven"), Build("A", "rom"))), DisbandPriority((Disband("A", "sil"),)),
]


@pytest.mark.parametrize("order", ORDERS, ids=repr)
def test_order_round_trip(order):
    data = json.loads(json.dumps(order_to_dict(order)))
    assert order_from_dict(data) == order


def test_bad_order_data():
    with pytest.raises(ValueError, match="unknown order type"):
        order_from_dict({"type": "Teleport"})
    with pytest.raises(ValueError, match="unknown field"):
        order_from_dict({"type": "Waive", "count": 2})
    with pytest.raises(ValueError, match="not an order"):
        order_to_dict("A Par H")


def test_position_round_trip(std_map):
    pos = Position("S1901R", {"spa": Unit("Italy", "F", "spa/sc"), "par": Unit("France", "A", "par")},
                   {"par": "France", "spa": "Italy"},
                   {"spa": DislodgedUnit(Unit("France", "F", "spa/sc"), "wes", ("mao", "por")),
                    "bel": DislodgedUnit(Unit("France", "A", "bel"), None, ("pic",))})
    assert position_from_dict(json.loads(json.dumps(position_to_dict(pos)))) == pos
    start = Position.start(std_map)
    assert position_from_dict(position_to_dict(start)) == start


def test_an_unknown_civil_disorder_distance_is_a_clear_error():
    """A stored or given rule option with a value the core does not know is a
    RuleError (a ValueError) that names it, not a crash (found by pyflakes:
    the check named ``self`` in a classmethod)."""
    from judge.rules.options import RuleOptions
    from judge.rules.reasons import RuleError
    with pytest.raises(RuleError) as e:
        RuleOptions.from_dict({"civil_disorder_distance": "far"})
    assert e.value.code == "not_a_choice" and "far" in str(e.value.params)
    assert RuleOptions.from_dict({"civil_disorder_distance": "home"}).civil_disorder_distance == "home"
