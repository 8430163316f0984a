"""Passwords never leave (issue 19 point 9): mails holding passwords in every
malformed shape and mislabelled charset (tests/passwordfuzz.py) through the
real worker; no answer, copy or notice holds one. The 20,000-mail run is
benchmarks/passwords.py."""

from __future__ import annotations

import mailfuzz
import passwordfuzz
import pytest

from test_mail_commands import Judge

SEED = 20261204


@pytest.mark.parametrize("count", [100, pytest.param(1500, marks=pytest.mark.slow)])
def test_no_answer_holds_a_password_checked_or_written_in_a_password_place(tmp_path, count):
    judge = Judge(tmp_path)
    for raw in mailfuzz.setup_mails("2024-01-10T20:00"):
        assert judge.raw(raw)
    checked = 0
    for raw, secrets in passwordfuzz.mails(SEED + count, count):
        before = len(judge.sent)
        judge.spool.put(raw, {"source": "fuzz"})
        for name in judge.spool.pending():
            judge.worker.process(name)
        for row in judge.sent[before:]:
            checked += 1
            assert not passwordfuzz.leaks(row["raw"], secrets), (raw[:400], row["raw"][:3000])
    assert checked >= count * 0.9                     # nearly every mail is answered


def test_the_sweep_finds_a_password_where_one_is():
    answer = "Subject: Re: x\nContent-Type: text/plain\n\n> signon fz hunter22\n"
    assert passwordfuzz.leaks(answer, {"Hunter22"}) == ["Hunter22"]
    assert passwordfuzz.leaks(answer, {"hunter2"}) == []
    gb = "Subject: x\nContent-Type: text/plain; charset=gb18030\nContent-Transfer-Encoding: base64\n\n" + \
        __import__("base64").b64encode("登录 fz pw-secret".encode("gb18030")).decode() + "\n"
    assert passwordfuzz.leaks(gb, {"pw-secret"}) == ["pw-secret"]


@pytest.mark.parametrize("line", ["ߵ¼ fz depass1", "SI\ud7ffGN O①N fz depass1"])
def test_a_damaged_sign_on_line_among_a_players_orders_keeps_its_password(tmp_path, line):
    """Found by benchmarks/fuzz.py (seed 7, mails 2004–3728): a player signed on
    and writing orders, then a sign-on line whose word is damaged beyond reading;
    the line is passed over as talk — and its note must not quote the password
    after the game's name (it did: the mask looked there only outside orders)."""
    judge = Judge(tmp_path)
    for raw in mailfuzz.setup_mails("2024-01-10T20:00"):
        assert judge.raw(raw)
    answer = judge.mail("de@fuzz.test", f"SIGNON fz depass1\nA Ber H\n{line}\nA Mun H\n")
    text = answer.get_body(("plain",)).get_content()
    assert "depass1" not in text and "passed over" in text


def test_a_game_named_in_a_sentence_masks_no_word(tmp_path):
    """Issue 18: no word that is not a password is masked — a player's talk
    naming a game ("I think fz seems fun") is quoted as written, while a sign-on
    line damaged beyond reading still has its password masked."""
    judge = Judge(tmp_path)
    for raw in mailfuzz.setup_mails("2024-01-10T20:00"):
        assert judge.raw(raw)
    text = judge.mail("fr@fuzz.test", "SIGNON fz frpass1\nA Par H\nI think fz seems fun\n").get_body(("plain",)).get_content()
    assert "I think fz seems fun" in text                   # among a signed-on player's orders too
    text = judge.mail("fr@fuzz.test", "HELP\nSI\ufffdGN O①N fz depass1\n").get_body(("plain",)).get_content()
    assert "depass1" not in text


def _game_g1(tmp_path) -> Judge:
    j = Judge(tmp_path)
    j.text("gm@x.org", "CREATE g1 gmpass1")
    j.text("fr@x.org", "JOIN g1 frpass1 France")
    return j


def _sent_text(mails) -> str:
    return "\n".join(m.get_body(("plain",)).get_content() for m in mails)


