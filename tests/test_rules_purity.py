"""The rules core ``judge/rules`` imports nothing outside the standard library
(developers' guide: a pure core, imports point inward)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[1] / "judge" / "rules"
MODULES = sorted(RULES.rglob("*.py"))


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """``(line, top-level module)`` for every absolute import in ``path``; a dynamic
    import (``__import__``, ``importlib.import_module``) counts as ``"<dynamic>"``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name.split(".")[0]) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            out.append((node.lineno, node.module.split(".")[0]))
        elif isinstance(node, ast.Call) and (
                (isinstance(node.func, ast.Name) and node.func.id == "__import__")
                or (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")):
            out.append((node.lineno, "<dynamic>"))
    return out


def test_rules_package_found():
    assert (RULES / "__init__.py") in MODULES and len(MODULES) > 5


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(RULES).as_posix())
def test_imports_only_the_standard_library(path):
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    outside = [f"line {line}: {name}" for line, name in imported_modules(path) if name not in allowed]
    assert not outside, f"{path} imports from outside the standard library: {', '.join(outside)}"


def test_the_check_catches_outside_imports(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nfrom . import map\nimport judge.maps\nfrom jinja2 import Template\n"
                   "import importlib\nm = importlib.import_module('yaml')\n")
    names = sorted(n for _, n in imported_modules(bad))
    assert names == ["<dynamic>", "importlib", "jinja2", "judge", "os"]
