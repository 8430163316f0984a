"""``judge check [--config FILE] [--data DIR]``: what ``judge serve`` checks
at its start, without starting it: the config (every key, the secrets'
environment variables), the data folder (writable, the store's version, a
judge running on it), the OAuth2 token file, the SMTP listener's port, the
Maildir outbox, and a login to each server (:mod:`judge.mail.checks`).
One line per check; exit status 0 when all pass, 1 otherwise, 2 for a
config that cannot be read."""

from __future__ import annotations

import errno
import os
import socket
import sys


def register(sub) -> None:
    from .common import add_data_options
    p = sub.add_parser("check", help="check the config and log in to the mail servers, without starting",
                       description="Do the checks `judge serve` does at its start without starting the "
                                   "judge: the config and its secrets, the data folder, the OAuth2 token, "
                                   "the listener's port, and a login to each IMAP and SMTP server. Exit "
                                   "status 0 when all pass.")
    add_data_options(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..config import ConfigError
    from ..mail.checks import Check, check_logins
    from .submit import config_of
    try:
        cfg = config_of(args)
    except ConfigError as e:
        print(f"FAIL  config: {e}", file=sys.stderr)
        return 2
    checks = [Check(f"config {cfg.source}", True, "read; every key known")]
    checks += _data_folder(cfg)
    checks += _token(cfg)
    checks += _listener(cfg)
    try:
        checks += check_logins(cfg)
    except ConfigError as e:
        checks.append(Check("secrets", False, e.reason, f"set it in the judge's environment (key {e.key})"))
    for c in checks:
        print(c, flush=True)
    failed = sum(1 for c in checks if not c.ok)
    print(f"{len(checks) - failed} of {len(checks)} checks passed" + ("" if not failed else
                                                                     "; `judge serve` would not start"))
    return 1 if failed else 0


def _data_folder(cfg) -> list:
    from ..mail.checks import Check
    from ..status import serving
    from ..storage import Store, StoreError
    data = cfg.data_dir
    out = []
    parent = data if data.exists() else next((p for p in data.parents if p.exists()), data)
    if not os.access(parent, os.W_OK | os.X_OK):
        out.append(Check(f"data folder {data}", False, f"{parent} is not writable by this user (uid {os.getuid()})",
                         "run the judge as the folder's owner, or change [judge] data_dir"))
        return out
    pid = serving(data)
    out.append(Check(f"data folder {data}", True, ("exists" if data.exists() else "will be made")
                     + (f"; judge serve runs on it (pid {pid})" if pid else "")))
    if cfg.store_path.is_dir():
        try:
            games = len(Store(cfg.store_path).game_names())
            out.append(Check(f"store {cfg.store_path}", True, f"{games} game(s)"))
        except StoreError as e:
            out.append(Check(f"store {cfg.store_path}", False, str(e),
                             "restore a backup (judge store restore), or point [judge] data_dir elsewhere"))
    if cfg.outbound.transport == "maildir":
        box = cfg.data_path(cfg.outbound.maildir.path)
        where = box if box.exists() else next((p for p in box.parents if p.exists()), box)
        ok = os.access(where, os.W_OK | os.X_OK)
        out.append(Check(f"Maildir outbox {box}", ok, "writable" if ok else f"{where} is not writable",
                         "" if ok else "change [outbound.maildir] path, or its owner"))
    return out


def _token(cfg) -> list:
    from ..mail.checks import Check
    if not cfg.uses_oauth2:
        return []
    path, what = cfg.token_path, f"OAuth2 token {cfg.token_path}"
    command = f"judge mail authorize --config {cfg.source}"
    try:
        st = path.stat()
    except FileNotFoundError:
        return [Check(what, False, "none yet", f"run `{command}`")]
    if st.st_mode & 0o077:
        return [Check(what, False, f"mode {st.st_mode & 0o777:04o}: others may read it", f"chmod 600 {path}")]
    return [Check(what, True, "present, mode 0600")]


def _listener(cfg) -> list:
    from ..mail.checks import Check
    from ..status import serving
    if cfg.inbound.transport != "smtp":
        return []
    s = cfg.inbound.smtp
    what = f"SMTP listener {s.host}:{s.port}"
    if serving(cfg.data_dir):
        return [Check(what, True, "served by the running judge")]
    try:
        info = socket.getaddrinfo(s.host, s.port, type=socket.SOCK_STREAM)[0]
        with socket.socket(info[0], info[1]) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(info[4])
    except OSError as e:
        busy = " (another program listens there)" if e.errno == errno.EADDRINUSE else ""
        return [Check(what, False, f"cannot listen: {e.strerror or e}{busy}",
                      f"change [inbound.smtp] host or port in {cfg.source}")]
    return [Check(what, True, "free to listen on")]
