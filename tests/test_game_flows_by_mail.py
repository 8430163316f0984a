"""Whole game-management flows by mail, as a GM and seven players live them
(issue 13): each test plays its flow with real mails through the judge's
worker (:mod:`mailjudge`) and checks every mail the judge sends at each step
— who gets one and its subject — and what the mails say."""

from __future__ import annotations

from datetime import timedelta

import pytest

from judge.game import Game
from judge.rules.position import Position, Unit
from judge.storage import load_game, save_game
from mailjudge import GM, POWERS, T0, Judge, addr, each, sent, started, to

EVERYONE = [addr(p) for p in POWERS] + [GM]


@pytest.fixture
def judge(tmp_path):
    return started(tmp_path, "CREATE g gmsecret grace=0 reminders=none")


def signon(power: str) -> str:
    return f"SIGNON g pw-{power.lower()}\n"


def put_position(judge: Judge, phase: str, units: dict[str, tuple[str, str]],
                 owners: dict[str, str] | None = None, keep: bool = True) -> Game:
    """Set the board of game g (``units``: ``{province: (power, "A"/"F")}``,
    added to the units of the start, or alone with ``keep=False``), as a GM
    running a scenario would; stored through the one commit path."""
    with judge.store.transaction() as tx:
        game = load_game(tx, "g")
        board = dict(game.position.units) if keep else {}
        board.update({prov: Unit(p, t, prov) for prov, (p, t) in units.items()})
        sc = dict(game.position.sc_owners)
        sc.update(owners or {})
        game.position = Position(phase, board, sc)
        save_game(tx, game)
    return game


# ---- point 10: an explicit "via convoy" with no fleet able to carry it ----------------
def test_via_convoy_to_an_adjacent_province_without_fleets_is_refused_and_the_unit_can_be_supported(judge):
    """``A Bur - Gas via convoy``: no fleet could carry it (Burgundy has no coast),
    so the order is illegal (DATC 6.D.32, 4.E.1-2) and refused when it arrives,
    with the reason; A Bur holds and the support to hold it stands."""
    put_position(judge, "S1901M", {"bur": ("Germany", "A"), "pic": ("France", "A")})
    mails = judge.mail(addr("Germany"), signon("Germany") + "A Bur - Gas via convoy\nA Mun S A Bur\n")
    assert sent(mails) == [(addr("Germany"), "Re: cmd")]
    text = to(mails)[addr("Germany")][0]
    assert "> A Bur - Gas via convoy\n    no fleets stand where they could convoy an army from Burgundy " \
           "to Gascony" in text
    assert "A Mun S A Bur" in text
    mails = judge.mail(addr("France"), signon("France") + "A Par - Bur\nA Pic S A Par - Bur\n")
    assert sent(mails) == [(addr("France"), "Re: cmd")]
    mails = judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    assert sent(mails) == sorted([(GM, "Re: cmd")] + each(EVERYONE, "Diplomacy results g S1901M"))
    results = to(mails)[addr("Italy")][0]
    assert "France: A Par - Bur.  (bounced)" in results and "Germany: A Mun S A Bur.\n" in results
    assert "Germany: A Bur H.  (no order)" in results
    game = judge.game()
    assert game["position"]["units"]["bur"] == ["Germany", "A", "bur"]        # held: 2 against 2
    assert game["position"]["phase"] == "F1901M" and not game["position"]["dislodged"]


# ---- point 2: a standing build or disband list plus partial orders ------------------------
LITTLE_BOARD = {"lon": ("England", "F"), "par": ("France", "A"), "vie": ("Austria", "A"),
                "mos": ("Russia", "A"), "con": ("Turkey", "A")}


def test_partial_adjustment_orders_take_the_rest_from_the_standing_list_as_the_reply_promises(judge):
    """Italy may build 3 and gave a build list with its Fall orders; in Winter it
    writes one build: the reply says "1 ordered, the rest from the build list",
    and the list gives the other two. Germany must remove 3, gave a disband
    list, writes one removal: the list gives the other two (none to civil
    disorder)."""
    units = dict(LITTLE_BOARD, tun=("Italy", "A"), gre=("Italy", "A"), smy=("Italy", "A"),
                 ber=("Germany", "A"), mun=("Germany", "A"), kie=("Germany", "F"), sil=("Germany", "A"),
                 pru=("Germany", "A"), boh=("Germany", "A"))
    put_position(judge, "F1901M", units, {"tun": "Italy", "gre": "Italy", "smy": "Italy"}, keep=False)
    mails = judge.mail(addr("Italy"), signon("Italy") + "优先建造：那不勒斯舰队、罗马陆军、威尼斯陆军\n")
    assert sent(mails) == [(addr("Italy"), "Re: cmd")]
    mails = judge.mail(addr("Germany"), signon("Germany") + "优先解散：西利西亚陆军、柏林陆军、波西米亚陆军\n")
    assert sent(mails) == [(addr("Germany"), "Re: cmd")]
    mails = judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    assert sent(mails) == sorted([(GM, "Re: cmd")] + each(EVERYONE, "Diplomacy results g F1901M"))
    assert judge.game()["position"]["phase"] == "W1901A"

    mails = judge.mail(addr("Italy"), signon("Italy") + "Build F Nap\n")
    assert sent(mails) == [(addr("Italy"), "Re: cmd")]
    assert "Italy may build 3: 1 ordered, the rest from the build list." in to(mails)[addr("Italy")][0]
    mails = judge.mail(addr("Germany"), signon("Germany") + "Remove A Pru\n")
    assert sent(mails) == [(addr("Germany"), "Re: cmd")]
    assert "Germany must remove 3 units: 1 ordered, the rest from the disband list." \
        in to(mails)[addr("Germany")][0]
    mails = judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    assert sent(mails) == sorted([(GM, "Re: cmd")] + each(EVERYONE, "Diplomacy results g W1901A"))
    results = to(mails)[addr("Turkey")][0]
    assert "Germany: Disband A Pru.\nGermany: Disband A Sil.  (from standing list)\n" \
           "Germany: Disband A Ber.  (from standing list)\nItaly: Build F Nap.\n" \
           "Italy: Build A Rom.  (from standing list)\nItaly: Build A Ven.  (from standing list)\n" in results
    assert "civil disorder" not in results
    board = Game.from_dict(judge.game(), lambda i: {}).position.units
    assert sorted(u.location for u in board.values() if u.power == "Italy") == \
        ["gre", "nap", "rom", "smy", "tun", "ven"]
    assert sorted(u.location for u in board.values() if u.power == "Germany") == ["boh", "kie", "mun"]


