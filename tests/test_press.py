"""Press (issue 4 §4): reading PRESS/BROADCAST blocks and who receives them
under each game's press rules."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone

import pytest

from judge.game import Game, GameError, Player
from judge.game.notices import GM, OBSERVERS
from judge.game.press import PressSettings, is_press_end, is_press_start, read_press, route
from judge.notation.names import name_index

T0 = datetime(2025, 1, 6, 12, tzinfo=timezone.utc)


@pytest.fixture
def names(std_map, std_names):
    return name_index(std_map, std_names)


def game(**press) -> Game:
    g = Game.create("p", now=T0, seed=1)
    g.settings = replace(g.settings, press=PressSettings(**press))
    for p in g.map.powers:
        g.players[p] = Player((f"{p.lower()}@example.org",))
    g.players["Turkey"] = Player()            # vacant
    return g


def block(names, *lines):
    b, nxt = read_press(list(lines), 0, names)
    return b, nxt


@pytest.mark.parametrize("line, to, gm, grey", [
    ("PRESS TO France Germany", ("France", "Germany"), False, False),
    ("press to fg", ("France", "Germany"), False, False),
    ("PRESS TO EFG GREY", ("England", "France", "Germany"), False, True),
    ("Press to: France, GM", ("France",), True, False),
    ("PRESS TO GM", (), True, False),
    ("BROADCAST", None, False, False),
    ("BROADCAST GREY", None, False, True),
    ("PRESS", None, False, False),
    ("PRESS TO ALL", None, False, False),
    ("新闻 给 法国 德国", ("France", "Germany"), False, False),
    ("密信给奥匈、俄国 匿名", ("Austria", "Russia"), False, True),
    ("廣播", None, False, False),
])
def test_headers(names, line, to, gm, grey):
    assert is_press_start(line)
    b, _ = block(names, line, "text", "ENDPRESS")
    assert (b.header.to, b.header.gm, b.header.grey) == (to, gm, grey)


def test_body_until_endpress_and_what_is_not_press(names):
    lines = ["PRESS TO France", "", "Let us meet in Burgundy.", "  -- E", "ENDPRESS", "A Lon - Nth"]
    b, nxt = read_press(lines, 0, names)
    assert b.text == "Let us meet in Burgundy.\n  -- E" and b.closed and lines[nxt] == "A Lon - Nth"
    b, nxt = read_press(["BROADCAST", "no end"], 0, names)
    assert not b.closed and nxt == 2
    assert is_press_end("end press") and is_press_end("新闻结束") and not is_press_start("ENDPRESS")
    assert not is_press_start("A Par - Bur") and not is_press_start("PRESSURE is high")
    with pytest.raises(GameError, match="not a power"):
        read_press(["PRESS TO Atlantis", "x", "ENDPRESS"], 0, names)
    with pytest.raises(GameError, match="takes no recipients"):
        read_press(["BROADCAST TO France", "x", "ENDPRESS"], 0, names)


def test_private_press_goes_to_the_named_players_and_a_copy_to_the_gm(names):
    g = game()
    b, _ = block(names, "PRESS TO France Germany", "Hello", "ENDPRESS")
    out, gm = route(g, "England", b, "m1")
    assert out.to == ("France", "Germany") and out.kind == "press"
    assert out.data["sender"] == "England" and out.data["address"] == "england@example.org"
    assert not out.data["broadcast"] and OBSERVERS not in out.to
    assert gm.to == (GM,) and gm.data["gm_copy"] and gm.key != out.key


def test_broadcast_reaches_players_and_observers_but_not_vacant_powers(names):
    g = game()
    b, _ = block(names, "BROADCAST", "Peace!", "ENDPRESS")
    out, _gm = route(g, "Italy", b, "m2")
    assert out.to == ("Austria", "England", "France", "Germany", "Russia", OBSERVERS)
    g = game(observers=False)
    out, _gm = route(g, "Italy", b, "m2")
    assert OBSERVERS not in out.to


def test_grey_press_hides_the_sender_except_from_the_gm(names):
    g = game(grey=True)
    b, _ = block(names, "PRESS TO France GREY", "Boo", "ENDPRESS")
    out, gm = route(g, "England", b, "m3")
    assert out.data["sender"] is None and out.data["address"] is None and out.data["grey"]
    assert gm.data["sender"] == "England"


def test_gunboat_games_never_show_addresses(names):
    g = game(anonymous=True)
    b, _ = block(names, "BROADCAST", "Hi", "ENDPRESS")
    out, gm = route(g, "England", b, "m4")
    assert out.data["sender"] == "England" and out.data["address"] is None
    assert "england@example.org" not in repr(out.data)


@pytest.mark.parametrize("settings, header, message", [
    ({"allowed": False}, "BROADCAST", "no press"),
    ({"grey": False}, "PRESS TO France GREY", "no grey"),
    ({"white": False, "grey": True}, "PRESS TO France", "only grey"),
    ({"private": False}, "PRESS TO France", "no private press"),
    ({"to_gm": False}, "PRESS TO GM", "no press to the GM"),
    ({}, "PRESS TO England", "nobody but yourself"),
])
def test_what_a_game_refuses(names, settings, header, message):
    g = game(**settings)
    b, _ = block(names, header, "text", "ENDPRESS")
    with pytest.raises(GameError, match=message):
        route(g, "England", b, "m5")


def test_press_to_the_gm_only_and_the_gm_writing(names):
    g = game()
    b, _ = block(names, "PRESS TO GM", "A question", "ENDPRESS")
    [gm] = route(g, "France", b, "m6")
    assert gm.to == (GM,) and gm.data["to_gm"]
    # the GM may write even when the players may not
    g = game(allowed=False)
    b, _ = block(names, "BROADCAST", "Deadline moved", "ENDPRESS")
    [out] = route(g, None, b, "m7")
    assert out.data["gm_sender"] and OBSERVERS in out.to and "Turkey" not in out.to
    with pytest.raises(GameError, match="empty"):
        route(g, None, block(names, "BROADCAST", "", "ENDPRESS")[0], "m8")
