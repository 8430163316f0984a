"""Game notices as mails: who receives a :class:`~judge.game.notices.Notice`
and in which language and name set, and the :class:`~judge.mail.reply.Reply`
requests the worker renders and composes (templates ``templates/mail/notices/``).

Recipients: a power's player gets the mail at its leader's address and at
the addresses of the advisors who get its mail (:attr:`Player.mailed`), in
the player's language; the GM at the address in
table ``gm``, in the language kept there; observers at theirs
(``Game.observers``); ``mailto:`` names a former player. One mail per address and notice, whatever the roles that
reach it (a player of two powers gets one results mail). No mail shows
another player's address unless the notice carries it (signed press in a game
that is not gunboat) or it lists the players (the start of a game that is not
gunboat: :func:`players`). Names are written in the reader's name set (table
``accounts``, ``SET NAMES``), else the game's (``names=``). Results, the
game's start and its end show the map (:mod:`.pictures`) as the reader
chose (``map``), else as the game's setting says.
"""

from __future__ import annotations

from ..config import LANGUAGES
from ..game.notices import GM, MAILTO, OBSERVERS, PLAYERS, Notice
from ..game.results import njudge_time, phase_data, rules_data
from ..text import Words
from ..text.reasons import SYSTEMS
from .pictures import for_reader, map_format, notice_pictures
from .reply import Reply

TEMPLATES = {
    "started": "clock", "deadline": "clock", "extended": "clock", "resumed": "clock", "outage": "clock",
    "rollback": "clock", "paused": "clock", "goes_on": "clock",
    "ejected": "players", "ejected_player": "players", "replacing": "players", "resigned": "players",
}
"""Notice kinds that share a template (the template tells them apart by ``kind``)."""

BY_ROLE = frozenset({"clock", "waiting"})
"""Templates whose words depend on the recipient's role (``role``); every
other notice is the same mail for every reader of one language, name set and
map format (and, in a gunboat game, for the GM apart): rendered once
(:attr:`Reply.shared`). ``tests/test_mail_shared_render.py`` keeps this true."""


def template_of(kind: str) -> str:
    return f"notices/{TEMPLATES.get(kind, kind)}.txt"


def recipients(notice: Notice, game, gm: dict, accounts: dict, default_lang: str) -> list[tuple[str, str, str]]:
    """``[(address, language, role)]`` for ``notice`` in ``game``; ``gm`` is the
    game's row of table ``gm``; ``accounts`` table ``accounts`` (address ->
    {language}). First role wins for an address reached twice."""
    out: dict[str, tuple[str, str]] = {}

    def add(address: str, lang: str, role: str) -> None:
        if address and address.lower() not in out:
            lang = (accounts.get(address) or {}).get("language") or lang
            out[address.lower()] = (address, lang if lang in LANGUAGES else default_lang, role)

    for role in notice.to:
        if role == GM:
            add(gm.get("address", ""), gm.get("language") or default_lang, GM)
        elif role == OBSERVERS:
            for address, lang in sorted(game.observers.items()):
                add(address, lang, OBSERVERS)
        elif role == PLAYERS:
            for power in game.map.powers:
                for address in game.players[power].mailed:
                    add(address, game.players[power].language, power)
        elif role.startswith(MAILTO):
            add(role[len(MAILTO):], notice.data.get("language", default_lang), role)
        else:
            for address in game.players[role].mailed:
                add(address, game.players[role].language, role)
    return [(a, lang, role) for a, lang, role in out.values()]


def notice_replies(notice: Notice, game, db, judge) -> list[Reply]:
    """The :class:`Reply` requests for ``notice`` (one per recipient).
    ``db``: the store or a staging (tables ``gm``, ``accounts``); ``judge``: the
    config's ``[judge]`` section. ``purpose`` carries the notice's key and the
    recipient's role, so Message-IDs are unique and stable."""
    gm = db.get("gm", game.name) or {}
    accounts = _Accounts(db)
    replies, words, maps = [], {}, {}
    phases = _phases(notice, game)
    for address, lang, role in recipients(notice, game, gm, accounts, judge.language):
        names = (accounts.get(address) or {}).get("names") or game.settings.names
        if (lang, names) not in words:
            words[(lang, names)] = Words(game.map_name, lang, names)
            maps[(lang, names)] = notice_pictures(notice, game, lang, names)
        fmt = map_format(game, accounts.get(address))
        template = template_of(notice.kind)
        # the notice's addressees in its key: notices of one kind and key may differ by them (each
        # late power's reminder or late notice names that power and its units)
        shared = "" if TEMPLATES.get(notice.kind, notice.kind) in BY_ROLE else \
            f"{notice.kind}:{notice.key}:{','.join(notice.to)}:{lang}:{names}:{fmt}:{hides_addresses(game, role)}"
        context = {"n": notice.data, "kind": notice.kind, "role": role, "w": words[(lang, names)],
                   "phases": phases, "tz": notice.data.get("timezone", "UTC"),
                   "judge_code": judge.address.partition("@")[0].upper(),
                   "judge_name": judge.name, "judge_address": judge.address, "njtime": njudge_time,
                   "players": players(game, role), "hidden": hides_addresses(game, role),
                   "rules": rules_data(game) if notice.kind == "started" else None, "systems": SYSTEMS}
        replies.append(Reply(purpose=f"{notice.kind}:{notice.key}:{role}", to=(address,),
                             template=template, lang=lang, context=context,
                             game=game.name, in_reply=False, shared=shared,
                             pictures=tuple(p for p in (for_reader(m, fmt) for m in maps[(lang, names)]) if p)))
    return replies


def hides_addresses(game, role: str) -> bool:
    """Whether a mail to ``role`` must not show players' addresses: in a
    gunboat game, to anyone but the GM."""
    return game.settings.press.anonymous and role != GM


def players(game, role: str) -> list[tuple[str, tuple[str, ...]]]:
    """``[(power, addresses)]`` of every power, as a mail to ``role`` may show
    them (no addresses when :func:`hides_addresses`)."""
    hidden = hides_addresses(game, role)
    return [(p, () if hidden else game.players[p].addresses) for p in game.map.powers]


def _phases(notice: Notice, game) -> list[dict]:
    """The data of the phases a results notice tells (``results/phase.txt``)."""
    if notice.kind != "results":
        return []
    return [phase_data(game, game.record(p)) for p in notice.data["phases"]]


class _Accounts:
    """``accounts`` rows read on demand (``.get(address)``)."""

    def __init__(self, db):
        self.db, self.cache = db, {}

    def get(self, address: str):
        if address not in self.cache:
            self.cache[address] = self.db.get("accounts", address)
        return self.cache[address]
