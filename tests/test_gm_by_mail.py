"""GM and player commands of a running game by mail (issue 4 §2, §4-5):
SET DEADLINE, EXTEND, PAUSE, RESUME, PROCESS, ROLLBACK, EJECT, REPLACE,
BECOME, SET key=value, SET WAIT/NOWAIT, SET ABSENCE, OBSERVE, press; and the
deadline work of the scheduler, done by the worker. The worker runs in this
process with the clock pinned; the mails it would send are read from its
outbox rows."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from mailjudge import GM, POWERS, T0, UTC, addr, started, to


@pytest.fixture
def judge(tmp_path):
    j = started(tmp_path, "CREATE g gmsecret grace=1d reminders=none")
    assert j.game()["schedule"]["deadline"] == (T0 + timedelta(days=2)).isoformat()
    return j


def test_deadline_commands_and_pause(judge):
    out = to(judge.mail(GM, "SIGNON g gmsecret\nSET DEADLINE 2025-01-10 18:00\n"))
    assert "the deadline of S1901M is now Fri 10 Jan 2025 18:00" in out[GM][0]
    assert set(out) == {GM} | {addr(p) for p in POWERS}
    assert "The deadline for orders is Fri 10 Jan 2025 18:00 UTC." in out[addr("Italy")][0]
    out = to(judge.mail(GM, "SIGNON g gmsecret\nEXTEND 1d\n"))
    assert "extended to Sat 11 Jan 2025 18:00" in out[GM][0]
    out = to(judge.mail(GM, "SIGNON g gmsecret\nPAUSE 2d\n"))
    assert "is paused" in out[GM][0] and "paused game 'g'" in out[addr("France")][0]
    judge.now = T0 + timedelta(days=1)
    out = to(judge.mail(GM, "SIGNON g gmsecret\nRESUME\n"))
    assert "runs again" in out[GM][0]
    # the phase had 5 days 6 hours left when paused; it gets them back
    assert judge.game()["schedule"]["deadline"] == datetime(2025, 1, 12, 18, tzinfo=UTC).isoformat()
    out = to(judge.mail(addr("France"), "SIGNON g pw-france\nEXTEND 1d\n"))
    assert "only the GM may do that" in out[addr("France")][0]
    out = to(judge.mail(GM, "SIGNON g gmsecret\nSET DEADLINE 2025-01-01 18:00\n"))
    assert "refused: the new deadline must be in the future" in out[GM][0]


@pytest.mark.parametrize("line", ["SET DEADLINE 2024-13-01 10:00", "SET DEADLINE 2025-01-10 25:00",
                                  "SET DEADLINE yesterday", "SET DEADLINE", "设置截止 2025-02-30", "START 10/01"])
def test_a_time_the_judge_cannot_read_gets_the_form_to_write_in_the_readers_language(judge, line):
    deadline = judge.game()["schedule"]["deadline"]
    command = "START" if line.startswith("START") else "SET DEADLINE"
    text = to(judge.mail(GM, f"SIGNON g gmsecret\n{line}\n"))[GM][0]
    written = line.removeprefix(command).removeprefix("设置截止").strip()
    said = f'cannot read the date "{written}"' if written else "no date given"
    assert f"Error: {said}: write it as {command} 2025-01-08 20:00 (in the game's time zone, UTC) " \
           f"or with an offset from UTC, as {command} 2025-01-08T20:00+00:00." in text
    for raw in ("must be in", "out of range", "isoformat", "refused"):
        assert raw not in text
    text = to(judge.mail(GM, f"SIGNON g gmsecret\nSET LANGUAGE zh-hans\n{line}\n"))[GM][0]
    said = f"无法读取日期“{written}”" if written else "没有写日期"
    assert f"错误：{said}：请写成 {command} 2025-01-08 20:00（按游戏的时区 UTC），" \
           f"或注明与 UTC 的时差：{command} 2025-01-08T20:00+00:00。" in text
    assert judge.game()["schedule"]["deadline"] == deadline


def test_an_absence_date_the_judge_cannot_read_shows_the_form_in_the_game_time_zone(judge):
    judge.mail(GM, "SIGNON g gmsecret\nSET timezone=Asia/Shanghai\n")
    text = to(judge.mail(addr("Italy"), "SIGNON g pw-italy\nSET ABSENCE FROM 2025-01-07 TO 2025-02-30\n"))
    assert 'Error: cannot read the date "2025-02-30": write it as SET ABSENCE FROM 2025-01-08 TO 2025-01-12 ' \
           "(in the game's time zone, Asia/Shanghai)." in text[addr("Italy")][0]
    text = to(judge.mail(addr("Italy"), "SIGNON g pw-italy\nSET LANGUAGE zh-hant\nSET ABSENCE FROM 7/1 TO 9/1\n"))
    assert "錯誤：無法讀取日期「7/1」：請寫成 SET ABSENCE FROM 2025-01-08 TO 2025-01-12（按遊戲的時區 Asia/Shanghai）。" \
        in text[addr("Italy")][0]
    assert judge.game()["schedule"]["absences"] == {}


def test_process_rollback_and_settings(judge):
    judge.mail(addr("France"), "SIGNON g pw-france\nA Par - Bur\n")
    out = to(judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n"))
    assert "S1901M adjudicated" in out[GM][0]
    results = out[addr("France")][0]
    assert "Game g: Spring 1901 Movement (S1901M)" in results and "France: A Par - Bur." in results
    assert judge.game()["position"]["phase"] == "F1901M"
    out = to(judge.mail(GM, "SIGNON g gmsecret\nROLLBACK S1901M\n"))
    assert "is back at Spring 1901 Movement" in out[GM][0]
    assert "rolled game 'g' back to Spring 1901 Movement (S1901M)" in out[addr("Italy")][0]
    game = judge.game()
    assert game["position"]["phase"] == "S1901M" and game["history_len"] == 0
    assert [o["text"] for o in game["orders"]["France"]] == ["A Par - Bur"]
    out = to(judge.mail(GM, "SIGNON g gmsecret\nSET press=none grace=2h solo=16\n"))
    assert "settings changed: press=none, grace=2h, solo=16" in out[GM][0]
    settings = judge.game()["settings"]
    assert settings["press"]["allowed"] is False and settings["deadlines"]["grace_hours"] == 2
    assert settings["victory"]["solo_centres"] == 16
    out = to(judge.mail(addr("England"), "SIGNON g pw-england\nBROADCAST\nhello\nENDPRESS\n"))
    assert list(out) == [addr("England")] and "press not sent: this game has no press" in out[addr("England")][0]
    out = to(judge.mail(GM, "SIGNON g gmsecret\nSET colour=red\n"))
    assert "refused:" in out[GM][0]


def test_eject_replace_and_become(judge):
    out = to(judge.mail(GM, "SIGNON g gmsecret\nEJECT Italy\n"))
    assert "Italy has no player now" in out[GM][0]
    assert "removed you from game 'g'" in out[addr("Italy")][0]
    out = to(judge.mail(GM, "SIGNON g gmsecret\nBECOME Italy\nA Ven - Tyr\nF Nap - Ion\n"))
    assert "the order lines that follow are those of Italy" in out[GM][0] and "F Nap - Ion" in out[GM][0]
    assert [o["text"] for o in judge.game()["orders"]["Italy"]] == ["A Ven - Tyr", "F Nap - Ion"]
    out = to(judge.mail(GM, "SIGNON g gmsecret\nBECOME France\n"))
    assert "France has a player" in out[GM][0]
    out = to(judge.mail(GM, "SIGNON g gmsecret\nREPLACE France newpass\n"))
    assert "France is open to a replacement" in out[GM][0] and addr("France") in out
    out = to(judge.mail("newfrance@example.org", "JOIN g wrongpass France\n"))
    assert "wrong password" in out["newfrance@example.org"][0]
    out = to(judge.mail("newfrance@example.org", "JOIN g newpass\n"))
    assert "You joined game \"g\" as France" in out["newfrance@example.org"][0]
    assert judge.game()["players"]["France"]["addresses"] == ["newfrance@example.org"]


def test_wait_absence_observe_and_early_processing(judge):
    out = to(judge.mail("watcher@example.org", "OBSERVE g\n"))
    assert "You observe game \"g\"" in out["watcher@example.org"][0]
    orders = {"Austria": "A Vie H\nA Bud H\nF Tri H", "England": "F Lon H\nF Edi H\nA Lvp H",
              "France": "F Bre H\nA Par H\nA Mar H", "Germany": "F Kie H\nA Ber H\nA Mun H",
              "Italy": "F Nap H\nA Rom H\nA Ven H", "Russia": "F StP H\nA Mos H\nA War H\nF Sev H",
              "Turkey": "F Ank H\nA Con H\nA Smy H"}
    out = to(judge.mail(addr("France"), "SIGNON g pw-france\nSET WAIT\n" + orders["France"]))
    assert "France waits" in out[addr("France")][0]
    out = to(judge.mail(addr("Italy"), "SIGNON g pw-italy\nSET ABSENCE FROM 2025-01-07 TO 2025-01-09\n"))
    assert "Absence of Italy" in out[addr("Italy")][0]
    assert judge.game()["schedule"]["deadline"] == datetime(2025, 1, 10, tzinfo=UTC).isoformat()
    assert "The deadline for orders is Fri 10 Jan 2025 00:00 UTC." in out[addr("Turkey")][0]
    for p, text in orders.items():
        if p != "France":
            judge.mail(addr(p), f"SIGNON g pw-{p.lower()}\n{text}\n")
    assert judge.work() == []                       # France waits: no early processing
    judge.mail(addr("France"), "SIGNON g pw-france\nSET NOWAIT\n")
    mails = judge.work(phase="S1901M")
    assert {str(m["To"]) for m in mails} == {addr(p) for p in POWERS} | {GM, "watcher@example.org"}
    assert all(m["Subject"] == "Diplomacy results g S1901M" for m in mails)
    # the same work again, or work planned for a phase that is over: nothing
    assert judge.work(phase="S1901M") == [] and judge.work() == []


def test_deadline_work_late_notice_and_grace(judge):
    judge.now = T0 + timedelta(days=2)
    mails = judge.work(phase="S1901M")
    assert sorted(str(m["To"]) for m in mails) == sorted({addr(p) for p in POWERS} | {GM})
    assert all("late notice" in m["Subject"] for m in mails)
    judge.now = T0 + timedelta(days=3)
    mails = judge.work(phase="S1901M")
    assert len(mails) == 8 and all("results" in m["Subject"] for m in mails)
    assert judge.game()["schedule"]["nmr"] == {p: 1 for p in POWERS}


def test_cli_gm_commands_while_no_judge_runs_leave_their_mails_in_the_outbox(judge, tmp_path, capsys):
    """No judge runs: the command does its work itself, with the judge's own
    worker and commit; its mails wait in the outbox for the judge's start."""
    from judge.cli import main
    before = judge.game()["schedule"]["deadline"]
    assert main(["game", "gm", "g", "extend", "1d", "--data", str(tmp_path)]) == 0
    assert "Deadline:" in capsys.readouterr().out
    mails = judge.pending()
    assert len(mails) == 8 and all("deadline" in m["Subject"] for m in mails)
    assert judge.game()["schedule"]["deadline"] > before        # the command's clock is the machine's


