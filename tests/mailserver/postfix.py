"""A private Postfix for the tests: Debian's Postfix (tests/postfix/install.sh)
run as an instance of its own — its own config directory, queue and data
directories under a temporary folder, listening on 127.0.0.1 at a free port;
the system's /etc/postfix is never read or changed (``postfix -c DIR``).

It plays the mail server in front of a judge, as the README's recipe sets
one up: mail for the judge's domain is relayed to the judge's embedded SMTP
listener (``transport_maps``), the judge sends its answers through it
(``mynetworks``: loopback may relay), and mail for the players' domain is
delivered to a Maildir of its own (the virtual delivery agent).
"""

from __future__ import annotations

import mailbox
import os
import shutil
import subprocess
import tempfile
from email import policy
from email.parser import BytesParser
from pathlib import Path

from .harness import free_port, wait_for

VMAIL = 65534            # nobody:nogroup own the Maildirs


def postfix_missing() -> str | None:
    """Why a private Postfix cannot run here, or None."""
    if not Path("/usr/sbin/postfix").exists():
        return "postfix is not installed (run tests/postfix/install.sh as root)"
    if os.geteuid() != 0:
        return "a Postfix instance must be started as root"
    return None


MASTER_CF = """\
# service type  private unpriv  chroot  wakeup  maxproc command
{listen} inet  n       -       n       -       -       smtpd
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
proxywrite unix -       -       n       -       1       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
virtual   unix  -       n       n       -       -       virtual
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
"""


class Postfix:
    """A private Postfix (see module doc): ``port`` takes mail for
    ``judge_domain`` (relayed to ``judge_port`` on 127.0.0.1) and for
    ``local_domain`` (delivered to :meth:`delivered`), and relays for
    loopback clients."""

    def __init__(self, judge_domain: str, judge_port: int, local_domain: str = "players.example.test"):
        self.base = Path(tempfile.mkdtemp(prefix="jpf-", dir="/tmp"))
        self.base.chmod(0o755)                 # Postfix's own users must reach their folders in it
        self.port = free_port()
        self.conf = self.base / "etc"
        self.mail = self.base / "mail"
        for d in (self.conf, self.base / "queue", self.base / "data", self.mail, self.base / "log"):
            d.mkdir(parents=True)
        shutil.chown(self.base / "data", "postfix")
        shutil.chown(self.mail, VMAIL, VMAIL)
        (self.conf / "transport").write_text(f"{judge_domain} smtp:[127.0.0.1]:{judge_port}\n")
        (self.conf / "vmailbox").write_text(f"@{local_domain} {local_domain}/\n")
        (self.conf / "main.cf").write_text(f"""\
# a private test instance (tests/mailserver/postfix.py); never the system's
compatibility_level = 3.6
queue_directory = {self.base}/queue
data_directory = {self.base}/data
mail_owner = postfix
setgid_group = postdrop
myhostname = mx.example.test
mydomain = example.test
myorigin = $myhostname
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
relay_domains = {judge_domain}
parent_domain_matches_subdomains =
transport_maps = texthash:{self.conf}/transport
virtual_mailbox_domains = {local_domain}
virtual_mailbox_base = {self.mail}
virtual_mailbox_maps = texthash:{self.conf}/vmailbox
virtual_uid_maps = static:{VMAIL}
virtual_gid_maps = static:{VMAIL}
smtp_dns_support_level = disabled
alias_maps =
alias_database =
biff = no
maillog_file = {self.base}/log/postfix.log
maillog_file_prefixes = {self.base}
smtputf8_enable = no
""")
        (self.conf / "master.cf").write_text(MASTER_CF.format(listen=f"127.0.0.1:{self.port}"))

    def postfix(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["/usr/sbin/postfix", "-c", str(self.conf), *args], capture_output=True,
                              text=True, timeout=60)

    def __enter__(self):
        for step in ("check", "start"):
            done = self.postfix(step)
            if done.returncode != 0:
                raise RuntimeError(f"postfix {step}: {done.stderr}{done.stdout}\n{self.log()}")
        wait_for(self._answers, 20, what=f"Postfix on 127.0.0.1:{self.port}")
        return self

    def _answers(self) -> bool:
        import socket
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=2) as s:
                return s.recv(100).startswith(b"220")
        except OSError:
            return False

    def __exit__(self, *exc):
        self.postfix("stop")
        shutil.rmtree(self.base, ignore_errors=True)

    def log(self) -> str:
        try:
            return (self.base / "log" / "postfix.log").read_text(errors="replace")
        except OSError:
            return ""

    def delivered(self, domain: str = "players.example.test") -> list:
        """The mails delivered to the local domain's Maildir."""
        box = self.mail / domain
        if not (box / "new").exists():
            return []
        parser = BytesParser(policy=policy.default)
        return [parser.parsebytes(m.as_bytes()) for m in mailbox.Maildir(box, create=False)]
