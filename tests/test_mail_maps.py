"""The map in the judge's mail (issue 20), by mail through the worker: the
game's start, every results mail, the final report and ``MAP`` carry the
phase's map as a PNG inline in an HTML part, the text part first and as it
would be alone; each picture is drawn once per phase and language and kept
beside the phase's record; the reader's and the game's choice (png, svg,
none) is kept. How the HTML part looks in a browser: ``test_mail_html_browser.py``.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

import judge.render.png as png_module
from judge.mail.pictures import KEPT, Rasters, picture
from judge.storage.accounts import set_map_format
from judge.mail.staging import Staging
from judge.storage import load_game
from mailjudge import GM, POWERS, addr, started

MAX_MAP = 300_000
MAX_MAIL = 350_000


@pytest.fixture
def judge(tmp_path):
    return started(tmp_path, "CREATE g gmsecret reminders=none")


@pytest.fixture
def drawn(monkeypatch):
    """The SVGs painted (each call of svg_to_png), the process's cache emptied."""
    calls: list[str] = []
    real = png_module.svg_to_png
    monkeypatch.setattr(png_module, "svg_to_png", lambda svg, width=800: calls.append(svg) or real(svg, width))
    monkeypatch.setattr(Rasters, "_cache", type(Rasters._cache)())
    return calls


def parts(mail) -> dict:
    """``{"text", "html", "images": {cid: part}, "files": [part]}`` of a mail with a map."""
    assert mail.get_content_type() in ("multipart/alternative", "multipart/mixed")
    alternative = mail if mail.get_content_type() == "multipart/alternative" else next(mail.iter_parts())
    text, related = list(alternative.iter_parts())
    assert text.get_content_type() == "text/plain"            # first: what a text-only reader shows
    assert related.get_content_type() == "multipart/related"
    html, *images = related.iter_parts()
    files = list(mail.iter_attachments()) if mail.get_content_type() == "multipart/mixed" else []
    return {"text": text.get_content(), "html": html.get_content(),
            "images": {p["Content-ID"].strip("<>"): p for p in images}, "files": files}


def check_shown(mail, kind: str = "image/png") -> dict:
    """The HTML shows every inline image by cid:, with alt text; sizes in bounds."""
    p = parts(mail)
    cids = re.findall(r'<img src="cid:([^"]+)" alt="([^"]+)"', p["html"])
    assert cids and {c for c, _alt in cids} == set(p["images"])
    for image in p["images"].values():
        assert image.get_content_type() == kind and image.get_content_disposition() == "inline"
        assert len(image.get_content()) <= MAX_MAP
    assert len(mail.as_bytes()) <= MAX_MAIL
    return p


def test_start_results_and_final_mails_carry_the_map(judge, drawn):
    starts = [m for m in judge.read(0) if "game start" in m["Subject"]]
    assert len(starts) == 8
    for m in starts:
        p = check_shown(m)
        assert p["text"].startswith(":: Judge:") and "has started" in p["text"]
        assert "Map of game g, Spring 1901 Movement (S1901M). Supply centres: Austria 3" in p["html"]
        assert ":: Judge:" not in p["html"]                     # the script lines stay in the text part

    judge.mail(addr("France"), "SIGNON g pw-france\nA Par - Bur\nA Mar - Spa\n")
    mails = judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    results = [m for m in mails if m["Subject"].startswith("Diplomacy results")]
    assert len(results) == 8 and len(drawn) == 1               # eight readers of one language: drawn once
    for m in results:
        p = check_shown(m)
        assert "France: A Par - Bur." in p["text"] and "A Par - Bur" in p["html"]
        assert "the orders and their results" in p["html"]
    kept = judge.store.get("pictures", "g/0000/phase-en")
    assert kept and kept["sha256"]                              # beside record 0000 (S1901M)

    for power in POWERS[:-1]:
        judge.mail(addr(power), f"SIGNON g pw-{power.lower()}\nDRAW\n")
    mails = judge.mail(addr("Turkey"), "SIGNON g pw-turkey\nDRAW\n")
    over = [m for m in mails if m["Subject"].startswith("Diplomacy game over")]
    assert len(over) == 8
    for m in over:
        p = check_shown(m)
        assert "Final position (F1901M)" in p["html"]             # the last board


