"""The end-of-game text (issue 5 §5): final position, SC table, winners, scores,
coins, awards and passive rulings, in English and simplified and traditional Chinese."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from judge.game import Game, GameError, Player, Settings
from judge.text.reports import final_text
from judge.game.setting_text import change_settings
from judge.rules.orders import Move
from judge.rules.position import Position, Unit

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def ended() -> Game:
    """England and France win as an alliance in Fall 1905; Italy is ruled
    passive; France has an advisor; the strategy vote names France."""
    game = Game.create("g", now=T0, seed=1, settings=change_settings(
        Settings(), ["alliance=20", "awards=vote"]))
    for p in game.map.powers:
        game.players[p] = Player((f"{p.lower()}@example.org",))
    game.players["France"] = Player(("france@example.org", "advisor@example.org"))
    owners = {sc: "England" for sc in "edi lon lvp nwy swe den stp mos war".split()}
    owners |= {sc: "France" for sc in "bre mar par spa por tun nap ven tri vie".split()}
    owners |= {"rom": "Italy"}
    game.position = Position("F1905M", {"nth": Unit("England", "F", "nth"), "rom": Unit("Italy", "A", "rom"),
                                        "stp": Unit("England", "F", "stp/sc")}, owners, {})
    game.ally("England", "France")
    game.ally("France", "England")
    game.submit("England", [Move("F", "nth", "hol")], T0)
    game.process(T0)
    game.gm_rule_passive("Italy", 3)
    game.vote_award("England", "strategy", "France")
    assert game.close_award_vote(T0 + timedelta(hours=72))      # the vote closes 72 h after the end
    return game


def test_english(ended):
    text = final_text(ended, "en", "Asia/Shanghai")
    lines = text.splitlines()
    assert lines[0] == ("Game g is over after Fall 1905 Movement (F1905M), Sun 01 Mar 2026 20:00 Asia/Shanghai "
                        "(UTC+08:00) = Sun 01 Mar 2026 12:00 UTC.")
    assert lines[1] == "The alliance of England and France wins jointly with 20 supply centres."
    assert "England: F Hol, F StP/sc" in lines
    assert "Italy: A Rom" in lines and "Austria: no units" in lines
    assert "England: 10  Denmark, Edinburgh, Holland, Liverpool, London, Moscow, Norway, " \
           "St. Petersburg, Sweden, Warsaw" in lines
    assert "Italy:    1  Rome" in lines          # the counts line up
    assert "Scores (house rules, Appendix 2):" in lines
    assert ("France: 10 SCs, 16 points, 3200k coins (SCs 10, alliance win +6, leader's reward +2000k, "
            "best strategy award +1200k)") in lines
    assert ("Italy: 1 SCs, -3 points, 0k coins (SCs 1, leader's reward +2000k, "
            "forfeited (passive play) -1 -2000k, fine -3)") in lines
    assert "Austria: 0 SCs, 0 points, 2000k coins (SCs 0, leader's reward +2000k)" in lines
    assert "Best strategy award: France (votes: France 1)" in lines
    assert "Best diplomacy award: to be named by the GM" in lines
    assert ("Italy: forfeits all points, coins and awards and is fined 3 points "
            "(no orders in: F1905M).") in lines
    assert lines[-1] == "Advisors score nothing: France 1."


def test_simplified_and_traditional_chinese(ended):
    hans = final_text(ended, "zh-hans")
    assert "英国和法国以20个资源点联盟获胜。" in hans
    assert "法国：10个资源点，16分，3200k币（资源点 10、联盟获胜 +6、元首奖励 +2000k、最佳战略奖 +1200k）" in hans
    assert "最佳外交奖：待GM决定" in hans and "幕僚不计分：法国1名。" in hans
    assert "意大利：罗马陆军" in hans
    hant = final_text(ended, "zh-hant")
    assert "英國和法國以20個資源點聯盟獲勝。" in hant
    assert "義大利：扣除所有分數、獎勵和獎項，另罰3分（未交命令：F1905M）。" in hant
    assert "遊戲 g 在1905年秋季移動回合（F1905M）之後結束" in hant
    assert "英国：  10  丹麦" in hans and "意大利： 1  罗马" in hans      # full-width names line up
    house = final_text(ended, "zh-hant", names="house")
    assert "布列斯特、馬塞" in house and "維也那" in house      # the classic text's own names


def test_other_endings_and_systems():
    game = Game.create("d", now=T0, seed=1, settings=change_settings(Settings(), ["scoring=dss"]))
    game.position = Position("S1906M", {}, {"par": "France", "lon": "England", "ber": "Germany"}, {})
    game.gm_end(T0)
    text = final_text(game)
    assert "The game is drawn between England, France and Germany." in text
    assert "France: 1 SCs, 33.33 points (share of the win +33.33)" in text
    assert "Awards:" not in text and "Unowned: 31" in text
    assert "游戏以英国、法国和德国和局结束。" in final_text(game, "zh-hans")


def test_refused_while_running(ended):
    with pytest.raises(GameError, match="still running"):
        final_text(Game.create("r", now=T0, seed=1))


def test_the_game_over_notice_carries_language_neutral_data(ended):
    from judge.game.final_report import final_data, game_over_notice
    from judge.text import Words
    from judge.text.reports import render_final
    from judge.game.notices import GM, OBSERVERS, PLAYERS
    notice = game_over_notice(ended)
    assert notice.kind == "game_over" and notice.to == (PLAYERS, OBSERVERS, GM)
    assert notice.key == "g:W1905A:game_over"
    assert notice.data["phase"] == "F1905M" and notice.data["ended"] == "after"
    data = notice.data
    assert data == final_data(ended)
    assert data["result"]["kind"] == "alliance" and data["result"]["sides"] == [["England", "France"]]
    assert set(data["scores"]) == set(ended.map.powers)
    assert data["scores"]["England"]["points"] == 16 and data["scores"]["England"]["coins"] == 2000
    assert data["people"]["advisor@example.org"]["items"] == [{"code": "advisor", "points": 0, "coins": 0}]
    assert data["awards"]["best_strategy"] == {"winners": ["France"], "pending": False, "by_gm": False,
                                               "votes": {"France": 1}, "tied": [], "open_until": None}
    assert data["passive"] == {"Italy": {"fine": 3, "missed": ["F1905M"]}}
    assert data["units"]["England"] == [["F", "hol"], ["F", "stp/sc"]] and "bel" in data["centres"][""]
    assert render_final(data, Words("standard", "zh-hant"), "UTC") == final_text(ended, "zh-hant")



def test_supply_centres_are_listed_in_the_same_order_in_every_language(ended):
    """By English name, whatever the language (not by code point of the Chinese names)."""
    from judge.maps import load_map, load_names
    from judge.notation.names import name_index
    names = name_index(load_map("standard"), load_names("standard"))
    orders = []
    for lang in ("en", "zh-hans", "zh-hant"):
        lines = final_text(ended, lang).splitlines()
        start = next(i for i, x in enumerate(lines) if x.startswith(("Supply centres", "资源点", "資源點")))
        line = next(x for x in lines[start:] if x.startswith(names.power_name("France", lang)))
        where = {sc: line.find(names.province_name(sc, lang)) for sc in ended.map.supply_centres}
        orders.append(sorted((sc for sc, at in where.items() if at >= 0), key=where.get))
    assert orders[0] == orders[1] == orders[2] and len(orders[0]) > 1
