"""``judge status`` and the metrics page of ``judge web`` (issue 21): mails
waiting, set aside, unsent or failed; the last mail read and the last phase
adjudicated; login failures; the store's size — read from a running judge's
data folder without changing it."""

from __future__ import annotations

import json
import smtplib
import subprocess
import sys
import urllib.request
from email.message import EmailMessage
from pathlib import Path

import pytest
from mailserver.harness import REPO, DaemonProcess, free_port, wait_for, write_config

pytestmark = pytest.mark.daemon


def judge(config: Path, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "judge.cli", *args, "--config", str(config)],
                          capture_output=True, text=True, cwd=REPO, timeout=60)


def test_status_and_metrics_of_a_running_judge(tmp_path):
    port = free_port()
    data = tmp_path / "data"
    config = write_config(tmp_path / "judge.toml", data, inbound={"transport": "smtp", "smtp": {"port": port}},
                          outbound={"transport": "maildir"})
    stopped = judge(config, "status")
    assert stopped.returncode == 0 and "judge: not running" in stopped.stdout
    daemon = DaemonProcess(config)
    web = None
    try:
        daemon.wait_ready(tmp_path / "judge.log", "judge judge@example.test: reading")
        assert judge(config, "game", "new", "demo").returncode == 0
        assert judge(config, "game", "process", "demo").returncode == 0
        m = EmailMessage()
        m["From"], m["To"], m["Subject"], m["Message-ID"] = "p@example.org", "judge@example.test", "x", "<s1@x>"
        m.set_content("HELP\n")
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as s:
            s.send_message(m)
        wait_for(lambda: list((data / "outbox" / "new").iterdir()), 30, what="the answer")
        (data / "spool" / "shunt" / "x.eml").write_bytes(b"set aside")            # as the worker leaves one

        def read_mail():
            out = judge(config, "status", "--json")
            doc = json.loads(out.stdout)
            # the answer is in the Maildir before the sender's report of it is recorded (the worker takes
            # reports at its next wake-up, within REPORT_DELAY): until then the row counts as unsent
            return doc if doc["mails_read"] == 1 and doc["mails"]["unsent"] == 0 else None
        doc = wait_for(read_mail, 15, what="the health file with the answer recorded sent")
        assert doc["serving"] == daemon.proc.pid and doc["mails"]["set_aside"] == 1
        assert doc["last_adjudication"]["game"] == "demo" and doc["games"] == {"forming": 1}
        assert doc["store_bytes"] > 0 and doc["last_mail_read"]
        text = judge(config, "status")
        assert text.returncode == 0
        assert f"judge: running, pid {daemon.proc.pid}" in text.stdout
        assert "mails: 0 waiting, 1 set aside, 0 unsent, 0 failed" in text.stdout
        assert "last phase adjudicated: " in text.stdout and "(demo)" in text.stdout

        web_port = free_port()
        web = subprocess.Popen([sys.executable, "-m", "judge.cli", "web", "--port", str(web_port), "--config",
                                str(config)], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

        def scrape():
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{web_port}/metrics", timeout=5) as r:
                    return r.headers["Content-Type"], r.read().decode()
            except OSError:
                return None
        kind, page = wait_for(scrape, 30, what="the metrics page")
        assert kind.startswith("text/plain; version=0.0.4")
        lines = {line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1])
                 for line in page.splitlines() if line and not line.startswith("#")}
        assert lines["judge_up"] == 1.0 and lines["judge_mails_read_total"] == 1.0
        assert lines['judge_mails{state="set_aside"}'] == 1.0 and lines['judge_mails{state="failed"}'] == 0.0
        assert lines['judge_games{status="forming"}'] == 1.0
        assert lines["judge_last_adjudication_timestamp_seconds"] > 1.7e9
        assert lines["judge_store_bytes"] > 0 and lines["judge_data_bytes"] >= lines["judge_store_bytes"]
    finally:
        if web is not None:
            web.terminate()
            web.wait(timeout=10)
        daemon.stop()
    after = judge(config, "status")
    assert "judge: not running" in after.stdout and "last mail read: 20" in after.stdout
