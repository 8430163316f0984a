"""The mail side of the judge: spool, ledger, one writer, outbox.

Inbound mail (``inbound_smtp``: the embedded aiosmtpd listener; ``inbound_imap``:
an IMAP mailbox) is written to the ``spool`` before anything else; the
``worker`` (the only writer of the store) reads each entry (``message``), has
the ``handler`` read it and hand its command lines to the verbs
(:mod:`judge.verbs`) on a ``staging`` view of the store, renders the replies
(``render``, ``compose``) and commits game changes, ledger entry and outbox
rows in one transaction; the ``sender`` hands the outbox to a ``transport``
(maildir or SMTP relay). The handler keeps to the mail's part: its lines and
``limits``, identity (``authenticity``), the ``language`` it is written in,
its secrets (``masking``) and the wording of the answers. A ``judge game``
command's work item is the judgekeeper's: ``keeper`` runs its verb and
``terminal`` answers in English.

Games on their own clock: ``timekeeper`` does the scheduler's deadline work in
the worker; ``notices`` turns the game's notices (results, reminders, late
notices, press, ...) into one mail per reader in the reader's language.
"""
