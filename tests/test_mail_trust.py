"""Trust by mail (issue 19): a private game answers a stranger as a game
that does not exist; a failed SIGNON ends the session; wrong passwords are
counted per power per hour, with a lock-out and a notice to the player;
who a power is changes only with its password; every date and length a
command takes is bounded. Each mail goes through the spool, the worker,
the handler and the outbox (tests/test_mail_commands.py's Judge)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from test_mail_commands import NOW, Judge

from judge.verbs.lockout import WRONG_PER_HOUR


def _without(text: str, *names: str) -> str:
    for name in names:
        text = text.replace(name, "GAME")
    return text


# ---- private means private -------------------------------------------------------------
READING = ("LIST {g}", "OBSERVE {g}", "HISTORY {g}", "SUMMARY {g}", "MAP {g}", "MAP {g} S1901M SVG", "历史 {g}",
           "JOIN {g} mypass1 France", "JOIN {g} abc", "JOIN {g} mypass1 Prussia", "SIGNON {g}",
           "SIGNON {g} guess123", "SIGNON F{g} guess123")
"""Reading commands, and JOINs and SIGNONs that are refused (an unlisted open
game may still be joined by whoever knows its name: that JOIN succeeds)."""


@pytest.mark.parametrize("private", ["listed=no", "access=invite invite=friend@x.org"])
def test_a_private_game_answers_a_stranger_as_a_game_that_does_not_exist(tmp_path, private):
    j = Judge(tmp_path)
    j.text("gm@x.org", f"CREATE g1 gmpass1 {private}")
    j.text("gm@x.org", "CREATE open1 gmpass1")
    if "invite" in private:
        assert "settings changed" in j.text("gm@x.org", "SIGNON g1 gmpass1\nSET invite=+fr@x.org")
    assert "as France" in j.text("fr@x.org", "JOIN g1 frpass1 France")
    for line in READING:
        secret = j.text("out@x.org", line.format(g="g1"))
        missing = j.text("out@x.org", line.format(g="nosuch"))
        assert 'there is no game "' in secret or "没有名为" in secret, (line, secret)
        assert _without(secret, "g1") == _without(missing, "nosuch"), line
    assert "g1" not in j.text("out@x.org", "LIST") and "open1" in j.text("out@x.org", "LIST")
    # a stranger's OBSERVE put nobody on its list
    assert j.game("g1")["observers"] == {}
    # its players, GM (and invitees) see it
    for who in ("fr@x.org", "gm@x.org") + (("friend@x.org",) if "invite" in private else ()):
        assert 'Game "g1"' in j.text(who, "LIST g1"), who
        assert "there is no game" not in j.text(who, "SUMMARY g1\nHISTORY g1"), who
    assert "g1" in j.text("fr@x.org", "LIST")
    assert "You observe game" in j.text("fr@x.org", "OBSERVE g1")
    # a player signed on from another address with the password: the game is his
    assert "Signed on" in j.text("fr@elsewhere.org", "SIGNON g1 frpass1\nSUMMARY g1")


# ---- a failed SIGNON ends the session --------------------------------------------------
def test_the_lines_after_a_failed_signon_are_not_read_until_a_good_one(tmp_path):
    j = Judge(tmp_path)
    j.text("gm@x.org", "CREATE g1 gmpass1 deadline=2024-01-10T20:00")
    j.text("gm@x.org", "CREATE g2 gmpass2 deadline=2024-01-10T20:00")
    j.text("fr@x.org", "JOIN g1 frpass1 France")
    j.text("fr@x.org", "JOIN g2 frpass2 France")
    # the GM of g1 mistypes g2's password: the PAUSE and EJECT meant for g2 do not run on g1
    text = j.text("gm@x.org", "SIGNON g1 gmpass1\nSIGNON g2 wrongpw\nPAUSE 24h\nEJECT France\n"
                              "BROADCAST\nhello\nENDPRESS\nSET press=none")
    assert 'wrong password for game "g2"' in text
    assert "PAUSE" not in text and "EJECT" not in text and "hello" not in text
    assert "the 6 line(s) after it were not read" in text
    assert j.game("g1")["players"]["France"]["addresses"] == ["fr@x.org"]
    assert j.game("g1")["schedule"]["paused_at"] is None and j.game("g2")["schedule"]["paused_at"] is None
    # a player's orders after a mistyped SIGNON replace nothing; a later good SIGNON reads on
    j.text("fr@x.org", "SIGNON g1\nA Par - Bur")
    text = j.text("fr@x.org", "SIGNON g1\nSIGNON nosuch\nA Par - Pic\nSIGNON g2\nA Mar - Spa")
    assert 'there is no game "nosuch"' in text and "A Par - Pic" not in text and "1 line(s)" in text
    assert "Marseilles" in text or "A Mar - Spa" in text
    orders_g1 = str(j.store.get("games", "g1")["orders"])
    assert "Bur" in orders_g1 and "Pic" not in orders_g1        # g1's order stands


# ---- wrong passwords: counted, locked, told ---------------------------------------------
def test_wrong_passwords_lock_the_power_for_an_hour_and_its_player_is_told(tmp_path):
    now = [NOW]
    j = Judge(tmp_path, clock=lambda: now[0])
    j.text("gm@x.org", "CREATE g1 gmpass1")
    j.text("fr@x.org", "JOIN g1 frpass1 France")
    for n in range(1, WRONG_PER_HOUR):
        mails = j.mails("guess@evil.test", f"SIGNON Fg1 guess{n:03d}")
        assert len(mails) == 1 and "wrong password" in mails[0].get_content()
    mails = j.mails("guess@evil.test", "SIGNON Fg1 guess999")
    told = [m for m in mails if m["To"] == "fr@x.org"]
    assert len(told) == 1 and told[0]["Subject"] == "Diplomacy wrong passwords g1"
    body = told[0].get_content()
    assert f"{WRONG_PER_HOUR} SIGNONs with a wrong password for France" in body and "guess@evil.test" in body
    assert "guess999" not in body and not any("guess999" in m.as_string() for m in mails)
    # the notice went through the outbox, made by the same mail as the answer
    rows = [row for row in j.sent if row["inbound"] == j.sent[-1]["inbound"]]
    assert sorted(row["to"][0] for row in rows) == ["fr@x.org", "guess@evil.test"]
    # locked: even the right password is not checked; the player is not told again
    mails = j.mails("fr@new.org", "SIGNON Fg1 frpass1\nA Par H")
    assert "too many wrong passwords" in mails[0].get_content() and len(mails) == 1
    # from the address on record, under auth=address, the player still plays
    assert "Signed on" in j.text("fr@x.org", "SIGNON g1\nA Par H")
    # and under auth=password (the default) with the password: strangers cannot lock him out
    assert "Signed on" in j.text("gm@x.org", "SIGNON g1 gmpass1\nSET auth=password")
    assert "password" in j.text("fr@x.org", "SIGNON g1\nA Par H") and "Signed on" not in \
        j.text("fr@x.org", "SIGNON g1\nA Par H")
    text = j.text("fr@x.org", "SIGNON g1 frpass1\nA Par - Bur")
    assert "Signed on" in text and "too many" not in text
    assert "wrong password" in j.text("fr@x.org", "SIGNON g1 frpass2")     # checked, and wrong
    mails = j.mails("fr@new.org", "SIGNON Fg1 frpass1\nA Par H")          # elsewhere: still locked
    assert "its password is checked only in mail from its player's own address" in mails[0].get_content()
    # an hour later the lock is over
    now[0] = NOW + timedelta(hours=1, minutes=1)
    assert "Signed on" in j.text("fr@new.org", "SIGNON Fg1 frpass1")
    # the GM password is counted too, and the GM told
    for n in range(WRONG_PER_HOUR):
        mails = j.mails("guess@evil.test", f"SIGNON Mg1 gm{n:04d}")
    assert [m["To"] for m in mails] == ["guess@evil.test", "gm@x.org"]
    assert "wrong GM password" in mails[1].get_content()


# ---- changing who a power is needs its password -----------------------------------------
def test_set_password_and_address_need_the_password_whatever_auth_says(tmp_path):
    j = Judge(tmp_path)                                 # auth=address: From alone signs on
    j.text("gm@x.org", "CREATE g1 gmpass1")
    j.text("fr@x.org", "JOIN g1 frpass1 France")
    # a forged mail from the player's address takes nothing
    for line in ("SET PASSWORD stolen1", "SET ADDRESS thief@evil.test"):
        text = j.text("fr@x.org", f"SIGNON g1\n{line}", Reply_To="thief@evil.test")
        assert "only after a SIGNON with the password" in text
    assert j.game("g1")["players"]["France"]["addresses"] == ["fr@x.org"]
    assert "only after a SIGNON with the password" in j.text("gm@x.org", "SIGNON g1\nSET ADDRESS gm2@x.org")
    # with the password, from another address: done, and the old address is told
    mails = j.mails("fr@laptop.org", "SIGNON g1 frpass1\nSET ADDRESS Francois <fr@new.org>")
    assert "fr@new.org" in mails[0].get_content()
    assert sorted(m["To"] for m in mails) == ["fr@laptop.org", "fr@new.org", "fr@x.org"]
    assert j.game("g1")["players"]["France"]["addresses"] == ["fr@new.org"]
    # exactly one address, parsed: no extra recipient slips in
    for bad in ("a@x.org,b@evil.test", "a@x.org, b@evil.test", ";", ">,<", "a@x.org>", "g: a@x.org;", "a@b"):
        text = j.text("fr@new.org", f"SIGNON g1 frpass1\nSET ADDRESS {bad}")
        assert "is not a mail address" in text or "usage" in text, bad
    assert j.game("g1")["players"]["France"]["addresses"] == ["fr@new.org"]
    # another power's address: refused, as JOIN and ADVISOR ADD refuse it (one address, one power)
    j.text("de@x.org", "JOIN g1 depass1 Germany")
    text = j.text("fr@new.org", "SIGNON g1 frpass1\nSET ADDRESS de@x.org")
    assert "de@x.org plays Germany in this game; one address serves one power." in text
    assert j.game("g1")["players"]["France"]["addresses"] == ["fr@new.org"]
    mails = j.mails("fr@new.org", "SIGNON g1 frpass1\nSET PASSWORD fresh12")
    assert "is changed" in mails[0].get_content() and "fresh12" not in mails[0].as_string()


def test_observe_subscribes_the_from_address_only(tmp_path):
    j = Judge(tmp_path)
    j.text("gm@x.org", "CREATE g1 gmpass1")
    mails = j.mails("victim@x.org", "OBSERVE g1", Reply_To="prankster@evil.test")
    assert j.game("g1")["observers"] == {"victim@x.org": "en"}
    assert sorted(m["To"] for m in mails) == ["prankster@evil.test", "victim@x.org"]     # the address subscribed is told


# ---- every date and length bounded -------------------------------------------------------
FAR = (
    ("gm", "SET DEADLINE 9999-12-31 23:59", "too far ahead"),
    ("gm", "SET DEADLINE 9999-12-31T23:59+14:00", "too far ahead"),
    ("gm", "SET DEADLINE 0001-01-01 00:00", "must be in the future"),
    ("gm", "SET DEADLINE 0001-01-01T00:00+14:00", "cannot read the date"),
    ("gm", "EXTEND 99999999h", "longer than the judge takes"),
    ("gm", "EXTEND 99999999999999999999999999d", "longer than the judge takes"),
    ("gm", "PAUSE 99999999999h", "longer than the judge takes"),
    ("gm", "SET end_at=9999-12-31T23:59", "too far off"),
    ("gm", "SET end_at=0001-01-01T00:00", "too far off"),
    ("gm", "SET movement=99999999d", "longer than the judge takes"),
    ("gm", "SET grace=99999999999d reminders=9999999h", "longer than the judge takes"),
    ("gm", "SET absence_max=99999999999", "longer than the judge takes"),
    ("gm", "SET award_window=999999d", "longer than the judge takes"),
    ("fr", "SET ABSENCE FROM 2024-01-12 TO 9999-12-31", "cannot read the date"),
    ("fr", "SET ABSENCE FROM 9999-12-30 TO 9999-12-31", "too far ahead"),
    ("fr", "SET ABSENCE FROM 2024-01-12 TO 2030-01-01", "too far ahead"),
)


def test_far_dates_and_long_lengths_are_refused_and_the_rest_of_the_mail_is_done(tmp_path):
    j = Judge(tmp_path)
    j.text("gm@x.org", "CREATE g1 gmpass1 deadline=2024-01-10T20:00")
    j.text("fr@x.org", "JOIN g1 frpass1 France")
    for who, line, refusal in FAR:
        sender, password = ("gm@x.org", "gmpass1") if who == "gm" else ("fr@x.org", "frpass1")
        text = j.text(sender, f"SIGNON g1 {password}\n{line}\nSET LANGUAGE en")
        assert refusal in text, (line, text)
        assert "replies to you in English" in text or "English" in text, line     # the next line was read
    assert j.game("g1")["schedule"]["deadline"].startswith("2024-01-10")
    text = j.text("gm@x.org", "CREATE g2 gmpass2 deadline=9999-12-31T23:59")
    assert "too far ahead" in text and j.game("g2") is None
    assert "longer than the judge takes" in j.text("gm@x.org", "CREATE g3 gmpass3 movement=9999999999d")
    # within the bounds all still works
    assert "Error" not in j.text("gm@x.org", "SIGNON g1 gmpass1\nEXTEND 300d\nSET end_at=2100-01-01T00:00")


# ---- the fuzz generators: far dates, malformed SIGNONs, mislabelled charsets -----------------
def test_fuzzed_mails_with_far_dates_and_malformed_signons_raise_nothing_and_leak_no_password(tmp_path, caplog):
    """Every seed of tests/mailfuzz.py as written (far dates, failed and
    malformed SIGNONs among them), then mutated ones and tests/passwordfuzz.py's
    mails in mislabelled charsets: none is set aside (an exception), and no
    mail the judge sends holds a password (the 20,000-mail run is benchmarks/fuzz.py)."""
    import logging

    import mailfuzz
    import passwordfuzz

    j = Judge(tmp_path, max_attempts=1)
    for raw in mailfuzz.setup_mails("2024-01-10T20:00"):
        assert j.raw(raw)
    known = mailfuzz.passwords()
    mails = [(raw, known) for raw in mailfuzz.seeds()]
    mails += [(raw, known) for raw in mailfuzz.mails(19, 20)]
    mails += [(raw, known | secrets) for raw, secrets in passwordfuzz.mails(19, 20)]
    with caplog.at_level(logging.WARNING, logger="judge.mail"):
        for raw, secrets in mails:
            before = len(j.sent)
            j.raw(raw)
            for row in j.sent[before:]:
                assert not passwordfuzz.leaks(row["raw"], secrets), (raw[:300], row["raw"][:2000])
    assert not [r.getMessage() for r in caplog.records if "failed" in r.getMessage() or r.exc_info]
    shunted = tmp_path / "spool" / "shunt"
    assert not (shunted.exists() and any(shunted.iterdir()))           # nothing set aside


def test_a_password_after_a_damaged_sign_on_word_or_in_a_compatibility_form_is_masked():
    """Cases the 20,000-mail fuzz found (benchmarks/fuzz.py, seed 8): a sign-on
    word with a character in it, a combining mark before the game, a 登录
    damaged to 登, a password written with ① (read as 1)."""
    from judge.mail.masking import mask

    assert "frpass1" not in mask("SIGNO❻N \u0301fz frpass1", set())
    assert "rupass1" not in mask("登fJkfz rupass1", set())
    assert "farpass2" not in mask("CREATE far2 ①farpass2 end_at=0001-01-01T00:00", {"1farpass2"})
    assert "frpass1" not in mask("SIGNON\ufffdfz frpass1", set())
    assert "farpass1" not in mask("CR十二EATE far1 ٣farpass1 deadline=9999-12-3〇1T23:59 movement　=9999〇9d", set())
    from judge.mail.masking import secrets_of
    assert secrets_of("signon", ("fz", "wrong", "junk2wrongpw"), "SIGNON fz wrong\x1cjunk2wrongpw") >= {"junk2wrongpw"}
    assert mask("登陆 Brest A Par", set()) == "登陆 Brest A Par"          # nothing else is masked


def test_the_word_after_a_game_name_in_a_line_that_is_no_command_is_masked(tmp_path):
    """A sign-on word damaged beyond reading (junk inside it, 登录 as 嵡录):
    the word after the game's name is where the password stands."""
    j = Judge(tmp_path)
    j.text("gm@x.org", "CREATE g1 gmpass1")
    j.text("fr@x.org", "JOIN g1 frpass1 France")
    for line in ("SI\u0441(\u00b7\u00f7]GNON g1 frpass1", "嵡录 g1 frpass1", "xx Fg1 frpass1",
                 "hello _x -- " + "a" * 80 + " g1 frpass1", "SIG\u3000NON g1:frpass1"):          # words no game may be called: no lookup
        text = j.text("fr@x.org", line)
        assert "frpass1" not in text and "********" in text, text
