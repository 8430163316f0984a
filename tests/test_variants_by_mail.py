"""Every shipped variant created and played by mail (issue 24): ``CREATE g pw
variant=NAME`` (and ``变体=``), a player per power JOINs, each phase every power
mails orders (chosen at random, seeded, from the rules core's possible orders,
written with the map's own names) and the GM PROCESSes, to Winter 1902 or
later; every order line is taken, every power gets the results; then
HISTORY, SUMMARY, the web archive and the JSON export of the game work. Also
VARIANTS, HELP VARIANTS, the CREATE and JOIN replies naming the variant's
powers, Chinese orders in a Classic-map variant, and an unknown variant.
The variants with seven or more powers are marked slow."""

from __future__ import annotations

import json
import random

import pytest

from judge.archive import check_export, export_game, site_of
from judge.game import Game
from judge.maps import load_map, load_names
from judge.notation.format import format_order
from judge.notation.names import name_index
from judge.rules.adjustments import adjustment_counts
from judge.rules.legal import possible_orders
from judge.rules.orders import Build, Disband, Move, Retreat, Waive
from judge.rules.phase import Phase
from judge.storage import load_game
from mailjudge import GM, Judge, addr, to

FAST = ["fva", "evt", "gvi", "fga", "ancmed", "hundred"]
SLOW = ["buildanywhere", "chaos", "youngstown", "modern", "1898", "fleetrome"]


def pick_orders(game_map, position, power: str, rng: random.Random) -> list:
    """Orders for ``power``: a random possible order per unit (moves twice as
    likely), the builds or removals due, a retreat or disband per dislodged unit."""
    options = possible_orders(game_map, position, power)
    kind = Phase.parse(position.phase).kind
    if kind == "A":
        due = adjustment_counts(position, [power], game_map)[power]
        places = [p for p in options if p is not None]
        rng.shuffle(places)
        if due > 0:
            return [rng.choice([o for o in options[p] if isinstance(o, Build)]) for p in places[:due]]
        if due < 0:
            return [options[p][0] for p in places[:-due] if isinstance(options[p][0], Disband)]
        return []
    out = []
    for prov, opts in sorted(options.items(), key=lambda kv: str(kv[0])):
        moves = [o for o in opts if isinstance(o, (Move, Retreat))]
        out.append(rng.choice(moves) if moves and rng.random() < 0.67 else rng.choice(opts))
    return out


def stored(j: Judge, name: str = "g") -> Game | None:
    with j.store.transaction() as tx:
        return load_game(tx, name)


def play(tmp_path, variant: str, until: str = "S1903M", seed: int = 1, create_word: str = "variant"):
    """Play game g on ``variant`` by mail until phase ``until``; returns the judge."""
    j = Judge(tmp_path)
    reply = to(j.mail(GM, f"CREATE g gmsecret {create_word}={variant} grace=0 reminders=none\n"))[GM][0]
    m = load_map(variant)
    names = name_index(m, load_names(variant))
    assert f"{len(m.powers)} powers: " in reply or f"{len(m.powers)} 个国家" in reply, reply
    for p in m.powers:
        assert names.power_name(p) in reply
    for i, p in enumerate(m.powers):
        joined = to(j.mail(addr(p), f"JOIN g pw-{p.lower()} {p}\n"))[addr(p)][0]
        if i < len(m.powers) - 1:
            assert names.power_name(m.powers[-1]) in joined      # the free powers, named
        else:
            assert "All powers are taken" in joined
    rng = random.Random(seed)
    stop = Phase.parse(until).sort_key()
    seen = []
    while True:
        game = stored(j)
        pos = game.position
        if Phase.parse(pos.phase).sort_key() >= stop or game.finished:
            break
        seen.append(pos.phase)
        for p in m.powers:
            orders = pick_orders(m, pos, p, rng)
            if not orders:
                continue
            text = "\n".join(format_order(o, names) for o in orders)
            answer = to(j.mail(addr(p), f"SIGNON g pw-{p.lower()}\n{text}\n"))[addr(p)][0]
            assert "Not taken" not in answer, (pos.phase, p, text, answer)
        mails = j.mail(GM, f"SIGNON g gmsecret\nPROCESS {pos.phase}\n")
        got = to(mails)
        for p in m.powers:
            assert any(f"Diplomacy results g {pos.phase}" == str(x["Subject"]) for x in mails
                       if str(x["To"]) == addr(p)), (pos.phase, p, sorted(got))
        assert stored(j).position.phase != pos.phase
    j.phases = seen
    return j