def test_end_of_game_commands_by_mail(judge):
    out = to(judge.mail(addr("France"), "SIGNON g pw-france\nALLY England\n"))
    assert "refused: alliances cannot win" in out[addr("France")][0]
    judge.mail(GM, "SIGNON g gmsecret\nSET alliance=16\n")
    out = to(judge.mail(addr("France"), "SIGNON g pw-france\nALLY England\n"))
    assert "France declares an alliance with England; it is in force once" in out[addr("France")][0]
    out = to(judge.mail(addr("England"), "SIGNON g pw-england\nALLY France\n"))
    assert "the alliance is in force" in out[addr("England")][0]
    out = to(judge.mail(addr("Italy"), "SIGNON g pw-italy\nVOTE BEST STRATEGY Italy\n"))
    assert "refused:" in out[addr("Italy")][0]
    out = to(judge.mail(addr("Italy"), "SIGNON g pw-italy\nCONCEDE Atlantis\n"))
    assert "refused:" in out[addr("Italy")][0]
    for p in POWERS[:-1]:
        out = to(judge.mail(addr(p), f"SIGNON g pw-{p.lower()}\nDRAW\n"))
        assert f"{p} votes for a draw." in out[addr(p)][0] and len(out) == 1
    mails = judge.mail(addr("Turkey"), "SIGNON g pw-turkey\n和局\n")
    out = to(mails)
    assert "游戏结束" in out[addr("Turkey")][0] or "The game is over" in out[addr("Turkey")][0]
    over = [m for m in mails if m["Subject"].startswith("Diplomacy game over")]
    assert {str(m["To"]) for m in over} == {addr(p) for p in POWERS} | {GM}
    game = judge.game()
    assert game["ending"]["result"] is not None and game["schedule"]["deadline"] is None


