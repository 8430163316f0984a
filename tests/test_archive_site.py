"""The archive's pages (issue 6 §3) as rendered for the server and the static
build: the list of games, a game, each phase (map, orders and results with
reasons, SC table, press), previous/next links, three languages, stable
paths; the static build's links all resolve; every text is translated."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from datetime import timedelta
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

from browser.sample import SAMPLE_PHASES, T0, sample_game
from browser.serving import store_with
from judge.archive import site_of
from judge.archive.site import relative
from judge.cli import main
from judge.storage import Store, save_game

REPO = Path(__file__).resolve().parents[1]


def site_with(folder, *games):
    """The archive of a store at ``folder`` holding ``games``."""
    return site_of(store_with(folder / "store", *games))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    game = sample_game()
    return site_with(tmp_path_factory.mktemp("site"), game)


def html(site, path: str) -> str:
    page = site.render(path)
    assert page.status == 200, (path, page.status)
    assert page.content_type == "text/html; charset=utf-8"
    return page.body.decode("utf-8")


def test_index_lists_games(site, tmp_path):
    text = html(site, "games/")
    assert '<a class="game" href="sample/">sample</a>' in text
    assert "Fall 1902 Movement" in text
    assert '<a class="game" href="games/sample/">sample</a>' in html(site, "")   # the root too
    empty = site_with(tmp_path).render("games/")
    assert "No games yet." in empty.body.decode()


def test_game_page_shows_powers_players_phases_and_sc_history(site):
    text = html(site, "games/sample/")
    assert "<h1>Game sample</h1>" in text
    assert 'href="F1902M/">Fall 1902 Movement</a>' in text          # the current phase
    assert "fr…@example.org" in text and "francois@" not in text and "(vacant)" in text
    assert '<a class="export" href="../sample.json"' in text
    for phase in SAMPLE_PHASES:
        assert f'href="{phase}/" data-phase="{phase}"' in text
    rows = re.findall(r'<tr(?: data-year="(\d+)")?><th>([^<]+)</th>((?:<td class="num">\d*</td>)+)</tr>', text)
    assert [(y, label, re.findall(r'<td class="num">(\d*)</td>', cells)) for y, label, cells in rows] == [
        ("", "Start", ["3", "3", "3", "3", "3", "4", "3"]),
        ("1901", "1901", ["3", "4", "4", "4", "3", "4", "3"])]


def test_phase_page_has_map_orders_results_centres_and_press(site):
    text = html(site, "games/sample/F1901M/")
    assert '<h1 data-phase="F1901M">Fall 1901 Movement <small>F1901M</small></h1>' in text
    assert text.count('<svg xmlns="http://www.w3.org/2000/svg" class="diplomacy-map"') == 1
    assert len(re.findall(r'<g class="unit (?:army|fleet)', text)) == 22
    assert '<a id="prev" rel="prev" href="../S1901M/">' in text
    assert '<a id="next" rel="next" href="../F1901R/">' in text
    assert '<span class="order">A Bur H</span> <span class="notes">(dislodged)</span>' in text
    assert '<li class="result succeeds"><span class="order">A Yor - Nwy via convoy</span></li>' in text
    assert "France: A Bur may retreat to Belgium, Gascony, Paris, Picardy." in text
    assert '<section id="press" class="press">' in text and "No public press in this phase." in text
    assert '<script src="../../../static/archive.js"></script>' in text
    first = html(site, "games/sample/S1901M/")
    assert '<span class="off">←</span>' in first and 'rel="next" href="../F1901M/"' in first
    assert "<code>A Par - Pic</code> → A Par - Pic" in first and 'class="replaced"' in first
    assert "<code>慕尼黑陆军移动到鲁尔</code> → A Mun - Ruh" in first
    assert '<span class="order">A Vie - Gal</span> <span class="notes">(bounced)</span>' in first


def test_current_phase_page_keeps_orders_secret(site):
    text = html(site, "games/sample/F1902M/")
    assert "Not adjudicated yet: orders are secret until the deadline." in text
    assert '<span class="off">→</span>' in text and 'class="order ' not in text


@pytest.mark.parametrize("lang, words", [
    ("zh-hans", ["命令与结果", "1901年秋季移动回合", "勃艮第陆军防守", "（被击退）", "本回合没有公开信件。", "资源点"]),
    ("zh-hant", ["命令與結果", "1901年秋季移動回合", "勃艮第陸軍防守", "（被擊退）", "本回合沒有公開信件。", "資源點"]),
])
def test_chinese_pages(site, lang, words):
    text = html(site, f"{lang}/games/sample/F1901M/")
    assert f'<html lang="{lang[:2]}-{lang[3:].capitalize()}">' in text
    for w in words:
        assert w.replace("（", "(").replace("）", ")") in text or w in text, w
    assert 'href="../../../../games/sample/F1901M/" hreflang="en"' in text    # the language switch
    assert 'rel="prev" href="../S1901M/"' in text
    assert 'lang="' + lang + '"' in text                                     # the map's labels


def test_paths_redirect_to_their_stable_form_and_unknown_ones_are_not_found(site):
    assert site.render("games/sample").location == "/games/sample/"
    assert site.render("zh-hans/games/sample/F1901M").location == "/zh-hans/games/sample/F1901M/"
    assert site.render("games/sample/f1901m/").location == "/games/sample/F1901M/"
    for path in ("games/nosuch/", "games/sample/F1905M/", "games/sample/autumn/", "other/",
                 "games/sample/F1901M/extra", "static/../judge.json", "games/sample/F1901M/x/"):
        assert site.render(path).status == 404, path
    assert site.render("zh-hans/games/sample.json").location == "/games/sample.json"
    json_page = site.render("games/sample.json")
    assert json_page.status == 200 and json_page.content_type == "application/json; charset=utf-8"


def test_relative_links():
    assert relative("games/g/S1901M/", "games/g/F1901M/") == "../F1901M/"
    assert relative("games/g/S1901M/", "static/archive.css") == "../../../static/archive.css"
    assert relative("", "games/g/") == "games/g/"
    assert relative("games/", "") == "../"
    assert relative("games/", "games/") == "./"
    assert relative("zh-hans/games/g/", "games/g.json") == "../../../games/g.json"


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value and tag != "svg":
                self.links.append(value)


def test_static_build_writes_every_page_and_every_link_resolves(tmp_path, capsys):
    store = Store(tmp_path / "data" / "store")
    with store.transaction() as tx:
        save_game(tx, sample_game())
    out = tmp_path / "site"
    assert main(["archive", "build", str(out), "--data", str(tmp_path / "data")]) == 0
    assert "files written" in capsys.readouterr().out
    site = site_of(store)
    for path in site.paths():
        file = out / (path + "index.html" if path == "" or path.endswith("/") else path)
        assert file.read_bytes() == site.render(path).body, path
    assert (out / "games" / "sample" / "F1901M" / "index.html").is_file()
    assert (out / "zh-hant" / "games" / "sample" / "W1901A" / "index.html").is_file()
    assert (out / "games" / "sample.json").is_file()
    checked = 0
    for page in out.rglob("*.html"):
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        base = "http://x/" + page.relative_to(out).as_posix()
        for link in parser.links:
            target = urlsplit(urljoin(base, link)).path.lstrip("/")
            file = out / (target + "index.html" if target == "" or target.endswith("/") else target)
            assert file.is_file(), f"{page}: {link}"
            checked += 1
    assert checked > 250


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """The sample game ended by the GM in F1902M as a draw of four powers;
    Austria was ruled passive."""
    game = sample_game("ended")
    game.gm_end(T0 + timedelta(days=30), ["England", "France", "Germany", "Russia"])
    game.gm_rule_passive("Austria", 2)
    game.gm_award("strategy", "France")
    return site_with(tmp_path_factory.mktemp("site"), game, sample_game())


def test_finished_game_page_shows_result_final_centres_and_scores(finished):
    text = html(finished, "games/ended/")
    assert "Now:" not in text
    assert '<strong class="over">Game over</strong> · Ended in: <a class="current" href="F1902M/">' in text
    assert '<section class="game-over" data-kind="draw">' in text
    assert "<h2>Game over: Draw</h2>" in text
    assert "The game is drawn between England, France, Germany and Russia." in text
    assert "The game ended in Fall 1902 Movement (F1902M), 2025-03-31 12:00 UTC." in text
    assert "Judge's record:" in text
    assert "(house rules, Appendix 2)" in text
    rows = dict(re.findall(r'<tr data-power="(\w+)"(?: class="winner")?><td>.*?</td>((?:<td[^>]*>[^<]*</td>)+)</tr>',
                           text.split('<table class="final">')[1].split("</table>")[0]))
    assert set(rows) == {"Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"}
    # England had no player (only France and Germany did): no leader, no leader's reward (Appendix 2)
    assert '<td class="num">4</td><td class="num">4</td><td class="num">4</td><td class="num"></td>' \
        '<td class="items">SCs 4</td>' in rows["England"]
    assert '<td class="num">2000k</td>' in rows["Germany"] and "leader&#39;s reward +2000k" in rows["Germany"]
    assert "forfeited (passive play) -3" in rows["Austria"] and "fine -2" in rows["Austria"]
    assert '<tr data-power="France" class="winner">' in text and '<tr data-power="Italy" class="winner">' not in text
    assert "<li>Best strategy award: France (named by the GM)</li>" in text
    assert "<li>Best diplomacy award: to be named by the GM</li>" in text
    assert "Austria: forfeits all points, coins and awards and is fined 2 points (no orders in: " in text
    index = html(finished, "games/")
    assert '<tr class="over">' in index and index.count('<tr class="over">') == 1
    assert '<strong class="over">Game over</strong> (Draw) · ended in Fall 1902 Movement' in index


def test_finished_game_last_phase_shows_the_final_position_not_secret_orders(finished):
    text = html(finished, "games/ended/F1902M/")
    assert "Not adjudicated yet" not in text and "secret" not in text
    assert "the game ended in Fall 1902 Movement (F1902M); the map shows the final position." in text
    assert "This phase was not adjudicated: orders written for it had no effect." in text
    assert "The game is drawn between England, France, Germany and Russia." in text
    assert "<h2>Final supply centres</h2>" in text
    assert len(re.findall(r'<g class="unit (?:army|fleet)', text)) == 25
    assert "Not adjudicated yet: orders are secret until the deadline." in html(finished, "games/sample/F1902M/")


@pytest.mark.parametrize("lang, words", [
    ("zh-hans", ["<h2>游戏已结束：和局</h2>", "游戏以英国、法国、德国和俄国和局结束。",
                 "游戏结束于1902年秋季移动回合（F1902M），2025-03-31 12:00 UTC。", "最终资源点与得分",
                 "资源点 4、元首奖励 +2000k", "最佳外交奖: 待GM决定", "法国（由GM决定）", "奥匈帝国：扣除所有分数"]),
    ("zh-hant", ["<h2>遊戲已結束：和局</h2>", "遊戲以英國、法國、德國和俄國和局結束。", "最終資源點與得分"]),
])
def test_finished_game_in_chinese(finished, lang, words):
    text = html(finished, f"{lang}/games/ended/")
    for w in words:
        assert w in text, w
    assert "The game is drawn" not in text and "Judge's record" not in text    # no English on the page (issue 22)
    last = html(finished, f"{lang}/games/ended/F1902M/")
    over, final = {"zh-hans": ("游戏结束于1902年秋季移动回合（F1902M）；地图显示最终局势。", "最终资源点"),
                   "zh-hant": ("遊戲結束於1902年秋季移動回合（F1902M）；地圖顯示最終局勢。", "最終資源點")}[lang]
    assert over in last and f"<h2>{final}</h2>" in last
    assert "本回合未结算" in last if lang == "zh-hans" else "本回合未結算" in last
    assert "秘密" not in last
    index = html(finished, f"{lang}/games/")
    assert ("游戏已结束" if lang == "zh-hans" else "遊戲已結束") in index
