"""Is a mail really from the domain of its From address? (issue 12, point 6)

A game with ``auth=verified`` believes From without a password only when
:func:`verified_by` names a way the mail was verified:

- ``auth-results``: the topmost ``Authentication-Results`` header (RFC 8601)
  whose authserv-id is one of the trusted ones (``[senders]
  trusted_authserv_ids``: the receiving servers, which remove such headers
  written by anyone else; never on the embedded SMTP listener, where any
  client can write one: :func:`believed_authserv_ids`) says ``dkim=pass`` with ``header.d``/``header.i``
  of the From domain, ``spf=pass`` with ``smtp.mailfrom`` in it, or
  ``dmarc=pass`` with ``header.from`` equal to it;
- ``dkim``: a DKIM signature of the mail verifies (dkimpy) with a signing
  domain ``d=`` aligned with the From domain (:func:`aligned`), and it covers
  From (dkimpy requires it).

Anything else (no header, a forged one from an untrusted id, a signature of
another domain, a broken signature, a DNS failure) is ``""``. Never raises.

The check is bounded (issue 19, point 1): it runs in the judge's one writer,
so a mail must not hold the others up. Alignment is read from the
signatures' ``d=`` tags before any DNS work: a mail whose signatures are all
of other domains costs no lookup. Of the aligned signatures only one is
verified (:func:`_pick`: the From domain's own before a parent's or a
subdomain's, RSA-SHA256 before other algorithms), and all DNS of one check
shares :data:`DNS_BUDGET` seconds: every lookup is given what is left of it
as its timeout and is abandoned when that is spent, whatever the resolver
does (it runs in a small pool of helper threads; the writer waits for it at
most that long). A lookup that does not answer in time means "not verified":
the player signs on with the password instead.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from email import policy
from email.parser import BytesHeaderParser

log = logging.getLogger("judge.mail")

_COMMENT = re.compile(r"\([^()]*\)")

DNS_BUDGET = 1.0
"""Seconds of DNS one mail's check may take in all (see module doc)."""
MAX_SIGNATURES = 20
"""DKIM-Signature headers of one mail whose ``d=`` is read (the rest are not)."""
LOOKUP_THREADS = 4
"""Lookups that may run at once. Each runs in a helper thread of its own, so
that the writer can stop waiting for it: a lookup that never returns holds
a helper thread, never the writer; when all are held, a check fails at once."""
_HELPERS = threading.BoundedSemaphore(LOOKUP_THREADS)
_DKIM_LOG = logging.getLogger("judge.mail.dkim")
_DKIM_LOG.setLevel(logging.CRITICAL)   # dkimpy's own chatter (every forged mail's DNS error); the
#                                        outcome is logged by the caller


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


_warned: set[tuple] = set()


def believed_authserv_ids(cfg) -> tuple[str, ...]:
    """The ``trusted_authserv_ids`` of ``cfg`` (a :class:`judge.config.Config`)
    the judge believes: none when mail comes in on the embedded SMTP listener
    (``[inbound] transport = "smtp"``) — any client that reaches its port
    writes the headers it likes, and no server in front removes them (issue
    19, point 11); the judge then verifies DKIM itself. A judge so configured
    is warned (logged once per process, :func:`warn_authserv_ids` at start)."""
    ids = tuple(str(t) for t in cfg.senders.trusted_authserv_ids if str(t).strip())
    if ids and cfg.inbound.transport == "smtp":
        warn_authserv_ids(cfg)
        return ()
    return ids


def warn_authserv_ids(cfg) -> bool:
    """Log (once per process and config) that ``trusted_authserv_ids`` is
    ignored on the embedded listener; returns whether it is."""
    ids = tuple(str(t) for t in cfg.senders.trusted_authserv_ids if str(t).strip())
    if not ids or cfg.inbound.transport != "smtp":
        return False
    if (cfg.source, ids) not in _warned:
        _warned.add((cfg.source, ids))
        log.warning("%s: [senders] trusted_authserv_ids = %s is ignored: mail comes in on the embedded SMTP "
                    "listener, where any client can write Authentication-Results headers; the judge checks "
                    "DKIM signatures itself (read the mailbox over IMAP, behind a mail server that removes "
                    "such headers, to believe them)", cfg.source, list(ids))
    return True


