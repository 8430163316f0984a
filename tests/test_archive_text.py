"""The archive by mail (issue 6 §1): HISTORY (results of a range of phases),
SUMMARY (players, SC counts and ownership per year) and MAP (the picture of
a phase), in English and Chinese. The mail commands call these functions."""

from __future__ import annotations

import re

import pytest

from browser.sample import sample_game
from judge.archive import history_text, map_svg, summary_text
from judge.game import GameError


@pytest.fixture(scope="module")
def game():
    return sample_game()


def test_history_of_a_range_gives_each_phase_with_results_and_reasons(game):
    text = history_text(game, "F1901M", "F1901R")
    assert text.startswith("Game sample: Fall 1901 Movement (F1901M), adjudicated 2025-03-03 14:00 UTC\n")
    assert "Spring 1901" not in text and "Winter 1901 Adjustment (W1901A), adjudicated" not in text
    assert "England: A Yor - Nwy via convoy.\n" in text
    assert "France: A Bur H.  (dislodged)\n" in text
    assert "Dislodged units:\nFrance: A Bur may retreat to Belgium, Gascony, Paris, Picardy.\n" in text
    assert "Game sample: Fall 1901 Retreat (F1901R)" in text and "France: A Bur - Pic.\n" in text
    assert "Supply centres:\n" in text and "England:  4  Edinburgh, Liverpool, London, Norway\n" in text
    assert "Adjustments due:\nEngland: builds 1\nFrance: builds 1\nGermany: builds 1\n" in text
    assert text.endswith("Next phase: Winter 1901 Adjustment (W1901A)\n")


def test_history_defaults_to_every_phase(game):
    text = history_text(game)
    assert re.findall(r"^Game sample: .* \((\w+)\), adjudicated", text, re.M) == \
        ["S1901M", "F1901M", "F1901R", "W1901A", "S1902M"]
    assert "Austria: A Vie - Gal.  (bounced)" in text
    assert "Germany: A Mun S A Ber - Sil.  (void: the unit in Berlin was not ordered to Silesia)" in text
    assert text.endswith("Next phase: Fall 1902 Movement (F1902M)\n")


def test_history_in_chinese(game):
    hans = history_text(game, "S1901M", "S1901M", "zh-hans")
    assert hans.startswith("游戏 sample：1901年春季移动回合（S1901M），结算于 2025-03-02 13:00 UTC\n")
    assert "奥匈帝国：维也纳陆军移动到加利西亚。（对峙）\n" in hans
    assert "德国：慕尼黑陆军移动到鲁尔。\n" in hans
    assert hans.endswith("下一回合：1901年秋季移动回合（F1901M）\n")
    hant = history_text(game, "F1901M", "F1901M", "zh-hant")
    assert "法國：勃艮第陸軍防守。（被擊退）\n" in hant
    assert "被擊退的單位：\n法國：勃艮第陸軍可撤退到比利時、加斯科涅、巴黎、皮卡第。\n" in hant


def test_history_refuses_bad_ranges(game):
    with pytest.raises(GameError, match="no adjudicated phase in that range"):
        history_text(game, "F1905M")
    with pytest.raises(GameError, match="is not a phase name"):
        history_text(game, "autumn")
    from datetime import datetime, timezone
    from judge.game import Game
    fresh = Game.create("fresh", now=datetime(2025, 1, 1, tzinfo=timezone.utc), seed=1)
    with pytest.raises(GameError, match="game fresh has no adjudicated phase yet: it is at S1901M"):
        history_text(fresh)
    with pytest.raises(ValueError, match="unknown language"):
        history_text(game, lang="fr")


def test_summary_gives_players_and_centres_per_year(game):
    text = summary_text(game)
    assert text.startswith("Game sample: now Fall 1902 Movement (F1902M); rules: datc.\n")
    assert "Players:\nAustria: (vacant)\nEngland: (vacant)\nFrance: fr…@example.org\n" \
           "Germany: ge…@example.de\n" in text
    assert "@example.org\n" not in text.replace("fr…@example.org\n", "")
    assert "Start: Austria 3, England 3, France 3, Germany 3, Italy 3, Russia 4, Turkey 3\n" in text
    assert "1901: Austria 3, England 4, France 4, Germany 4, Italy 3, Russia 4, Turkey 3\n" in text
    assert "  France: Brest, Marseilles, Paris, Spain\n" in text


def test_summary_in_traditional_chinese(game):
    text = summary_text(game, "zh-hant")
    assert text.startswith("遊戲 sample：當前為1902年秋季移動回合（F1902M）；規則：datc。\n")
    assert "玩者：\n奧匈帝國：（空缺）\n" in text
    assert "1901：奧匈帝國 3，英國 4，法國 4，德國 4，義大利 3，俄國 4，土耳其 3\n" in text


def units_drawn(svg: str) -> list[str]:
    return re.findall(r'<g class="unit (?:army|fleet)[^"]*" data-power="[^"]+" data-location="([^"]+)"', svg)


def test_map_of_the_current_phase_and_of_a_past_one(game):
    now = map_svg(game)
    assert now.startswith("<svg") and 'data-phase="F1902M"' in now
    assert sorted(units_drawn(now)) == sorted(u.location for u in game.position.units.values())
    assert 'class="order ' not in now                    # orders of the current phase stay secret
    fall = map_svg(game, "F1901M", "zh-hans")
    assert 'lang="zh-hans"' in fall and "勃艮第" in fall
    assert 'class="order move succeeds" data-power="Germany" data-location="ruh"' in fall
    retreat = map_svg(game, "F1901R")
    assert 'class="unit army france dislodged" data-power="France" data-location="bur"' in retreat
    with pytest.raises(GameError):
        map_svg(game, "S1905M")


def test_a_finished_game_says_it_is_over_in_its_summary():
    from datetime import timedelta

    from browser.sample import T0
    ended = sample_game("ended")
    ended.gm_end(T0 + timedelta(days=30), ["England", "France"])
    summary = summary_text(ended)
    assert summary.startswith("Game ended: over, ended in Fall 1902 Movement (F1902M); rules: datc.\n"
                              "Game over (Draw): The game is drawn between England and France.\n")
    assert "now Fall 1902" not in summary
    assert summary_text(ended, "zh-hans").startswith(
        "游戏 ended：已结束，结束于1902年秋季移动回合（F1902M）；规则：datc。\n"
        "游戏已结束（和局）：游戏以英国和法国和局结束。\n")