def test_history_summary_and_map_by_mail(judge):
    judge.mail(addr("France"), "SIGNON g pw-france\nA Par - Bur\n")
    judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    [reply] = judge.mail("anyone@example.org", "HISTORY g FROM S1901M\nSUMMARY g\nMAP g S1901M\n")
    text = reply.get_body(("plain",)).get_content()
    assert "Game g: Spring 1901 Movement (S1901M)" in text and "France: A Par - Bur." in text
    assert "Players:" in text and "The map is attached: g-S1901M.png." in text
    [png] = [p for p in reply.iter_attachments()]
    assert png.get_content_type() == "image/png" and png.get_filename() == "g-S1901M.png"
    assert png.get_content().startswith(b"\x89PNG")
    [reply] = judge.mail("anyone@example.org", "MAP g S1901M SVG\n")        # the SVG too, when asked
    assert "The map is attached: g-S1901M.png, g-S1901M.svg." in reply.get_body(("plain",)).get_content()
    png, svg = reply.iter_attachments()
    assert svg.get_content_type() == "image/svg+xml" and svg.get_filename() == "g-S1901M.svg"
    assert b"<svg" in svg.get_content()
    [reply] = judge.mail("reader@example.org", "歷史 g\n")      # not a player: answered in the mail's language
    assert "春季" in reply.get_body(("plain",)).get_content()
    [reply] = judge.mail("anyone@example.org", "HISTORY nosuch\n")
    assert 'there is no game "nosuch"' in reply.get_content()