# ---- point 1: ROLLBACK ------------------------------------------------------------------------
HOLD = {"Austria": "A Vie H\nA Bud H\nF Tri H", "England": "F Lon H\nF Edi H\nA Lvp H",
        "France": "F Bre H\nA Par H\nA Mar H", "Germany": "F Kie H\nA Ber H\nA Mun H",
        "Italy": "F Nap H\nA Rom H\nA Ven H", "Russia": "F StP/sc H\nA Mos H\nA War H\nF Sev H",
        "Turkey": "F Ank H\nA Con H\nA Smy H"}


def ids(mails, subject: str) -> set[str]:
    return {str(m["Message-ID"]) for m in mails if str(m["Subject"]) == subject}


OVER_1901 = "Diplomacy game over g F1901M"


def test_rollback_of_a_finished_game_waits_for_orders_again_and_mails_every_new_result(judge):
    """The game ends after Fall 1901 (end_year=1901); the GM rolls it back to
    F1901M. Nothing is adjudicated at once, though every order restored is
    complete: a player may change his order (the game is not over), and the
    phase is adjudicated at its new deadline — or as soon as every power has
    sent its orders again — with results and a final report mailed anew (new
    Message-IDs, so no mail is taken for one sent the first time)."""
    judge.mail(GM, "SIGNON g gmsecret\nSET end_year=1901\n")
    judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n")                    # S1901M: everyone holds
    for p in POWERS:
        judge.mail(addr(p), signon(p) + HOLD[p] + "\n")
    first = judge.after_mail()                                         # early processing
    assert sent(first) == sorted(each(EVERYONE, "Diplomacy results g F1901M")
                                 + each(EVERYONE, OVER_1901))
    assert judge.game()["ending"]["result"]["kind"] == "most_centres_at_phase"

    judge.now += timedelta(hours=1)
    mails = judge.mail(GM, "SIGNON g gmsecret\nROLLBACK F1901M\n")
    assert sent(mails) == sorted([(GM, "Re: cmd")] + each(EVERYONE, "Diplomacy rollback g F1901M"))
    notice = to(mails)[addr("France")][0]
    assert "the orders written for this phase stand and may be changed" in notice
    assert "The phase is adjudicated at the deadline, or earlier once every power has sent its orders " \
           "again (to keep yours as they stand, send SET NOWAIT)." in notice
    assert "The deadline for orders is Wed 08 Jan 2025 13:00 UTC." in notice
    assert judge.after_mail() == []                                    # not processed on the orders restored
    game = judge.game()
    assert game["ending"]["result"] is None and game["position"]["phase"] == "F1901M"

    judge.now += timedelta(seconds=10)
    mails = judge.mail(addr("France"), signon("France") + "A Par - Bur\n")
    assert sent(mails) == [(addr("France"), "Re: cmd")]
    assert "A Par - Bur" in to(mails)[addr("France")][0] and "is over" not in to(mails)[addr("France")][0]
    # the answer says whose restored orders the phase still waits for (not "every power's orders are in")
    waiting = [line for line in to(mails)[addr("France")][0].splitlines() if "not yet confirmed" in line]
    assert len(waiting) == 1 and "Italy" in waiting[0] and "France" not in waiting[0]
    assert "Every power's orders are in." not in to(mails)[addr("France")][0]
    assert judge.after_mail() == []
    mails = judge.mail(addr("Italy"), signon("Italy") + "SET NOWAIT\n")    # keeps its orders as they stand
    assert sent(mails) == [(addr("Italy"), "Re: cmd")] and judge.after_mail() == []

    judge.now = T0 + timedelta(days=2, hours=1)                        # the new deadline
    again = judge.work(phase="F1901M")
    assert sent(again) == sorted(each(EVERYONE, "Diplomacy results g F1901M")
                                 + each(EVERYONE, OVER_1901))
    assert not ids(again, "Diplomacy results g F1901M") & ids(first, "Diplomacy results g F1901M")
    assert not ids(again, OVER_1901) & ids(first, OVER_1901)
    assert "France: A Par - Bur." in to(again)[addr("England")][0]

    # rolled back once more: every power sends its orders again, the last one ends the phase early
    mails = judge.mail(GM, "SIGNON g gmsecret\nROLLBACK F1901M\n")
    assert sent(mails) == sorted([(GM, "Re: cmd")] + each(EVERYONE, "Diplomacy rollback g F1901M"))
    for p in POWERS:
        assert judge.after_mail() == []
        judge.mail(addr(p), signon(p) + HOLD[p] + "\n")
    third = judge.after_mail()
    assert sent(third) == sorted(each(EVERYONE, "Diplomacy results g F1901M")
                                 + each(EVERYONE, OVER_1901))
    assert not ids(third, "Diplomacy results g F1901M") & (ids(first, "Diplomacy results g F1901M")
                                                          | ids(again, "Diplomacy results g F1901M"))


# ---- point 3: several rulings in one mail ---------------------------------------------------
def test_several_rulings_in_one_mail_give_one_final_report_with_all_of_them(judge):
    """After the end, ``PASSIVE Turkey 5`` and ``AWARD DIPLOMACY England`` in one
    mail: everyone gets ONE corrected final report holding both rulings, and
    the GM's reply says so truly for each line."""
    mails = judge.mail(GM, "SIGNON g gmsecret\nEND\n")
    assert sent(mails) == sorted([(GM, "Re: cmd")] + each(EVERYONE, "Diplomacy game over g S1901M"))
    judge.now += timedelta(hours=1)
    mails = judge.mail(GM, "SIGNON g gmsecret\nPASSIVE Turkey 5\nAWARD DIPLOMACY England\n")
    assert sent(mails) == sorted([(GM, "Re: cmd")] + each(EVERYONE, "Diplomacy game over g S1901M"))
    report = to(mails)[addr("Russia")][0]
    assert "Turkey: forfeits all points, coins and awards and is fined 5 points" in report
    assert "Best diplomacy award: England (named by the GM)" in report
    assert "England: 3 SCs, 3 points, 3200k coins" in report
    reply = to(mails)[GM][0]
    assert "the player of Turkey is ruled passive" in reply and \
        "The final report goes to everyone once, after the last ruling of this mail; it includes this one." in reply
    assert "the best diplomacy award goes to England" in reply and \
        "Everyone is sent the final report again, with every ruling of this mail." in reply