def _pick(checker, from_domain: str) -> int | None:
    """The index (among the mail's DKIM-Signature headers) of the one
    signature to verify, or None when none is aligned with ``from_domain``.
    Reads the headers' tags only: no DNS."""
    from dkim.util import parse_tag_value
    best = None
    signatures = [value for name, value in checker.headers if name.lower() == b"dkim-signature"]
    for idx, value in enumerate(signatures[:MAX_SIGNATURES]):
        try:
            tags = parse_tag_value(value)
            domain = tags.get(b"d", b"").decode("ascii").strip().lower()
            algorithm = tags.get(b"a", b"").decode("ascii").strip().lower()
        except Exception:  # noqa: BLE001 - an unreadable signature is not one to verify
            continue
        if not tags.get(b"s") or not aligned(domain, from_domain):
            continue
        rank = (domain.strip(".") != from_domain, algorithm != "rsa-sha256", idx)
        if best is None or rank < best[0]:
            best = (rank, idx)
    return None if best is None else best[1]


def _bounded(dnsfunc, deadline: float):
    """``dnsfunc`` (``dnsfunc(name, timeout=s) -> bytes | None``) made to give
    up at ``deadline`` (``time.monotonic()``): each lookup is told the time
    left and abandoned (dkimpy's DnsTimeoutError: not verified) when it has run out."""
    import dkim

    def lookup(name, timeout=DNS_BUDGET):
        left = deadline - time.monotonic()
        if left <= 0:
            raise dkim.DnsTimeoutError(f"{name!r}: no DNS time left for this mail")
        if not _HELPERS.acquire(blocking=False):
            raise dkim.DnsTimeoutError(f"{name!r}: {LOOKUP_THREADS} lookups still waiting for DNS")
        answer: dict = {}
        done = threading.Event()

        def run():
            try:
                answer["txt"] = dnsfunc(name, timeout=min(timeout, left))
            except BaseException as e:  # noqa: BLE001 - handed to the waiting writer
                answer["error"] = e
            finally:
                _HELPERS.release()
                done.set()
        threading.Thread(target=run, name="judge-dns", daemon=True).start()
        if not done.wait(left):
            raise dkim.DnsTimeoutError(f"{name!r}: no answer within the mail's {left:.2f} s of DNS")
        if "error" in answer:
            raise answer["error"]
        return answer.get("txt")
    return lookup


def _from_dkim(raw: bytes, from_domain: str, dnsfunc, budget: float) -> bool:
    try:
        import dkim
        from dkim.dnsplug import get_txt
    except ImportError:                      # dkimpy is a dependency; without it nothing verifies
        return False
    deadline = time.monotonic() + budget
    try:
        checker = dkim.DKIM(raw, logger=_DKIM_LOG, timeout=budget)
        idx = _pick(checker, from_domain)
        if idx is None:
            log.debug("DKIM: no signature of the From domain %s; no DNS asked", from_domain)
            return False
        lookup = _bounded(dnsfunc if dnsfunc is not None else get_txt, deadline)
        return bool(checker.verify(idx=idx, dnsfunc=lookup)) and \
            aligned((checker.domain or b"").decode("ascii", "replace"), from_domain)
    except Exception as e:  # noqa: BLE001 - a broken signature or a DNS failure: not verified
        log.debug("DKIM check failed: %s", e)
    return False


def verified_by(raw: bytes, sender: str, trusted_authserv_ids=(), dnsfunc=None,
                budget: float = DNS_BUDGET) -> str:
    """``"auth-results"``, ``"dkim"`` or ``""`` for the mail ``raw`` from the
    checked address ``sender`` (see module doc). ``dnsfunc(name, timeout=s)
    -> bytes | None``: the TXT lookup dkimpy uses (tests pass a stub; None:
    dkimpy's own, dnspython); ``budget``: seconds all DNS of this check may
    take. Takes at most about ``budget`` seconds, whatever DNS does."""
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
    if b"dkim-signature" in raw[:65536].lower() and _from_dkim(raw, from_domain, dnsfunc, budget):
        return "dkim"
    return ""
