"""The mail side of the judge: spool, ledger, one writer, outbox.

Inbound mail (``inbound_smtp``: the embedded aiosmtpd listener; ``inbound_imap``:
an IMAP mailbox) is written to the ``spool`` before anything else; the
``worker`` (the only writer of the store) reads each entry (``message``), runs
the mail ``commands`` on a ``staging`` view of the store, renders the replies
(``render``, ``compose``) and commits game changes, ledger entry and outbox
rows in one transaction; the ``sender`` hands the outbox to a ``transport``
(maildir or SMTP relay). ``passwords`` keeps per-game passwords hashed;
``faults`` holds the crash points the durability tests use.

Games on their own clock: ``timekeeper`` does the scheduler's deadline work in
the worker; ``notices`` turns the game's notices (results, reminders, late
notices, press, ...) into one mail per reader in the reader's language. The
commands of a running game are mixins of the handler: ``game_commands``
(press, WAIT, absences, observers, the GM), ``end_commands`` (alliances,
draws, concessions, award votes), ``archive_commands`` (HISTORY, SUMMARY, MAP).
"""