# ---- point 4: SET ADDRESS and advisors ------------------------------------------------------
NEW, ADV, QUIET = "new-france@example.org", "adv@example.org", "quiet@example.org"


def test_set_address_moves_the_mail_and_the_leader_chooses_advisors_who_score_nothing(judge):
    mails = judge.mail(addr("France"), signon("France") + f"SET ADDRESS {NEW}\n")
    assert sent(mails) == sorted([(NEW, "Re: cmd"), (addr("France"), "Re: cmd")])
    assert f"now goes to {NEW} (it was {addr('France')}, which gets no more mail for this game)" \
        in to(mails)[addr("France")][0]
    mails = judge.mail(NEW, signon("France") + f"ADVISOR ADD {ADV}\n幕僚 添加 {QUIET} 不收信\n")
    assert sent(mails) == [(ADV, "Diplomacy advisor g"), (NEW, "Re: cmd"), (QUIET, "Diplomacy advisor g")]
    assert "has made you an advisor of the power.\nYou receive the power's mail" in to(mails)[ADV][0]
    assert "You do not receive the power's mail" in to(mails)[QUIET][0]
    reply = to(mails)[NEW][0]
    assert f"  {ADV}\n" in reply and f"  {QUIET}   (gets no mail of the power)" in reply

    mails = judge.mail(ADV, "SIGNON g\nADVISOR ADD friend@example.org\nA Par - Bur\n")   # by his address
    assert sent(mails) == [(ADV, "Re: cmd"), (NEW, "Re: cmd")]       # the leader is copied, as ever
    assert "Error: only the leader of France may do that" in to(mails)[ADV][0]
    assert "A Par - Bur" in to(mails)[ADV][0]                          # advisors help with the orders
    mails = judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    results = [a for a, s in sent(mails) if s == "Diplomacy results g S1901M"]
    assert sorted(results) == sorted([a for a in EVERYONE if a != addr("France")] + [NEW, ADV])

    mails = judge.mail(NEW, signon("France") + f"幕僚 删除 {ADV}\n")
    assert sent(mails) == [(ADV, "Diplomacy advisor g"), (NEW, "Re: cmd")]
    assert "has removed you from the power's advisors" in to(mails)[ADV][0]
    mails = judge.mail(GM, "SIGNON g gmsecret\nEND\n")
    over = [a for a, s in sent(mails) if s.startswith("Diplomacy game over")]
    assert sorted(over) == sorted([a for a in EVERYONE if a != addr("France")] + [NEW])
    report = to(mails)[NEW][0]
    assert "\nAdvisors score nothing: France 1.\n" in report
    from judge.game.scores import person_scores
    people = person_scores(Game.from_dict(judge.game(), lambda i: {}))
    assert addr("France") not in people and people[QUIET].points == 0 and people[NEW].coins == 2000


# ---- point 5: the award vote window -----------------------------------------------------------
def test_the_award_vote_closes_at_its_deadline_and_its_results_are_announced_once(judge):
    """Leaders vote for the awards (``VOTE``, and ``投票`` in Chinese); until the
    vote closes nobody is shown an award and no vote re-sends the report. At
    the window's end (72 h after the end) everyone gets the report with the
    awards, once; later votes are refused."""
    judge.mail(GM, "SIGNON g gmsecret\nSET awards=vote\n")
    judge.now += timedelta(hours=1)
    mails = judge.mail(GM, "SIGNON g gmsecret\nEND\n")
    assert sent(mails) == sorted([(GM, "Re: cmd")] + each(EVERYONE, "Diplomacy game over g S1901M"))
    report = to(mails)[addr("Italy")][0]
    assert "Best strategy award: the leaders vote until Thu 09 Jan 2025 13:00 UTC (VOTE BEST STRATEGY|DIPLOMACY " \
           "POWER); the result is announced then" in report
    assert "1200k" not in report and "3200k" not in report
    wakeup = judge.store.get("wakeups", "g")
    assert wakeup["when"] == "2025-01-09T13:00:00+00:00"

    mails = judge.mail(addr("England"), signon("England") + "VOTE BEST STRATEGY France\nVOTE BEST DIPLOMACY Italy\n")
    assert sent(mails) == [(addr("England"), "Re: cmd")]              # two votes, no report to anyone
    reply = to(mails)[addr("England")][0]
    assert "England votes France for the best strategy award." in reply and \
        "England votes Italy for the best diplomacy award." in reply
    assert "The vote closes Thu 09 Jan 2025 13:00 UTC, or once every leader has voted for both awards; " \
           "the awards are announced then, once." in reply
    mails = judge.mail(addr("Germany"), signon("Germany") + "投票 最佳战略 法国\n投票 最佳外交奖英国\n")
    assert sent(mails) == [(addr("Germany"), "Re: cmd")]
    # a mail in Chinese is answered in Chinese, whatever language Germany joined in (issue 22)
    assert "德国投票选法国为最佳战略奖得主。\n" in to(mails)[addr("Germany")][0]
    assert "德国投票选英国为最佳外交奖得主。\n" in to(mails)[addr("Germany")][0]
    judge.mail(addr("Italy"), signon("Italy") + "VOTE STRATEGY Germany\n")
    mails = judge.mail(GM, "SIGNON g gmsecret\nAWARD STRATEGY France\n")
    assert sent(mails) == [(GM, "Re: cmd")] and "once the vote has closed" in to(mails)[GM][0]
    assert judge.work(phase="S1901M") == []                            # not due yet

    judge.now = T0 + timedelta(hours=73)                               # the window's end
    mails = judge.work(phase="S1901M")
    assert sent(mails) == each(sorted(EVERYONE), "Diplomacy game over g S1901M")
    report = to(mails)[addr("Turkey")][0]
    assert "Best strategy award: France (votes: France 2, Germany 1)" in report
    assert "Best diplomacy award: to be named by the GM (votes: England 1, Italy 1; tied: England and Italy)" in report
    assert "France: 3 SCs, 3 points, 3200k coins" in report
    assert judge.work(phase="S1901M") == []                            # announced once
    mails = judge.mail(addr("Russia"), signon("Russia") + "VOTE BEST STRATEGY Turkey\n")
    assert sent(mails) == [(addr("Russia"), "Re: cmd")]
    assert "the award vote of game g has closed" in to(mails)[addr("Russia")][0]
    mails = judge.mail(GM, "SIGNON g gmsecret\nAWARD DIPLOMACY Italy\n")   # the GM breaks the tie
    assert sent(mails) == sorted([(GM, "Re: cmd")] + each(EVERYONE, "Diplomacy game over g S1901M"))
    assert "Best diplomacy award: Italy (votes: England 1, Italy 1; tied: England and Italy; named by the GM)" \
        in to(mails)[addr("Austria")][0]


