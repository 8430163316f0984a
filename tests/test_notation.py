"""Order notation: the tables in ``tests/data/notation/`` (format in its README),
round trips through the formatter, diagnostics in three languages, ``judge parse``."""

from __future__ import annotations

import io
import json
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from judge.cli import main
from judge.notation import (Diagnostic, ParseContext, check_legal, clean_line, format_order, name_index,
                            parse_line, parse_orders)
from judge.notation.diagnostics import diagnostic
from judge.text.reasons import TEXTS
from judge.rules.map import province_of
from judge.rules.orders import Build, Hold, Move, Retreat
from judge.rules.position import DislodgedUnit, Position, Unit

TABLES = Path(__file__).parent / "data" / "notation"
LANGS = ("en", "zh-hans", "zh-hant")


@dataclass(frozen=True)
class Case:
    where: str          # file:line
    context: tuple      # sorted (key, value) pairs of the @ line
    input: str
    expected: str
    checks: tuple       # ("key", "value") pairs for a diagnostic's params


def read_table(path: Path) -> list[Case]:
    cases = []
    context: tuple = ()
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        if raw.startswith("@"):
            context = tuple(sorted(tuple(kv.split("=", 1)) for kv in shlex.split(raw[1:])))
            continue
        fields = raw.split("\t")
        assert len(fields) >= 2, f"{path.name}:{n}: expected INPUT<TAB>EXPECTED"
        checks = tuple(tuple(f.split("=", 1)) for f in fields[2:] if f.strip())
        cases.append(Case(f"{path.name}:{n}", context, fields[0], fields[1].strip(), checks))
    return cases


ALL_CASES = [c for p in sorted(TABLES.glob("*.tsv")) for c in read_table(p)]


@pytest.fixture(scope="module")
def names(std_map, std_names):
    return name_index(std_map, std_names)


def _units(spec: str) -> list[Unit]:
    """``"France:A par,F spa/sc;Germany:A mun"`` -> units."""
    out = []
    for part in filter(None, spec.split(";")):
        power, units = part.split(":", 1)
        for u in units.split(","):
            t, loc = u.split()
            out.append(Unit(power.strip(), t, loc))
    return out


def make_context(case_context: tuple, std_map, names) -> ParseContext:
    spec = dict(case_context)
    pos = None
    if spec.get("position") == "start":
        pos = Position.start(std_map)
    elif spec.get("position") == "custom":
        units = {province_of(u.location): u for u in _units(spec.get("units", ""))}
        retreats = {prov: tuple(locs.split(",")) for prov, locs in
                    (r.split(":") for r in filter(None, spec.get("retreats", "").split(";")))}
        dislodged = {province_of(u.location): DislodgedUnit(u, None, retreats.get(province_of(u.location), ()))
                     for u in _units(spec.get("dislodged", ""))}
        owners = dict(std_map.start.sc_owners)
        if "owners" in spec:
            owners = {sc: power for power, scs in (p.split(":") for p in spec["owners"].split(";"))
                      for sc in scs.split(",")}
        phase = {"M": "S1901M", "R": "S1901R", "A": "W1901A"}[spec.get("phase", "M")]
        pos = Position(phase, units, owners, dislodged)
    return ParseContext(std_map, names, spec.get("phase", "M"), pos, spec.get("power"))


def _param_text(value) -> str:
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


def test_table_is_big_enough():
    assert len(ALL_CASES) >= 300
    assert {c.where.split(":")[0] for c in ALL_CASES} >= {
        "rules_zh_hans.tsv", "rules_zh_hant.tsv", "english.tsv", "chinese.tsv", "mixed.tsv", "malformed.tsv"}


@pytest.mark.parametrize("case", ALL_CASES, ids=[c.where for c in ALL_CASES])
def test_table(case: Case, std_map, names):
    ctx = make_context(case.context, std_map, names)
    parsed = parse_line(case.input, ctx)
    if case.expected.startswith("!"):
        assert parsed.error is not None, f"read as {[format_order(o, names) for o in parsed.orders]}"
        assert parsed.error.code == case.expected[1:], parsed.error.message()
        assert parsed.order is None and parsed.orders == ()
        for key, value in case.checks:
            assert _param_text(parsed.error.params.get(key)) == value, (key, parsed.error.params)
        for lang in LANGS:
            assert parsed.error.message(lang)
    elif case.expected == "(none)":
        assert parsed.error is None and parsed.order is None and parsed.orders == ()
    else:
        assert parsed.error is None, parsed.error.message()
        assert " | ".join(format_order(o, names) for o in parsed.orders) == case.expected
        assert parsed.order == parsed.orders[0]
        _check_notes_and_legality(parsed, dict(case.checks), ctx)


