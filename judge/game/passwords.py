"""Per-game passwords, stored only as salted scrypt hashes.

Format: ``scrypt$<n>$<r>$<p>$<salt hex>$<hash hex>``. :func:`verify_password`
compares in constant time and remembers (in memory only, keyed by an HMAC of
the password under a key made at start, never a plain hash: a look at the
process's memory gives nothing to guess against) the pairs it has checked
and whether they matched, so a player
signing on in every mail, or a mail repeating a line, does not pay for scrypt
each time.
"""

from __future__ import annotations

import hashlib
import hmac
import os

_N, _R, _P = 2 ** 14, 8, 1


def hash_password(password: str) -> str:
    """A new salted hash of ``password`` (a str of at least one character)."""
    salt = os.urandom(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt${_N}${_R}${_P}${salt.hex()}${digest.hex()}"


_checked: dict[tuple[str, str], bool] = {}   # (stored hash, HMAC of password) -> it matches
_KEY = os.urandom(32)


def verify_password(password: str, stored: str | None) -> bool:
    """True if ``password`` matches ``stored`` (False for None or a malformed hash)."""
    if not stored:
        return False
    key = (stored, hmac.new(_KEY, password.encode("utf-8", "surrogatepass"), "sha256").hexdigest())
    if key in _checked:
        return _checked[key]
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        got = hashlib.scrypt(password.encode("utf-8", "surrogatepass"), salt=bytes.fromhex(salt), n=int(n),
                             r=int(r), p=int(p), dklen=len(digest) // 2)
    except (ValueError, TypeError):
        return False
    ok = hmac.compare_digest(got.hex(), digest)
    if len(_checked) > 4096:
        _checked.clear()
    _checked[key] = ok
    return ok