def test_the_award_vote_closes_when_every_leader_has_voted(judge):
    judge.mail(GM, "SIGNON g gmsecret\nSET awards=vote\n")
    judge.mail(GM, "SIGNON g gmsecret\nEND\n")
    for p in POWERS:
        strategy, diplomacy = ("France" if p == "England" else "England"), ("Italy" if p == "France" else "France")
        mails = judge.mail(addr(p), signon(p) + f"VOTE BEST STRATEGY {strategy}\nVOTE BEST DIPLOMACY {diplomacy}\n")
        if p != POWERS[-1]:
            assert sent(mails) == [(addr(p), "Re: cmd")]
    assert sent(mails) == sorted([(addr("Turkey"), "Re: cmd")] + each(EVERYONE, "Diplomacy game over g S1901M"))
    assert "Every leader has voted for both awards: the vote is closed and everyone is sent the final report " \
           "with the awards." in to(mails)[addr("Turkey")][0]
    [report] = to(mails)[GM]
    assert "Best diplomacy award: France (votes: France 6, Italy 1)" in report
    assert "Best strategy award: England (votes: England 6, France 1)" in report
    assert judge.store.get("wakeups", "g") is None                     # nothing more is due


# ---- point 7: NoNMR, and reminders when the GM moves a deadline -------------------------------
def test_a_nonmr_game_waits_at_the_deadline_for_the_orders_of_a_late_or_vacant_power(judge):
    """``nonmr=yes`` (njudge's NoNMR): Italy has no player and Turkey sends no
    orders; at the deadline nothing is adjudicated, everyone is told the game
    waits. Turkey's late orders count; a replacement takes Italy and gets a
    fresh deadline; once Italy's orders are in, the phase is adjudicated."""
    judge.mail(GM, "SIGNON g gmsecret\nSET nonmr=yes\n")
    judge.mail(GM, "SIGNON g gmsecret\nEJECT Italy\n")
    for p in POWERS:
        if p not in ("Italy", "Turkey"):
            judge.mail(addr(p), signon(p) + HOLD[p] + "\n")
            assert judge.after_mail() == []                # Italy and Turkey hold it up
    judge.now = T0 + timedelta(days=2)                     # the deadline
    mails = judge.work(phase="S1901M")
    players = [a for a in EVERYONE if a != addr("Italy")]
    assert sent(mails) == each(sorted(players), "Diplomacy waiting g S1901M")
    assert "it waits for the orders of Italy, Turkey" in to(mails)[addr("France")][0]
    assert "Your orders still count: send them now" in to(mails)[addr("Turkey")][0]
    assert "Italy has no player: REPLACE POWER PASSWORD" in to(mails)[GM][0]
    assert judge.work(phase="S1901M") == []                # told once; no adjudication
    assert judge.store.get("wakeups", "g")["when"] == (T0 + timedelta(days=3)).isoformat()   # its daily reminder

    judge.now += timedelta(hours=5)
    judge.mail(addr("Turkey"), signon("Turkey") + HOLD["Turkey"] + "\n")
    assert judge.after_mail() == []                        # Italy still holds it up
    mails = judge.mail(GM, "SIGNON g gmsecret\nREPLACE Italy newpass\n")
    assert sent(mails) == sorted([(GM, "Re: cmd"), (GM, "Diplomacy replacement g")])
    mails = judge.mail("newitaly@example.org", "JOIN g newpass Italy\n")
    fresh = "The deadline for orders is Fri 10 Jan 2025 17:00 UTC."
    assert sent(mails) == sorted([("newitaly@example.org", "Re: cmd"), (GM, "Diplomacy replacement g S1901M")]
                                 + each([a for a in players if a != GM] + [GM, "newitaly@example.org"],
                                        "Diplomacy deadline g S1901M"))
    assert "goes on" in to(mails)[addr("France")][0] and fresh in to(mails)[addr("France")][0]
    assert judge.after_mail() == []
    judge.mail("newitaly@example.org", "SIGNON g newpass\n" + HOLD["Italy"] + "\n")
    mails = judge.after_mail()
    assert sent(mails) == each(sorted(players + ["newitaly@example.org"]), "Diplomacy results g S1901M")
    assert judge.game()["schedule"]["missed"] == {}         # nobody missed: the game waited


def test_a_waiting_nonmr_game_is_adjudicated_when_the_late_orders_come_even_without_early_processing(judge):
    """The wait ends with the orders it waits for, though the game allows no
    early processing (early=no): they come after the deadline; the wakeup
    index says so (``ready``), so the judge looks at the game at once."""
    judge.mail(GM, "SIGNON g gmsecret\nSET nonmr=yes early=no\n")
    for p in POWERS:
        if p != "Turkey":
            judge.mail(addr(p), signon(p) + HOLD[p] + "\n")
            assert judge.after_mail() == []
    judge.now = T0 + timedelta(days=2)
    assert sent(judge.work(phase="S1901M")) == each(sorted(EVERYONE), "Diplomacy waiting g S1901M")
    assert judge.store.get("wakeups", "g")["ready"] is False
    judge.now += timedelta(hours=3)
    judge.mail(addr("Turkey"), signon("Turkey") + HOLD["Turkey"] + "\n")
    assert judge.store.get("wakeups", "g")["ready"] is True
    assert sent(judge.after_mail()) == each(sorted(EVERYONE), "Diplomacy results g S1901M")


