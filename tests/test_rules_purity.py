"""The rules core ``judge/rules`` imports nothing outside the standard library
(developers' guide: a pure core, imports point inward)."""

from __future__ import annotations

import ast
import re
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


# ---- no sentence for a reader (issue 11: reasons are codes, the words are judge.text's) ------
SENTENCE = re.compile(r"[A-Za-z]{2,}[ ,;:]+[A-Za-z]{2,}")
"""Two words in a row: a phrase someone would read."""
MAP_FILE_ERRORS = {"map.py"}
"""Faults of a map file (MapError) are told to the map's author, in English like
the config's; no player reads them."""


def sentences(path: Path) -> list[tuple[int, str]]:
    """``(line, text)`` of every string constant (f-string parts included) of
    ``path`` that reads as words, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            docs.add(id(node.value))            # attribute docstrings
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs \
                and SENTENCE.search(node.value):
            out.append((node.lineno, node.value))
    return out


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(RULES).as_posix())
def test_builds_no_sentence_for_a_reader(path):
    if path.name in MAP_FILE_ERRORS:
        pytest.skip("map file faults are for the map's author")
    found = [f"line {line}: {text!r}" for line, text in sentences(path)]
    assert not found, f"{path} builds text for a reader (return a Reason code instead): {'; '.join(found)}"


def test_the_sentence_check_catches_a_sentence(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('"""A docstring is fine."""\n'
                   'def f(u, d):\n    """So is this one."""\n'
                   '    x = Reason("cannot_reach", unit=u)\n'
                   '    return f"{u} cannot reach {d}"\n')
    assert [text for _line, text in sentences(bad)] == [" cannot reach "]
