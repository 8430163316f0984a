"""The judge behind a real Postfix (issue 21), set up as the README's recipe
says: Postfix relays the judge's address to the embedded SMTP listener, and
the judge sends its answers through Postfix. A mail sent to Postfix reaches
the judge, and the judge's answer leaves through Postfix into a local
mailbox. Postfix is Debian's (tests/postfix/install.sh), run as a private
instance on free ports (tests/mailserver/postfix.py)."""

from __future__ import annotations

import smtplib
from email.message import EmailMessage

import pytest
from mailserver.harness import DaemonProcess, free_port, require, wait_for, write_config
from mailserver.postfix import Postfix, postfix_missing

pytestmark = pytest.mark.daemon


def test_a_mail_to_postfix_reaches_the_judge_and_its_answer_leaves_through_postfix(tmp_path):
    require(postfix_missing(), "Postfix")
    judge_port = free_port()
    with Postfix("example.test", judge_port) as mta:
        config = write_config(tmp_path / "judge.toml", tmp_path / "data",
                              inbound={"transport": "smtp", "smtp": {"host": "127.0.0.1", "port": judge_port}},
                              outbound={"transport": "smtp", "smtp": {"host": "127.0.0.1", "port": mta.port,
                                                                      "security": "none"}},
                              extra='[senders]\ntrusted_authserv_ids = ["mx.example.test"]\n')
        daemon = DaemonProcess(config)
        try:
            daemon.wait_ready(tmp_path / "judge.log", "judge judge@example.test: reading")
            m = EmailMessage()
            m["From"], m["To"], m["Subject"] = "Player <player@players.example.test>", "judge@example.test", "help"
            m["Message-ID"] = "<via-postfix@players.example.test>"
            m.set_content("HELP\n")
            with smtplib.SMTP("127.0.0.1", mta.port, timeout=10) as s:     # as the outside world sends it
                s.send_message(m)
            answer = wait_for(lambda: [a for a in mta.delivered() if a["In-Reply-To"] == m["Message-ID"]], 60,
                              what="the judge's answer in Postfix's mailbox")[0]
        finally:
            daemon.stop()
        log = mta.log()
    assert answer["From"].addresses[0].addr_spec == "judge@example.test"
    assert answer["To"].addresses[0].addr_spec == "player@players.example.test" and "HELP" in answer.get_content()
    assert f"relay=127.0.0.1[127.0.0.1]:{judge_port}" in log and "status=sent (250" in log    # in: to the judge
    assert "status=sent (delivered to maildir)" in log                                        # out: to the player
    assert "Received" in answer and "mx.example.test" in str(answer["Received"])               # it went through Postfix