def test_a_chinese_reader_gets_chinese_words_and_labels(judge, drawn):
    judge.mail(addr("Russia"), "SIGNON g pw-russia\nSET LANGUAGE zh-hant\n")
    mails = judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    russia = next(m for m in mails if m["To"] == addr("Russia") and "結果" in m["Subject"])
    p = check_shown(russia)
    assert '<html lang="zh-Hant">' in p["html"] and "遊戲 g 的地圖，1901年春季移動回合（S1901M）" in p["html"]
    assert len(drawn) == 2                                     # English and traditional Chinese
    assert any("聖彼得堡" in svg for svg in drawn) and any(">StP<" in svg for svg in drawn)


def test_the_readers_and_the_games_choice(judge, drawn):
    with judge.store.transaction() as tx:
        set_map_format(tx, addr("France"), "none")
        tx.put("accounts", addr("Italy"), {"language": "en"})
        set_map_format(tx, addr("Italy"), "svg")
    assert judge.store.get("accounts", addr("Italy")) == {"language": "en", "map": "svg"}
    with pytest.raises(ValueError):
        set_map_format(judge.store, addr("Italy"), "gif")
    mails = {str(m["To"]): m for m in judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
             if m["Subject"].startswith("Diplomacy results")}
    assert mails[addr("France")].get_content_type() == "text/plain"          # plain text only
    assert "France: A Par H." in mails[addr("France")].get_content()
    check_shown(mails[addr("Italy")], "image/svg+xml")
    check_shown(mails[addr("Germany")])
    judge.mail(GM, "SIGNON g gmsecret\nSET map=none\n")
    mails = {str(m["To"]): m for m in judge.mail(GM, "SIGNON g gmsecret\nPROCESS F1901M\n")
             if m["Subject"].startswith("Diplomacy results")}
    assert mails[addr("Germany")].get_content_type() == "text/plain"         # the game's setting
    check_shown(mails[addr("Italy")], "image/svg+xml")                       # the reader's own choice


def test_map_shows_and_attaches_the_png_and_the_svg_when_asked(judge, drawn):
    judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    [reply] = judge.mail("anyone@example.org", "MAP g S1901M\n")
    p = check_shown(reply)
    assert "The map is attached: g-S1901M.png." in p["text"]
    [png] = p["files"]
    assert png.get_content_type() == "image/png" and png.get_filename() == "g-S1901M.png"
    assert png.get_content() == next(iter(p["images"].values())).get_content()
    assert len(drawn) == 1                                      # the results' picture, kept: not drawn again
    [reply] = judge.mail("anyone@example.org", "地图 g SVG\n")
    p = check_shown(reply)
    assert [f.get_filename() for f in p["files"]] == ["g-F1901M.png", "g-F1901M.svg"]
    assert p["files"][1].get_content().startswith(b"<svg")
    [reply] = judge.mail("anyone@example.org", "MAP g S1905M\n")       # a phase not reached: told, no map
    assert reply.get_content_type() == "text/plain"


def test_the_same_mail_is_the_same_bytes(tmp_path):
    """A mail with a map made again (a rerun after a crash) is byte for byte
    the same: boundaries and Content-IDs come from the Message-ID and the picture."""
    raws = []
    for run in ("a", "b"):
        j = started(tmp_path / run, "CREATE g gmsecret reminders=none")
        j.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
        raws.append([r["raw"] for r in j.sent])
    assert raws[0] == raws[1]
    assert sum("multipart/related" in raw for raw in raws[0]) == 16      # 8 start mails, 8 results


def test_pictures_kept_for_the_last_records_only(judge, drawn):
    """Drawing record N's picture drops record N-3's: a game's store keeps a
    few pictures, not one a phase; an older phase is drawn again when asked."""
    judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    assert judge.store.get("pictures", "g/0000/phase-en") is not None
    game = load_game(judge.store, "g")
    pic = picture(game, "S1901M", "en")
    later = dataclasses.replace(pic, key=f"g/{KEPT:04d}/phase-en")
    staged = Staging(judge.store)
    Rasters().png(later, staged)
    with judge.store.transaction() as tx:
        staged.apply(tx)
    assert judge.store.get("pictures", "g/0000/phase-en") is None
    assert judge.store.get("pictures", f"g/{KEPT:04d}/phase-en") is not None
    [reply] = judge.mail("anyone@example.org", "MAP g S1901M\n")
    assert reply.get_content_type() == "multipart/mixed" and judge.store.get("pictures", "g/0000/phase-en")
