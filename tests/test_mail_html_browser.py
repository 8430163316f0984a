"""The HTML part of a results mail in a real browser (issue 20), opened as a
webmail opens it: the ``cid:`` references resolved to the mail's own image
parts (here rewritten to ``data:`` URLs), nothing else fetched. Headless
Chromium must show the map (loaded, 800 pixels of picture, the sea's blue on
screen), at desktop and phone width without sideways scrolling, in the dark
colour scheme with light text on a dark ground, in English and in both
Chinese scripts. Screenshots go to ``tests/artifacts/`` (git-ignored)."""

from __future__ import annotations

import base64
import io
import re

import pytest
from PIL import Image

from browser.chromium import ARTIFACTS, start_chromium, stop_chromium
from mailjudge import GM, addr, started

SEA = (0xbc, 0xd8, 0xec)


@pytest.fixture(scope="module")
def browser():
    driver = start_chromium()
    yield driver
    stop_chromium(driver)


@pytest.fixture(scope="module")
def mails(tmp_path_factory):
    """The results mails of S1901M to an English, a simplified- and a
    traditional-Chinese reader (house names)."""
    j = started(tmp_path_factory.mktemp("judge"), "CREATE g gmsecret reminders=none")
    j.mail(addr("Germany"), "SIGNON g pw-germany\nSET LANGUAGE zh-hans\nSET NAMES house\n")
    j.mail(addr("Russia"), "SIGNON g pw-russia\nSET LANGUAGE zh-hant\n")
    j.mail(addr("France"), "SIGNON g pw-france\nA Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao\n")
    j.mail(addr("Germany"), "SIGNON g pw-germany\nA Mun - Bur\n")
    out = {}
    for m in j.mail(GM, "SIGNON g gmsecret\nPROCESS\n"):
        if m["To"] in (addr("France"), addr("Germany"), addr("Russia")) and "S1901M" in m["Subject"]:
            out[{addr("France"): "en", addr("Germany"): "zh-hans", addr("Russia"): "zh-hant"}[m["To"]]] = m
    assert len(out) == 3
    return out


def as_webmail(mail) -> str:
    """The HTML part with each ``cid:`` replaced by its part as a data: URL."""
    html = mail.get_body(("html",))
    images = {p["Content-ID"].strip("<>"): p for p in mail.walk() if p["Content-ID"]}

    def inline(m: re.Match) -> str:
        part = images[m.group(1)]
        return f'src="data:{part.get_content_type()};base64,{base64.b64encode(part.get_content()).decode()}"'
    page, n = re.subn(r'src="cid:([^"]+)"', inline, html.get_content())
    assert n >= 1
    return page


def open_page(driver, tmp_path, html: str, name: str) -> None:
    path = tmp_path / f"{name}.html"
    path.write_text(html, encoding="utf-8")
    driver.get(path.as_uri())


def map_shown(driver) -> dict:
    return driver.execute_script(
        "const i = document.querySelector('figure.map img');"
        "return {complete: i.complete, natural: i.naturalWidth, width: i.getBoundingClientRect().width,"
        " alt: i.alt, inner: window.innerWidth, scroll: document.documentElement.scrollWidth};")


def sea_on_screen(driver) -> int:
    """Pixels of the map's sea colour in a screenshot of the picture."""
    shot = Image.open(io.BytesIO(driver.find_element("css selector", "figure.map img").screenshot_as_png))
    return sum(n for n, c in shot.convert("RGB").getcolors(1 << 20)
               if all(abs(a - b) <= 6 for a, b in zip(c, SEA)))


@pytest.mark.parametrize("lang", ["en", "zh-hans", "zh-hant"])
def test_the_results_mail_shows_its_map(browser, mails, tmp_path, lang):
    browser.set_window_size(1100, 1400)
    open_page(browser, tmp_path, as_webmail(mails[lang]), f"results-{lang}")
    shown = map_shown(browser)
    assert shown["complete"] and shown["natural"] == 800 and 700 <= shown["width"] <= 800
    assert shown["alt"] and shown["scroll"] <= shown["inner"]
    assert sea_on_screen(browser) > 20_000
    words = {"en": "Orders", "zh-hans": "命令", "zh-hant": "命令"}[lang]
    assert words in browser.find_element("css selector", "div.mail").text
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / f"mail-results-{lang}.png"))


def test_phone_width_and_dark_scheme(browser, mails, tmp_path):
    browser.set_window_size(390, 900)
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia",
                            {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        open_page(browser, tmp_path, as_webmail(mails["zh-hans"]), "results-phone")
        shown = map_shown(browser)
        assert shown["complete"] and shown["width"] <= shown["inner"] and shown["scroll"] <= shown["inner"]
        assert sea_on_screen(browser) > 5_000
        ground, ink = browser.execute_script(
            "const s = getComputedStyle(document.querySelector('div.mail'));"
            "return [s.backgroundColor, s.color];")
        def level(css):
            return sum(int(v) for v in re.findall(r"\d+", css)[:3]) / 3
        assert level(ground) < 60 and level(ink) > 180          # light text on a dark ground
        browser.save_screenshot(str(ARTIFACTS / "mail-results-phone-dark.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        browser.set_window_size(1400, 1100)
