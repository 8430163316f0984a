"""Who may join a game and how a mail proves it comes from a player (issue 12,
points 6 and 10): the ``access`` group of a game's settings.

- ``auth``: how a mail from a player's address is believed: ``address``
  (From is enough), ``password`` (every mail signs on with the password, as
  njudge), ``verified`` (From is enough when the mail is verified: DKIM or a
  trusted server's Authentication-Results; else the password); ``""``: the
  judge's default (``[senders] auth``).
- ``access``: who may JOIN: ``open`` (anyone), ``password`` (with the join
  password the GM hands out, ``JOIN game mypassword [power] joinpassword``),
  ``invite`` (the addresses in ``invited`` only).
- ``listed``: False makes the game private (:attr:`AccessSettings.private`,
  as ``access=invite`` does): to anyone but its players, its GM and its
  invited addresses it is a game that does not exist, by mail (LIST,
  OBSERVE, HISTORY, SUMMARY, MAP, and the refusals of JOIN and SIGNON;
  :meth:`judge.verbs.session.Session.sees`) and on the web (no page at all).
- ``approve``: a JOIN waits until the GM answers APPROVE or REJECT.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from .deadlines import check_keys
from .errors import GameError

AUTH = ("", "address", "password", "verified")
ACCESS = ("open", "password", "invite")


@dataclass(frozen=True)
class AccessSettings:
    """See module doc. ``join_password_hash``: a salted hash
    (:func:`judge.game.passwords.hash_password`) or ``""``; ``invited``:
    lower-case addresses. Raises GameError (a ValueError) for a value not allowed."""

    auth: str = ""
    access: str = "open"
    join_password_hash: str = ""
    invited: tuple[str, ...] = ()
    listed: bool = True
    approve: bool = False

    def __post_init__(self):
        if self.auth not in AUTH:
            raise GameError("not_a_choice", what="auth", value=repr(self.auth),
                            allowed=tuple(a or "default" for a in AUTH))
        if self.access not in ACCESS:
            raise GameError("not_a_choice", what="access", value=repr(self.access), allowed=ACCESS)
        for name in ("listed", "approve"):
            if not isinstance(getattr(self, name), bool):
                raise GameError("not_a_flag", what=name)

    def to_dict(self) -> dict:
        return {"auth": self.auth, "access": self.access, "join_password_hash": self.join_password_hash,
                "invited": list(self.invited), "listed": self.listed, "approve": self.approve}

    @classmethod
    def from_dict(cls, data: dict) -> "AccessSettings":
        check_keys(data, {f.name for f in fields(cls)}, "settings.access")
        return cls(**{k: (tuple(v) if k == "invited" else v) for k, v in data.items()})

    def invites(self, address: str) -> bool:
        return address.lower() in self.invited

    @property
    def private(self) -> bool:
        """Unlisted or invite-only: a game that exists only for its players,
        its GM and its invited addresses (README, "Private games")."""
        return not self.listed or self.access == "invite"
