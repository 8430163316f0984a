"""What players expect in the judge's mails (issue 13, point 9), played by
mail through the in-process worker: the game-start mail restates how the
game ends, the scoring, the press rules and the starting units; every
results mail shows the units as they stand after the phase; a refused
retreat says why and where the unit may go."""

from __future__ import annotations

from mailjudge import GM, POWERS, Judge, addr, to


def started_game(tmp_path, create: str = "CREATE g gmsecret grace=0 press=both solo=16 end_year=1910\n"):
    j = Judge(tmp_path)
    j.mail(GM, create)
    mails = []
    for p in POWERS:
        mails = j.mail(addr(p), f"JOIN g pw-{p.lower()} {p}\n")
    return j, to(mails)


def test_the_start_mail_restates_the_rules_and_the_units(tmp_path):
    _j, out = started_game(tmp_path)
    start = next(t for t in out[addr("Italy")] if "has started" in t)
    for line in ("a power that owns 16 supply centres wins alone", "after the Fall of 1910 the game ends",
                 "tied winners share the win", "Scoring: house rules, Appendix 2",
                 "Press: signed, anonymous (grey), to chosen powers, to the GM.", "The units at the start:",
                 "Russia: A Mos, F Sev, F StP/sc, A War"):
        assert line in start, line
    gm = next(t for t in out[GM] if "has started" in t)
    assert "How the game ends:" in gm


def test_the_start_mail_without_press(tmp_path):
    _j, out = started_game(tmp_path, "CREATE g gmsecret solo=18 press=none\n")
    start = next(t for t in out[addr("France")] if "has started" in t)
    assert "Press: none." in start and "a power that owns 18 supply centres wins alone" in start


def dislodge_germany(j):
    """Spring 1901: A Mun - Bur, A Par - Pic; Fall: A Mar - Bur supported by Pic."""
    j.mail(addr("Germany"), "SIGNON g pw-germany\nA Mun - Bur\n")
    j.mail(addr("France"), "SIGNON g pw-france\nA Par - Pic\nF Bre - Mao\n")
    j.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    j.mail(addr("Germany"), "SIGNON g pw-germany\nA Bur H\n")
    return j.mail(addr("France"), "SIGNON g pw-france\nA Mar - Bur\nA Pic S A Mar - Bur\nF Mao - Spa/nc\n") + \
        j.mail(GM, "SIGNON g gmsecret\nPROCESS\n")


def test_results_show_the_units_and_a_refused_retreat_says_why(tmp_path):
    j, _ = started_game(tmp_path)
    mails = to(dislodge_germany(j))
    results = [t for t in mails[addr("Italy")] if "adjudicated" in t]
    assert results, mails[addr("Italy")]
    last = results[-1]
    assert "Units now:" in last and "France: A Bur" in last and "Germany: A Ber, F Kie" in last
    assert "Dislodged units:" in last
    out = to(j.mail(addr("Germany"), "SIGNON g pw-germany\nA Bur - Mar\nA Bur - Arm\n"))[addr("Germany")][0]
    assert "A Bur cannot retreat to Marseilles: the attack that dislodged it came from there; it may " \
           "retreat to Belgium, Gascony, Munich, Paris or Ruhr" in " ".join(out.split())
    assert "A Bur cannot retreat to Armenia: it is not next to it" in " ".join(out.split())


def test_broadcasts_are_kept_for_the_archive_private_press_is_not(tmp_path):
    """Public press is kept with the phase it was sent in: the archive's page
    of that phase and the JSON export show it (grey press unsigned), before
    and after the phase is adjudicated; private press is not archived."""
    from judge.archive import export_game, site_of
    from judge.storage import load_game
    j, _ = started_game(tmp_path)
    j.mail(addr("France"), "SIGNON g pw-france\nBROADCAST\nPeace in the west.\nENDPRESS\n")
    j.mail(addr("Italy"), "SIGNON g pw-italy\nBROADCAST GREY\nBeware of France.\nENDPRESS\n")
    j.mail(addr("England"), "SIGNON g pw-england\nPRESS TO France\nJust between us.\nENDPRESS\n")
    page = site_of(j.store).render("games/g/S1901M/").body.decode()
    assert "Peace in the west." in page and "Beware of France." in page and "Just between us." not in page
    assert "France" in page and "anonymous" in page
    j.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    game = load_game(j.store, "g")
    assert [p["text"] for p in game.history[0].press] == ["Peace in the west.", "Beware of France."]
    assert game.history[0].press[1]["sender"] is None and game.press == ()
    data = export_game(game)
    assert [p["text"] for p in data["phases"][0]["press"]] == ["Peace in the west.", "Beware of France."]
    zh = site_of(j.store).render("zh-hans/games/g/S1901M/").body.decode()
    assert "Peace in the west." in zh and "匿名" in zh and "法国" in zh


def test_orders_before_every_power_is_taken_say_the_clock_has_not_started(tmp_path):
    """No deadline yet: the confirmation says when the clock starts instead
    of leaving the deadline out (a new user's finding)."""
    j = Judge(tmp_path)
    j.mail(GM, "CREATE g gmsecret\n")
    j.mail(addr("France"), "JOIN g pw-france France\n")
    [reply] = to(j.mail(addr("France"), "SIGNON g pw-france\nA Par - Bur\n"))[addr("France")]
    assert "No deadline yet: the clock starts when every power is taken" in reply
    assert "Deadline:" not in reply
    for p in POWERS:
        if p != "France":
            j.mail(addr(p), f"JOIN g pw-{p.lower()} {p}\n")
    [reply] = to(j.mail(addr("France"), "SIGNON g pw-france\nA Par - Pic\n"))[addr("France")]
    assert "Deadline:" in reply and "No deadline yet" not in reply


def test_many_order_mails_in_a_phase_keep_their_answers_right(tmp_path, monkeypatch):
    """Past MAX_REPLACED replaced orders the oldest are dropped from the
    live state; every answer still says what each order replaces (the
    soak found the answer's bookkeeping assumed nothing is ever dropped)."""
    from judge.game import book
    monkeypatch.setattr(book, "MAX_REPLACED", 3)
    j, _out = started_game(tmp_path)
    for n, order in enumerate(["A Par - Bur", "A Par - Pic", "A Par - Gas", "A Par H", "A Par - Bur",
                               "A Par - Pic", "A Par H"] * 2):
        [reply] = to(j.mail(addr("France"), f"SIGNON g pw-france\n{order}\n"))[addr("France")]
        assert "could not" not in reply and f"{order}" in reply, (n, reply)
        if n:
            assert "replaces" in reply, (n, reply)
    france = j.game("g")["orders"]["France"]
    assert sum(e.get("replaced", False) for e in france) <= 3 + 1 and france[-1]["text"] == "A Par H"