def _check_notes_and_legality(parsed, checks: dict, ctx: ParseContext) -> None:
    """``note=CODE[,CODE]`` (else no notes), ``note.KEY=V`` on the first note;
    ``legal=CODE|ok`` for :func:`check_legal` of the line's orders (the first
    refusal), ``legal.KEY=V`` on it."""
    assert ",".join(n.code for n in parsed.notes) == checks.get("note", ""), [n.message() for n in parsed.notes]
    for n in parsed.notes:
        for lang in LANGS:
            assert n.message(lang) and "{" not in n.message(lang)
    for key, value in checks.items():
        if key.startswith("note."):
            assert _param_text(parsed.notes[0].params.get(key[5:])) == value, (key, parsed.notes[0].params)
    if "legal" not in checks:
        return
    refusals = [d for d in (check_legal(o, ctx) for o in parsed.orders) if d is not None]
    assert (refusals[0].code if refusals else "ok") == checks["legal"], [d.message() for d in refusals]
    for key, value in checks.items():
        if key.startswith("legal."):
            assert _param_text(refusals[0].params.get(key[6:])) == value, (key, refusals[0].params)
    for d in refusals:
        json.dumps(d.params)
        for lang in LANGS:
            message = d.message(lang)
            assert message and "{" not in message
            if lang == "en" and d.code != "illegal":   # provinces by name, never by lower-case code
                for k in ("province", "destination", "origin"):
                    if k in d.params:
                        assert d.params[k] not in message.split(), message


@pytest.mark.parametrize("case", [c for c in ALL_CASES if dict(c.context).get("source")],
                         ids=lambda c: c.where)
def test_rule_text_examples_are_verbatim(case: Case, shared_dir):
    """Every input of a ``source=`` section is written so in that rule text."""
    text = (shared_dir / "rules" / dict(case.context)["source"]).read_text(encoding="utf-8")
    assert case.input in text