def test_gm_rulings_by_mail_end_passive_award(judge):
    """END, PASSIVE and AWARD (and their Chinese words): the GM's rulings; the
    game's end, and a ruling after it, mail everyone the final report."""
    out = to(judge.mail(addr("France"), "SIGNON g pw-france\nEND\n"))
    assert "only the GM may do that" in out[addr("France")][0]
    assert judge.game()["ending"]["result"] is None
    out = to(judge.mail(GM, "SIGNON g gmsecret\nPASSIVE Italy 3\nAWARD BEST STRATEGY France\n"
                            "PASSIVE Italy lots\n"))
    text = out[GM][0]
    assert "the player of Italy is ruled passive" in text and "fine of 3 points" in text
    assert "the best strategy award goes to France" in text and "not a whole number" in text
    assert set(out) == {GM}                          # the game runs: only the GM hears of it
    mails = judge.mail(GM, "SIGNON g gmsecret\nEND DRAW France England Italy\n")
    out = to(mails)
    assert "you ended it as a draw of England, France, Italy" in out[GM][0]
    over = [m for m in mails if m["Subject"].startswith("Diplomacy game over")]
    assert {str(m["To"]) for m in over} == {addr(p) for p in POWERS} | {GM}
    report = to(over)[addr("Russia")][0]
    assert "drawn between England, France and Italy" in report and "best strategy award +1200k" in report
    game = judge.game()
    assert game["ending"]["result"]["kind"] == "draw" and game["schedule"]["deadline"] is None
    mails = judge.mail(GM, "SIGNON g gmsecret\n颁奖 外交 意大利\n")        # AWARD DIPLOMACY Italy
    over = [m for m in mails if m["Subject"].startswith("Diplomacy game over")]
    assert len(over) == 8 and "Best diplomacy award: Italy" in to(over)[GM][0]
    mails = judge.mail(GM, "SIGNON g gmsecret\n判定消极 意大利 none\n")    # PASSIVE Italy NONE
    assert "the passive ruling on Italy is withdrawn" in to(mails)[GM][0]
    assert judge.game()["ending"]["passive"] == {}
    out = to(judge.mail(GM, "SIGNON g gmsecret\n结束游戏\n"))           # END: over already
    assert "refused" in out[GM][0]


