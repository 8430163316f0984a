"""What the judge knows of the big mail providers (``provider = "gmail"`` or
``"microsoft"`` in ``[inbound.imap]`` / ``[outbound.smtp]``): their IMAP and
SMTP servers, and their OAuth2 endpoints and scopes.

Sources: Google's "IMAP, POP, and SMTP" and "OAuth 2.0 for Mobile & Desktop
Apps" pages (the scope ``https://mail.google.com/`` covers IMAP and SMTP;
Google's device flow does not allow it, so Gmail is authorised with the
installed-app flow and a loopback redirect); Microsoft's "Authenticate an
IMAP, POP or SMTP connection using OAuth" (scopes
``https://outlook.office.com/IMAP.AccessAsUser.All`` and ``…/SMTP.Send``,
``offline_access`` for a refresh token; the device-code flow) — the same
servers and endpoints serve Microsoft 365 and Outlook.com accounts.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Provider:
    """``imap``/``smtp``: (host, port, security) of the provider's servers;
    ``scopes``: what the judge asks for; ``token_url``: where refresh tokens
    are exchanged (``{tenant}`` filled in for Microsoft); ``auth_url``: where
    the keeper signs in (installed-app flow); ``authority``: Microsoft's
    authority for :mod:`msal` (device-code flow)."""

    name: str
    title: str
    imap: tuple[str, int, str]
    smtp: tuple[str, int, str]
    scopes: tuple[str, ...]
    token_url: str
    auth_url: str = ""
    authority: str = ""
    flow: str = "device"            # how `judge mail authorize` gets the first token


PROVIDERS = {
    "gmail": Provider(
        "gmail", "Gmail (Google Workspace)",
        imap=("imap.gmail.com", 993, "ssl"), smtp=("smtp.gmail.com", 587, "starttls"),
        scopes=("https://mail.google.com/",),
        token_url="https://oauth2.googleapis.com/token",
        auth_url="https://accounts.google.com/o/oauth2/auth", flow="installed"),
    "microsoft": Provider(
        "microsoft", "Microsoft 365 / Outlook.com",
        imap=("outlook.office365.com", 993, "ssl"), smtp=("smtp.office365.com", 587, "starttls"),
        scopes=("https://outlook.office.com/IMAP.AccessAsUser.All", "https://outlook.office.com/SMTP.Send"),
        token_url="https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token",
        authority="https://login.microsoftonline.com/{tenant}", flow="device"),
}
"""The presets, by the name the config gives."""

NAMES = ("",) + tuple(PROVIDERS)
"""The values of a ``provider`` key ("": none, the host, port and security are given)."""
