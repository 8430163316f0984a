"""Passwords never appear in a mail the judge sends (issue 12, point 7).

The answer to a mail quotes its lines (``> JOIN g1 secret1 France``), and a
copy goes to the address of record. :func:`secrets_of` names the passwords a
command line holds (``CREATE``, ``JOIN``, ``SIGNON``, ``SET PASSWORD``,
``REPLACE``, a ``join_password=`` setting, and the same lines misspelt, such
as ``SINGON g1 pw``); :func:`mask` replaces each of them, wherever it stands
as a word in the answer's data, with :data:`MASK`.
"""

from __future__ import annotations

import dataclasses
import re

from ..verbs.registry import BY_NAME

MASK = "********"

_SETTING = re.compile(r"(?i)(?:\bjoin[-_]?password|加入密码|加入密碼)\s*[=＝]\s*(\S+)")


def secrets_of(name: str | None, args: tuple[str, ...], line: str, suggestion: str | None = None) -> set[str]:
    """The passwords in one command line: ``name`` and ``args`` as read
    (:class:`judge.verbs.session.CommandLine`; the verb's record says which
    argument is a password, :attr:`judge.verbs.registry.Verb.secret`), or
    for a line that is no command, ``suggestion``, the command word it is
    nearest to (its words after the game name are taken for passwords)."""
    found = set(_SETTING.findall(line))
    if name is None:
        words = line.split()
        if suggestion in ("JOIN", "SIGNON", "CREATE") and len(words) > 2:
            found.add(words[2])
        elif suggestion == "SET" and len(words) > 2:
            found.update(words[2:])
        return found
    at = BY_NAME[name].secret
    plain = [a for a in args if "=" not in a]
    if at is not None and (len(plain) > at if at >= 0 else len(plain) >= 2):
        found.add(plain[at])
    return {s for s in found if s}


TEXT_KEYS = frozenset({"line", "input", "text", "reason", "changes", "settings", "subject"})
"""Keys of an answer's data whose strings are the sender's own text (codes
of powers, places and units are never touched)."""


def mask(value, secrets: set[str]):
    """``value`` with every secret (of 4 characters or more) that stands as
    a word (no letter or digit on either side) in the sender's text replaced by :data:`MASK`: a str is masked; in
    dicts, lists and tuples the strings under :data:`TEXT_KEYS` are (new
    containers are made); other values are kept as they are."""
    secrets = {x for x in secrets if len(x) >= 4}
    if not secrets:
        return value
    words = "|".join(re.escape(x) for x in sorted(secrets, key=len, reverse=True))
    pattern = re.compile(rf"(?<!\w)(?:{words})(?!\w)")
    return _walk(value, pattern, True) if isinstance(value, str) else _walk(value, pattern, False)


CODE_PARAMS = frozenset({"province", "destination", "origin", "location", "ordered", "named", "coasts",
                         "candidates", "suggestion_codes", "unit", "power", "expected_power", "powers",
                         "written", "actual", "unit_type", "order", "phase_kind", "sides", "coast",
                         "written_coast", "map", "role", "award", "system", "retreats", "labels"})
"""Params of a reason that hold codes (places, powers, units ...: never a
player's text, never masked); its other strings are the sender's text."""


def _walk(value, pattern, text: bool):
    if isinstance(value, str):
        return pattern.sub(MASK, value) if text else value
    if isinstance(value, dict):
        return {k: _walk(v, pattern, text or k in TEXT_KEYS) for k, v in value.items()}
    if isinstance(value, list):
        return [_walk(v, pattern, text) for v in value]
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(_walk(v, pattern, text) for v in value)
    code, params = getattr(value, "code", None), getattr(value, "params", None)
    if isinstance(code, str) and isinstance(params, dict):     # a reason worded at render time
        return _masked_reason(value, code, params, re.compile(pattern.pattern, re.IGNORECASE))
    return value


def _masked_reason(value, code: str, params: dict, pattern):
    """``value`` (a Reason, RuleError, GameError or parser Diagnostic: a
    ``code`` and ``params``) of the same kind with the sender's text in its
    params masked (the parser quotes a line in lower case: any case matches)."""
    masked = {k: v if k in CODE_PARAMS else _walk(v, pattern, True) for k, v in params.items()}
    if masked == params:
        return value
    if dataclasses.is_dataclass(value):
        return dataclasses.replace(value, params=masked)
    try:
        return type(value)(code, **masked)
    except Exception:  # noqa: BLE001 - a kind made otherwise: a plain reason says the same
        from ..rules.reasons import Reason
        return Reason(code, **masked)