def test_a_deadline_the_gm_moves_inside_the_reminder_window_reminds_at_once(judge):
    judge.mail(GM, "SIGNON g gmsecret\nSET reminders=24h\n")
    judge.mail(addr("France"), signon("France") + HOLD["France"] + "\n")
    judge.now = T0 + timedelta(hours=2)
    mails = judge.mail(GM, "SIGNON g gmsecret\nSET DEADLINE 2025-01-07 00:00\n")
    late = [addr(p) for p in POWERS if p != "France"]
    assert sent(mails) == sorted([(GM, "Re: cmd")] + each(EVERYONE, "Diplomacy deadline g S1901M")
                                 + each(late, "Diplomacy reminder g S1901M"))
    reminder = to(mails)[addr("Italy")][1]
    assert "The deadline is Tue 07 Jan 2025 00:00 UTC (in 10 hours)." in reminder
    assert judge.work(phase="S1901M") == []                 # not reminded twice


# ---- point 12: GM commands tied to their phase; the lifecycle in every view -------------------
def test_a_gm_mail_sent_twice_does_not_adjudicate_the_next_phase(judge):
    """``PROCESS`` sent twice (a new Message-ID, the same words): the second
    finds the game as the first left it and is refused, naming the phase the
    game is at; ``PROCESS F1901M`` names its phase and is done; sent again
    later it is refused: its phase has gone."""
    body = "SIGNON g gmsecret\nPROCESS\n"
    mails = judge.mail(GM, body)
    assert sent(mails) == sorted([(GM, "Re: cmd")] + each(EVERYONE, "Diplomacy results g S1901M"))
    judge.now += timedelta(seconds=3)
    mails = judge.mail(GM, body)
    assert sent(mails) == [(GM, "Re: cmd")]
    assert "refused: this mail repeats the one done at 12:00 UTC, and game g has moved on since (it is at " \
           "F1901M now): not done again (to do it now, send PROCESS F1901M)." in to(mails)[GM][0]
    assert judge.game()["position"]["phase"] == "F1901M"
    mails = judge.mail(GM, "SIGNON g gmsecret\nPROCESS F1901M\n")
    assert sent(mails) == sorted([(GM, "Re: cmd")] + each(EVERYONE, "Diplomacy results g F1901M"))
    mails = judge.mail(GM, "SIGNON g gmsecret\nSET LANGUAGE zh-hans\nPROCESS F1901M\n")
    assert sent(mails) == [(GM, "Re: cmd")]
    assert "该命令是针对 F1901M 写的，但游戏 g 现在是 S1902M：未执行（要对 S1902M 执行，请发送 PROCESS S1902M）" \
        in to(mails)[GM][0]
    mails = judge.mail(GM, "SIGNON g gmsecret\nROLLBACK S1902M\n")
    assert "游戏 g 没有已结算的回合 S1902M；现在是 S1902M" in to(mails)[GM][0]
    # orders written in the new phase: the same words mean that phase now
    judge.mail(addr("France"), signon("France") + "A Par - Bur\n")
    mails = judge.mail(GM, body)
    # the GM reads in Chinese since SET LANGUAGE zh-hans: subjects in the reader's language (issue 11)
    assert sent(mails) == sorted([(GM, "Re: cmd")] + each([a for a in EVERYONE if a != GM], "Diplomacy results g S1902M")
                                 + [(GM, "强权外交 结果 g S1902M")]
                                 + [(GM, "强权外交 被放弃的国家 g S1902M")] * 6)   # three phases missed


def test_list_gm_replies_and_status_show_the_games_lifecycle(judge, tmp_path, capsys):
    from judge.cli import main

    def status() -> str:
        assert main(["game", "gm", "g", "status", "--data", str(tmp_path)]) == 0
        return capsys.readouterr().out

    assert "Status: running." in to(judge.mail(addr("Italy"), "LIST g\n"))[addr("Italy")][0]
    assert "state: running\n" in status()
    judge.now += timedelta(hours=12)
    text = to(judge.mail(GM, "SIGNON g gmsecret\nPAUSE 2d\n"))[GM][0]
    assert "Status: paused in S1901M, with 36h of the phase left; it resumes by itself Thu 09 Jan 2025 " \
           "00:00 UTC at the latest (RESUME ends the pause)." in text
    assert "Status: paused in S1901M" in to(judge.mail(addr("Italy"), "LIST g\n"))[addr("Italy")][0]
    assert "state: paused (36h left, resumes by itself 2025-01-09T00:00:00+00:00 at the latest)" in status()
    text = to(judge.mail(GM, "SIGNON g gmsecret\nRESUME\nSET nonmr=yes\nEJECT Turkey\n"))[GM][0]
    assert text.count("Status: running.") == 3                # one after each GM command
    judge.now = T0 + timedelta(days=3)
    judge.work(phase="S1901M")                            # past the deadline: waits for orders
    text = to(judge.mail(addr("Italy"), "LIST g\n"))[addr("Italy")][0]
    assert "Status: waiting (NoNMR): S1901M is past its deadline and is adjudicated once the orders of " \
           "Austria, England, France, Germany, Italy, Russia, Turkey are in; waiting for a replacement for Turkey." \
        in text
    assert "state: waiting for the orders of Austria, England, France, Germany, Italy, Russia, Turkey (NoNMR)" \
        in status()
    judge.mail(GM, "SIGNON g gmsecret\nEND\n")
    text = to(judge.mail(addr("Italy"), "LIST g\nLIST\n"))[addr("Italy")][0]
    assert "Status: the game is over: a draw, during S1901M." in text
    assert "  g: Italy, Spring 1901 Movement, the game is over" in text
    assert "state: finished (draw, during S1901M)" in status()


