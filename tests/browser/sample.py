"""Games the archive tests browse: :func:`sample_game`, small and self-made
(always available), and :func:`droidippy_game`, a real game replayed from
``../shared/games/droidippy/`` (skipped where the folder is absent)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from judge.archive import game_from_record
from judge.game import Game, Line, Player
from judge.maps import load_map
from judge.replay import read_record
from judge.rules.orders import Build, Convoy, Hold, Move, Retreat, Support

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=timezone.utc)
SHARED = Path(__file__).resolve().parents[2].parent / "shared"
DROIDIPPY_GAME = "game_2934.txt"
"""A short droidippy game: 11 phases with a convoy, retreats, builds and civil disorder."""
SAMPLE_PHASES = ("S1901M", "F1901M", "F1901R", "W1901A", "S1902M", "F1902M")


def sample_game(name: str = "sample") -> Game:
    """A game with the phases :data:`SAMPLE_PHASES` (the last one current):
    bounces, a replaced order and one written in Chinese in S1901M; a convoy
    and a dislodgement in F1901M; a retreat; builds; a void support in S1902M."""
    g = Game.create(name, now=T0, seed=7)
    g.players["France"] = Player(("francois@example.org",), None, "en")
    g.players["Germany"] = Player(("gerhard@example.de",), None, "zh-hans")
    t = T0

    def phase(orders: dict) -> None:
        nonlocal t
        t += timedelta(hours=1)
        for power, lines in orders.items():
            for r in g.submit(power, [Line(text, order) for text, order in lines], t):
                assert r.ok, (g.position.phase, r)
        t += timedelta(days=1)
        g.process(t)

    phase({   # S1901M
        "France": [("A Par - Pic", Move("A", "par", "pic")), ("A Par - Bur", Move("A", "par", "bur")),
                   ("F Bre - Mao", Move("F", "bre", "mao"))],
        "Germany": [("慕尼黑陆军移动到鲁尔", Move("A", "mun", "ruh")), ("A Ber - Mun", Move("A", "ber", "mun")),
                    ("F Kie - Hol", Move("F", "kie", "hol"))],
        "England": [("F Lon - Nth", Move("F", "lon", "nth")), ("F Edi - Nwg", Move("F", "edi", "nwg")),
                    ("A Lvp - Yor", Move("A", "lvp", "yor"))],
        "Russia": [("A War - Gal", Move("A", "war", "gal")), ("F Sev - Bla", Move("F", "sev", "bla"))],
        "Austria": [("A Vie - Gal", Move("A", "vie", "gal"))],
        "Turkey": [("F Ank - Bla", Move("F", "ank", "bla"))],
    })
    phase({   # F1901M
        "England": [("F Nth C A Yor - Nwy", Convoy("F", "nth", "yor", "nwy")),
                    ("A Yor - Nwy", Move("A", "yor", "nwy", via_convoy=True))],
        "Germany": [("A Ruh - Bur", Move("A", "ruh", "bur")), ("A Mun S A Ruh - Bur", Support("A", "mun", "A", "ruh", "bur")),
                    ("F Hol H", Hold("F", "hol"))],
        "France": [("A Bur H", Hold("A", "bur")), ("F Mao - Spa/nc", Move("F", "mao", "spa/nc"))],
    })
    phase({"France": [("A Bur - Pic", Retreat("A", "bur", "pic"))]})   # F1901R
    phase({   # W1901A
        "England": [("Build F Edi", Build("F", "edi"))],
        "Germany": [("Build A Ber", Build("A", "ber"))],
        "France": [("Build A Par", Build("A", "par"))],
    })
    phase({   # S1902M
        "Germany": [("A Bur - Gas", Move("A", "bur", "gas")), ("A Ber - Kie", Move("A", "ber", "kie")),
                    ("A Mun S A Ber - Sil", Support("A", "mun", "A", "ber", "sil"))],
        "France": [("A Pic - Bel", Move("A", "pic", "bel")), ("A Par - Bur", Move("A", "par", "bur"))],
    })
    assert [r.phase for r in g.history] + [g.position.phase] == list(SAMPLE_PHASES)
    return g


def droidippy_game(name: str = "droid") -> Game:
    """:data:`DROIDIPPY_GAME` played through the judge; skips the test where
    ``../shared`` is absent."""
    path = SHARED / "games" / "droidippy" / DROIDIPPY_GAME
    if not path.is_file():
        pytest.skip(f"recorded game {path} is absent (the read-only reference folder next to the repository)")
    return game_from_record(read_record(path, load_map("standard")), name)
