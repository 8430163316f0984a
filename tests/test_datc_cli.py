"""``judge datc FILE...`` as a user runs it (a subprocess): the summary line, the
exit status, the report of a failing case, and clear errors for malformed files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

HEADER = "VARIANT_ALL Standard\n"
BOUNCE = """\
CASE T.1 a bounce
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
    Germany: A ber
    Russia: A war
ORDERS
    Germany: A ber-sil   # comments and indentation are ignored
    Russia: A war-sil
POSTSTATE_SAME
END
"""
SUPPORTED = """\
CASE T.2 a supported move dislodges
PRESTATE
    Austria: A tri
    Austria: A tyr
    Italy: A ven
ORDERS
    Austria: A tri-ven
    Austria: A tyr S A tri-ven
    Italy: A ven H
POSTSTATE
    Austria: A ven
    Austria: A tyr
POSTSTATE_DISLODGED
    Italy: A ven
END
"""
BUILD = """\
CASE T.3 a build
PRESTATE_SETPHASE Fall 1901, Adjustment
PRESTATE_SUPPLYCENTER_OWNERS
    Germany: A ber
    Germany: A kie
PRESTATE
    Germany: A kie
ORDERS
    Germany: Build A ber
POSTSTATE
    Germany: A kie
    Germany: A ber
END
"""
WRONG = """\
CASE T.9 expects the wrong thing
PRESTATE
    Germany: A ber
ORDERS
    Germany: A ber-sil
POSTSTATE
    Germany: A ber
END
"""


def judge_command() -> list[str]:
    """The installed ``judge`` script next to this Python, else ``python -m judge.cli``."""
    script = Path(sys.executable).with_name("judge")
    return [str(script)] if script.exists() else [sys.executable, "-m", "judge.cli"]


def run_datc(*files: Path) -> subprocess.CompletedProcess:
    return subprocess.run(judge_command() + ["datc", *map(str, files)],
                          capture_output=True, text=True, timeout=120)


def write(tmp_path: Path, text: str, name: str = "cases.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_good_file_passes(tmp_path):
    proc = run_datc(write(tmp_path, HEADER + BOUNCE + "\n" + SUPPORTED + BUILD))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1] == "3 passed, 0 failed"
    assert proc.stderr == ""


def test_crlf_and_several_files(tmp_path):
    a = write(tmp_path, (HEADER + BOUNCE).replace("\n", "\r\n"), "a.txt")
    b = write(tmp_path, HEADER + SUPPORTED, "b.txt")
    proc = run_datc(a, b)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1] == "2 passed, 0 failed"


def test_failing_case_is_reported(tmp_path):
    path = write(tmp_path, HEADER + BOUNCE + WRONG)
    proc = run_datc(path)
    assert proc.returncode == 1
    out = proc.stdout
    assert out.splitlines()[-1] == "1 passed, 1 failed"
    assert "T.9" in out and "T.1" not in out
    expected = next(line for line in out.splitlines() if "expected:" in line)
    actual = next(line for line in out.splitlines() if "actual:" in line)
    assert "Germany: A ber" in expected
    assert "Germany: A sil" in actual


@pytest.mark.parametrize("text,line,reason", [
    (HEADER + BOUNCE.replace("A war-sil", "A war-xyzzy"), 9, "unknown province 'xyzzy'"),
    (HEADER + BOUNCE.replace("END\n", "") + SUPPORTED, 11, "CASE T.1 (line 2) has no END"),
    (HEADER + BOUNCE.replace("END\n", ""), 10, "CASE T.1 (line 2) has no END"),
    (HEADER + SUPPORTED.replace("    Austria: A tyr\n", "    Austria: A tyr\n    %%% garbage\n", 1), 6,
     "expected 'Power: A prov', got '%%% garbage'"),
    (HEADER + "hello world\n" + BOUNCE, 2, "'hello world' outside a CASE block"),
    (HEADER + BOUNCE.replace("Spring 1901, Movement", "Summer 1901, Movement"), 3, "PRESTATE_SETPHASE"),
], ids=["unknown-province", "missing-END-before-CASE", "missing-END-at-eof", "garbage-line",
        "outside-case", "bad-phase"])
def test_malformed_file(tmp_path, text, line, reason):
    path = write(tmp_path, text)
    proc = run_datc(path)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert f"{path}:{line}: " in proc.stderr
    assert reason in proc.stderr


def test_missing_file(tmp_path):
    proc = run_datc(tmp_path / "nope.txt")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert f"{tmp_path / 'nope.txt'}:0: cannot read" in proc.stderr
