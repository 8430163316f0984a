"""Shortcuts taken for speed (issue 23) give what the longer way gave: the
command word, the masking's fuzzy match, the powers whose orders are missing,
an order entry's data and a time's text."""

from __future__ import annotations

import difflib
import random
from dataclasses import replace
from datetime import datetime, timedelta, timezone

from judge.game import Game, Player, turns
from judge.game import book, nmr, press
from judge.game.codec import order_to_dict, time_to_str
from judge.game.deadlines import incomplete, is_complete, orders_needed
from judge.game.records import OrderEntry
from judge.mail import masking
from judge.rules.orders import Build, BuildPriority, Hold, Move, Retreat, RetreatPreference, Support
from judge.rules.position import DislodgedUnit, Unit
from judge.verbs import registry

T0 = datetime(2025, 1, 6, 12, tzinfo=timezone.utc)


class _Every:
    """A stand-in for the shortcuts' indexes: every word, as before them."""

    def __init__(self, every=None):
        self.every = every

    def get(self, key, default=None):
        return self.every

    def __contains__(self, key):
        return True


_LINES = [w + " g1 pw" for w, _ in registry._ZH_WORDS] + [w[0] + "x y" for w, _ in registry._ZH_WORDS] + \
    ["A PAR - BUR", "巴黎陆军进攻勃艮第", "SIGNON g1 pw", "PRESS TO France", "press to all", "ENDPRESS",
     "End Press.", "BROADCAST", "新闻 给 法国", "广播结束", "密信", "公告", "  ", "", "\ufeffPRESS", "ｐｒｅｓｓ"]


def test_chinese_command_words_by_first_character_read_as_the_whole_list(monkeypatch):
    new = [registry.read_command(line) for line in _LINES]
    monkeypatch.setattr(registry, "_ZH_BY_FIRST", _Every(registry._ZH_WORDS))
    assert new == [registry.read_command(line) for line in _LINES]
    assert sum(c is not None for c in new) > len(registry._ZH_WORDS)


def test_press_lines_by_first_character_read_as_every_press_word(monkeypatch):
    new = [(press.is_press_start(line), press.is_press_end(line)) for line in _LINES]
    monkeypatch.setattr(press, "_STARTS", _Every())
    monkeypatch.setattr(press, "_END_STARTS", _Every())
    assert new == [(press.is_press_start(line), press.is_press_end(line)) for line in _LINES]
    assert sum(a for a, _ in new) >= 6 and sum(b for _, b in new) >= 3


def _mutated(rng: random.Random, word: str) -> str:
    w = list(word)
    for _ in range(rng.randint(0, 4)):
        i = rng.randint(0, len(w))
        op = rng.randint(0, 3)
        if op == 0:
            w.insert(i, rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
        elif op == 1 and w:
            w.pop(min(i, len(w) - 1))
        elif op == 2 and w:
            w[min(i, len(w) - 1)] = rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        elif len(w) > 1:
            j = min(i, len(w) - 2)
            w[j], w[j + 1] = w[j + 1], w[j]
    return "".join(w)


def test_the_masking_skips_difflib_only_where_it_finds_no_match():
    rng = random.Random(5)
    close = 0
    for _ in range(4000):
        w = _mutated(rng, rng.choice(masking._SIGN_EN + masking._LEAD_EN))
        for words, shapes, cutoff in ((masking._SIGN_EN, masking._SIGN_SHAPES, 0.75),
                                      (masking._LEAD_EN, masking._LEAD_SHAPES, 0.8)):
            found = bool(difflib.get_close_matches(w, words, n=1, cutoff=cutoff))
            close += found
            assert not found or masking._may_be_close(w, shapes, cutoff), w
    assert close > 1000          # the words tried are near the verbs: many matches to keep


def _game() -> Game:
    g = Game.create("t", now=T0, seed=7)
    for p in g.map.powers:
        g.players[p] = Player((f"{p.lower()}@example.org",))
    turns.start(g, T0)
    return g


def _old_unordered(g: Game, power: str) -> list[str]:
    kind = g.phase.kind
    if kind == "A":
        return []
    have = {book.entry_key(e.order, kind) for e in book.active(g.orders.get(power, ()))}
    units = g.position.units if kind == "M" else {p: d.unit for p, d in g.position.dislodged.items()}
    return sorted(u.location for p, u in units.items() if u.power == power and ("unit", p) not in have)


def _same_as_one_by_one(g: Game) -> None:
    powers = g.map.powers
    assert incomplete(g, powers) == [p for p in powers if orders_needed(g, p) and not is_complete(g, p)]
    assert nmr.missing_powers(g) == incomplete(g, powers)
    for p in powers:
        assert g.unordered(p) == _old_unordered(g, p)
        assert g.unordered_of(powers)[p] == _old_unordered(g, p)


def test_missing_powers_read_at_once_are_those_read_one_by_one():
    g = _game()
    _same_as_one_by_one(g)                                  # nobody has ordered
    g.submit("France", [Move("A", "par", "bur"), Support("A", "mar", "A", "par", "bur")], T0)
    g.submit("Austria", [Hold("A", "vie"), Hold("A", "bud"), Hold("F", "tri")], T0)
    _same_as_one_by_one(g)                                  # one complete, one partial, the rest none
    pos = g.position
    units = dict(pos.units)
    gone = units.pop("bur", None) or units.pop("par")
    retreat = replace(pos, phase="F1901R", units=units,
                      dislodged={"par": DislodgedUnit(Unit("France", "A", "par"), "bur", ("pic", "gas")),
                                 "kie": DislodgedUnit(Unit("Germany", "F", "kie"), "hol", ("bal",))})
    assert gone is not None
    g.position, g.orders = retreat, {"France": (OrderEntry("a par - pic", Retreat("A", "par", "pic"), received=T0),)}
    _same_as_one_by_one(g)                                  # a retreat phase: France done, Germany not
    g.position, g.orders = replace(pos, phase="W1901A"), {}
    _same_as_one_by_one(g)                                  # adjustments: counted as before


def test_an_order_entry_gives_new_data_equal_to_its_order_each_time():
    for order in (Move("A", "par", "bur"), Move("A", "lon", "nwy", True, ("nth",)), Hold("F", "bre"),
                  Support("A", "mar", "A", "par", "bur"), RetreatPreference("A", "par", ("bur", "pic")),
                  BuildPriority((Build("A", "par"),))):
        e = OrderEntry("x", order, received=T0)
        for _ in range(3):           # made, then kept: what a caller does to one answer changes no other
            data = e.to_dict()
            assert data == {"text": "x", "order": order_to_dict(order), "source": "written", "replaced": False,
                            "received": "2025-01-06T12:00:00+00:00"}
            data["order"]["route"].append("junk") if "route" in data["order"] else data["order"].clear()


def test_a_time_in_utc_reads_as_it_did():
    zones = (timezone.utc, timezone(timedelta(hours=8)), timezone(timedelta(hours=-5, minutes=-30)))
    for when in (T0, T0.replace(microsecond=5), *(T0.astimezone(z) for z in zones)):
        assert time_to_str(when) == when.astimezone(timezone.utc).isoformat() == time_to_str(when)
    assert time_to_str(None) is None