OK_CASES = [c for c in ALL_CASES if not c.expected.startswith("!") and c.expected != "(none)"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case", OK_CASES, ids=[c.where for c in OK_CASES])
def test_round_trip(case: Case, lang: str, std_map, names):
    """format_order(parse(x)) reads back to the same order(s), in every language."""
    ctx = make_context(case.context, std_map, names)
    orders = parse_line(case.input, ctx).orders
    for order in orders:
        text = format_order(order, names, lang)
        again = parse_line(text, ctx)
        assert again.error is None, (text, again.error.message())
        assert again.orders == (order,), text
    joined = ("; " if lang == "en" else "；").join(format_order(o, names, lang) for o in orders)
    assert parse_line(joined, ctx).orders == orders


# ---- behaviour beyond the tables ----------------------------------------------------
def test_west_coast_example_lists_the_coasts_that_exist(std_map, names):
    """The house-rule text builds a fleet on St Petersburg's west coast (附一)."""
    ctx = ParseContext(std_map, names, "A")
    err = parse_line("圣彼得堡西岸建造舰队", ctx).error
    assert err.code == "coast_impossible"
    assert err.params["coasts"] == ["stp/nc", "stp/sc"]
    assert "StP/nc" in err.message("en") and "StP/sc" in err.message("en")
    assert "北岸" in err.message("zh-hans") and "南岸" in err.message("zh-hans") and "西岸" in err.message("zh-hans")
    assert "聖彼得堡" in err.message("zh-hant")


def test_did_you_mean(std_map, names):
    err = parse_line("A Mos - Sevastapoool", ParseContext(std_map, names)).error
    assert err.params["suggestions"] == ["Sevastopol"]
    assert "did you mean Sevastopol?" in err.message()
    assert "塞瓦斯托波尔" in err.message("zh-hans")
    assert "塞瓦斯托波爾" in err.message("zh-hant")


def test_every_diagnostic_has_three_messages(names):
    samples = {
        "unknown_province": dict(text="x", suggestions=["Paris"], suggestion_codes=["par"]),
        "unknown_word": dict(text="x"),
        "ambiguous_province": dict(text="liv", candidates=["lvn", "lvp"]),
        "unknown_coast": dict(text="x", province="spa", coasts=["spa/nc", "spa/sc"]),
        "coast_needed": dict(province="spa", coasts=["spa/nc", "spa/sc"]),
        "coast_impossible": dict(province="stp", coast="wc", coasts=["stp/nc", "stp/sc"]),
        "incomplete": dict(expected="order", after="A Par"),
        "unexpected": dict(text="x"),
        "several_units": dict(order="move"),
        "no_unit": dict(province="bur"),
        "no_dislodged_unit": dict(province="bur"),
        "wrong_unit_type": dict(province="par", written="F", actual="A"),
        "not_your_unit": dict(province="mun", power="Germany"),
        "impossible_unit": dict(unit_type="A", province="nth"),
        "unit_type_needed": dict(province="lon"),
        "wrong_phase": dict(order="hold", phase_kind="R"),
        "route_not_allowed": dict(reason="fleet"),
        "route_not_sea": dict(province="bur"),
        "occupied": dict(province="mun"),
        "not_home_centre": dict(province="hol", power="Germany"),
        "not_owned": dict(province="kie", power="Germany"),
        "wrong_power": dict(power="Germany", expected_power="France"),
        "cannot_reach": dict(unit="F bre", destination="spa/nc"),
        "own_province": dict(province="par"),
        "army_cannot_go": dict(province="bla"),
        "support_itself": dict(),
        "no_convoy_fleets": dict(origin="lvp", destination="nwy"),
        "convoy_not_at_sea": dict(),
        "no_army_to_convoy": dict(province="yor"),
        "not_on_convoy_route": dict(province="bla", origin="lon", destination="bre"),
        "support_only_through": dict(origin="tun", destination="rom", province="tys"),
        "cannot_retreat": dict(unit="A mar", destination="gas"),
        "no_builds": dict(power="Germany"),
        "no_removals": dict(power="Germany"),
        "builds_used_up": dict(count=2),
        "removals_used_up": dict(count=1),
        "unknown_location": dict(location="xyz"),
        "illegal": dict(text="a code with no words"),
        "unit_coast_corrected": dict(province="stp", written_coast="nc", coast="sc"),
        "chatter": dict(text="各位好"),
    }
    assert set(samples) <= set(TEXTS)          # the words are the text layer's, in the one catalogue
    for code, params in samples.items():
        d = diagnostic(code, names, **params)
        json.dumps(d.params)
        messages = [d.message(lang) for lang in LANGS]
        assert len(set(messages)) >= 2 and messages[0] not in messages[1:], messages   # English and Chinese
        for m in messages:
            assert "{" not in m and m != code, m
    assert Diagnostic("made_up").message() == "made_up"


def test_clean_line_drops_invisible_characters_only():
    assert clean_line("\ufeffSIGNON France pw") == "SIGNON France pw"
    assert clean_line("\u200bA Par\u200c - Bur\u2060\u00ad") == "A Par - Bur"
    assert clean_line("  Mixed Case\tkept  ") == "  Mixed Case\tkept  "
    assert clean_line("巴黎陆军\ufeff") == "巴黎陆军"


def test_parsed_line_notes(std_map, names):
    """DATC 6.B.10: the ordered fleet's wrong coast is ignored, and the player told."""
    ctx = ParseContext(std_map, names, "M", Position.start(std_map), "Russia")
    parsed = parse_line("F StP/nc - Bar", ctx)
    assert parsed.ok and parsed.order == Move("F", "stp/sc", "bar")
    (note,) = parsed.notes
    assert note.code == "unit_coast_corrected"
    assert note.message() == "the fleet in St. Petersburg is on the south coast, not the north coast"
    assert note.message("zh-hans") == "圣彼得堡的舰队位于南岸，不是北岸"
    assert note.message("zh-hant") == "聖彼得堡的艦隊位於南岸，不是北岸"
    assert parse_line("F StP/sc - Bot", ctx).notes == ()
    assert parse_line("F StP/nc - Bar", ParseContext(std_map, names)).notes == ()   # no board: as written
    assert parse_line("F StP/nc - Xyz", ctx).notes == ()                            # no notes on error


def test_check_legal_explains_the_rules_core(std_map, names):
    ctx = ParseContext(std_map, names, "M", Position.start(std_map))
    order = parse_line("F Bre - Spa", ctx).order
    d = check_legal(order, ctx)
    assert (d.code, d.message()) == ("cannot_reach", "F Bre cannot reach Spain")
    assert d.message("zh-hans") == "布雷斯特舰队无法到达西班牙"
    assert check_legal(parse_line("A Par - Bur", ctx).order, ctx) is None
    assert check_legal(order, ParseContext(std_map, names)) is None        # no position: nothing to check
    assert check_legal(parse_line("A Par retreat preference: Bur", ctx).order, ctx) is None


def test_explain_gives_the_rules_core_reason_as_a_diagnostic(std_map, names):
    """No sentence is read back: the reason's code and params are the diagnostic's."""
    from judge.notation.legal import explain
    from judge.rules.reasons import Reason
    ctx = ParseContext(std_map, names, "M", Position.start(std_map))
    order = Move("F", "mao", "spa")
    d = explain(Reason("coast_needed", province="spa", unit="F mao", coasts=["spa/nc", "spa/sc"]), order, ctx)
    assert (d.code, d.params["province"], d.params["coasts"]) == ("coast_needed", "spa", ["spa/nc", "spa/sc"])
    assert "北岸" in d.message("zh-hans")


def test_parse_orders_skips_blank_lines(std_map, names):
    lines = parse_orders("A Par - Bur\n\n   \nA Mar H\nA Nonsense H\n", ParseContext(std_map, names))
    assert [p.input for p in lines] == ["A Par - Bur", "A Mar H", "A Nonsense H"]
    assert [p.ok for p in lines] == [True, True, False]


def test_orders_are_rules_core_objects(std_map, names):
    ctx = ParseContext(std_map, names, "M", Position.start(std_map), "England")
    assert parse_line("A Lvp - Edi - Nth - Nwy", ctx).error.code == "route_not_sea"
    assert parse_line("Lvp - Nwy", ctx).order == Move("A", "lvp", "nwy")
    assert parse_line("A Lvp - Nth - Nwy", ctx).order == Move("A", "lvp", "nwy", True, ("nth",))
    assert parse_line("伦敦防守", ctx).order == Hold("F", "lon")
    rctx = ParseContext(std_map, names, "R")
    assert parse_line("A Par - Bur", rctx).order == Retreat("A", "par", "bur")


def test_names_lookups(names):
    assert names.province("聖彼德堡") == "stp" == names.province("圣彼德堡")
    assert names.province("伯乾第") == "bur" == names.province("伯干第")
    assert names.province("維也那") == "vie"
    assert names.province("突尼西亞") == "tun"
    assert names.province("stpeter") == "stp"
    assert names.location("spain(nc)") == "spa/nc"
    assert names.suggest("sevastapoool") == ["Sevastopol"]
    assert names.location_abbr("stp/sc") == "StP/sc"


def test_format_rejects_non_orders(names):
    with pytest.raises(TypeError):
        format_order("A Par - Bur", names)


def test_chinese_format(std_map, names):
    ctx = ParseContext(std_map, names)
    order = parse_line("A Ruh S A Mun - Bur", ctx).order
    assert format_order(order, names, "zh-hans") == "鲁尔陆军支援慕尼黑陆军进攻勃艮第"
    assert format_order(order, names, "zh-hant") == "魯爾陸軍支援慕尼黑陸軍進攻勃艮第"
    assert format_order(parse_line("A Par - Bur", ctx).order, names, "zh") == "巴黎陆军移动到勃艮第"


# ---- judge parse ------------------------------------------------------------------
def _run(monkeypatch, capsys, argv, stdin):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = main(["parse", *argv])
    return status, capsys.readouterr()


def test_cli_plain(monkeypatch, capsys):
    status, out = _run(monkeypatch, capsys, [], "A Par-Bur\n\n华沙陆军移动到莫斯科\nA Mun - Sevastapoool\n")
    assert status == 1
    assert out.out.splitlines() == ["A Par - Bur", "A War - Mos", "A Mun - Sevastapoool",
                                    '  ** unknown province "sevastapoool"; did you mean Sevastopol?']


def test_cli_json(monkeypatch, capsys):
    status, out = _run(monkeypatch, capsys, ["--json", "--phase", "W1901A"],
                       "F StP/nc build\n圣彼得堡西岸建造舰队\n")
    rows = [json.loads(line) for line in out.out.splitlines()]
    assert status == 1
    assert rows[0] == {"input": "F StP/nc build", "ok": True, "order": "Build F StP/nc",
                       "orders": ["Build F StP/nc"], "error": None, "notes": []}
    assert rows[1]["ok"] is False and rows[1]["order"] is None
    assert rows[1]["error"]["code"] == "coast_impossible"
    assert rows[1]["error"]["params"]["coasts"] == ["stp/nc", "stp/sc"]


def test_cli_checks_legality_like_the_game(monkeypatch, capsys):
    """An order read but illegal on the board is an error, with the rules core's reason by name."""
    status, out = _run(monkeypatch, capsys, [], "\ufeffF StP/nc - Bar\nF Bre - Spa\nA Smy - Bla\nF StP - Bot\n")
    assert status == 1
    assert out.out.splitlines() == [
        "F StP/sc - Bar",
        "  * the fleet in St. Petersburg is on the south coast, not the north coast",
        "  ** F StP/sc cannot reach Barents Sea",
        "F Bre - Spa", "  ** F Bre cannot reach Spain",
        "A Smy - Bla", "  ** an army cannot go to Black Sea",
        "F StP/sc - Bot"]
    status, out = _run(monkeypatch, capsys, ["--lang", "zh-hans"], "圣彼得堡北岸舰队移动到巴伦支海\n")
    assert status == 1
    assert out.out.splitlines() == ["圣彼得堡南岸舰队移动到巴伦支海", "  * 圣彼得堡的舰队位于南岸，不是北岸",
                                    "  ** 圣彼得堡南岸舰队无法到达巴伦支海"]
    status, out = _run(monkeypatch, capsys, ["--json"], "F StP/nc - Bar\nF StP/nc - Bot\n")
    rows = [json.loads(line) for line in out.out.splitlines()]
    assert rows[0]["ok"] is False and rows[0]["order"] == "F StP/sc - Bar"
    assert rows[0]["error"]["code"] == "cannot_reach"
    assert rows[0]["error"]["params"] == {"unit": "F stp/sc", "destination": "bar"}
    assert rows[1]["ok"] is True and rows[1]["error"] is None
    assert [n["code"] for n in rows[1]["notes"]] == ["unit_coast_corrected"]
    assert rows[1]["notes"][0]["params"] == {"province": "stp", "written_coast": "nc", "coast": "sc"}


def test_cli_start_position_and_power(monkeypatch, capsys):
    status, out = _run(monkeypatch, capsys, ["--power", "France", "--lang", "zh-hans"], "Par - Bur\nA Mun - Ruh\n")
    assert status == 1
    assert out.out.splitlines() == ["巴黎陆军移动到勃艮第", "A Mun - Ruh", "  ** 慕尼黑的部队属于德国"]


def test_cli_bad_arguments(monkeypatch, capsys, tmp_path):
    status, out = _run(monkeypatch, capsys, ["--phase", "X1901"], "")
    assert status == 2 and "not a phase name" in out.err
    status, out = _run(monkeypatch, capsys, ["--game", "nosuch", "--data", str(tmp_path)], "")
    assert status == 2 and "nosuch" in out.err


def test_cli_stored_game(monkeypatch, capsys, tmp_path):
    assert main(["game", "new", "g1", "--data", str(tmp_path), "--seed", "1"]) == 0
    capsys.readouterr()
    status, out = _run(monkeypatch, capsys, ["--game", "g1", "--data", str(tmp_path), "--power", "France"],
                       "Par - Bur\nLon - Nth\n")
    assert status == 1
    assert out.out.splitlines() == ["A Par - Bur", "Lon - Nth", "  ** the unit in London belongs to England"]
    status, out = _run(monkeypatch, capsys, ["--game", "g1", "--data", str(tmp_path), "--power", "France"],
                       "F Bre - Spa\nGermany: A Mun - Ruh\n")
    assert status == 1
    assert out.out.splitlines() == ["F Bre - Spa", "  ** F Bre cannot reach Spain", "Germany: A Mun - Ruh",
                                    "  ** this line is for Germany, but these are the orders of France"]
    status, out = _run(monkeypatch, capsys, ["--game", "g1", "--data", str(tmp_path), "--phase", "F1901M"], "")
    assert status == 2 and "S1901M" in out.err


def test_a_lines_tokens_are_kept_and_the_same_as_read_afresh(monkeypatch):
    """A line read again gives its tokens from the lexicon's keep (issue 23:
    orders sent again and again): equal to a fresh reading, a new list each
    time (a caller may change it), and the keep starts afresh when full."""
    import judge.notation.lexicon as lx
    from judge.maps import load_map, load_names
    from judge.notation.names import name_index
    lexicon = lx.Lexicon(name_index(load_map("standard"), load_names("standard")))
    lines = ["A Par - Bur", "F Lon S F Edi - Nth", "巴黎陆军进攻勃艮第", "A Par - Bur  ", "(A) PAR-BUR!", "hello there"]
    for line in lines * 2:
        first, again = lexicon.tokens(line), lexicon.tokens(line)
        assert first == again == lexicon._tokens(line) and first is not again
        first.clear()
        assert lexicon.tokens(line) == lexicon._tokens(line)
    monkeypatch.setattr(lx, "KEPT_LINES", 3)
    for n in range(10):
        assert lexicon.tokens(f"A Par - Bur {n}") == lexicon._tokens(f"A Par - Bur {n}")
        assert len(lexicon._kept) <= 3
