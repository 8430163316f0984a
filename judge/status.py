"""How a judge is doing, read from its data folder without changing it:
``judge status`` prints it, ``judge web`` serves it to Prometheus at
``/metrics`` (:func:`metrics`).

:func:`gather` reads the spool (mails waiting, set aside), the outbox
(mails unsent, failed), the catalogue (games by status, the last phase
adjudicated), the running judge's health file (:mod:`judge.health`: the
last mail read, each server's logins, the OAuth2 token), whether a
``judge serve`` holds the folder, and the store's size on disk.
"""

from __future__ import annotations

import fcntl
import os
from datetime import datetime
from pathlib import Path

from .health import read_health
from .storage.owner import LOCK_NAME, holder


def serving(data_dir: Path) -> int | None:
    """The pid of the ``judge serve`` holding ``data_dir``, or None (no
    process holds it, or a ``judge game`` command does)."""
    try:
        fd = os.open(Path(data_dir) / LOCK_NAME, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    except BlockingIOError:
        who = holder(Path(data_dir))
        return who.get("pid") if who.get("role") == "serve" else None
    finally:
        os.close(fd)


def folder_bytes(path: Path, part: str = "") -> tuple[int, int]:
    """Bytes of the files under ``path``, and of those under its sub-folder
    ``part`` (0 for a missing folder)."""
    total = inside = 0
    top = os.path.join(str(path), part) if part else None
    for root, _dirs, files in os.walk(path):
        size = 0
        for name in files:
            try:
                size += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                pass
        total += size
        if top and (root == top or root.startswith(top + os.sep)):
            inside += size
    return total, inside


def _count(folder: Path, pattern: str) -> int:
    try:
        return sum(1 for _ in folder.glob(pattern))
    except OSError:
        return 0


SIZES_SECONDS = 60.0
"""The metrics page measures the folder's size at most this often (it walks every file)."""


def gather(cfg, sizes: tuple[int, int] | None = None) -> dict:
    """The judge's status (see module doc): ``{"data_dir", "serving" (pid or
    None), "started", "mails": {"waiting", "set_aside", "unsent", "failed"},
    "games": {status: n}, "last_mail_read", "mails_read", "last_adjudication":
    {"at", "game"} or None, "logins": {server: {...}}, "oauth2": {...},
    "store_bytes", "data_bytes"}``; ``sizes``: (data, store) bytes measured
    before (else they are measured now). Raises StoreError for a store that
    cannot be read."""
    from .storage import Store
    data = cfg.data_dir
    pid = serving(data)
    health = read_health(data)
    out = {"data_dir": str(data), "serving": pid,
           "started": health.get("started") if pid else None,
           "mails": {"waiting": _count(cfg.spool_dir / "new", "*.msg"),
                     "set_aside": _count(cfg.spool_dir / "shunt", "*.eml"), "unsent": 0, "failed": 0},
           "games": {}, "last_mail_read": health.get("last_mail_read"),
           "mails_read": health.get("mails_read", 0) if pid else 0,
           "last_adjudication": None, "logins": health.get("logins", {}),
           "oauth2": _oauth2(cfg, health)}
    out["data_bytes"], out["store_bytes"] = sizes or folder_bytes(data, cfg.store_path.name)
    if cfg.store_path.is_dir():
        store = Store(cfg.store_path)
        for row in store.all("outbox").values():
            status = row.get("status")
            if status in ("pending", "failed"):
                out["mails"]["unsent" if status == "pending" else "failed"] += 1
        for name, row in store.all("catalogue").items():
            status = row.get("status", "?")
            out["games"][status] = out["games"].get(status, 0) + 1
            if row.get("last") and (out["last_adjudication"] is None or row["last"] > out["last_adjudication"]["at"]):
                out["last_adjudication"] = {"at": row["last"], "game": name}
    return out


def _oauth2(cfg, health: dict) -> dict:
    if not cfg.uses_oauth2:
        return {}
    path = cfg.token_path
    try:
        mode = path.stat().st_mode & 0o777
    except OSError:
        return {"token_file": str(path), "present": False}
    return dict(health.get("oauth2", {}), token_file=str(path), present=True, mode=f"{mode:04o}")


def _ago(stamp: str | None, now: datetime | None = None) -> str:
    if not stamp:
        return "never"
    try:
        at = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    now = now or datetime.now(at.tzinfo)
    seconds = max(0, int((now - at).total_seconds()))
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{stamp} ({seconds // size} {unit} ago)"
    return f"{stamp} ({seconds} s ago)"


def report(status: dict) -> str:
    """``status`` (:func:`gather`) as the lines ``judge status`` prints."""
    m = status["mails"]
    lines = [f"judge: {'running, pid ' + str(status['serving']) + ', since ' + str(status['started']) if status['serving'] else 'not running'}"
             f"; data folder {status['data_dir']}",
             f"mails: {m['waiting']} waiting, {m['set_aside']} set aside, {m['unsent']} unsent, {m['failed']} failed"
             + ("  (`judge spool list` names them)" if any(m.values()) else ""),
             f"last mail read: {_ago(status['last_mail_read'])}"
             + (f"; {status['mails_read']} since the start" if status["serving"] else "")]
    last = status["last_adjudication"]
    lines.append(f"last phase adjudicated: {_ago(last['at']) + ' (' + last['game'] + ')' if last else 'none yet'}")
    games = status["games"]
    lines.append("games: " + (", ".join(f"{n} {s}" for s, n in sorted(games.items())) if games else "none"))
    for server, entry in sorted(status["logins"].items()):
        state = "ok" if entry.get("ok") else "FAILING"
        lines.append(f"login {server.upper()}: {state}; last worked {_ago(entry.get('last_ok'))}; "
                     f"{entry.get('failures', 0)} refused since the start"
                     + (f"; last refusal {_ago(entry.get('last_failure'))}: {entry.get('answer', '')}"
                        if entry.get("failures") else ""))
    o = status["oauth2"]
    if o:
        lines.append(f"OAuth2 token: {o['token_file']}" + (
            f" (mode {o['mode']})" + (f"; access token good until {o['expires']}" if o.get("expires") else "")
            if o.get("present") else " MISSING: run `judge mail authorize`"))
    lines.append(f"store: {status['store_bytes'] / 1e6:.1f} MB; data folder {status['data_bytes'] / 1e6:.1f} MB")
    return "\n".join(lines)


def metrics(cfg):
    """A prometheus_client collector of :func:`gather` for ``cfg`` (the
    gauges are read afresh at each scrape)."""
    from prometheus_client.core import GaugeMetricFamily, CounterMetricFamily

    def stamp(text):
        try:
            return datetime.fromisoformat(text).timestamp() if text else 0.0
        except ValueError:
            return 0.0

    class Collector:
        measured = (float("-inf"), None)

        def collect(self):
            import time
            at, sizes = self.measured
            if time.monotonic() - at > SIZES_SECONDS:
                sizes = folder_bytes(cfg.data_dir, cfg.store_path.name)
                self.measured = (time.monotonic(), sizes)
            s = gather(cfg, sizes)
            yield GaugeMetricFamily("judge_up", "1 while judge serve runs on the data folder",
                                    value=1.0 if s["serving"] else 0.0)
            mails = GaugeMetricFamily("judge_mails", "Mails by state: waiting (inbound, not yet processed), "
                                      "set_aside, unsent (outbound, pending), failed", labels=["state"])
            for state, n in s["mails"].items():
                mails.add_metric([state], n)
            yield mails
            games = GaugeMetricFamily("judge_games", "Games by status", labels=["status"])
            for status, n in s["games"].items():
                games.add_metric([status], n)
            yield games
            yield GaugeMetricFamily("judge_last_mail_read_timestamp_seconds",
                                    "When the judge last read a mail (0: not since its start)",
                                    value=stamp(s["last_mail_read"]))
            yield CounterMetricFamily("judge_mails_read", "Mails read since judge serve started",
                                      value=s["mails_read"])
            last = s["last_adjudication"]
            yield GaugeMetricFamily("judge_last_adjudication_timestamp_seconds",
                                    "When a phase was last adjudicated (any game)",
                                    value=stamp(last["at"]) if last else 0.0)
            ok = GaugeMetricFamily("judge_login_ok", "1 if the last login to the server worked", labels=["server"])
            refused = CounterMetricFamily("judge_login_failures", "Logins refused since judge serve started",
                                          labels=["server"])
            for server, entry in s["logins"].items():
                ok.add_metric([server], 1.0 if entry.get("ok") else 0.0)
                refused.add_metric([server], entry.get("failures", 0))
            yield ok
            yield refused
            if s["oauth2"].get("expires"):
                yield GaugeMetricFamily("judge_oauth2_access_token_expiry_timestamp_seconds",
                                        "When the current OAuth2 access token ends",
                                        value=stamp(s["oauth2"]["expires"]))
            yield GaugeMetricFamily("judge_store_bytes", "Bytes of the store on disk", value=s["store_bytes"])
            yield GaugeMetricFamily("judge_data_bytes", "Bytes of the whole data folder", value=s["data_bytes"])

    return Collector()
