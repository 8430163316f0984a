"""The DPjudge picture converter (``judge.mapimport.geometry``): a ``.ps`` picture
file to ``geometry.json``, on a small picture file written here (two land
provinces split by a border line, a sea above them, one SC). Needs Ghostscript
(``gs``), which ``tests/run`` installs."""

from __future__ import annotations

import shutil

import pytest

from judge.mapimport.geometry import PsError, convert, read_ps

pytestmark = pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript (gs) is not installed")

PS = """%!PS-Adobe-3.0
%%Title: Diplomacy Map (Two Lands, a test)
% INFO
%   50   40 WES    West Land
%  150   60 EAS    East Land
%  100  150 NOR    North Sea
% MAP
%%BeginSetup
/VisitSupplies {
\t1 dict begin
\t/s xd
\t/WES 40 70 s
\tend
} def
/VisitPowers {
\t1 dict begin
\t/p xd
\t/UNOWNED (?) /Brown /White p
\t/REDLAND (R) /Red /Black p
\t/DARKLAND (D) /Black /White p
\tend
} def
/VisitColors {
\t3 dict begin
\t/c xd /r xd /g xd
\t/Black 0 g
\t/Red 1 0 0 r
\tend
} def
/MapForm <<
\t/FormType 1
\t/Matrix [ 1 0 0 1 0 0 ]
\t/BBox [ 0 0 200 200 ]
\t/PaintProc {
\t\tpop
\t\t.1 .4 .6 setrgbcolor 0 0 200 200 rectfill
\t\t.8 .7 .4 setrgbcolor 0 0 200 100 rectfill
\t\t0 setgray 1 setlinewidth [2 2] 0 setdash 100 0 moveto 100 100 lineto stroke
\t} bind
>> def
%%EndSetup
"""

PROVINCES = {"wes": {"kind": "coastal", "coasts": [], "sc": True},
             "eas": {"kind": "coastal", "coasts": [], "sc": False},
             "nor": {"kind": "sea", "coasts": [], "sc": False}}


def _inside(p, rings) -> bool:
    inside = False
    for poly in rings:
        for i in range(len(poly)):
            (x1, y1), (x2, y2) = poly[i], poly[i - 1]
            if (y1 > p[1]) != (y2 > p[1]) and p[0] < x1 + (p[1] - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
    return inside


@pytest.fixture(scope="module")
def geo(tmp_path_factory):
    path = tmp_path_factory.mktemp("ps") / "two.ps"
    path.write_text(PS, encoding="latin-1")
    return convert(read_ps(path), PROVINCES, ["Redland", "Darkland"], "two", k=1.0, log=lambda *_: None)


def test_points_from_the_info_block_and_supplies_in_output_coordinates(geo):
    assert geo["map"] == "two" and geo["projection"] == {"type": "plane", "size": [200.0, 200.0]}
    provinces = geo["provinces"]
    assert provinces["wes"]["unit"] == [50.0, 160.0]            # y flipped: 200 - 40
    assert provinces["nor"]["unit"] == [100.0, 50.0]
    assert provinces["wes"]["sc"] == [40.0, 130.0]
    assert "sc" not in provinces["eas"]
    assert "Two Lands" in geo["about"]


def test_coastline_traced_land_below_sea_above(geo):
    rings = [ring["points"] for ring in geo["land"]]
    assert _inside((50, 150), rings) and _inside((150, 190), rings)
    assert not _inside((50, 50), rings) and not _inside((150, 10), rings)


def test_labels_and_seeds_inside_their_province_across_a_dashed_border(geo):
    """The dashed border is drawn solid, so the West's points all lie west of it."""
    rings = [ring["points"] for ring in geo["land"]]
    for code, west in (("wes", True), ("eas", False)):
        entry = geo["provinces"][code]
        for x, y in [entry["label"], entry["unit"], *entry.get("seeds", [])]:
            assert (x < 100) == west, (code, x, y)
            assert _inside((x, y), rings), (code, x, y)
    assert geo["provinces"]["wes"]["seeds"] and geo["provinces"]["eas"]["seeds"]   # the border is fitted
    sea = geo["provinces"]["nor"]
    assert not _inside(tuple(sea["label"]), rings)
    label, unit = geo["provinces"]["wes"]["label"], geo["provinces"]["wes"]["unit"]
    picture_units = 800 / 200                                              # a picture is 800 units wide
    assert max(abs(label[0] - unit[0]), abs(label[1] - unit[1])) * picture_units >= 12   # beside the unit, not on it


def test_power_colours_and_a_light_tint_for_black(geo):
    assert geo["powers"]["Redland"]["colour"] == "#ff0000"
    assert geo["powers"]["Darkland"]["colour"] == "#000000"
    tint = geo["powers"]["Darkland"]["tint"]
    assert int(tint[1:3], 16) > 150                                         # owned land stays light


def test_a_province_the_picture_lacks_is_named(tmp_path):
    path = tmp_path / "two.ps"
    path.write_text(PS, encoding="latin-1")
    with pytest.raises(PsError, match="province mid: no INFO point MID"):
        convert(read_ps(path), {**PROVINCES, "mid": {"kind": "land", "coasts": [], "sc": False}}, ["Redland"], "two")
    with pytest.raises(PsError, match="no '% INFO'"):
        read_ps(_write(tmp_path / "bad.ps", PS.replace("% INFO", "% NOTHING")))


def _write(path, text):
    path.write_text(text, encoding="latin-1")
    return path
