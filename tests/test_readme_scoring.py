"""The README's three worked examples of how a game ends and is scored are
what the judge computes (settings read as a GM writes them, the victory
check and the scoring of judge/rules)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from judge.game import Settings
from judge.game.setting_text import change_settings
from judge.rules.scoring import ScoreExtras, score
from judge.rules.victory import check_victory

README = Path(__file__).resolve().parents[1] / "README.md"
NOW = datetime(2030, 1, 1, tzinfo=timezone.utc)
POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")


def settings(*pairs: str) -> Settings:
    return change_settings(Settings(), list(pairs))


def counts(**given: int) -> dict[str, int]:
    """SC counts: those ``given``, the rest of the 34 spread over the others."""
    rest = [p for p in POWERS if p not in given]
    left = 34 - sum(given.values())
    out = {p: left // len(rest) for p in rest} if rest else {}
    if rest:
        out[rest[0]] += left - sum(out.values())
    return {**out, **given}


def readme() -> str:
    return " ".join(README.read_text(encoding="utf-8").split())


def test_example_1_a_solo():
    s = settings("solo=18")
    c = counts(France=18, England=9, Germany=7)
    result = check_victory(s.victory, c, "W1908A", NOW).result
    assert result.kind == "solo" and result.winners == ("France",)
    got = score(s.scoring.system, c, result, ScoreExtras(awards={"best_strategy": ("France",),
                                                                  "best_diplomacy": ("England",)}))
    assert (got["France"].points, got["England"].points, got["Germany"].points) == (28, 9, 7)
    assert got["France"].coins == got["England"].coins == 3200 and got["Germany"].coins == 2000
    assert "France 18 + 10 = 28 points, England 9, Germany 7" in readme()


def test_example_2_an_alliance_of_the_house_rules():
    s = settings("preset=house", "alliance=18")
    c = counts(England=10, France=8, Germany=5, Italy=5, Russia=3, Austria=2, Turkey=1)
    result = check_victory(s.victory, c, "W1906A", NOW, [frozenset({"England", "France"})]).result
    assert result.kind == "alliance" and set(result.winners) == {"England", "France"}
    got = score(s.scoring.system, c, result, ScoreExtras(passive={"Germany": 3}))
    assert (got["England"].points, got["France"].points) == (16, 14)
    assert (got["Germany"].points, got["Germany"].coins) == (-3, 0)
    solo = check_victory(s.victory, counts(Germany=18, England=10, France=6), "W1906A", NOW,
                         [frozenset({"England", "France"})]).result
    assert solo.kind == "solo" and solo.winners == ("Germany",)      # a solo beats an alliance
    assert "England 10 + 6 = 16 points, France 8 + 6 = 14" in readme() and "0 + (−3) = −3 points" in readme()


def test_example_3_a_tie_at_the_end_year():
    c = counts(Germany=9, Russia=9, France=6, England=5, Turkey=3, Italy=2)
    shared = check_victory(settings("end_year=1910", "scoring=dss").victory, c, "W1910A", NOW).result
    assert shared is not None and set(shared.winners) == {"Germany", "Russia"}
    got = score("dss", c, shared)
    assert got["Germany"].points == got["Russia"].points == 50 and got["France"].points == 0
    house = score("house", c, shared)
    assert house["Germany"].points == 9                          # a shared win: no +10
    goes_on = check_victory(settings("end_year=1910", "tie=continue").victory, c, "W1910A", NOW)
    assert goes_on.result is None and goes_on.tie is not None
    assert "50 points each and 0 for everyone else" in readme()