def test_the_gm_is_told_when_a_replacement_takes_over(judge):
    judge.mail(GM, "SIGNON g gmsecret\nREPLACE Italy newpass\n")
    mails = judge.mail("newitaly@example.org", "JOIN g newpass Italy\n")
    out = to(mails)
    assert "You joined game \"g\" as Italy" in out["newitaly@example.org"][0]
    assert "You took over Italy in Spring 1901 Movement (S1901M). Deadline: Wed 08 Jan 2025 12:00 UTC." \
        in out["newitaly@example.org"][0]
    assert "All powers are taken" not in out["newitaly@example.org"][0]
    [notice] = out[GM]
    assert "newitaly@example.org has taken over Italy in game 'g'" in notice


def test_vacant_and_abandoned_powers_do_not_hold_up_early_processing(judge):
    """Italy ejected (vacant), Turkey abandoned: the others' orders end the
    phase at once; the two get the NMR defaults (units hold)."""
    judge.mail(GM, "SIGNON g gmsecret\nEJECT Italy\n")
    doc = judge.game()
    doc["schedule"]["abandoned"] = ["Turkey"]
    with judge.store.transaction() as tx:
        tx.put("games", "g", doc)
    for p in POWERS:
        if p not in ("Italy", "Turkey"):
            judge.mail(addr(p), f"SIGNON g pw-{p.lower()}\n" + {
                "Austria": "A Vie H\nA Bud H\nF Tri H", "England": "F Lon H\nF Edi H\nA Lvp H",
                "France": "F Bre H\nA Par H\nA Mar H", "Germany": "F Kie H\nA Ber H\nA Mun H",
                "Russia": "F StP H\nA Mos H\nA War H\nF Sev H"}[p])
    mails = judge.work(phase="S1901M")            # what the daemon does after each mail
    assert any(m["Subject"] == "Diplomacy results g S1901M" for m in mails)
    game = judge.game()
    assert game["schedule"]["phase"] == "F1901M"
    assert game["schedule"]["missed"] == {"Italy": ["S1901M"], "Turkey": ["S1901M"]}


def test_create_reads_end_at_in_the_games_time_zone(judge):
    judge.mail("gm2@example.org", "CREATE h secret2 timezone=Asia/Shanghai end_at=2027-01-01T00:00\n")
    assert judge.store.get("games", "h")["settings"]["victory"]["end_at"] == "2026-12-31T16:00:00+00:00"
    judge.mail("gm2@example.org", "SIGNON h secret2\nSET end_at=2027-06-01T08:00\n")
    assert judge.store.get("games", "h")["settings"]["victory"]["end_at"] == "2027-06-01T00:00:00+00:00"


def test_cli_end_mails_the_final_report(judge, tmp_path, capsys):
    from judge.cli import main
    assert main(["game", "end", "g", "--members", "France", "Italy", "--data", str(tmp_path)]) == 0
    mails = judge.pending()
    assert {str(m["To"]) for m in mails} == {addr(p) for p in POWERS} | {GM}
    assert all(m["Subject"].startswith("Diplomacy game over") for m in mails)
    capsys.readouterr()
    assert main(["game", "gm", "g", "status", "--data", str(tmp_path)]) == 0
    assert main(["game", "passive", "g", "Italy", "2", "--data", str(tmp_path)]) == 0
    mails = judge.pending()[8:]
    assert len(mails) == 8 and "fined 2 points" in to(mails)[GM][0]


