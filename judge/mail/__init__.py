"""The mail side of the judge: spool, ledger, one writer, outbox.

Inbound mail (``inbound_smtp``: the embedded aiosmtpd listener; ``inbound_imap``:
an IMAP mailbox) is written to the ``spool`` before anything else; the
``worker`` (the only writer of the store) reads each entry (``message``), runs
the mail ``commands`` on a ``staging`` view of the store, renders the replies
(``render``, ``compose``) and commits game changes, ledger entry and outbox
rows in one transaction; the ``sender`` hands the outbox to a ``transport``
(maildir or SMTP relay). ``passwords`` keeps per-game passwords hashed;
``faults`` holds the crash points the durability tests use.
"""
