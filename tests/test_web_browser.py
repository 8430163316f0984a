"""The archive in a real browser (issue 6 §4): headless Chromium opens a game,
steps through its phases with the arrow keys, and on every phase finds each
unit of the phase's position drawn on the map. A screenshot of one phase is
kept in ``tests/artifacts/`` (git-ignored). In CI a missing Chromium fails."""

from __future__ import annotations

import pytest

from browser.chromium import ARTIFACTS, start_chromium, stop_chromium
from browser.sample import SAMPLE_PHASES, droidippy_game, sample_game
from browser.serving import serving, store_with


@pytest.fixture(scope="module")
def browser():
    driver = start_chromium()
    yield driver
    stop_chromium(driver)


def expected_units(game, phase: str) -> list[tuple[str, str]]:
    """``(location, power)`` of every unit the map of ``phase`` must show,
    dislodged ones included."""
    pos = next((r.position_before for r in game.history if r.phase == phase), game.position)
    units = [(u.location, u.power) for u in pos.units.values()]
    units += [(d.unit.location, d.unit.power) for d in pos.dislodged.values()]
    return sorted(units)


def shown_phase(driver) -> str | None:
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    try:
        return driver.find_element("css selector", "h1[data-phase]").get_attribute("data-phase")
    except (NoSuchElementException, StaleElementReferenceException):
        return None


def wait_for_phase(driver, phase: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(driver, 15).until(lambda d: shown_phase(d) == phase
                                    and d.execute_script("return document.readyState") == "complete")


def drawn_units(driver) -> list[tuple[str, str]]:
    """``(location, power)`` of each unit symbol on the page's map."""
    found = driver.execute_script(
        "return Array.from(document.querySelectorAll('svg.diplomacy-map g.units > g.unit'))"
        ".map(g => [g.dataset.location, g.dataset.power]);")
    return sorted(tuple(x) for x in found)


def press(driver, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(driver).send_keys(key).perform()


def step_through(driver, game, phases: list[str], shots: dict[str, str] | None = None) -> None:
    """From the page of ``phases[0]``, press → through every phase, checking the
    phase shown and its units; screenshot the phases named in ``shots``."""
    from selenium.webdriver.common.keys import Keys
    for i, phase in enumerate(phases):
        wait_for_phase(driver, phase)
        assert drawn_units(driver) == expected_units(game, phase), phase
        svg_phase = driver.find_element("css selector", "svg.diplomacy-map").get_attribute("data-phase")
        assert svg_phase == phase
        if shots and phase in shots:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            path = ARTIFACTS / shots[phase]
            assert driver.save_screenshot(str(path))
            print(f"\nscreenshot of {game.name} {phase}: {path}")
        if i + 1 < len(phases):
            press(driver, Keys.ARROW_RIGHT)


def test_keyboard_steps_through_the_sample_game(browser, tmp_path):
    from selenium.webdriver.common.keys import Keys
    game = sample_game()
    with serving(store_with(tmp_path / "store", game)) as base:
        browser.get(base + "games/sample/")
        browser.find_element("css selector", 'a[data-phase="S1901M"]').click()
        step_through(browser, game, list(SAMPLE_PHASES), {"F1901M": "archive-sample-F1901M.png"})
        assert browser.current_url == base + "games/sample/F1902M/"
        press(browser, Keys.ARROW_RIGHT)                      # the last phase: nothing further
        wait_for_phase(browser, "F1902M")
        press(browser, Keys.ARROW_LEFT)
        wait_for_phase(browser, "S1902M")
        press(browser, Keys.ARROW_LEFT)
        wait_for_phase(browser, "W1901A")
        assert browser.current_url == base + "games/sample/W1901A/"   # a link to share
        assert "Build F Edi" in browser.find_element("css selector", "section.orders").text


def test_chinese_pages_in_the_browser(browser, tmp_path):
    game = sample_game()
    with serving(store_with(tmp_path / "store", game)) as base:
        browser.get(base + "games/sample/F1901M/?lang=zh-hans")
        wait_for_phase(browser, "F1901M")
        assert browser.current_url == base + "zh-hans/games/sample/F1901M/"
        assert "命令与结果" in browser.find_element("css selector", "section.orders").text
        assert drawn_units(browser) == expected_units(game, "F1901M")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert browser.save_screenshot(str(ARTIFACTS / "archive-sample-F1901M-zh-hans.png"))
        browser.find_element("css selector", 'nav.langs a[hreflang="zh-hant"]').click()
        wait_for_phase(browser, "F1901M")
        assert browser.current_url == base + "zh-hant/games/sample/F1901M/"
        assert "命令與結果" in browser.find_element("css selector", "section.orders").text


def test_a_replayed_droidippy_game_can_be_browsed_phase_by_phase(browser, tmp_path):
    game = droidippy_game("droid2934")
    phases = [r.phase for r in game.history] + [game.position.phase]
    with serving(store_with(tmp_path / "store", game)) as base:
        browser.get(base + "games/")
        browser.find_element("css selector", 'a.game[href="droid2934/"]').click()
        browser.find_element("css selector", f'a[data-phase="{phases[0]}"]').click()
        assert "F1902R" in phases                              # a retreat phase: dislodged units drawn
        step_through(browser, game, phases, {"F1902R": "archive-droidippy-F1902R.png"})
        assert browser.current_url == base + f"games/droid2934/{phases[-1]}/"
