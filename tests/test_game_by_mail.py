"""Whole games by mail alone (issue 4 §6): a real Dovecot inbox read by the
judge over IMAP, results and notices sent through a real SMTP server
(aiosmtpd), deadlines fired by the scheduler with the clock injected.

The judge runs in this process (:class:`judge.daemon.Daemon` with a clock the
test moves); nothing is typed at a keyboard: every step is a mail or the
clock passing a deadline.
"""

from __future__ import annotations

import os
import time
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path

from mailserver.harness import (  # noqa: F401 - fixtures
    IMAP_PASSWORD, SmtpSink, dovecot, imap_client, imap_folder, wait_for, write_config,
)

from judge.storage import load_game
from judge.config import load_config
from judge.daemon import Daemon

UTC = timezone.utc
POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
GM = "gm@example.org"


def addr(power: str) -> str:
    return f"{power.lower()}@example.org"


class Clock:
    """The judge's clock: moved by the test."""

    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now


class Judge:
    """The judge in this process, its inbox (a Dovecot folder) and the SMTP
    sink its mail goes to."""

    def __init__(self, tmp_path: Path, dv, folder: str, sink: SmtpSink, clock: Clock):
        self.dv, self.folder, self.sink, self.clock = dv, folder, sink, clock
        cfg = write_config(tmp_path / "judge.toml", tmp_path / "data",
                           inbound={"transport": "imap", "imap": {
                               "host": dv.host, "port": dv.port, "security": "starttls", "cafile": dv.cafile,
                               "username": "judge", "folder": folder, "poll_interval": 0.1, "idle": False}},
                           outbound={"transport": "smtp", "backoff_base": 0.2,
                                     "smtp": {"host": "127.0.0.1", "port": sink.port, "security": "none"}},
                           # whole games at machine speed: every player writes many mails a minute,
                           # each to be answered on its own (fair queueing: test_mail_fairness.py)
                           extra="[scheduler]\nrescan_seconds = 0.2\n"
                                 "[senders]\nanswered_per_minute = 0\nlookup_seconds = 0\n")
        os.environ.setdefault("JUDGE_IMAP_PASSWORD", IMAP_PASSWORD)
        self.daemon = Daemon(load_config(cfg), clock=clock)
        self.n = 0

    def __enter__(self):
        self.daemon.start()
        return self

    def __exit__(self, *exc):
        self.daemon.stop()

    def send(self, frm: str, body: str, subject: str = "orders", charset: str = "utf-8") -> str:
        self.n += 1
        mid = f"<m{self.n}@example.org>"
        m = EmailMessage()
        m["From"], m["To"], m["Subject"], m["Message-ID"] = frm, "judge@example.test", subject, mid
        m.set_content(body, charset=charset)
        with imap_client(self.dv) as c:
            c.append(self.folder, m.as_bytes())
        return mid

    def mails(self) -> list:
        return self.sink.bodies()

    def wait(self, count: int, what: str, timeout: float = 30.0) -> list:
        """Wait until the sink holds ``count`` mails in all; returns the new ones."""
        before = getattr(self, "_seen", 0)
        wait_for(lambda: len(self.sink.messages) >= count, timeout, what=what)
        new = self.mails()[before:count]
        self._seen = count
        return new

    def advance(self, to: datetime) -> None:
        self.clock.now = to
        self.daemon.scheduler.rescan()


def by_to(mails) -> dict[str, list]:
    out: dict[str, list] = {}
    for m in mails:
        out.setdefault(str(m["To"]), []).append(m)
    return out


def titled(m, title: str) -> bool:
    """The mail's subject begins with ``title`` (English, as the catalogue's
    message id) in any language: the subject is in the reader's language,
    its tag (game, phase) the same in every one."""
    from judge.text.catalogue import LANGS, gettext
    return any(str(m["Subject"]).startswith(gettext(lang)(title) + " ") for lang in LANGS)


def results_for(mails, phase: str) -> dict[str, str]:
    """{address: text} of the results mails for ``phase``."""
    out = {}
    for m in mails:
        if titled(m, "Diplomacy results") and m["Subject"].endswith(phase):
            assert str(m["To"]) not in out, f"two results mails for {phase} to {m['To']}"
            out[str(m["To"])] = m.get_body(("plain",)).get_content().replace("\r\n", "\n")
    return out


