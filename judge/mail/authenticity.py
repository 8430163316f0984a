"""Is a mail really from the domain of its From address? (issue 12, point 6)

A game with ``auth=verified`` believes From without a password only when
:func:`verified_by` names a way the mail was verified:

- ``auth-results``: the topmost ``Authentication-Results`` header (RFC 8601)
  whose authserv-id is one of the trusted ones (``[senders]
  trusted_authserv_ids``: the receiving servers, which remove such headers
  written by anyone else) says ``dkim=pass`` with ``header.d``/``header.i``
  of the From domain, ``spf=pass`` with ``smtp.mailfrom`` in it, or
  ``dmarc=pass`` with ``header.from`` equal to it;
- ``dkim``: a DKIM signature of the mail verifies (dkimpy) with a signing
  domain ``d=`` aligned with the From domain (:func:`aligned`), and it covers
  From (dkimpy requires it).

Anything else (no header, a forged one from an untrusted id, a signature of
another domain, a broken signature, a DNS failure) is ``""``. Never raises.
"""

from __future__ import annotations

import logging
import re
from email import policy
from email.parser import BytesHeaderParser

log = logging.getLogger("judge.mail")

_COMMENT = re.compile(r"\([^()]*\)")


def aligned(domain: str, from_domain: str) -> bool:
    """Whether ``domain`` is ``from_domain``, a parent or a subdomain of it
    (DMARC's relaxed alignment, without the public-suffix list: a bare
    top-level domain never aligns)."""
    domain, from_domain = domain.strip().strip(".").lower(), from_domain.strip().lower()
    if not domain or "." not in domain or "." not in from_domain:
        return False
    return from_domain == domain or from_domain.endswith("." + domain) or domain.endswith("." + from_domain)


def _results(value: str) -> tuple[str, list[tuple[str, str, dict[str, str]]]]:
    """``(authserv-id, [(method, result, {property: value})])`` of one header value."""
    text = " ".join(value.split())
    for _ in range(3):                       # comments, nested a little
        text = _COMMENT.sub(" ", text)
    parts = [p.strip() for p in text.split(";")]
    authserv = parts[0].split()[0].lower() if parts and parts[0].split() else ""
    out = []
    for part in parts[1:]:
        words = part.split()
        if not words or "=" not in words[0]:
            continue
        method, _, result = words[0].partition("=")
        props = {}
        for w in words[1:]:
            k, eq, v = w.partition("=")
            if eq:
                props[k.lower()] = v.strip('"').lower()
        out.append((method.lower().split("/")[0], result.lower(), props))
    return authserv, out


def _from_auth_results(values: list[str], trusted: set[str], from_domain: str) -> bool:
    for value in values:                     # topmost first: the receiving server's own
        authserv, results = _results(value)
        if authserv not in trusted:
            continue
        for method, result, props in results:
            if result != "pass":
                continue
            if method == "dkim" and (aligned(props.get("header.d", ""), from_domain)
                                     or aligned(props.get("header.i", "").rpartition("@")[2], from_domain)):
                return True
            if method == "spf" and aligned(props.get("smtp.mailfrom", "").rpartition("@")[2], from_domain):
                return True
            if method == "dmarc" and props.get("header.from", "") == from_domain:
                return True
        return False                         # only the topmost trusted header counts
    return False


def _from_dkim(raw: bytes, from_domain: str, dnsfunc) -> bool:
    try:
        import dkim
    except ImportError:                      # dkimpy is a dependency; without it nothing verifies
        return False
    try:
        checker = dkim.DKIM(raw)
        count = sum(1 for name, _ in checker.headers if name.lower() == b"dkim-signature")
        for idx in range(min(count, 5)):
            kwargs = {"dnsfunc": dnsfunc} if dnsfunc is not None else {}
            if checker.verify(idx=idx, **kwargs) and aligned((checker.domain or b"").decode("ascii", "replace"),
                                                             from_domain):
                return True
    except Exception as e:  # noqa: BLE001 - a broken signature or a DNS failure: not verified
        log.debug("DKIM check failed: %s", e)
    return False


def verified_by(raw: bytes, sender: str, trusted_authserv_ids=(), dnsfunc=None) -> str:
    """``"auth-results"``, ``"dkim"`` or ``""`` for the mail ``raw`` from the
    checked address ``sender`` (see module doc). ``dnsfunc(name) -> bytes``:
    the TXT lookup dkimpy uses (tests pass a stub; None: dkimpy's own)."""
    from_domain = sender.rpartition("@")[2].lower()
    if not from_domain or not raw:
        return ""
    trusted = {t.strip().lower() for t in trusted_authserv_ids if t.strip()}
    if trusted:
        try:
            head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
            values = [str(v) for k, v in BytesHeaderParser(policy=policy.compat32).parsebytes(head).items()
                      if k.lower() == "authentication-results"]
        except Exception:  # noqa: BLE001
            values = []
        if _from_auth_results(values, trusted, from_domain):
            return "auth-results"
    if b"dkim-signature" in raw[:65536].lower() and _from_dkim(raw, from_domain, dnsfunc):
        return "dkim"
    return ""
