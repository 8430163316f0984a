"""The spool: durable entries in arrival order, set aside and sent back."""

from __future__ import annotations

import json

import pytest

from judge.mail.spool import Spool


def test_entries_come_back_in_arrival_order_with_their_bytes(tmp_path):
    spool = Spool(tmp_path)
    raws = [f"Message-ID: <{i}@x>\r\n\r\nbody {i}\r\n".encode() for i in range(5)]
    for raw in raws:
        spool.put(raw, {"source": "smtp"})
    names = spool.pending()
    assert [spool.read(n).raw for n in names] == raws
    assert [spool.read(n).key for n in names] == [f"{i}@x" for i in range(5)]
    assert list((tmp_path / "tmp").iterdir()) == []


def test_remove_and_clean_tmp(tmp_path):
    """A processed entry's file is kept in tmp/ and the next entry written
    over it (shorter: cut to its length); clean_tmp empties tmp/ of
    half-written entries and spares."""
    spool = Spool(tmp_path)
    entry = spool.put(b"Subject: a long one\r\n\r\n" + b"x" * 3000, {})
    spool.remove(entry.name)
    assert spool.pending() == [] and [p.name for p in (tmp_path / "tmp").iterdir()] == [".spare-0"]
    inode = (tmp_path / "tmp" / ".spare-0").stat().st_ino
    short = spool.put(b"\r\nx", {})
    assert list((tmp_path / "tmp").iterdir()) == [] and (tmp_path / "new" / short.name).stat().st_ino == inode
    assert spool.read(short.name).raw == b"\r\nx" and spool.read(short.name).meta == short.meta
    spool.remove(short.name)
    (tmp_path / "tmp" / "half-written").write_bytes(b"junk")
    spool.clean_tmp()
    assert spool.pending() == [] and list((tmp_path / "tmp").iterdir()) == []
    again = spool.put(b"\r\ny", {})                 # no spare left: a new file
    assert spool.read(again.name).raw == b"\r\ny"


def test_failures_are_counted_then_the_entry_is_shunted_and_sent_back(tmp_path):
    spool = Spool(tmp_path)
    raw = b"Message-ID: <m1@x>\r\n\r\nHELP\r\n"
    entry = spool.put(raw, {"source": "imap", "uid": 7, "uidvalidity": 1})
    entry = spool.record_failure(entry, "boom")
    assert spool.read(entry.name).meta["attempts"] == 1
    path = spool.shunt(entry, "boom again")
    assert spool.pending() == []
    assert path.read_bytes() == raw                     # the bytes, unchanged
    [info] = spool.shunted()
    assert info["key"] == "m1@x" and info["reason"] == "boom again" and info["uid"] == 7
    back = spool.retry("m1@x")
    assert back.meta["retry"] is True and back.meta["attempts"] == 0 and back.raw == raw
    assert spool.shunted() == [] and spool.pending() == [back.name]


def test_retry_of_an_unknown_key(tmp_path):
    with pytest.raises(KeyError):
        Spool(tmp_path).retry("nothing@x")


def test_entry_file_is_one_json_line_then_the_raw_bytes(tmp_path):
    spool = Spool(tmp_path)
    entry = spool.put(b"raw\r\n", {"source": "smtp", "mail_from": "a@x"})
    head, _, rest = (tmp_path / "new" / entry.name).read_bytes().partition(b"\n")
    assert json.loads(head)["mail_from"] == "a@x" and rest == b"raw\r\n"


def test_the_plain_header_reading_agrees_with_the_email_parser():
    """The spool reads a plain header block (``Name: value`` lines, ASCII,
    CRLF, none folded) without the email parser: key, From and Reply-To must
    be what the parser's reading gives, on the test mails as clients write
    them, the fuzz mails, and the shapes the plain reading must leave to the
    parser (folded, bare LF, 8-bit, encoded words, no body, odd first lines)."""
    import pathlib
    import random

    import mailfuzz

    from judge.mail import spool

    def by_parser(raw):
        plain, spool._PlainHeads.of = spool._PlainHeads.of, lambda raw: None
        try:
            return spool._read_heads(raw)
        finally:
            spool._PlainHeads.of = plain

    raws = [p.read_bytes() for p in sorted(pathlib.Path(__file__).parent.joinpath("data").rglob("*.eml"))]
    raws += list(mailfuzz.seeds()) + list(mailfuzz.mails(7, 400))
    base = (b"From: Ann <ann@x.example>\r\nReply-To: b@y.example\r\nMessage-ID: <m1@x.example>\r\n"
            b"Subject: orders\r\n\r\nSIGNON g pw\r\n")
    shapes = [b"Message-ID:\r\n <folded@x.example>\r\n", b"From: a@x.example\n", b"Message-ID: <=?utf-8?q?x?=@x>\r\n",
              b"From: \xc3\xa4 <a@x.example>\r\n", b"From a@x.example Mon Jan 1\r\n", b"Message-ID :<sp@x>\r\n",
              b"message-id:<lower@x>   \r\n", b"Reply-To:\t<tab@x.example>\r\n", b"X: a\rb\r\n", b"\r\n",
              b"From: <first@x.example>\r\nFrom: <second@x.example>\r\n", b"Message-ID: <" + b"x" * 600 + b"@x>\r\n"]
    rng = random.Random(3)
    for shape in shapes:
        raws += [shape + base, base.replace(b"Subject", shape.rstrip(b"\r\n") + b"\r\nSubject", 1), shape]
    for _ in range(300):
        lines = base.split(b"\r\n")
        rng.shuffle(lines)
        raws.append(b"\r\n".join(lines[:rng.randint(0, len(lines))]) + rng.choice([b"", b"\r\n\r\nbody", b"\n\nbody"]))
    plain = sum(spool._PlainHeads.of(raw) is not None for raw in raws)
    assert plain > 100 and len(raws) - plain > 100
    assert all(spool._read_heads(raw) == by_parser(raw) for raw in raws)


def test_the_entries_a_spool_wrote_come_back_from_memory_as_from_their_files(tmp_path, monkeypatch):
    """A Spool keeps the entries it wrote until removed (the worker of the
    same process does not read their files again): what it gives is what
    the file holds, rewritten too; a removed one is gone; past its bound,
    the files are read."""
    from judge.mail import spool as spool_module
    spool, other = Spool(tmp_path / "s"), Spool(tmp_path / "s")
    a = spool.put(b"Message-ID: <a@x>\r\nFrom: A <a@x.example>\r\n\r\nHELP\r\n", {"source": "smtp"})
    assert spool.read(a.name) == other.read(a.name) == a
    assert spool.sender_of(a.name) == other.sender_of(a.name) == ("a@x.example", "")
    failed = spool.record_failure(a, "boom")
    assert spool.read(a.name) == other.read(a.name) == failed and failed.meta["attempts"] == 1
    spool.read(a.name).meta["attempts"] = 99                       # a caller's change stays its own
    assert spool.read(a.name).meta["attempts"] == 1
    spool.remove(a.name)
    with pytest.raises(FileNotFoundError):
        spool.read(a.name)
    monkeypatch.setattr(spool_module, "FRESH_ENTRIES", 1)
    b = spool.put(b"Message-ID: <b@x>\r\n\r\nb\r\n", {"source": "smtp"})
    c = spool.put(b"Message-ID: <c@x>\r\n\r\nc\r\n", {"source": "smtp"})
    assert list(spool._fresh) == [b.name] and spool.read(c.name) == other.read(c.name) == c