class Game:
    """The mail of one game as the test sends and reads it."""

    def __init__(self, judge: Judge, name: str):
        self.j, self.name = judge, name

    def orders(self, power: str, text: str, charset: str = "utf-8") -> None:
        self.j.send(addr(power), f"SIGNON {self.name} pw-{power.lower()}\n{text}\n", charset=charset)


def expect(judge: Judge, n: int, what: str) -> list:
    """Exactly ``n`` more mails arrive (waits for them, then a little longer
    to see that no more come)."""
    mails = judge.wait(getattr(judge, "_seen", 0) + n, what)
    time.sleep(0.3)
    assert len(judge.sink.messages) == judge._seen, \
        f"{what}: more mails than expected: {[m['Subject'] for m in judge.mails()[judge._seen:]]}"
    return mails


EVERYONE = {addr(p) for p in POWERS} | {GM, "observer@example.org"}
T0 = datetime(2025, 3, 29, 19, 0, tzinfo=UTC)      # Saturday 20:00 in Paris; clocks go forward that night


def test_a_short_game_by_mail_with_every_results_mail_checked(tmp_path, dovecot, imap_folder):
    """Spring 1901 to the Winter 1901 adjustments by mail through Dovecot: a
    reminder, a late notice and an NMR (Italy in Spring, Germany in Winter),
    press, early processing, a retreat, builds; every results mail checked for
    every reader, in each reader's language; the first deadline crosses the
    spring-forward night and stays at 20:00 Paris time."""
    with SmtpSink() as sink, Judge(tmp_path, dovecot, imap_folder, sink, Clock(T0)) as j:
        g = Game(j, "g1")
        j.send(GM, "CREATE g1 gmsecret timezone=Europe/Paris movement=1d retreat=1d adjustment=1d "
                   "grace=12h reminders=1h\n")
        expect(j, 1, "created")
        j.send("observer@example.org", "OBSERVE g1\n")
        expect(j, 1, "observing")
        for p in POWERS:
            if p == "Russia":
                j.send(addr(p), "加入 g1 pw-russia 俄国\n")
            elif p == "Turkey":
                j.send(addr(p), "SET LANGUAGE zh-hant\nJOIN g1 pw-turkey Turkey\n")
            else:
                j.send(addr(p), f"JOIN g1 pw-{p.lower()} {p}\n")
            if p != "Turkey":
                expect(j, 1, f"{p} joined")
        started = expect(j, 1 + 9, "Turkey joined and the game started")
        starts = [m for m in started if titled(m, "Diplomacy game start")]
        assert {str(m["To"]) for m in starts} == EVERYONE
        france_start = next(m for m in starts if m["To"] == addr("France")).get_body(("plain",)).get_content() \
            .replace("\r\n", "\n")
        # 24 wall-clock hours across the spring-forward night: 20:00 Paris, 18:00 UTC (23 real hours)
        assert "Sun 30 Mar 2025 20:00 Europe/Paris (UTC+02:00) = Sun 30 Mar 2025 18:00 UTC" in france_start
        assert ":: Deadline: S1901M Sun Mar 30 2025 20:00:00 +0200" in france_start

        # ---- Spring 1901: everybody but Italy; press -------------------------------------
        spring = {
            "France": "A Par - Bur\nA Mar - Spa\nF Bre - Mao",
            "Germany": "A Mun - Ruh\nA Ber - Mun\nF Kie - Den",
            "England": "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor",
            "Austria": "A Vie - Gal\nA Bud - Ser\nF Tri - Alb",
            "Russia": "莫斯科陆军移动到乌克兰\n塞瓦斯托波尔舰队移动到黑海\n圣彼得堡南岸舰队移动到波的尼亚湾\n华沙陆军防守",
            "Turkey": "A Con - Bul\nA Smy - Arm\nF Ank - Bla",
        }
        for p, text in spring.items():
            g.orders(p, text)
            expect(j, 1, f"{p}'s confirmation")
        g.orders("France", "PRESS TO Germany\nShall we share the Low Countries?\nENDPRESS")
        press = expect(j, 3, "the confirmation and press to Germany and the GM")
        to = {str(m["To"]): m for m in press if titled(m, "Diplomacy press")}
        assert set(to) == {addr("Germany"), GM}
        assert "Press from France (france@example.org) to Germany" in to[addr("Germany")].get_content()
        g.orders("England", "BROADCAST\nEngland wants peace.\nENDPRESS")
        broadcast = expect(j, 1 + 6 + 2, "a broadcast to every other player, the observer and the GM")
        assert {str(m["To"]) for m in broadcast if titled(m, "Diplomacy press")} == EVERYONE - {addr("England")}

        j.advance(datetime(2025, 3, 30, 17, 0, tzinfo=UTC))     # one hour before the deadline
        [reminder] = expect(j, 1, "a reminder to Italy only")
        assert reminder["To"] == addr("Italy") and "Diplomacy reminder g1 S1901M" == reminder["Subject"]
        assert "Units still without orders: F Nap, A Rom, A Ven." in reminder.get_content()

        j.advance(datetime(2025, 3, 30, 18, 0, tzinfo=UTC))     # the deadline
        late = expect(j, 2, "a late notice to Italy and to the GM")
        assert {str(m["To"]) for m in late} == {addr("Italy"), GM}
        italy_late = next(m for m in late if m["To"] == addr("Italy")).get_content()
        assert "Mon 31 Mar 2025 08:00 Europe/Paris (UTC+02:00) = Mon 31 Mar 2025 06:00 UTC" in italy_late

        j.advance(datetime(2025, 3, 31, 6, 0, tzinfo=UTC))      # the end of the grace period
        results = results_for(expect(j, 9, "S1901M results to everyone"), "S1901M")
        assert set(results) == EVERYONE
        en = results[addr("France")]
        assert en.startswith(":: Judge: JUDGE  Game: g1  Variant: Standard\n"
                             ":: Deadline: F1901M Tue Apr 01 2025 08:00:00 +0200\n")
        for line in ("Game g1: Spring 1901 Movement (S1901M)", "France: A Par - Bur.",
                     "Turkey: F Ank - Bla.  (bounced)", "Russia: F Sev - Bla.  (bounced)",
                     "Italy: F Nap H.  (no order)",
                     "No orders were received for S1901M from Italy: the game's defaults applied.",
                     "The next phase of 'g1' will be Fall 1901 Movement (F1901M).",
                     "The deadline for orders will be Tue 01 Apr 2025 08:00 Europe/Paris (UTC+02:00) "
                     "= Tue 01 Apr 2025 06:00 UTC."):
            assert line in en, line
        assert results[GM] == en and results["observer@example.org"] == en
        assert "俄国" in results[addr("Russia")] and "S1901M 未收到意大利的命令" in results[addr("Russia")]
        assert "“g1”的下一回合：1901年秋季移动回合（F1901M）。" in results[addr("Russia")]
        assert "「g1」的下一回合：1901年秋季移動回合（F1901M）。" in results[addr("Turkey")]
        assert "Movement" not in results[addr("Russia")] and "bounced" not in results[addr("Russia")]

        # ---- Fall 1901: all orders in -> processed at once; a French army dislodged ------
        fall = {
            "France": "A Bur H\nA Spa H\nF Mao - Por",
            "Germany": "A Ruh - Bur\nA Mun S A Ruh - Bur\nF Den H",
            "England": "F Nwg - Nwy\nF Nth S F Nwg - Nwy\nA Yor H",
            "Austria": "A Ser H\nF Alb - Gre\nA Gal H",
            "Italy": "A Ven H\nA Rom H\nF Nap H",
            "Russia": "A Ukr - Rum\nF Bot - Swe\nA War H\nF Sev H",
            "Turkey": "A Bul H\nA Arm H\nF Ank H",
        }
        for p, text in fall.items():
            g.orders(p, text)
            if p != "Turkey":
                expect(j, 1, f"{p}'s Fall confirmation")
        results = results_for(expect(j, 1 + 9, "the last confirmation and F1901M results"), "F1901M")
        en = results[addr("France")]
        for line in ("Germany: A Ruh - Bur.", "France: A Bur H.  (dislodged)",
                     "Dislodged units:", "France: A Bur may retreat to",
                     "The next phase of 'g1' will be Fall 1901 Retreat (F1901R)."):
            assert line in en, line
        assert set(results) == EVERYONE

        # ---- Fall 1901 retreats: France alone orders, processed at once -----------------
        g.orders("France", "A Bur - Par")
        results = results_for(expect(j, 1 + 9, "F1901R results"), "F1901R")
        en = results[addr("France")]
        for line in ("France: A Bur - Par.", "Supply centres:", "France:   5  Brest, Marseilles, Paris, Portugal, Spain",
                     "Adjustments due:", "France: builds 2", "Austria: builds 2",
                     "The next phase of 'g1' will be Winter 1901 Adjustment (W1901A)."):
            assert line in en, line

        # ---- Winter 1901: builds; Germany sends nothing -----------------------------------
        winter = {"France": "Build F Bre\nBuild A Mar", "Austria": "Build A Vie\nBuild A Bud",
                  "England": "Build F Lon", "Russia": "Build A Mos\nBuild F StP/nc", "Turkey": "Build A Con"}
        for p, text in winter.items():
            g.orders(p, text)
            expect(j, 1, f"{p}'s builds")
        deadline = datetime.fromisoformat(j.daemon.store.get("games", "g1")["schedule"]["deadline"])
        assert deadline == datetime(2025, 4, 1, 6, 0, tzinfo=UTC)     # a day after the retreats
        j.advance(deadline)
        late = expect(j, 2, "a late notice to Germany and the GM")
        assert {str(m["To"]) for m in late} == {addr("Germany"), GM}
        j.advance(deadline + timedelta(hours=12))
        results = results_for(expect(j, 9, "W1901A results"), "W1901A")
        en = results[addr("France")]
        for line in ("France: Build F Bre.", "France: Build A Mar.", "Germany: 1 build not used",
                     "No orders were received for W1901A from Germany", ":: Deadline: S1902M"):
            assert line in en, line
    state = j.daemon.store.get("games", "g1")
    assert state["position"]["phase"] == "S1902M"
    assert state["schedule"]["missed"] == {"Italy": ["S1901M"], "Germany": ["W1901A"]}


