"""The example mails a new user copies: the README's and the one ``judge serve``
prints. Each run must make a new mail (its own Message-ID and a Date), or the
judge takes the second one for the first sent again and does not answer it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from mailserver.harness import SmtpSink
from test_mail_commands import Judge

from judge.commands.serve import _banner
from judge.config import Config

README = Path(__file__).resolve().parents[1] / "README.md"


def send_twice(command: str, port: int) -> list:
    """Run the shell ``command`` twice against an SMTP sink on ``port``; the mails it got."""
    with SmtpSink() as sink:
        for _ in range(2):
            subprocess.run(["bash", "-c", command.replace("2525", str(sink.port))], check=True, timeout=60)
        return sink.bodies()


def assert_both_answered(tmp_path, mails) -> None:
    assert len(mails) == 2
    for m in mails:
        assert m["Date"] and m["Message-ID"]
    assert mails[0]["Message-ID"] != mails[1]["Message-ID"]
    judge = Judge(tmp_path)
    for m in mails:                       # the judge answers each, the second too
        before = len(judge.sent)
        judge.spool.put(m.as_bytes(), {"source": "test"})
        for name in judge.spool.pending():
            judge.worker.process(name)
        assert len(judge.sent) == before + 1


def test_the_readme_example_mail_is_new_each_time(tmp_path):
    text = README.read_text(encoding="utf-8")
    [command] = [line for line in text.splitlines() if line.startswith("python3 -c \"import smtplib")]
    assert_both_answered(tmp_path, send_twice(command, 2525))
    assert "ignores a mail it has already processed" in " ".join(text.split())


def test_the_banner_example_mail_is_new_each_time(tmp_path):
    cfg = Config()
    cfg.inbound.smtp.port = 2525
    [command] = [m.group(1) for m in re.finditer(r"^\s+(python3 -c .*)$", _banner(cfg), re.M)]
    assert_both_answered(tmp_path, send_twice(command, 2525))


def test_the_default_data_folder_is_not_committed():
    ignored = (README.parent / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert Config().judge.data_dir + "/" in ignored


def readme_mails() -> list[str]:
    """The mails of the README's user guide: its fenced blocks without a language."""
    blocks, lang, lines = [], None, []
    for line in README.read_text(encoding="utf-8").splitlines():
        if not line.startswith("```"):
            lines.append(line)
        elif lang is None:                  # an opening fence, ```sh or ```
            lang, lines = line[3:], []
        else:
            if not lang:
                blocks.append("\n".join(lines) + "\n")
            lang = None
    return blocks


def test_the_readme_guide_mails_are_all_understood(tmp_path):
    mails = readme_mails()
    [create] = [m for m in mails if m.startswith("CREATE ")]
    english = [m for m in mails if m.startswith(("JOIN ", "SIGNON "))]
    chinese = [m for m in mails if m.startswith(("加入 ", "登录 "))]
    assert len(english) == 3 and len(chinese) == 3
    for folder, player, bodies in (("en", "fr@x.org", english), ("zh", "wang@x.org", chinese)):
        (tmp_path / folder).mkdir()
        judge = Judge(tmp_path / folder)
        judge.text("gm@x.org", create)
        texts = [judge.text(player, body) for body in bodies]
        for text in texts:
            for refusal in ("Error:", "Not taken", "错误：", "未被接受"):
                assert refusal not in text, text
        assert ("A Par - Bur" if folder == "en" else "巴黎陆军移动到勃艮第") in texts[1]