def check_archive(j: Judge, tmp_path) -> None:
    """HISTORY, SUMMARY, the web pages and the JSON export of game g."""
    reply = to(j.mail("anyone@example.org", "HISTORY g\nSUMMARY g\n"))["anyone@example.org"][0]
    assert "Game g" in reply and "Not taken" not in reply
    game = stored(j)
    for phase in j.phases[:2]:
        assert phase in reply
    data = export_game(game)
    assert data["map"] == game.map_name and check_export(json.loads(json.dumps(data))) == []
    site = site_of(j.store)
    for path in ("games/", "games/g/", f"games/g/{j.phases[0]}/", f"zh-hans/games/g/{j.phases[-1]}/", "games/g.json"):
        page = site.render(path)
        assert page.status == 200, (path, page.status)


@pytest.mark.parametrize("variant", FAST + [pytest.param(v, marks=pytest.mark.slow) for v in SLOW])
def test_variant_played_by_mail_to_winter_1902(variant, tmp_path):
    m = load_map(variant)
    start = Phase.parse(m.start.phase)
    until = f"S{start.year + 2}M"          # two full years: W1902A on a 1901 map
    j = play(tmp_path, variant, until=until, seed=len(variant))
    assert f"F{start.year + 1}M" in j.phases
    check_archive(j, tmp_path)


def test_chinese_create_and_orders_in_a_classic_variant(tmp_path):
    j = Judge(tmp_path)
    reply = to(j.mail(GM, "创建 g gmsecret 变体=fva grace=0 reminders=none\n"))[GM][0]
    assert "法国" in reply and "奥匈帝国" in reply and "18" in reply, reply
    j.mail(addr("Austria"), "JOIN g pw-austria Austria\n")
    j.mail(addr("France"), "JOIN g pw-france France\n")
    answer = to(j.mail(addr("France"), "SIGNON g pw-france\n巴黎陆军移动到勃艮第\nF Bre - MAO\n"))[addr("France")][0]
    assert "Not taken" not in answer and "A Par - Bur" in answer, answer
    answer = to(j.mail(addr("Austria"), "SIGNON g pw-austria\nA Rom - Ven\n"))[addr("Austria")][0]
    assert "Not taken" in answer           # no such unit: Italy is not in this game


def test_variants_and_help_variants_list_each_variant(tmp_path):
    j = Judge(tmp_path)
    reply = to(j.mail("x@example.org", "VARIANTS\n"))["x@example.org"][0]
    for name, line in [("fva", "2 players: Austria, France."), ("ancmed", "5 players: Carthage, Egypt, Greece, Persia, Rome."),
                       ("hundred", "9 of 17 supply centres win"), ("modern", "33 of 64 supply centres win"),
                       ("youngstown", "37 of 72"), ("chaos", "34 players")]:
        assert f"\n{name}: " in reply and line in reply, (name, line)
    assert "Designer: Don Hessong." in reply and "variant=NAME" in reply
    assert to(j.mail("x@example.org", "HELP VARIANTS\n"))["x@example.org"][0].replace("HELP VARIANTS", "VARIANTS") \
        .split("\n", 1)[1] == reply.split("\n", 1)[1]
    zh = to(j.mail("y@example.org", "变体\n"))["y@example.org"][0]
    assert "fva: France vs Austria" in zh
    assert "VARIANTS" in to(j.mail("x@example.org", "HELP\n"))["x@example.org"][0]