@pytest.mark.parametrize("frm,body,secret", [
    ("fr@x.org", "SIG\x1dON gd frpass1", "frpass1"),         # a control byte in SIGNON, the game damaged too
    ("someone@x.org", "\x15\ufffd\ufffdATE far1 farpass1 deadline=2030-01-01T00:00", "farpass1"),   # CREATE, no game
    ("fr@x.org", "SIGNON g1 frpass1\nA Par H\nq\ufffd\x07irCSET PASSWORD newpass9", "newpass9"),    # junk glued to SET
    ("fr@x.org", "SIGNON g1 frpass1\nA Par H\nSE〇T PASSWORD newpass9", "newpass9"),      # a sign inside SET
    ("fr@x.org", "SIGNON g1 `<f\ufffd9\x17\u06b6\x05V\ufffdwrongpw1", "wrongpw1"),        # junk before the password
    ("fr@x.org", "SI\u3000GNON g\x001 frpass1\nA Par H", "frpass1"),        # the game's name with damage inside
    ("someone@x.org", "Subject: JOIN \x0e1 frpass9 France", "frpass9"),     # one letter of the game's name lost
    ("fr@x.org", "Mpssage-ID: <x\ufffd@y>\ufffd\x13SIGNON \ufffd\x07 frpass1", "frpass1"),   # the game's word all lost
    ("someone@x.org", "\ufffd5S\ufffd farpass9 deadline=2030-01-01T00:00", "farpass9"),   # CREATE and game lost
    ("someone@x.org", "CREATE far9 farpass9 end_a" + "A Par - Bur " * 200, "farpass9"),    # a line too long to read
    ("someone@x.org", "CREATE\ufffdfar9 farpass9 \ufffdeadline\ufffd2030-01-01T00:00 \ufffdovemen\ufffd=2d", "farpass9"),
])
def test_a_password_after_a_damaged_verb_word_or_behind_junk_is_masked(tmp_path, frm, body, secret):
    """Found by benchmarks/fuzz.py (seed 7, mails 2994, 4460, 4832, 5218,
    5242, 5290; seed 11, mails 242, 3026, 5030, 5488): a sign-on, CREATE or
    SET word with damage in it (a byte the charset could not read, a control
    byte, junk glued before it) still has the word in its password's place
    masked, whether the game exists or not; so has the word after a game's
    name with damage inside it (even in a line read as talk among orders) or
    with one character of it lost, the word after a sign-on word whose game's
    word is all damage, and the word between damage and a CREATE's settings;
    a password glued behind junk in its own word is masked whole (it was cut
    in two, the first piece masked, the password left); a line too long to be
    read is quoted with its command's password masked."""
    j = _game_g1(tmp_path)
    text = _sent_text(j.mails(frm, body))
    assert secret not in text and "********" in text, text


@pytest.mark.parametrize("line", [
    "Caf\ufffd tonight? I ate late, then we create a plan and join forces",     # a damaged word that is no verb
    "I\ufffdll set my password tomorrow, and sign on later",
    "Well, I\ufffdll join \ufffd\ufffd tomorrow",                           # JOIN not first, its game all damage
    "Hi\ufffd all, please deadline=Friday",                                  # a setting, no damaged word before its word
])
def test_a_damaged_word_that_is_no_verb_masks_no_word(tmp_path, line):
    """Issue 18: a player's text with damage in one of its words (a mislabelled
    charset) is quoted as written, outside and among orders: only a word
    that reads as a verb with its damage masks the word in a password's place."""
    j = _game_g1(tmp_path)
    assert line in j.text("someone@x.org", line)
    text = j.text("fr@x.org", f"SIGNON g1 frpass1\nA Par H\n{line}")
    assert line in text and text.count("********") == 1, text          # the SIGNON line's password only


def test_talk_naming_a_game_beside_a_damaged_word_masks_no_word(tmp_path):
    """Issue 18: among a player's orders, only a game's name with damage inside
    it (f\\x00z) masks the word after it; talk naming the game as written
    beside a damaged word elsewhere in the line is quoted as written."""
    j = _game_g1(tmp_path)
    line = "I think g1 seems fun, caf\ufffd later"
    text = j.text("fr@x.org", f"SIGNON g1 frpass1\nA Par H\n{line}")
    assert line in text and text.count("********") == 1, text


def test_a_line_too_long_to_read_is_quoted_as_written_unless_it_is_a_password_command(tmp_path):
    """A line over ``[limits] line_chars`` is refused unread and quoted (its
    first 60 characters): as written, but for a command's password (the
    CREATE case is in the test above)."""
    j = _game_g1(tmp_path)
    text = j.text("someone@x.org", "LIST g1 now " + "please " * 200)
    assert "> LIST g1 now please please" in text or "LIST g1 now please please" in text, text
    assert "********" not in text


def test_a_chinese_sign_on_line_whose_game_is_lost_in_a_mislabelled_mail_keeps_its_password(tmp_path):
    """Found by benchmarks/fuzz.py (seed 11, mail 4654): 登入 fz pw in Big5,
    its game's two bytes damaged, labelled GB18030: read so, the line is
    "祅\\ue5f0 嚪 pw" (no sign-on word left); read as Big5 it is 登入, a word of
    damage, pw — the word after the lost game is the password. A JOIN not at
    the start of a line before damage masks nothing (the other test)."""
    j = _game_g1(tmp_path)
    raw = (b"From: someone@x.org\nTo: judge@example.test\nSubject: orders\nMessage-ID: <big5-lost@x>\n"
           b"MIME-Version: 1.0\nContent-Type: text/plain; charset=\"gb18030\"\nContent-Transfer-Encoding: 8bit\n\n"
           + "登入 ".encode("big5") + b"\x87\xb7 frpass9\n")
    text = _sent_text(j.raw(raw))
    assert "frpass9" not in text and "********" in text, text