# ---- point 8: the end of the game, consistent --------------------------------------------------
def test_the_final_mails_agree_on_the_phase_and_list_no_adjustments_after_the_end(judge):
    """end_year=1901: the game ends after Fall 1901. Germany took Denmark, so a
    Winter would have had a build, but no Winter is played: the last results
    mail lists no adjustments, then says the game is over; the final report's
    subject and body name the same phase, F1901M; LIST says it is over."""
    judge.mail(GM, "SIGNON g gmsecret\nSET end_year=1901\n")
    judge.mail(addr("Germany"), signon("Germany") + "F Kie - Den\n")
    judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    mails = judge.mail(GM, "SIGNON g gmsecret\nPROCESS F1901M\n")
    assert sent(mails) == sorted([(GM, "Re: cmd")] + each(EVERYONE, "Diplomacy results g F1901M")
                                 + each(EVERYONE, "Diplomacy game over g F1901M"))
    results = next(t for t in to(mails)[addr("France")] if "adjudicated" in t)
    assert "Adjustments due" not in results and "The game is over." in results
    report = next(t for t in to(mails)[addr("France")] if "is over after" in t)
    assert "Game g is over after Fall 1901 Movement (F1901M), Mon 06 Jan 2025 12:00 UTC." in report
    assert "The game ended after Fall 1901; Germany and Russia share the most supply centres (4) and the win." \
        in report
    # tie=share: a shared win is 平手, not a win alone: no solo +10
    assert "Russia: 4 SCs, 4 points, 2000k coins (SCs 4, leader's reward +2000k)" in report
    assert "Germany: 4 SCs, 4 points, 2000k coins (SCs 4, leader's reward +2000k)" in report
    assert "Status: the game is over: most supply centres after the last year, after F1901M." in \
        to(judge.mail(addr("Italy"), "LIST g\n"))[addr("Italy")][0]


def test_draw_size_scoring_names_no_share_for_those_outside_the_draw(judge):
    judge.mail(GM, "SIGNON g gmsecret\nSET scoring=dss\n")
    mails = judge.mail(GM, "SIGNON g gmsecret\nEND DRAW France England\n")
    assert sent(mails) == sorted([(GM, "Re: cmd")] + each(EVERYONE, "Diplomacy game over g S1901M"))
    report = to(mails)[addr("Italy")][0]
    assert "Game g is over: it ended during Spring 1901 Movement (S1901M)" in report
    assert "France: 3 SCs, 50 points (share of the win +50)" in report
    assert "Italy: 3 SCs, 0 points (not a winner)" in report and " 0 points (share of the win" not in report


def test_tied_winners_get_no_solo_bonus_and_a_concession_bonus_is_the_gms_setting(judge):
    """Under tie=share two powers reaching the solo count together share the
    win: 平手 in the classic text, not winners alone, so no +10 (Appendix 2's
    独立获胜). Then a second game: concession_bonus=no, and every other power
    concedes to Russia: no +10 either."""
    judge.mail(GM, "SIGNON g gmsecret\nSET solo=5 tie=share\n")
    put_position(judge, "F1901M", {"bur": ("France", "A"), "ruh": ("Germany", "A")},
                 {"spa": "France", "den": "Germany"})
    judge.mail(addr("France"), signon("France") + "A Bur - Bel\n")
    judge.mail(addr("Germany"), signon("Germany") + "A Ruh - Hol\n")
    mails = judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    assert sent(mails) == sorted([(GM, "Re: cmd")] + each(EVERYONE, "Diplomacy results g F1901M")
                                 + each(EVERYONE, "Diplomacy game over g F1901M"))
    report = next(t for t in to(mails)[GM] if "is over after" in t)
    assert "France and Germany reached 5 supply centres at the same time and share the win." in report
    assert "France: 5 SCs, 5 points, 2000k coins (SCs 5, leader's reward +2000k)" in report
    assert "Germany: 5 SCs, 5 points, 2000k coins (SCs 5, leader's reward +2000k)" in report
    assert "solo win" not in report

    judge.mail(GM, "CREATE h gmsecret concession_bonus=no\n")
    for p in POWERS:
        judge.mail(addr(p), f"JOIN h pw-{p.lower()} {p}\n")
    for p in POWERS:
        if p != "Russia":
            mails = judge.mail(addr(p), f"SIGNON h pw-{p.lower()}\nCONCEDE Russia\n")
    assert sent(mails) == sorted([(addr("Turkey"), "Re: cmd")] + each(EVERYONE, "Diplomacy game over h S1901M"))
    report = to(mails)[GM][0]
    assert "The other powers conceded the game to Russia, who wins." in report
    assert "Russia: 4 SCs, 4 points, 2000k coins (SCs 4, leader's reward +2000k)" in report


# ---- point 6: CREATE ... preset=house ------------------------------------------------------------
@pytest.fixture
def house(tmp_path):
    return started(tmp_path, "CREATE g gmsecret preset=house grace=0 reminders=none")


def test_preset_house_sets_every_house_rule_and_names_each_in_the_reply(house, tmp_path):
    text = house.created
    for line in ("  solo_rule=most           §4 a: at any time, the power with the most supply centres",
                 "  alliance=18              §4 b: a two-power alliance",
                 "  tie=continue             §4: when two or more powers or alliances meet a condition at once",
                 "  retreat_preferences=yes  §10, Appendix 1: standing retreat lists",
                 "  priority_lists=yes       §11, Appendix 1: build and disband lists",
                 "  default_retreat=house    §10: a dislodged unit without a usable order retreats by the GM's rule",
                 "  default_disband=house    §11: removals nobody ordered",
                 "  combined_orders=no       opening paragraph: the online version plays five phases a year",
                 "  extra_removals=yes       opening paragraph: no voluntary disband",
                 "  scoring=house            Appendix 2:", "  awards=vote              Appendix 2: best strategy",
                 "Not set: §4 c, the power with the most supply centres after Fall of a year you name wins alone"):
        assert line in text, line
    settings = house.game()["settings"]
    assert settings["rules"] == "datc"                     # the adjudication profile is another setting
    assert settings["victory"]["tie_rule"] == "continue" and settings["house"]["extra_removals"] is True
    other = Judge(tmp_path / "zh")
    text = to(other.mail("gm2@example.org", "创建 h pw2pw 预设=房规 alliance=20\n"))["gm2@example.org"][0]
    assert "preset=house 设置的简体房规（其后的 键=值 可修改其中一项）：" in text
    assert "  alliance=20              第4条 b：资源点数最多且不少于指定数目的两国联盟" in text
    assert other.game("h")["settings"]["victory"]["alliance_centres"] == 20


