"""Shared fixtures: the standard map and its names, and the reference folder.

``shared_dir`` is ``../shared`` next to the repository (the project's read-only
reference material); tests that need it are skipped where it is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.maps import load_map, load_names

REPO = Path(__file__).resolve().parents[1]


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
