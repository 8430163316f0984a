"""The import contract: the judge's packages stand on floors, and a module
imports only from lower floors (or its own package) — imports point inward
(developers' guide; ``tests/test_rules_purity.py`` keeps ``judge/rules``
pure). The spine: ``rules <- notation <- game <- (storage, text) <- archive
<- verbs <- mail <- daemon <- commands``; the verbs never import the mail.
Every import counts, a deferred one inside a function too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

JUDGE = Path(__file__).resolve().parents[1] / "judge"

FLOORS = (
    ("providers", "health"),              # mail-provider presets, the health file: plain data, the ground
    ("judge", "config", "faults"),        # the package's face, the config, crash points
    ("rules",),                           # the pure rules core
    ("maps",),                            # maps as data, for the core
    ("notation",),                        # text <-> orders
    ("game",),                            # games: the use cases over the rules
    ("storage", "text", "render", "datc", "scheduler"),
    ("replay", "mapimport"),               # replays; DPjudge .map files -> maps/NAME
    ("archive",),
    ("verbs",),                           # every command, one record each
    ("status",),                          # what the judge is doing (judge status, /metrics): health and the store
    ("mail", "web", "clock"),             # the rim: mail, the web pages, the clock guard
    ("daemon",),
    ("commands",),
    ("cli",),
)
"""Each package (or top-level module) of ``judge/``, lowest floor first."""
FLOOR = {unit: n for n, units in enumerate(FLOORS) for unit in units}

KNOWN = {
    ("notation", "text"): "notation/diagnostics.py: a diagnostic's str() in English, imported when called",
    ("game", "text"): "game/errors.py: a GameError's str() in English, imported when called",
}
"""Imports that run back up, each with where and why; no other may."""


def unit_of(module: str) -> str:
    """``judge.mail.handler`` -> ``mail``; ``judge`` -> ``judge``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def module_name(path: Path) -> str:
    rel = path.relative_to(JUDGE.parent).with_suffix("")
    parts = list(rel.parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` of every import of a ``judge`` module in ``path``
    (relative ones resolved; ``from . import x`` names ``package.x``)."""
    name = module_name(path)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "judge"]
        elif isinstance(node, ast.ImportFrom) and node.level:
            base = package[:len(package) - node.level + 1]
            if node.module:
                out.append((node.lineno, ".".join(base + [node.module])))
            else:
                out += [(node.lineno, ".".join(base + [a.name])) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "judge":
            out.append((node.lineno, node.module))
    return out


MODULES = sorted(JUDGE.rglob("*.py"))


def test_every_package_stands_on_a_floor():
    units = {unit_of(module_name(p)) for p in MODULES}
    assert sorted(units - set(FLOOR)) == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(JUDGE).as_posix())
def test_imports_point_inward(path):
    here = unit_of(module_name(path))
    wrong = []
    for line, target in imports_of(path):
        there = unit_of(target)
        if there == here or there not in FLOOR or (here, there) in KNOWN:
            continue
        if FLOOR[there] >= FLOOR[here]:
            wrong.append(f"line {line}: {target} (floor {FLOOR[there]}; {here} is on floor {FLOOR[here]})")
    assert not wrong, f"{path} imports from its own floor or above: {', '.join(wrong)}"


def test_the_known_exceptions_are_still_there():
    """An exception that the code no longer needs is struck from :data:`KNOWN`."""
    seen = {(unit_of(module_name(p)), unit_of(t)) for p in MODULES for _, t in imports_of(p)}
    assert sorted(set(KNOWN) - seen) == []


def test_the_verbs_never_import_the_mail():
    verbs = [p for p in MODULES if unit_of(module_name(p)) == "verbs"]
    assert verbs and [(p.name, t) for p in verbs for _, t in imports_of(p) if unit_of(t) == "mail"] == []


def test_the_check_sees_every_kind_of_import(tmp_path, monkeypatch):
    import test_import_floors as me
    pkg = tmp_path / "judge" / "verbs"
    pkg.mkdir(parents=True)
    (pkg / "x.py").write_text("import judge.mail.handler\nfrom ..mail import keeper\nfrom . import session\n"
                              "from judge.game import Game\ndef f():\n    from ..daemon import Daemon\n")
    monkeypatch.setattr(me, "JUDGE", tmp_path / "judge")
    got = [t for _, t in imports_of(pkg / "x.py")]
    assert got == ["judge.mail.handler", "judge.mail", "judge.verbs.session", "judge.game", "judge.daemon"]
    assert [t for t in got if FLOOR[unit_of(t)] >= FLOOR["verbs"] and unit_of(t) != "verbs"] == \
        ["judge.mail.handler", "judge.mail", "judge.daemon"]