def test_house_retreat_lists_a_list_run_out_asks_the_gm_and_removals_beyond_those_due(house):
    """Two French armies' lists both name Paris first: the one with no other
    listed place gets Paris, the other its next (no bounce). The French fleet's
    list names only an occupied sea: the GM is asked (§10: GM自主决定), with the
    default the text's rule gives, and decides by BECOME. In Winter Germany,
    short of centres, removes three units where two are due (the online rule);
    Italy, not short, may remove none."""
    units = {"bur": ("France", "A"), "gas": ("France", "A"), "wes": ("France", "F"),
             "mun": ("Germany", "A"), "ruh": ("Germany", "A"), "spa": ("England", "A"), "mar": ("England", "A"),
             "tys": ("Italy", "F"), "tun": ("Italy", "F"), "lyo": ("Italy", "F"),
             "vie": ("Austria", "A"), "mos": ("Russia", "A"), "con": ("Turkey", "A")}
    put_position(house, "F1901M", units, keep=False)
    mails = house.mail(addr("France"), signon("France") + "勃艮第陆军优先撤退到巴黎、皮卡第\n加斯科涅陆军优先撤退到巴黎\n"
                                                          "西地中海舰队优先撤退到里昂湾\n")
    assert sent(mails) == [(addr("France"), "Re: cmd")]
    house.mail(addr("Germany"), signon("Germany") + "A Mun - Bur\nA Ruh S A Mun - Bur\n")
    house.mail(addr("England"), signon("England") + "A Spa - Gas\nA Mar S A Spa - Gas\n")
    house.mail(addr("Italy"), signon("Italy") + "F Tys - Wes\nF Tun S F Tys - Wes\n")
    mails = house.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    assert sent(mails) == sorted([(GM, "Re: cmd"), (GM, "Diplomacy retreat list g F1901R")]
                                 + each(EVERYONE, "Diplomacy results g F1901M"))
    asked = next(t for t in to(mails)[GM] if "the GM then decides" in t)
    assert "France: F Wes: its list Gulf of Lyon; open: Mid-Atlantic Ocean, North Africa, Spain (south coast)." in asked
    assert "Unless you decide, it retreats by the text's rule (a)-(e) to Spain (south coast)." in asked
    mails = house.mail(GM, "SIGNON g gmsecret\nBECOME France\nF Wes - Naf\n")
    assert sent(mails) == [(GM, "Re: cmd")] and "F Wes - Naf" in to(mails)[GM][0]
    mails = house.mail(GM, "SIGNON g gmsecret\nPROCESS F1901R\n")
    results = to(mails)[addr("Austria")][0]
    assert "France: A Gas - Par.  (from standing list)" in results
    assert "France: A Bur - Pic.  (from standing list)" in results and "France: F Wes - Naf." in results
    board = Game.from_dict(house.game(), lambda i: {}).position.units
    assert {p: u.location for p, u in board.items() if u.power == "France"} == \
        {"par": "par", "pic": "pic", "naf": "naf"}

    put_position(house, "W1901A", {"ber": ("Germany", "A"), "mun": ("Germany", "A"), "kie": ("Germany", "F"),
                                   "sil": ("Germany", "A"), "pru": ("Germany", "A"), "ven": ("Italy", "A"),
                                   "rom": ("Italy", "A"), "nap": ("Italy", "F"), "vie": ("Austria", "A")},
                 {"den": "England"}, keep=False)
    mails = house.mail(addr("Germany"), signon("Germany") + "Remove A Sil\nRemove A Pru\nRemove A Ber\n")
    reply = to(mails)[addr("Germany")][0]
    assert "replaces" not in reply and "Germany must remove 2 units: 3 ordered." in reply
    mails = house.mail(addr("Italy"), signon("Italy") + "Remove A Rom\n")
    assert "Italy need not remove a unit" in to(mails)[addr("Italy")][0] or \
        "need not remove" in to(mails)[addr("Italy")][0]
    mails = house.mail(GM, "SIGNON g gmsecret\nPROCESS W1901A\n")
    results = to(mails)[addr("Austria")][0]
    assert "Germany: Disband A Sil.\nGermany: Disband A Pru.\nGermany: Disband A Ber." in results
    board = Game.from_dict(house.game(), lambda i: {}).position.units
    assert sorted(u.location for u in board.values() if u.power == "Germany") == ["kie", "mun"]


