"""The judge's TOML configuration."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from judge.config import Config, ConfigError, load_config

EXAMPLE = Path(__file__).resolve().parents[1] / "config" / "judge.example.toml"


def _keys(obj, prefix=""):
    for f in dataclasses.fields(obj):
        if f.name in ("source", "base_dir"):
            continue
        value = getattr(obj, f.name)
        if dataclasses.is_dataclass(value):
            yield from _keys(value, f"{prefix}{f.name}.")
        else:
            yield f"{prefix}{f.name}"


def test_the_example_is_the_embedded_default_and_documents_every_key():
    cfg, default = load_config(EXAMPLE), Config()
    for section in ("judge", "inbound", "outbound", "worker", "log"):
        assert getattr(cfg, section) == getattr(default, section)
    text = EXAMPLE.read_text(encoding="utf-8")
    table = ""
    documented = set()
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if m := re.match(r"^\[(.+)\]$", line):
            table = m.group(1) + "."
        elif m := re.match(r"^(\w+) = ", line):
            assert any(x.startswith("#") for x in lines[max(i - 2, 0):i]), f"no comment above {line!r}"
            documented.add(table + m.group(1))
    assert documented == set(_keys(default))


def test_defaults_without_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = load_config(None)
    assert cfg.inbound.transport == "smtp" and cfg.inbound.smtp.port == 2525
    assert cfg.inbound.smtp.host == "127.0.0.1"
    assert cfg.outbound.transport == "maildir"
    assert cfg.data_dir == tmp_path / "judge-data"


def test_paths_are_relative_to_the_file(tmp_path):
    f = tmp_path / "etc" / "judge.toml"
    f.parent.mkdir()
    f.write_text('[judge]\ndata_dir = "../var"\n')
    assert load_config(f).data_dir == (tmp_path / "var").resolve()


@pytest.mark.parametrize("text,key", [
    ("[judge]\nadress = 'x@y'\n", "judge.adress"),
    ("[inbound]\ntransport = 'pop3'\n", "inbound.transport"),
    ("[inbound.smtp]\nport = 'x'\n", "inbound.smtp.port"),
    ("[inbound.smtp]\nport = -1\n", "inbound.smtp.port"),
    ("[judge]\naddress = 'nobody'\n", "judge.address"),
    ("[judge\n", "-"),
])
def test_bad_config_names_the_key(tmp_path, text, key):
    f = tmp_path / "j.toml"
    f.write_text(text)
    with pytest.raises(ConfigError) as e:
        load_config(f)
    assert e.value.key == key and str(f) in str(e.value)


def test_secrets_come_from_the_environment(monkeypatch):
    cfg = Config()
    monkeypatch.setenv("MY_PW", "s3cret")
    assert cfg.secret("inbound.imap", "MY_PW") == "s3cret"
    monkeypatch.delenv("MY_PW")
    with pytest.raises(ConfigError, match="MY_PW"):
        cfg.secret("inbound.imap", "MY_PW")


def test_judge_data_names_the_folder_unless_the_file_does(tmp_path):
    env = {"JUDGE_DATA": str(tmp_path / "shared")}
    assert load_config(None, env=env).data_dir == tmp_path / "shared"
    f = tmp_path / "j.toml"
    f.write_text("[worker]\nledger_days = 30\n")
    cfg = load_config(f, env=env)
    assert cfg.data_dir == tmp_path / "shared" and cfg.store_path == tmp_path / "shared" / "store"
    assert cfg.worker.ledger_days == 30.0
    f.write_text('[judge]\ndata_dir = "mine"\n')
    assert load_config(f, env=env).data_dir == tmp_path / "mine"
