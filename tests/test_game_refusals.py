"""A refused order says why: a reason code with parameters (``Receipt.error``,
a :class:`~judge.rules.reasons.Reason`), said in the reader's language and
names by the text layer (``Words.reason``)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from judge.game import Game
from judge.game.game import Line
from judge.game.settings import HouseRules, Settings
from judge.rules.orders import Build, Disband, Hold, Move, Retreat, RetreatPreference
from judge.rules.position import Position
from judge.rules.reasons import Reason
from judge.text import Words

T0 = datetime(2025, 1, 1, tzinfo=timezone.utc)


def refused(power: str, order, game: Game | None = None):
    game = game or Game.create("g", now=T0, seed=1)
    (r,) = game.submit(power, [Line("x", order)], T0)
    assert not r.ok and isinstance(r.error, Reason)
    return r


def said(r, lang: str, names: str | None = None) -> str:
    return Words("standard", lang, names).reason(r.error)


@pytest.mark.parametrize("power, order, error, en, hans, hant", [
    ("Turkey", Move("A", "smy", "bla"), Reason("army_cannot_go", province="bla"),
     "an army cannot go to Black Sea", "陆军不能进入黑海", "陸軍不能進入黑海"),
    ("Russia", Move("F", "stp/sc", "bar"), Reason("cannot_reach", unit="F stp/sc", destination="bar"),
     "F StP/sc cannot reach Barents Sea", "圣彼得堡南岸舰队无法到达巴伦支海", "聖彼得堡南岸艦隊無法到達巴倫支海"),
    ("France", Hold("A", "bel"), Reason("no_unit", province="bel"),
     "there is no unit in Belgium", "比利时没有部队", "比利時沒有單位"),
    ("France", Build("A", "par"), Reason("adjustment_in_winter"),
     "builds and removals are ordered in the Winter adjustment phase", "建造和解散要在冬季调整回合下令",
     "生產和解散要在冬季調整回合下令"),
    ("France", Retreat("A", "par", "bur"), Reason("retreat_in_retreat"),
     "retreats are ordered in a retreat phase", "撤退要在撤退回合下令", "撤退要在撤退回合下令"),
    ("Italy", RetreatPreference("A", "par", ("bur",)), Reason("not_your_unit", province="par", power="France"),
     "the unit in Paris belongs to France", "巴黎的部队属于法国", "巴黎的單位屬於法國"),
])
def test_reasons_in_three_languages(power, order, error, en, hans, hant):
    r = refused(power, order)
    assert r.error == error
    assert (said(r, "en"), said(r, "zh-hans"), said(r, "zh-hant")) == (en, hans, hant)


def test_reasons_in_the_house_names():
    """The house-rules text writes 巴伦茨海, the classic text 巴倫茲海."""
    r = refused("Russia", Move("F", "stp/sc", "bar"))
    assert said(r, "zh-hans", "house") == "圣彼得堡南岸舰队无法到达巴伦茨海"
    assert said(r, "zh-hant", "house") == "聖彼得堡南岸艦隊無法到達巴倫茲海"


def test_house_rule_and_phase_reasons():
    g = Game.create("g", now=T0, seed=1, settings=Settings(house=HouseRules(priority_lists=False,
                                                                             combined_orders=True)))
    r = refused("Germany", Disband("A", "ber"), g)
    assert said(r, "zh-hant") == "本局的生產和解散要與秋季命令一起提交"
    g.position = Position("F1901M", g.position.units, g.position.sc_owners)
    r = refused("Germany", Build("A", "par"), g)
    assert said(r, "en") == "Paris is not a home centre of Germany"
    assert said(r, "zh-hans") == "巴黎不是德国的母国资源点"
    g.position = Position("W1901A", g.position.units, g.position.sc_owners)
    r = refused("Germany", Move("A", "ber", "kie"), g)
    assert said(r, "zh-hans") == "现在是调整回合（W1901A）：请下建造、解散或放弃建造命令"


def test_an_accepted_order_has_no_reason():
    (r,) = Game.create("g", now=T0, seed=1).submit("France", [Line("A Par H", Hold("A", "par"))], T0)
    assert r.ok and r.error is None