# ---- done when: a whole house-rules game to an alliance victory ---------------------------------
def test_a_house_rules_game_by_mail_to_an_alliance_victory_scores_as_appendix_2_says(house):
    """``preset=house``; France's leader takes an advisor; France and England
    ally (英国 in Chinese: 结盟 法国) and reach 18 SCs together in Fall 1901;
    the leaders vote France best strategy; the GM rules Turkey passive (fine 3)
    and, the vote over with no diplomacy vote, names England best diplomacy.

    By hand, Appendix 2 (附二：奖励与分数): every power scores its SCs; each
    member of a winning alliance +6; every leader 2000k; each award +1200k; a
    passive player forfeits all his points and coins and is fined; advisors
    score nothing:

    ======== ==== ========================== ===================================
    power    SCs  points                     coins (k)
    ======== ==== ========================== ===================================
    England   12  12 + 6 = 18                2000 + 1200 (diplomacy) = 3200
    France     6   6 + 6 = 12                2000 + 1200 (strategy)  = 3200
    Russia     4   4                         2000
    Austria    3   3                         2000
    Italy      3   3                         2000
    Turkey     3   3 - 3 (forfeit) - 3 = -3  2000 - 2000 (forfeit)   = 0
    Germany    0   0                         2000 (a leader, though out)
    advisor    -   0                         0
    ======== ==== ========================== ===================================
    """
    everyone = sorted(EVERYONE + [ADV])                 # the advisor gets France's mail
    mails = house.mail(addr("France"), signon("France") + f"幕僚 添加 {ADV}\n")
    assert sent(mails) == sorted([(ADV, "Diplomacy advisor g"), (addr("France"), "Re: cmd")])
    mails = house.mail(addr("France"), signon("France") + "ALLY England\n")
    assert sent(mails) == [(addr("France"), "Re: cmd")]             # a reply goes to its sender only
    mails = house.mail(addr("England"), signon("England") + "结盟 法国\n")
    assert sent(mails) == [(addr("England"), "Re: cmd")]
    assert "the alliance is in force" in to(mails)[addr("England")][0]

    england = "edi lon lvp bel hol den nwy swe kie ber tun gre".split()
    units = {p: v for p, v in LITTLE_BOARD.items() if p != "par"}
    units.update({"bur": ("France", "A"), "ruh": ("France", "A"), "bre": ("France", "F"),
                  "nap": ("Italy", "F"), "ank": ("Turkey", "F")})
    owners = {sc: "England" for sc in england} | {"spa": "France", "por": "France"}
    put_position(house, "F1901M", units, owners, keep=False)
    mails = house.mail(addr("France"), signon("France") + "A Bur - Mun\nA Ruh S A Bur - Mun\n")
    assert sent(mails) == [(addr("France"), "Re: cmd")]
    mails = house.mail(GM, "SIGNON g gmsecret\nPROCESS F1901M\n")
    assert sent(mails) == sorted([(GM, "Re: cmd")] + each(everyone, "Diplomacy results g F1901M")
                                 + each(everyone, "Diplomacy game over g F1901M"))
    report = to(mails)[addr("Russia")][1]
    assert "The alliance of England and France wins jointly with 18 supply centres." in report
    assert "Best strategy award: the leaders vote until Thu 09 Jan 2025 12:00 UTC" in report and "1200k" not in report

    for voter in POWERS:
        choice = "England" if voter in ("France", "Germany") else "France"
        mails = house.mail(addr(voter), signon(voter) + f"投票 最佳战略 {choice}\n")
        assert sent(mails) == [(addr(voter), "Re: cmd")]
    mails = house.mail(ADV, "SIGNON g\nVOTE BEST DIPLOMACY England\n")          # an advisor does not vote
    assert "only the leader of France votes for awards; advisors do not" in to(mails)[ADV][0]
    mails = house.mail(GM, "SIGNON g gmsecret\nPASSIVE Turkey 3\n")
    assert sent(mails) == sorted([(GM, "Re: cmd")] + each(everyone, "Diplomacy game over g F1901M"))
    assert "1200k" not in to(mails)[addr("Italy")][0]                     # nothing shown before the close

    house.now = T0 + timedelta(hours=72)
    mails = house.work(phase="W1901A")                                    # the vote closes
    assert sent(mails) == each(everyone, "Diplomacy game over g F1901M")
    assert "Best strategy award: France (votes: France 5, England 2)" in to(mails)[GM][0]
    assert "Best diplomacy award: to be named by the GM" in to(mails)[GM][0]
    mails = house.mail(GM, "SIGNON g gmsecret\n颁奖 外交 英国\n")           # AWARD DIPLOMACY England
    assert sent(mails) == sorted([(GM, "Re: cmd")] + each(everyone, "Diplomacy game over g F1901M"))
    report = to(mails)[ADV][0]
    for line in (
            "England: 12 SCs, 18 points, 3200k coins (SCs 12, alliance win +6, leader's reward +2000k, "
            "best diplomacy award +1200k)",
            "France: 6 SCs, 12 points, 3200k coins (SCs 6, alliance win +6, leader's reward +2000k, "
            "best strategy award +1200k)",
            "Russia: 4 SCs, 4 points, 2000k coins (SCs 4, leader's reward +2000k)",
            "Austria: 3 SCs, 3 points, 2000k coins (SCs 3, leader's reward +2000k)",
            "Italy: 3 SCs, 3 points, 2000k coins (SCs 3, leader's reward +2000k)",
            "Turkey: 3 SCs, -3 points, 0k coins (SCs 3, leader's reward +2000k, forfeited (passive play) -3 -2000k, "
            "fine -3)",
            "Germany: 0 SCs, 0 points, 2000k coins (SCs 0, leader's reward +2000k)",
            "Best strategy award: France (votes: France 5, England 2)",
            "Best diplomacy award: England (named by the GM)",
            "Advisors score nothing: France 1."):
        assert line in report, line
    from judge.game.scores import person_scores
    people = person_scores(Game.from_dict(house.game(), lambda i: {}))
    assert (people[ADV].points, people[ADV].coins) == (0, 0)
    assert (people[addr("England")].points, people[addr("England")].coins) == (18, 3200)


def test_an_answer_in_the_grace_period_says_until_when_orders_still_count(tmp_path):
    """Past the deadline, in the grace period, an answer gives the deadline
    that passed and the end of the grace period, when orders stop counting."""
    from datetime import datetime
    judge = started(tmp_path, "CREATE g gmsecret grace=1d reminders=none")
    deadline = datetime.fromisoformat(judge.game()["schedule"]["deadline"])
    before = to(judge.mail(addr("France"), signon("France") + "A Par - Bur\n"))[addr("France")][0]
    assert "grace period" not in before
    judge.now = deadline + timedelta(minutes=1)
    judge.work(phase="S1901M")                                        # the deadline: the grace period begins
    text = to(judge.mail(addr("France"), signon("France") + "A Par - Pic\n"))[addr("France")][0]
    end = (deadline + timedelta(days=1)).strftime("%a %d %b %Y %H:%M")
    assert f"The deadline has passed: orders received before {end} UTC still count (the grace period)." in text


def test_a_pause_in_a_short_grace_period_resumed_is_no_longer_past_the_deadline(tmp_path):
    """PAUSE in the grace period, then RESUME: the phase gets at least an hour;
    when that puts the deadline itself ahead again, the phase is no longer
    late (it was shown "past the deadline" with its deadline an hour ahead)."""
    from datetime import datetime
    judge = started(tmp_path, "CREATE g gmsecret grace=1m reminders=none")
    deadline = datetime.fromisoformat(judge.game()["schedule"]["deadline"])
    judge.now = deadline + timedelta(seconds=20)
    judge.work(phase="S1901M")
    assert judge.game()["schedule"]["late"] is True
    judge.now += timedelta(seconds=10)
    judge.mail(GM, "SIGNON g gmsecret\nPAUSE\n")
    judge.now += timedelta(seconds=10)
    text = to(judge.mail(GM, "SIGNON g gmsecret\nRESUME\n"))[GM][0]
    schedule = judge.game()["schedule"]
    assert schedule["late"] is False and datetime.fromisoformat(schedule["deadline"]) > judge.now
    assert "past the deadline" not in text and "grace period" not in text
    text = to(judge.mail(addr("France"), signon("France") + "A Par - Bur\n"))[addr("France")][0]
    assert "The deadline has passed" not in text
