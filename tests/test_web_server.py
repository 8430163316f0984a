"""``judge web``: the archive served over real HTTP gives the same pages as
the static build, follows the data file as games change, redirects ``?lang=``
and directory paths without their ``/``, and serves the JSON export."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from browser.sample import sample_game
from browser.serving import serving, store_with
from judge.archive import site_of, export_game
from judge.storage import save_game


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def fetch(url: str, method: str = "GET"):
    """``(status, headers, body)`` without following redirects."""
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(urllib.request.Request(url, method=method), timeout=10) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


@pytest.fixture()
def store(tmp_path):
    return store_with(tmp_path / "store", sample_game())


def test_served_pages_equal_the_rendered_ones(store):
    site = site_of(store)
    with serving(store) as base:
        for path in ("", "games/", "games/sample/", "games/sample/S1901M/", "zh-hans/games/sample/F1901R/",
                     "zh-hant/games/sample/F1902M/", "static/archive.js", "static/archive.css"):
            status, headers, body = fetch(base + path)
            page = site.render(path)
            assert (status, headers["Content-Type"], body) == (200, page.content_type, page.body), path
        status, headers, body = fetch(base + "games/sample.json")
        assert status == 200 and headers["Content-Type"] == "application/json; charset=utf-8"
        assert json.loads(body) == json.loads(json.dumps(export_game(sample_game()), ensure_ascii=False))
        status, headers, body = fetch(base + "games/sample/S1901M/", "HEAD")
        assert status == 200 and body == b"" and int(headers["Content-Length"]) > 10000


def test_redirects_and_not_found(store):
    with serving(store) as base:
        status, headers, _ = fetch(base + "games/sample/F1901M/?lang=zh-hant")
        assert (status, headers["Location"]) == (302, "/zh-hant/games/sample/F1901M/")
        status, headers, _ = fetch(base + "zh-hans/games/sample/?lang=en")
        assert (status, headers["Location"]) == (302, "/games/sample/")
        status, headers, _ = fetch(base + "games/sample")
        assert (status, headers["Location"]) == (301, "/games/sample/")
        status, _, body = fetch(base + "games/nosuch/")
        assert status == 404 and b"There is no page /games/nosuch/." in body
        status, _, body = fetch(base + "zh-hans/games/nosuch/")
        assert status == 404 and "没有页面".encode() in body


def test_pages_follow_the_data_file(store):
    with serving(store) as base:
        assert b'href="later/"' not in fetch(base + "games/")[2]
        with store.transaction() as tx:
            save_game(tx, sample_game("later"))
        assert b'href="later/"' in fetch(base + "games/")[2]
        assert fetch(base + "games/later/S1902M/")[0] == 200


def test_a_broken_game_document_gives_an_error_page_and_the_server_goes_on(store):
    with store.transaction() as tx:          # a game file damaged by hand, still in the catalogue
        tx.put("games", "broken", {"name": "broken"})
        tx.put("catalogue", "broken", dict(store.get("catalogue", "sample"), phases=0))
    with serving(store) as base:
        status, _, body = fetch(base + "games/broken/")
        assert status == 500 and b"500 internal error" in body
        assert fetch(base + "games/sample/")[0] == 200


def test_judge_web_command_serves_the_data_dir(store, tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "judge.cli", "web", "--port", "0", "--data", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = proc.stdout.readline()
        m = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
        assert m, line + proc.stderr.read() if proc.poll() is not None else line
        status, _, body = fetch(m.group(1) + "games/sample/W1901A/")
        assert status == 200 and b"Winter 1901 Adjustment" in body
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_private_game_is_served_to_a_stranger_as_a_game_that_does_not_exist(tmp_path):
    """Issue 19, point 3, over HTTP: an unlisted and an invite-only game
    (see ``test_archive_private.py``) answer every path, GET and HEAD, exactly
    as a name no game has."""
    from dataclasses import replace

    from judge.game.access import AccessSettings
    hidden, invited = sample_game("hidden"), sample_game("invited")
    hidden.settings = replace(hidden.settings, access=AccessSettings(listed=False))
    invited.settings = replace(invited.settings, access=AccessSettings(access="invite"))
    store = store_with(tmp_path / "store", sample_game(), hidden, invited)
    with serving(store) as base:
        assert fetch(base + "games/sample.json")[0] == 200
        for name in ("hidden", "invited"):
            for path in ("games/{}/", "games/{}/S1901M/", "games/{}.json", "zh-hans/games/{}/F1901M/",
                         "games/{}", "games/{}/?lang=zh-hant"):
                for method in ("GET", "HEAD"):
                    status, headers, body = fetch(base + path.format(name), method)
                    n_status, n_headers, n_body = fetch(base + path.format("nosuch"), method)
                    assert (status, body, headers.get("Location")) == \
                        (n_status, n_body.replace(b"nosuch", name.encode()),
                         n_headers.get("Location") and n_headers["Location"].replace("nosuch", name)), path
                    assert status in (301, 302, 404), path
        assert b"hidden" not in fetch(base + "games/")[2] and b"invited" not in fetch(base + "games/")[2]
