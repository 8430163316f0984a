"""``judge map import``: DPjudge ``.map`` files to the judge's maps (issue 24).

Every shipped variant re-imports from ``maps/sources`` to exactly the files in
``maps/``; bad files are refused with an error naming the file and line at
fault (``FILE:LINE: reason``) and nothing is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.cli import main
from judge.commands.map import credits_for
from judge.maps import MAPS_DIR, load_map
from judge.mapimport import MapFileError, import_map
from judge.rules.map import NEUTRAL

SOURCES = MAPS_DIR / "sources"
STANDARD = SOURCES / "standard.map"
SHIPPED = ["fva", "evt", "gvi", "fga", "buildanywhere", "chaos", "ancmed", "hundred", "youngstown",
           "modern", "1898", "fleetrome"]


def source_file(name: str) -> Path:
    credits = json.loads((SOURCES / "CREDITS.json").read_text(encoding="utf-8"))["files"]
    return SOURCES / next(f for f, c in credits.items() if c["name"] == name)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_map_reimports_to_the_same_files(name, tmp_path):
    src = source_file(name)
    c = credits_for(str(src))
    import_map(src, name, maps_dir=tmp_path, title=c["title"],
               credit={k: c[k] for k in ("designer", "source", "licence")})
    for f in ("map.json", "names.json", "SOURCE.md"):
        assert (tmp_path / name / f).read_text(encoding="utf-8") == (MAPS_DIR / name / f).read_text(encoding="utf-8"), f
    assert "Designer:" in (MAPS_DIR / name / "SOURCE.md").read_text(encoding="utf-8")


def test_standard_map_file_imports_as_the_standard_board(tmp_path):
    r = import_map(STANDARD, "std", maps_dir=tmp_path)
    std = load_map("standard")
    assert r.built.classic and r.map.powers == std.powers
    assert r.map.army_adj == std.army_adj and r.map.fleet_adj == std.fleet_adj
    assert {p: set(u) for p, u in r.map.start.units.items()} == {p: set(u) for p, u in std.start.units.items()}
    assert r.map.start.sc_owners == std.start.sc_owners
    assert json.loads((tmp_path / "std" / "names.json").read_text())["use"] == "standard"


def test_case_rules_make_army_and_fleet_adjacency():
    m = load_map("ancmed")
    assert "bal" not in m.army_adj["sag"] and "bal" in m.fleet_adj["sag"]     # Bal: no army
    std = load_map("fleetrome")
    assert "tus" in std.army_adj["ven"] and "tus" not in std.fleet_adj["ven"]  # tus: no fleet
    assert std.provinces["spa"].coasts == ("nc", "sc")
    assert "bul" in std.army_adj["con"] and {"bul/ec", "bul/sc"} <= std.fleet_adj["con"]


def test_cli_import_list_and_check(tmp_path, capsys):
    bad = tmp_path / "bad.map"
    bad.write_text(f"USE {STANDARD}\nVICTORY 99\n")
    assert main(["map", "import", str(bad), "--name", "bad", "--maps-dir", str(tmp_path)]) == 1
    assert f"{bad}:2: VICTORY 99" in capsys.readouterr().err
    assert not (tmp_path / "bad").exists()
    assert main(["map", "import", str(SOURCES / "fva.map"), "--maps-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "maps/fva: 2 powers" in out and (tmp_path / "fva" / "map.json").exists()
    assert "Oliver Auth" in (tmp_path / "fva" / "SOURCE.md").read_text()
    assert main(["map", "list"]) == 0
    out = capsys.readouterr().out
    for name in SHIPPED:
        assert f"\n{name} " in "\n" + out
    assert main(["map", "check", "ancmed"]) == 0
    assert "5 powers: Carthage, Egypt, Greece, Persia, Rome" in capsys.readouterr().out


def test_dummy_and_unowned_units_become_neutral_units(tmp_path):
    f = tmp_path / "neutral.map"
    f.write_text(f"USE {STANDARD}\nDUMMIES ITALY TURKEY\nUNOWNED\nA BEL\nF NWY\n")
    r = import_map(f, "neutral", maps_dir=tmp_path)
    assert "Italy" not in r.map.powers and len(r.map.powers) == 5
    assert {loc for _, loc in r.map.start.units[NEUTRAL]} == {"rom", "ven", "nap", "con", "smy", "ank", "bel", "nwy"}
    assert "rom" not in r.map.start.sc_owners


def test_unplayed_and_units_reset(tmp_path):
    f = tmp_path / "two.map"
    f.write_text(f"MAP {STANDARD.with_suffix('')}\nUNPLAYED ALL EXCEPT ENGLAND TURKEY\nENGLAND\nUNITS\nF NTH\n")
    r = import_map(f, "two", maps_dir=tmp_path)
    assert r.map.powers == ("England", "Turkey") and r.map.start.units["England"] == (("F", "nth"),)
    assert r.built.map["picture"] == "standard"


# ---- bad files: each error names the line ------------------------------------------------
BAD = [
    # (lines after "USE standard.map" on line 1, the line at fault, words of the reason)
    (["HELLO WORLD ???"], 2, "not a supply-centre abbreviation"),
    (["AMEND BUR ABUTS -PAR"], 2, "one-way"),
    (["Qqq Sea = qqq", "WATER QQQ ABUTS NTH YYY"], 3, "no place YYY"),
    (["LAND QQQ ABUTS BUR"], 2, "no place-name line"),
    (["Qwerty = qwe"], 2, "has no terrain line"),
    (["AMEND SPA/SC ABUTS EI:NAF"], 2, "some powers only"),
    (["AMEND ENG ABUTS ~BEL"], 2, "special adjacencies"),
    (["AMEND BLA ABUTS AEG(CON,SMY)"], 2, "owned centres"),
    (["IN SPRING: WATER ARC"], 2, "changes during play"),
    (["ENGLAND", "A NTH"], 3, "an army cannot stand there"),
    (["GERMANY", "F MUN"], 3, "a fleet cannot stand there"),
    (["RUSSIA", "F STP"], 3, "name a coast"),
    (["GERMANY BEL", "FRANCE BEL"], 3, "home centre of both"),
    (["UNOWNED NTH"], 2, "cannot be a supply centre"),
    (["USE nosuchfile"], 2, "no file 'nosuchfile'"),
    (["VICTORY 40"], 2, "only 34 supply centres"),
    (["VICTORY many"], 2, "VICTORY needs"),
    (["BEGIN SPRING MOVEMENT"], 2, "BEGIN reads"),
    (["BEGIN SPRING 1901 RETREATS"], 2, "MOVEMENT or ADJUSTMENTS"),
    (["BEGIN WINTER 1901 MOVEMENT"], 2, "adjustments are in Winter"),
    (["RULE MOBILIZE"], 2, "MOBILIZE needs"),
    (["DROP XYZ"], 2, "no such place"),
    (["XYZ -> Foo = foo"], 2, "no place XYZ to rename"),
    (["Foo = f"], 2, "three letters"),
    (["FRANCE +PIC"], 2, "factory sites"),
    (["UNPLAYED PRUSSIA"], 2, "no power PRUSSIA"),
    (["COAST spa/nc ABUTS MAO"], 2, "a coast is written COAST"),
    (["COAST SPA ABUTS GAS MAO"], 2, "written in lower case"),
    (["FRANCE", "OWNS PIC"], 3, "not a supply centre"),
    (["FRANCE", "OWNS BEL", "GERMANY", "OWNS BEL"], 5, "owned by both"),
    (["UNPLAYED ALL"], 2, "no powers left"),
    (["OWNS PAR"], None, "before any power line"),
    (["WATER NTH BUR"], 2, "expected ABUTS"),
    (["AMEND QQQ ABUTS NTH"], 2, "no earlier terrain line"),
    (["WATER NTH ABUTS -EDI"], 2, "only on an AMEND line"),
    (["Quux = qux", "LAND QUX"], 3, "inland province no army"),
    (["Quux = qux", "COAST QUX ABUTS Bur", "AMEND BUR ABUTS Qux"], 3, "a coast no fleet can enter"),
    (["PRUSSIA (PRUSSIAN)"], 2, "PRUSSIA has no home centres"),
]


@pytest.mark.parametrize("lines,line,words", BAD, ids=[b[2] for b in BAD])
def test_bad_map_file_names_the_line(lines, line, words, tmp_path):
    f = tmp_path / "bad.map"
    if line is None:          # a fault before any USE
        f.write_text("\n".join(lines) + "\n")
        line = 1
    else:
        f.write_text("\n".join([f"USE {STANDARD}"] + lines) + "\n")
    with pytest.raises(MapFileError) as e:
        import_map(f, "bad", maps_dir=tmp_path)
    assert f"{f}:{line}:" in str(e.value), str(e.value)
    assert words in str(e.value)
    assert e.value.line == line and e.value.file == str(f) or f"{f}:{line}" in str(e.value)
    assert not (tmp_path / "bad").exists()


def test_fault_in_an_included_file_names_that_file(tmp_path):
    inner = tmp_path / "inner.map"
    inner.write_text("# comment\n\nLAND ZZZ ABUTS BUR\n")
    outer = tmp_path / "outer.map"
    outer.write_text(f"USE {STANDARD}\nUSE inner\n")
    with pytest.raises(MapFileError, match=rf"{inner}:3: ZZZ: no place-name line"):
        import_map(outer, "outer", maps_dir=tmp_path)


def test_use_loop_and_empty_file(tmp_path):
    loop = tmp_path / "loop.map"
    loop.write_text("USE loop\n")
    with pytest.raises(MapFileError, match=rf"{loop}:1: .*includes itself"):
        import_map(loop, "loop", maps_dir=tmp_path)
    empty = tmp_path / "empty.map"
    empty.write_text("# nothing\n")
    with pytest.raises(MapFileError, match=rf"{empty}:1: no terrain lines"):
        import_map(empty, "empty", maps_dir=tmp_path)


def test_bad_name_is_refused(tmp_path):
    from judge.rules.map import MapError
    with pytest.raises(MapError):
        import_map(STANDARD, "Bad Name", maps_dir=tmp_path)
