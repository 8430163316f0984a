"""Headless Chromium (Debian's ``chromium`` and ``chromium-driver``) driven
by Selenium, for the browser tests.

:func:`start_chromium` skips the test where Chromium, its driver or Selenium
is missing, except in CI (``CI=true``), where a missing browser fails the run.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("JUDGE_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("JUDGE_CHROMEDRIVER", "/usr/bin/chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1400,1100", "--lang=en-GB")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
"""Where screenshots are kept (git-ignored)."""


def _missing(reason: str):
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason}; CI must install it (.ci/run: APT_PACKAGES chromium chromium-driver, "
                    "pip extra 'test')")
    pytest.skip(reason)


def start_chromium():
    """A Selenium driver of a new headless Chromium with a new, empty profile
    (removed when the driver quits: call :func:`stop_chromium`)."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing("the selenium package is not installed")
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            _missing(f"{path} is not installed (Debian packages chromium, chromium-driver)")
    profile = tempfile.mkdtemp(prefix="judge-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    driver.judge_profile = profile
    return driver


def stop_chromium(driver) -> None:
    driver.quit()
    shutil.rmtree(driver.judge_profile, ignore_errors=True)
