"""Bounds on the work one inbound mail may cause (issue 12, point 1).

:class:`~judge.config.Limits` holds the judge's limits (``[limits]`` in the config):
the bytes of a mail that are read, the MIME nesting depth and number of MIME
parts, and the command and order lines one mail may hold. :func:`bound_raw`
cuts a mail's raw bytes to the byte limit and to where its MIME structure
passes the depth or part limit, before :mod:`email` parses it, so the parser
never sees more than the limits allow (the standard parser recurses once per
nesting level: 1,000 levels exhaust Python's stack). It scans the bytes once
(linear in their size) and returns notes that say what was cut:

``too_big:<bytes>:<limit>``, ``mail_lines:<limit>`` (:data:`MAX_LINES`),
``line_bytes:<limit>`` (:data:`MAX_HEADER_LINE_BYTES`, :data:`MAX_LINE_BYTES`),
``mime_deep:<limit>``, ``mime_parts:<limit>``.
"""

from __future__ import annotations

import re

from ..config import Limits

_BOUNDARY = re.compile(rb'boundary\s*=\s*(?:"([^"\r\n]{1,200})"|([^\s;"]{1,200}))', re.IGNORECASE)


ReadLimits = Limits
"""The limits ``[limits]`` of the config sets (:class:`judge.config.Limits`)."""


def bound_raw(raw: bytes, limits: ReadLimits) -> tuple[bytes, list[str]]:
    """``(raw cut to the limits, notes)`` (see module doc). Linear in ``len(raw)``."""
    notes: list[str] = []
    if limits.mail_bytes and len(raw) > limits.mail_bytes:
        cut = raw.rfind(b"\n", 0, limits.mail_bytes)
        notes.append(f"too_big:{len(raw)}:{limits.mail_bytes}")
        raw = raw[:cut + 1 if cut > 0 else limits.mail_bytes]
    end = _line_cut(raw, notes)
    if end is not None:
        raw = raw[:end]
    raw = _long_lines_cut(raw, notes)
    end = _mime_cut(raw, limits, notes)
    return (raw if end is None else raw[:end]), notes


MAX_LINES = 20000
"""Lines of a mail read at most (no person writes more; the parser pays per line)."""


MAX_LINE_BYTES = 65536
"""A longer line is cut to this many bytes."""
MAX_HEADER_LINE_BYTES = 2000
"""A longer header line (``Name: value``, or a folded one, starting with white
space) is cut to this many bytes (RFC 5322 allows 998): the standard header
parser takes seconds on a header of a few hundred kB."""
_HEADER_LINE = re.compile(rb"^(?:[!-9;-~]{1,76}:|[ \t])")


def _long_lines_cut(raw: bytes, notes: list[str]) -> bytes:
    lines = raw.split(b"\n")
    if max(map(len, lines)) <= MAX_HEADER_LINE_BYTES:
        return raw
    out = []
    for line in lines:
        if len(line) > MAX_HEADER_LINE_BYTES:
            line = line[:MAX_HEADER_LINE_BYTES if _HEADER_LINE.match(line) else MAX_LINE_BYTES]
        out.append(line)
    if sum(map(len, out)) < sum(map(len, lines)):
        notes.append(f"line_bytes:{MAX_HEADER_LINE_BYTES}")
    return b"\n".join(out)


def _line_cut(raw: bytes, notes: list[str]) -> int | None:
    if raw.count(b"\n") <= MAX_LINES:
        return None
    end = -1
    for _ in range(MAX_LINES):
        end = raw.index(b"\n", end + 1)
    notes.append(f"mail_lines:{MAX_LINES}")
    return end + 1


def _mime_cut(raw: bytes, limits: ReadLimits, notes: list[str]) -> int | None:
    """Where the MIME structure of ``raw`` passes a limit (an offset), or None.

    Every ``boundary=`` seen declares a delimiter; a ``--delimiter`` line opens
    a part at that delimiter's level (a delimiter not open yet opens a new
    level), ``--delimiter--`` closes its level and those inside it."""
    if b"--" not in raw:
        return None
    declared: set[bytes] = set()
    stack: list[bytes] = []
    level: dict[bytes, int] = {}
    parts = 0
    pos = 0
    for line in raw.split(b"\n"):
        start, pos = pos, pos + len(line) + 1
        if not line.startswith(b"--"):
            if b"oundary" in line or b"OUNDARY" in line:
                for quoted, bare in _BOUNDARY.findall(line):
                    declared.add(quoted or bare)
            continue
        token = line[2:].rstrip()
        closing = token.endswith(b"--") and token[:-2] in declared
        if closing:
            token = token[:-2]
        elif token not in declared:
            continue
        if token in level:                       # back to that level
            del stack[level[token] + (0 if closing else 1):]
            level = {b: i for i, b in enumerate(stack)}
            if closing:
                continue
        elif closing:
            continue
        else:                                    # a new, deeper level
            level[token] = len(stack)
            stack.append(token)
            if limits.mime_depth and len(stack) > limits.mime_depth:
                notes.append(f"mime_deep:{limits.mime_depth}")
                return start
        parts += 1
        if limits.mime_parts and parts > limits.mime_parts:
            notes.append(f"mime_parts:{limits.mime_parts}")
            return start
    return None
