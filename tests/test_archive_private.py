"""Nothing secret in public, and private games not on the web (issue 19,
points 2, 3 and 6): a gunboat game with a join password, an invitation list
and grey press sent with orders, played by mail, then read as a stranger
reads it — the JSON export and every web page (:class:`judge.archive.Site`,
the renderer ``judge web`` serves; ``test_web_server.py`` reads the same over
HTTP); unlisted and invite-only games answer as games that do not exist."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from browser.sample import sample_game
from mailjudge import GM, addr, started

from judge.archive import site_of
from judge.game.access import AccessSettings
from judge.storage import Store, save_game

SECRETS = ("example.org", "secret.example", "invited", "join_password_hash", "received", "scrypt")


@pytest.fixture
def played(tmp_path):
    """The mailjudge game ``g`` (gunboat, grey and white press, join password,
    invitations) after S1901M: France's orders and a grey broadcast came in
    one mail, England's white broadcast in another."""
    j = started(tmp_path, "CREATE g gmsecret press=both gunboat=yes")
    j.mail(GM, "SIGNON g gmsecret\nSET access=password join_password=joinpw44 invite=friend@secret.example\n")
    j.now = j.now.replace(minute=7, second=13, microsecond=123456)
    j.mail(addr("France"), "SIGNON g pw-france\nA Par - Bur\nBROADCAST GREY\nBeware of Germany.\nENDPRESS\n")
    j.now = j.now.replace(minute=9, second=41, microsecond=654321)
    j.mail(addr("England"), "SIGNON g pw-england\nF Lon - Nth\nBROADCAST\nEngland is friendly.\nENDPRESS\n")
    j.now = j.now.replace(hour=13, minute=30)
    j.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    j.now = j.now.replace(hour=14, minute=2, second=5, microsecond=500)
    j.mail(addr("France"), "SIGNON g pw-france\nBROADCAST GREY\nStill here.\nENDPRESS\n")   # current phase
    assert j.game()["position"]["phase"] == "F1901M"
    return j


def stored_stamps(j) -> list[str]:
    """Every time the store keeps of an order or a press item of game ``g``."""
    record = j.store.get("phases", "g/0000")
    stamps = [e["received"] for es in record["orders"].values() for e in es if e.get("received")]
    return stamps + [p["at"] for p in record.get("press", []) + j.game().get("press", [])]


def test_the_export_of_a_gunboat_game_with_grey_press_keeps_every_secret(played):
    site = site_of(played.store)
    page = site.render("games/g.json")
    assert page.status == 200
    text = page.body.decode("utf-8")
    for secret in SECRETS:
        assert secret not in text, secret
    game = played.game()
    assert game["settings"]["access"]["join_password_hash"] and game["settings"]["access"]["invited"]
    assert game["settings"]["access"]["join_password_hash"] not in text
    stamps = stored_stamps(played)
    assert len(stamps) >= 5
    for stamp in stamps:                       # no order stamp; no press stamp finer than the minute
        assert stamp not in text, stamp
    data = json.loads(text)
    assert set(data["players"].values()) == {None}           # gunboat: no address at all
    assert data["settings"]["access"] == {"auth": "", "access": "password", "listed": True, "approve": False}
    press = data["phases"][0]["press"]
    grey = [p for p in press if p["grey"]]
    white = [p for p in press if not p["grey"]]
    assert [p["text"].strip() for p in grey] == ["Beware of Germany."] and "at" not in grey[0]
    assert grey[0]["sender"] is None
    assert white[0]["sender"] == "England" and white[0]["at"].endswith("12:09:00+00:00")
    assert [p for p in data["current"]["press"] if p["grey"] and "at" not in p]
    assert all("received" not in e for es in data["phases"][0]["orders"].values() for e in es)


def test_the_pages_of_that_game_show_no_address_and_no_time_of_grey_press(played):
    site = site_of(played.store)
    for path in ("games/", "games/g/", "games/g/S1901M/", "games/g/F1901M/", "zh-hans/games/g/S1901M/"):
        page = site.render(path)
        assert page.status == 200, path
        text = page.body.decode("utf-8")
        assert "example.org" not in text and "secret.example" not in text, path
        assert "12:07" not in text, path          # the minute of France's orders and grey press
    phase = site.render("games/g/S1901M/").body.decode("utf-8")
    grey = phase.split("Beware of Germany.")[0].rsplit('<article class="press-item">', 1)[1]
    white = phase.split("England is friendly.")[0].rsplit('<article class="press-item">', 1)[1]
    assert "<time>" not in grey and "anonymous" in grey
    assert "<time>2025-01-06 12:09 UTC</time>" in white


def private_store(tmp_path, row_without_access: bool = False) -> Store:
    """Games ``open1`` (public), ``hidden`` (listed=no) and ``invited``
    (access=invite); with ``row_without_access`` the catalogue rows lack
    ``access``, as rows written before issue 19 do."""
    store = Store(tmp_path / "store")
    with store.transaction() as tx:
        for name, access in (("open1", AccessSettings()), ("hidden", AccessSettings(listed=False)),
                             ("invited", AccessSettings(access="invite", invited=("a@b.example",)))):
            g = sample_game(name)
            g.settings = replace(g.settings, access=access)
            save_game(tx, g)
    if row_without_access:
        with store.transaction() as tx:
            for name, row in store.all("catalogue").items():
                tx.put("catalogue", name, {k: v for k, v in row.items() if k != "access"})
    return store


PATHS = ("games/{}/", "games/{}/S1901M/", "games/{}/s1901m/", "games/{}/F1902M/", "games/{}.json",
         "zh-hans/games/{}/", "zh-hant/games/{}/W1901A/", "zh-hans/games/{}.json", "games/{}", "games/{}/x/")


@pytest.mark.parametrize("old_rows", [False, True])
def test_private_games_answer_a_stranger_as_games_that_do_not_exist(tmp_path, old_rows):
    site = site_of(private_store(tmp_path, old_rows))
    assert site.render("games/open1/").status == 200 and site.render("games/open1.json").status == 200
    for name in ("hidden", "invited"):
        for path in PATHS:
            mine, none = site.render(path.format(name)), site.render(path.format("nosuch"))
            assert (mine.status, mine.content_type, mine.location) == \
                (none.status, none.content_type, none.location and none.location.replace("nosuch", name)), path
            assert mine.body == none.body.replace(b"nosuch", name.encode()), path
    index = site.render("games/").body.decode("utf-8")
    assert 'href="open1/"' in index and "hidden" not in index and "invited" not in index


def test_a_static_build_writes_no_page_of_a_private_game(tmp_path):
    site = site_of(private_store(tmp_path))
    paths = site.paths()
    assert "games/open1.json" in paths
    assert not [p for p in paths if "hidden" in p or "invited" in p]
