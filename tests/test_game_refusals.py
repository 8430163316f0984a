"""A refused order says why in the reader's language (``Receipt.reason(lang)``),
naming provinces as players write them; ``Receipt.error`` keeps the English sentence."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from judge.game import Game
from judge.game.game import Line
from judge.game.settings import HouseRules, Settings
from judge.notation.diagnostics import Diagnostic
from judge.rules.orders import Build, Disband, Hold, Move, Retreat, RetreatPreference
from judge.rules.position import Position

T0 = datetime(2025, 1, 1, tzinfo=timezone.utc)


def refused(power: str, order, game: Game | None = None):
    game = game or Game.create("g", now=T0, seed=1)
    (r,) = game.submit(power, [Line("x", order)], T0)
    assert not r.ok and isinstance(r.diagnostic, Diagnostic)
    return r


@pytest.mark.parametrize("power, order, error, en, hans, hant", [
    ("Turkey", Move("A", "smy", "bla"), "an army cannot go to bla",
     "an army cannot go to Black Sea", "陆军不能进入黑海", "陸軍不能進入黑海"),
    ("Russia", Move("F", "stp/sc", "bar"), "F stp/sc cannot reach bar",
     "F StP/sc cannot reach Barents Sea", "圣彼得堡南岸舰队无法到达巴伦支海", "聖彼得堡南岸艦隊無法到達巴倫支海"),
    ("France", Hold("A", "bel"), "there is no unit in bel",
     "there is no unit in Belgium", "比利时没有单位", "比利時沒有單位"),
    ("France", Build("A", "par"), "builds and removals are ordered in the Winter adjustment phase",
     "builds and removals are ordered in the Winter adjustment phase", "建造和解散要在冬季调整阶段下令",
     "建造和解散要在冬季調整階段下令"),
    ("France", Retreat("A", "par", "bur"), "retreats are ordered in a retreat phase",
     "retreats are ordered in a retreat phase", "撤退要在撤退阶段下令", "撤退要在撤退階段下令"),
    ("Italy", RetreatPreference("A", "par", ("bur",)), "Italy has no unit in par",
     "the unit in Paris belongs to France", "巴黎的单位属于法国", "巴黎的單位屬於法國"),
])
def test_reasons_in_three_languages(power, order, error, en, hans, hant):
    r = refused(power, order)
    assert r.error == error
    assert (r.reason("en"), r.reason("zh-hans"), r.reason("zh-hant")) == (en, hans, hant)


def test_house_rule_and_phase_reasons():
    g = Game.create("g", now=T0, seed=1, settings=Settings(house=HouseRules(priority_lists=False,
                                                                             combined_orders=True)))
    r = refused("Germany", Disband("A", "ber"), g)
    assert r.reason("zh-hant") == "本局的建造和解散要與秋季指令一起提交"
    g.position = Position("F1901M", g.position.units, g.position.sc_owners)
    r = refused("Germany", Build("A", "par"), g)
    assert r.reason("en") == "Paris is not a home centre of Germany"
    assert r.reason("zh-hans") == "巴黎不是德国的母国资源点"
    g.position = Position("W1901A", g.position.units, g.position.sc_owners)
    r = refused("Germany", Move("A", "ber", "kie"), g)
    assert r.reason("zh-hans") == "现在是调整阶段（W1901A）：请下建造、解散或放弃建造指令"


def test_an_accepted_order_has_no_reason():
    (r,) = Game.create("g", now=T0, seed=1).submit("France", [Line("A Par H", Hold("A", "par"))], T0)
    assert r.ok and r.reason("zh-hans") == "" and r.diagnostic is None
