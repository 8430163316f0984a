"""The :mod:`email` policies the judge reads and writes mail with.

``policy.default`` makes a new header class (``type(...)``) for every header
of every mail it parses or builds (``HeaderRegistry.__getitem__``): 16 % of
an order mail's CPU (issue 23). :data:`DEFAULT` is ``policy.default`` with a
registry that makes each class once per header name and keeps it; the
classes hold no state of a mail, so sharing them changes nothing else.
"""

from __future__ import annotations

from email import policy
from email.headerregistry import HeaderRegistry


class CachedRegistry(HeaderRegistry):
    """A :class:`~email.headerregistry.HeaderRegistry` that makes the class
    of each header name once."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._made: dict[str, type] = {}

    def __getitem__(self, name: str) -> type:
        key = name.lower()
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = super().__getitem__(name)
        return made


DEFAULT = policy.default.clone(header_factory=CachedRegistry())
"""``policy.default``, its header classes made once."""