def test_a_game_by_mail_ends_in_an_alliance_victory_and_everyone_gets_the_scores(judge):
    """Issue 5, done when: a game by mail ends by an alliance victory (RULES.md §4 b)
    and everyone receives the final scores (Appendix 2: SCs, +6 per ally, 2000k coins).
    England and France hold 17 SCs between them in Fall 1901; the French army in
    Burgundy takes Munich, the 18th; after the Fall the alliance has won."""
    from judge.game import Game
    from judge.rules.position import Position, Unit

    judge.mail(GM, "SIGNON g gmsecret\nSET alliance=18\n")
    judge.mail(addr("France"), "SIGNON g pw-france\nALLY England\n")
    judge.mail(addr("England"), "SIGNON g pw-england\n同盟 法国\n")   # ALLY France, in Chinese
    game = Game.from_dict(judge.game())
    owners = dict(game.position.sc_owners)
    for sc in ("bel", "hol", "den", "nwy", "spa", "por"):
        owners[sc] = "England" if sc in ("bel", "hol", "den", "nwy") else "France"
    for sc in ("swe", "kie", "ber", "tun", "gre"):     # 6 home + 6 above + these 5 = 17
        owners[sc] = "England"
    units = {p: u for p, u in game.position.units.items() if u.power not in ("Germany",)}
    units["bur"] = Unit("France", "A", "bur")
    units["ruh"] = Unit("France", "A", "ruh")
    game.position = Position("F1901M", units, owners)
    with judge.store.transaction() as tx:
        tx.put("games", "g", game.to_dict())
    assert sum(1 for p in owners.values() if p in ("England", "France")) == 17
    judge.mail(addr("France"), "SIGNON g pw-france\nA Bur - Mun\nA Ruh S A Bur - Mun\n")
    mails = judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    over = [m for m in mails if m["Subject"].startswith("Diplomacy game over")]
    assert {str(m["To"]) for m in over} == {addr(p) for p in POWERS} | {GM}
    report = to(over)[addr("Russia")][0]
    assert "England" in report and "France" in report and "alliance" in report.lower()
    assert "+6" in report and "2000k" in report
    ending = judge.game()["ending"]["result"]
    assert ending["kind"] == "alliance" and sorted(ending["sides"][0]) == ["England", "France"]


def test_several_gm_changes_in_one_mail_reach_players_as_one_mail_each_with_the_final_deadline(judge):
    out = to(judge.mail(GM, "SIGNON g gmsecret\nSET press=white\nSET grace=1h\nEXTEND 5m\nEXTEND 5m\n"))
    final = T0 + timedelta(days=2, minutes=10)
    assert judge.game()["schedule"]["deadline"] == final.isoformat()
    mails = out[addr("Italy")]
    assert len(mails) == 2
    clock = next(m for m in mails if "extended the deadline" in m)
    assert "The deadline for orders is Wed 08 Jan 2025 12:10 UTC." in clock and "12:05" not in clock
    settings = next(m for m in mails if "changed the settings" in m)
    assert "press=white" in settings and "grace=1h" in settings


def test_orders_and_commands_for_a_game_that_is_over_get_a_normal_answer(judge):
    judge.mail(GM, "SIGNON g gmsecret\nEND\n")
    body = "SIGNON g pw-france\nA Par - Bur\nSET WAIT\nDRAW\nBROADCAST\nhello\nENDPRESS\n"
    out = to(judge.mail(addr("France"), body))
    text = out[addr("France")][0]
    assert "refused: game g is over (S1901M)" in text and "internal error" not in text
    assert text.count("game g is over") >= 2            # the orders and the DRAW
    assert judge.spool.pending() == [] and not list((judge.spool.root / "shunted").glob("*"))
    out = to(judge.mail(GM, "SIGNON g gmsecret\nEXTEND 1h\nPAUSE\nPROCESS\nSET DEADLINE 2026-01-01 10:00\n"))
    assert out[GM][0].count("refused:") == 4 and "internal error" not in out[GM][0]
    judge.mail(addr("Italy"), "SIGNON g pw-italy\nSET LANGUAGE zh-hans\n")
    out = to(judge.mail(addr("Italy"), "SIGNON g pw-italy\nA Ven - Tyr\n"))
    assert "未执行：游戏 g 已结束（S1901M）。" in out[addr("Italy")][0]


def test_game_refusals_are_in_the_readers_language(judge):
    judge.mail(addr("France"), "SIGNON g pw-france\nSET LANGUAGE zh-hans\n")
    text = to(judge.mail(addr("France"), "SIGNON g pw-france\n结盟 英国\n"))[addr("France")][0]
    assert "错误：未执行：游戏 g 没有联盟获胜条件，不能结盟。" in text and "alliance" not in text
    judge.mail(GM, "SIGNON g gmsecret\nSET LANGUAGE zh-hant\n")
    text = to(judge.mail(GM, "SIGNON g gmsecret\nBECOME 法国\nSET DEADLINE 2020-01-01 10:00\n"
                             "EJECT Prussia\nREPLACE Italy abc\n"))[GM][0]
    assert "法國有玩者；請先 EJECT 或 REPLACE" in text and "新的截止時間必須在將來" in text
    assert "本局沒有國家「Prussia」" in text and "密碼至少4個字元" in text
    judge.mail(GM, "SIGNON g gmsecret\nSET press=none\n")
    text = to(judge.mail(addr("France"), "SIGNON g pw-france\nBROADCAST\nhi\nENDPRESS\n"))[addr("France")][0]
    assert "信件未发出：本局不允许信件往来。" in text


