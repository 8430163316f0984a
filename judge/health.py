"""What a running ``judge serve`` notes about itself for ``judge status`` and
the metrics page (:mod:`judge.status`): the file ``DATA/health.json``.

It is not game state (the store has that): mails read from the inbound
transport, the last one's time, each server's logins (the last that
worked, refusals since the start, the last refusal's answer), the OAuth2
access token's end. The daemon's threads note events here; a thread
writes the file (atomically) at most every :data:`FLUSH_SECONDS` while
something changed, and at the stop.

Document: ``{"pid", "started", "stopped", "updated", "reading", "writing",
"mails_read", "last_mail_read", "logins": {server: {"ok", "last_ok",
"failures", "last_failure", "answer"}}, "oauth2": {"expires", "refreshed",
"rotations"}}`` — times UTC ISO strings.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from datetime import datetime, timezone
from pathlib import Path

FILE_NAME = "health.json"
FLUSH_SECONDS = 1.0

log = logging.getLogger("judge.daemon")


def _now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def read_health(data_dir: Path) -> dict:
    """The last health document written in ``data_dir`` ({} if none)."""
    try:
        doc = json.loads((Path(data_dir) / FILE_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


class Health:
    """The running judge's health notes (see module doc); thread-safe."""

    def __init__(self, data_dir: Path):
        self.path = Path(data_dir) / FILE_NAME
        self._lock = threading.Lock()
        self._doc: dict = {"pid": os.getpid(), "started": _now(), "mails_read": 0, "logins": {}}
        last = read_health(data_dir).get("last_mail_read")     # of the run before: kept until a new one
        if last:
            self._doc["last_mail_read"] = last
        self._dirty = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.tokens = None                 # the judge's OAuth2 Tokens, if any

    # ---- events -----------------------------------------------------------------
    def note(self, **fields) -> None:
        with self._lock:
            self._doc.update(fields)
        self._dirty.set()

    def mail_read(self) -> None:
        """The inbound transport spooled a mail."""
        with self._lock:
            self._doc["mails_read"] = self._doc.get("mails_read", 0) + 1
            self._doc["last_mail_read"] = _now()
        self._dirty.set()

    def login(self, server: str, ok: bool, answer: str = "") -> None:
        """A login to ``server`` worked (``ok``) or was refused with ``answer``."""
        with self._lock:
            entry = dict(self._doc["logins"].get(server, {"failures": 0}))
            entry["ok"] = ok
            if ok:
                entry["last_ok"] = _now()
            else:
                entry.update(failures=entry.get("failures", 0) + 1, last_failure=_now(), answer=answer[:500])
            self._doc["logins"][server] = entry
        self._dirty.set()

    # ---- the file -----------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="judge-health", daemon=True)
        self._thread.start()
        self._dirty.set()

    def stop(self) -> None:
        self._stop.set()
        self._dirty.set()
        if self._thread:
            self._thread.join(timeout=5)
        self.note(stopped=_now())
        self.flush()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._dirty.wait()
            if self._stop.is_set():
                break
            self._dirty.clear()
            self.flush()
            self._stop.wait(FLUSH_SECONDS)

    def flush(self) -> None:
        """Write the file now (atomically; an error is logged, not raised)."""
        with self._lock:
            doc = json.loads(json.dumps(self._doc))
        tokens = self.tokens
        if tokens is not None and tokens.refreshed_at:
            stamp = (lambda t: datetime.fromtimestamp(t, timezone.utc).replace(microsecond=0).isoformat())
            doc["oauth2"] = {"expires": stamp(tokens.expires), "refreshed": stamp(tokens.refreshed_at),
                             "rotations": tokens.rotations}
        doc["updated"] = _now()
        tmp = self.path.with_name(f".{FILE_NAME}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps(doc, indent=1, sort_keys=True), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as e:
            log.warning("health: cannot write %s: %s", self.path, e)
