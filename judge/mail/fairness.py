"""Fair queueing per sender (issue 19, point 5): one sender's flood does not
hold up everyone else's mail.

Each spool entry belongs to two buckets: its ``From`` address and its
``Reply-To`` address (:mod:`judge.mail.spool` notes both in the entry's
metadata). Counted by arrival time (the spool name's stamp), the mails of a
bucket within the last :data:`WINDOW` seconds before an entry decide its
class:

- :data:`ANSWER` — fewer than ``answered`` (``[senders] answered_per_minute``)
  mails before it: read and answered as usual;
- :data:`DIGEST` — fewer than ``read`` (``[senders] read_per_minute``): read
  and acted on, but its answer to the sender waits in the store (table
  ``digests``) and goes out in ONE digest mail a minute later with the
  others of that minute;
- :data:`UNREAD` — more: not read at all (ledger ``ignored``, reason
  ``flood``; logged, and counted in the sender's digest).

The worker takes the waiting entries class by class (:meth:`FairQueue.order`):
everyone's answered mail first, in arrival order, then the digested, then the
unread — and a bucket's entries never overtake each other (an entry's class
is at least that of any earlier waiting entry of its buckets), so a player's
last orders still count last. Reordering only changes which entry is
committed first: each is removed from the spool only after its own commit,
and the ledger makes a mail act once, so a restart neither loses nor doubles
one. The counts live in memory: after a restart a flooder may be answered
``answered`` more times. 0 for ``answered``: no fair queueing.
"""

from __future__ import annotations

import bisect
import time
from typing import Callable

WINDOW = 60.0
"""Seconds over which a sender's mails are counted."""

ANSWER, DIGEST, UNREAD = 0, 1, 2
"""The classes of a spool entry (see module doc)."""


def arrival(name: str) -> float:
    """The arrival time (s since the epoch) of spool entry ``name`` (its
    name's stamp, :mod:`judge.mail.spool`); 0.0 for a name of another form."""
    head = name.split("-", 1)[0]
    return int(head) / 1e9 if head.isdigit() else 0.0


class FairQueue:
    """See module doc. ``who(name)`` gives ``(from, reply_to)`` of a waiting
    entry (``("", "")``: unknown — the entry is a bucket of its own)."""

    def __init__(self, answered: int = 5, read: int = 20):
        self.answered, self.read = answered, max(read, answered)
        self._times: dict[str, list[float]] = {}   # bucket -> arrival times seen (sorted), last 2 windows
        self._class: dict[str, tuple[int, tuple[str, ...]]] = {}    # name -> (class by count, buckets)
        self._ranked: dict[str, int] = {}          # name -> class, as last ordered
        self._pruned = time.time()

    def order(self, names: list[str], who: Callable[[str], tuple[str, str]]) -> list[str]:
        """The waiting entries ``names`` (oldest first) in the order to take them."""
        if not self.answered:
            return names
        self._forget(names)
        floor: dict[str, int] = {}
        keyed = []
        for i, name in enumerate(names):
            cls, buckets = self._classify(name, who)
            cls = max([cls] + [floor.get(b, ANSWER) for b in buckets])
            for b in buckets:
                floor[b] = cls
            keyed.append((cls, i, name))
        self._ranked = {name: cls for cls, _, name in keyed}
        return [name for _, _, name in sorted(keyed)]

    def klass(self, name: str) -> int:
        """The class of entry ``name`` as :meth:`order` last ranked it (ANSWER if it did not)."""
        return self._ranked.get(name, ANSWER)

    def _classify(self, name: str, who) -> tuple[int, tuple[str, ...]]:
        known = self._class.get(name)
        if known is not None:
            return known
        frm, reply_to = who(name)
        buckets = tuple(dict.fromkeys(f"{kind}:{a}" for kind, a in (("from", frm), ("reply", reply_to)) if a)) \
            or (f"entry:{name}",)
        t = arrival(name)
        count = 0
        for b in buckets:
            times = self._times.setdefault(b, [])
            count = max(count, len(times) - bisect.bisect_right(times, t - WINDOW))
            bisect.insort(times, t)
        cls = ANSWER if count < self.answered else DIGEST if count < self.read else UNREAD
        self._class[name] = (cls, buckets)
        return cls, buckets

    def _forget(self, waiting: list[str]) -> None:
        """Drop the classes of entries no longer waiting, and (every window)
        the arrival times older than two windows."""
        if len(self._class) > len(waiting):
            keep = set(waiting)
            self._class = {n: c for n, c in self._class.items() if n in keep}
        now = time.time()
        if now - self._pruned > WINDOW:
            self._pruned = now
            for b in list(self._times):
                times = self._times[b]
                del times[:bisect.bisect_right(times, now - 2 * WINDOW)]
                if not times:
                    del self._times[b]