def test_adjustment_replies_count_builds_and_name_misspelt_order_words(judge):
    judge.mail(addr("Germany"), "SIGNON g pw-germany\nF Kie - Hol\nA Mun - Ruh\n")
    judge.mail(addr("England"), "SIGNON g pw-england\nF Lon - Nth\n")
    judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    judge.mail(addr("Germany"), "SIGNON g pw-germany\nA Ruh - Bel\n")
    judge.mail(addr("England"), "SIGNON g pw-england\nF Nth - Nwy\n")
    judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    assert judge.game()["position"]["phase"] == "W1901A"
    text = to(judge.mail(addr("Germany"), "SIGNON g pw-germany\nBuild A Kie\n"))[addr("Germany")][0]
    assert "Germany may build 2: 1 ordered, 1 left (unused builds are waived at the deadline)." in text
    assert "has an order" not in text
    text = to(judge.mail(addr("Germany"), "SIGNON g pw-germany\nBuild A Nwy\nBiuld F Mun\n"))[addr("Germany")][0]
    assert "Norway is not a home centre of Germany" in text           # though an English fleet is there
    assert '"Biuld" is not an order word; did you mean Build?' in text
    text = to(judge.mail(addr("Germany"), "SIGNON g pw-germany\nWaive\n"))[addr("Germany")][0]
    assert "Germany may build 2: 2 ordered." in text


def test_lengths_are_shown_with_units_and_a_length_without_one_is_refused(judge):
    text = to(judge.mail(GM, "CREATE h gmsecret movement=10m retreat=36h grace=90m pause_limit=14d\n"))[GM][0]
    assert "movement=10m" in text and "retreat=36h" in text and "grace=1h30m" in text
    assert "pause_limit=14d" in text and "reminders=24h,1h" in text and "0.1666" not in text
    text = to(judge.mail(GM, "SIGNON g gmsecret\nSET movement=5\n"))[GM][0]
    assert '"5" has no unit: write 5h, 5d or 5m' in text
    assert judge.game()["settings"]["deadlines"]["movement"]["hours"] == 48


def test_deadlines_fall_on_whole_minutes_and_pause_and_resume_say_zone_and_least_hour(judge):
    judge.now = T0 + timedelta(seconds=42, microseconds=1234)
    judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    assert judge.game()["schedule"]["deadline"] == (T0 + timedelta(days=2)).isoformat()
    text = to(judge.mail(GM, "SIGNON g gmsecret\nPAUSE 1d\n"))[GM][0]
    assert "it resumes by itself on Tue 07 Jan 2025 12:00 UTC at the latest" in text
    text = to(judge.mail(GM, "SIGNON g gmsecret\nRESUME\n"))[GM][0]
    assert "(the time the phase had left when paused, and at least an hour)" in text
    assert judge.game()["schedule"]["deadline"] == (T0 + timedelta(days=2)).isoformat()
    text = to(judge.mail(GM, "HELP\n"))[GM][0]
    assert "deadline=2025-01-20T20:00" in text and "at least 4 characters" in text and "least an hour" in text


def test_a_chinese_mail_is_answered_in_the_script_it_is_written_in(judge):
    judge.mail(addr("France"), "SIGNON g pw-france\nSET LANGUAGE zh-hans\n")
    text = to(judge.mail(addr("France"), "登錄 g pw-france\n巴黎陸軍移動到勃艮第\n"))[addr("France")][0]
    assert "登入" in text or "遊戲" in text
    assert "游戏" not in text
    text = to(judge.mail(addr("France"), "登录 g pw-france\n巴黎陆军移动到勃艮第\n"))[addr("France")][0]
    assert "游戏" in text
    assert judge.game()["players"]["France"]["language"] == "zh-hans"


def test_set_alone_is_answered_with_its_usage_and_changes_nothing(judge):
    before = judge.game()
    out = to(judge.mail(GM, "SIGNON g gmsecret\nSET\n"))
    assert set(out) == {GM} and "usage: SET key=value ..." in out[GM][0]
    assert "did you mean" not in out[GM][0] and "settings changed" not in out[GM][0]
    assert judge.game() == before