def test_unknown_variant_is_refused_with_the_list(tmp_path):
    j = Judge(tmp_path)
    reply = to(j.mail(GM, "CREATE g gmsecret variant=atlantis\n"))[GM][0]
    assert 'no variant "atlantis"' in reply and "ancmed" in reply and "fva" in reply
    assert j.game() is None


def test_variant_target_is_the_maps_unless_set(tmp_path):
    j = Judge(tmp_path)
    to(j.mail(GM, "CREATE g gmsecret variant=hundred\n"))
    assert stored(j).settings.victory.solo_centres == 9
    to(j.mail(GM, "CREATE h gmsecret variant=hundred solo=10\n"))
    assert stored(j, "h").settings.victory.solo_centres == 10


def test_neutral_units_through_the_game_layer_and_the_archive(tmp_path):
    """A map with neutral units (a DPjudge file: units after UNOWNED): the
    neutral army holds, is dislodged by a supported attack and disbanded, its
    centre changes hands only to a power; history, summary and the JSON export
    of the game work."""
    from datetime import timedelta

    from judge.archive.text import history_text, summary_text
    from judge.maps import MAPS_DIR
    from judge.mapimport import import_map
    from judge.rules.map import NEUTRAL
    from judge.rules.orders import Hold, Move, Support
    f = tmp_path / "neutral.map"
    f.write_text(f"MAP {MAPS_DIR / 'sources' / 'standard'}\nUNPLAYED ALL EXCEPT FRANCE GERMANY\nUNOWNED\nA BEL\nA HOL\n")
    import_map(f, "neutral", maps_dir=tmp_path)
    from test_variant_golden import T0
    game = Game.create("n", now=T0, seed=1, map_name=str(tmp_path / "neutral"))
    game.submit("France", [Move("A", "par", "pic"), Move("A", "mar", "bur")], T0)
    game.process(T0 + timedelta(hours=1))
    game.submit("France", [Move("A", "pic", "bel")], T0)
    game.process(T0 + timedelta(hours=2))
    assert game.position.units["bel"].power == NEUTRAL          # held against one
    game.submit("France", [Move("A", "pic", "bel"), Support("A", "bur", "A", "pic", "bel")], T0)
    game.submit("Germany", [Hold("A", "mun")], T0)
    game.process(T0 + timedelta(hours=3))
    game.process(T0 + timedelta(hours=4))
    assert game.position.units["bel"].power == "France"
    assert game.position.units["hol"].power == NEUTRAL and "hol" not in game.position.sc_owners
    game.process(T0 + timedelta(hours=5))
    assert game.position.sc_owners["bel"] == "France"
    assert NEUTRAL not in game.position.centre_counts()
    assert "Game n" in history_text(game) and summary_text(game)
    assert check_export(json.loads(json.dumps(export_game(game)))) == []


@pytest.mark.parametrize("variant", FAST + SLOW)
def test_every_power_of_every_variant_has_its_chinese_names(variant):
    """Chinese players JOIN a variant's power and read its name in their script."""
    powers = load_names(variant)["powers"]
    for power in load_map(variant).powers:
        assert powers[power].get("zh_hans") and powers[power].get("zh_hant"), (variant, power)


def test_join_an_ancient_mediterranean_power_in_chinese(tmp_path):
    j = Judge(tmp_path)
    j.mail(GM, "CREATE anc gmsecret variant=ancmed\n")
    reply = to(j.mail("rome@example.cn", "加入 anc 密码一二三 罗马\n"))["rome@example.cn"][0]
    assert "罗马" in reply and "不是国家" not in reply, reply
    assert stored(j, "anc").players["Rome"].addresses == ("rome@example.cn",)
    reply = to(j.mail("han@example.tw", "加入 anc 密碼一二三 希臘\n"))["han@example.tw"][0]
    assert "希臘" in reply and stored(j, "anc").players["Greece"].addresses == ("han@example.tw",)