def test_seven_players_from_signon_to_winter_1902_by_mail_alone(tmp_path, dovecot, imap_folder):
    """Seven players sign on and play two years by mail: phases end early when
    every order is in, a late player is told and still counts within the grace
    period, another misses Fall 1902 and the defaults stand in, a retreat,
    builds in both winters. The judge's clock only moves to pass deadlines."""
    start = datetime(2025, 6, 2, 10, 0, tzinfo=UTC)
    readers = {addr(p) for p in POWERS} | {GM}

    def phase(orders: dict[str, str], name: str, early: bool = True) -> dict[str, str]:
        """Send every power's orders; with ``early`` the last one ends the phase."""
        for i, (p, text) in enumerate(orders.items()):
            g.orders(p, text)
            last = early and i == len(orders) - 1
            got = expect(j, 1 + (8 if last else 0), f"{name}: {p}'s orders")
        return results_for(got, name) if early else {}

    def deadline() -> datetime:
        return datetime.fromisoformat(j.daemon.store.get("games", "g7")["schedule"]["deadline"])

    with SmtpSink() as sink, Judge(tmp_path, dovecot, imap_folder, sink, Clock(start)) as j:
        g = Game(j, "g7")
        j.send(GM, "CREATE g7 gmsecret movement=2d retreat=1d adjustment=1d grace=1d reminders=none\n")
        expect(j, 1, "created")
        for p in POWERS[:-1]:
            j.send(addr(p), f"JOIN g7 pw-{p.lower()} {p}\n")
            expect(j, 1, f"{p} joined")
        j.send(addr("Turkey"), "JOIN g7 pw-turkey\n")          # the last free power
        expect(j, 1 + 8, "the game starts")
        assert deadline() == start + timedelta(days=2)

        r = phase({"France": "A Par - Bur\nA Mar - Spa\nF Bre - Mao",
                   "Germany": "A Mun - Ruh\nA Ber - Mun\nF Kie - Den",
                   "England": "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor",
                   "Austria": "A Vie - Gal\nA Bud - Ser\nF Tri - Alb",
                   "Russia": "A Mos - Ukr\nF Sev - Bla\nF StP/sc - Bot\nA War H",
                   "Turkey": "A Con - Bul\nA Smy - Arm\nF Ank - Bla",
                   "Italy": "A Ven H\nA Rom H\nF Nap H"}, "S1901M")
        assert set(r) == readers and "processed" not in r[GM]
        assert deadline() == start + timedelta(days=2)          # processed early: a new 2-day phase

        fall = {"France": "A Bur H\nA Spa H\nF Mao - Por", "Germany": "A Ruh - Bur\nA Mun S A Ruh - Bur\nF Den H",
                "England": "F Nwg - Nwy\nF Nth S F Nwg - Nwy\nA Yor H", "Austria": "A Ser H\nF Alb - Gre\nA Gal H",
                "Russia": "A Ukr - Rum\nF Bot - Swe\nA War H\nF Sev H", "Turkey": "A Bul H\nA Arm H\nF Ank H"}
        phase(fall, "F1901M", early=False)                     # Italy is late
        j.advance(deadline())
        late = expect(j, 2, "a late notice to Italy and the GM")
        assert {str(m["To"]) for m in late} == {addr("Italy"), GM}
        j.advance(deadline() + timedelta(hours=3))
        g.orders("Italy", "A Ven H\nA Rom H\nF Nap H")           # within the grace period: it counts
        r = results_for(expect(j, 1 + 8, "Italy's orders end the phase"), "F1901M")
        assert "Italy: F Nap H." in r[GM] and "No orders were received" not in r[GM]
        assert "France: A Bur H.  (dislodged)" in r[GM]

        r = phase({"France": "A Bur - Par"}, "F1901R")
        assert "France: builds 2" in r[GM] and "Germany: builds 1" in r[GM]
        r = phase({"France": "Build F Bre\nBuild A Mar", "Austria": "Build A Vie\nBuild A Bud",
                   "England": "Build F Lon", "Russia": "Build A Mos\nBuild F StP/nc", "Turkey": "Build A Con",
                   "Germany": "Build A Ber"}, "W1901A")
        assert "Germany: Build A Ber." in r[GM] and "The next phase of 'g7' will be Spring 1902 Movement (S1902M)." in r[GM]

        holds = {"France": "A Par H\nA Spa H\nF Por H\nF Bre H\nA Mar H",
                 "England": "F Nwy H\nF Nth H\nA Yor H\nF Lon H",
                 "Austria": "A Ser H\nF Gre H\nA Gal H\nA Vie H\nA Bud H",
                 "Russia": "A Rum H\nF Swe H\nA War H\nF Sev H\nA Mos H\nF StP H",
                 "Turkey": "A Bul H\nA Arm H\nF Ank H\nA Con H"}
        r = phase({"Germany": "A Bur - Bel\nA Ber - Kie\nA Mun H\nF Den H",
                   "Italy": "F Nap - Ion\nA Ven H\nA Rom H", **holds}, "S1902M")
        assert "Germany: A Bur - Bel." in r[GM] and "Italy: F Nap - Ion." in r[GM]

        phase({"Germany": "A Bel H\nA Kie H\nA Mun H\nF Den H", "Italy": "F Ion - Tun\nA Ven H\nA Rom H",
               **{p: t for p, t in holds.items() if p != "Turkey"}}, "F1902M", early=False)  # Turkey misses
        j.advance(deadline())
        expect(j, 2, "a late notice to Turkey and the GM")
        j.advance(deadline() + timedelta(days=1))
        r = results_for(expect(j, 8, "F1902M results at the end of grace"), "F1902M")
        assert "No orders were received for F1902M from Turkey" in r[GM]
        assert "Germany: builds 1" in r[GM] and "Italy: builds 1" in r[GM]

        r = phase({"Germany": "Build F Ber", "Italy": "Build F Nap"}, "W1902A")
        assert set(r) == readers
        assert "Germany: Build F Ber." in r[GM] and "Italy: Build F Nap." in r[GM]
        assert ":: Deadline: S1903M" in r[addr("Turkey")]
    state = load_game(j.daemon.store, "g7")
    assert [h.phase for h in state.history] == ["S1901M", "F1901M", "F1901R", "W1901A", "S1902M",
                                                       "F1902M", "W1902A"]
    assert j.daemon.store.get("games", "g7")["schedule"]["missed"] == {"Turkey": ["F1902M"]}
