"""Shared fixtures: the standard map and its names, and the reference folder;
the ``daemon`` mark of the slow tier.

Tests that start servers or processes — ``judge serve``, Dovecot, an SMTP
sink, a web server, Chromium, workers killed in child processes — are marked
``daemon`` (by module, below); tests that run for a minute or more without
them are marked ``slow`` where they are; ``pytest -m "not daemon and not
slow"`` is the fast tier.

``shared_dir`` is ``../shared`` next to the repository (the project's read-only
reference material); tests that need it are skipped where it is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.maps import load_map, load_names

REPO = Path(__file__).resolve().parents[1]
DAEMON_MODULES = {"test_deadline_restart", "test_game_by_mail", "test_mail_crash", "test_mail_daemon", "test_mail_html_browser",
                  "test_mail_imap", "test_mail_poison", "test_store_upgrade", "test_web_browser",
                  "test_web_server"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.module.__name__.rpartition(".")[2] in DAEMON_MODULES:
            item.add_marker(pytest.mark.daemon)


@pytest.fixture(scope="session")
def std_map():
    return load_map("standard")


@pytest.fixture(scope="session")
def std_names():
    return load_names("standard")


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    path = REPO.parent / "shared"
    if not path.is_dir():
        pytest.skip(f"reference folder {path} is absent (the read-only reference material next to the repository)")
    return path
