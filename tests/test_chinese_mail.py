"""A Chinese mail is Chinese (issue 11): whatever it tells — results with
void and illegal orders, refusals of every kind, the final report with
awards and fines, every notice — in either script and either name set, it
holds no English word outside order notation, game names, phase codes,
addresses, the command words players type and njudge's ``::`` lines.

The property is checked over every reason code the judge has, every notice
kind, and random games (seeded): random orders, legal and not, by every
power, adjudicated, their results mailed in Chinese."""

from __future__ import annotations

import random
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from browser.sample import sample_game
from test_game_ending_report import ended  # noqa: F401 - the fixture: an alliance win, a fine, an award vote
from judge.game import Game, GameError, Line, Player
from judge.game.setting_text import KEYS, SPECIAL, change_settings
from judge.verbs import registry
from judge.maps import load_map
from judge.rules.legal import possible_orders
from judge.rules.orders import Build, Convoy, Disband, Hold, Move, Support
from judge.rules.position import Position, Unit
from judge.rules.reasons import Reason
from judge.text import Words
from judge.text.reasons import PHASE_KINDS, SENTENCES, TEXTS
from judge.text.reports import final_text, phase_text
from judge.text.templates import render, render_text, words_for

T0 = datetime(2025, 1, 6, 12, 0, tzinfo=timezone.utc)
CHINESE = [(lang, names) for lang in ("zh-hans", "zh-hant") for names in ("house", "standard")]
GOLDEN = Path(__file__).resolve().parent / "data" / "mail" / "chinese_results"

# ---- the property --------------------------------------------------------------------------
COMMAND_WORDS = {w for c in registry.VERBS for w in " ".join(c.en + c.veterans).split()} | {
    "RECORD", "LIST", "READ", "DELETE", "ENDDIARY", "ENDBROADCAST", "png", "svg", "game", "DPjudge", "README",
    "SET", "SIGN", "ON", "OFF", "PRESS", "BROADCAST", "ENDPRESS", "GREY", "TO", "FROM", "NONE", "BEST",
    "STRATEGY", "DIPLOMACY", "GM", "CLOSE", "ADD", "REMOVE", "NOMAIL"}
"""What players write: the command words (HELP, SIGNON ...)."""
SETTING_WORDS = set(KEYS) | set(SPECIAL) | {
    "none", "yes", "no", "white", "grey", "both", "share", "continue", "reach", "most", "secret", "public",
    "all_survivors", "any", "house", "standard", "dss", "sum_of_squares", "c_diplo", "gm", "vote",
    "gm_decides", "most_centres", "process", "extend", "datc", "droidippy", "strategy", "diplomacy",
    "en", "zh-hans", "zh-hant", "solo_centres", "alliance_centres", "tie_rule", "deadline", "settings",
    "HH", "MM", "mon", "tue", "wed", "thu", "fri", "sat", "sun", "mon-fri"}
"""What the GM writes in ``key=value`` settings."""
ORDER_WORDS = {"Hold", "Move", "Support", "Convoy", "Retreat", "Disband", "Build", "Remove", "Waive"}
TECHNICAL = {"UTC", "HTML", "MIME", "UTF", "GB", "GBK", "Big", "SVG", "IANA", "C-Diplo", "njudge", "Fgame", "From", "NoNMR",
             "DKIM"}
ALLOWED = COMMAND_WORDS | SETTING_WORDS | ORDER_WORDS | TECHNICAL
_NOTATION = re.compile(r"\b[AF] [A-Z][A-Za-z]{2}(?:/[a-z]{2})?(?: (?:-|S|C) (?:[AF] )?[A-Z][A-Za-z]{2})*|\S*[@=/]\S*|\b[SFW]\d{4}[MRA]\b|YYYY-MM-DDTHH:MM|\[原文：[^\]]*\]|\[原文：[^\]]*\]")
_WORD = re.compile(r"[A-Za-z][A-Za-z_'-]*[A-Za-z]")


def english_words(text: str, games=()) -> list[str]:
    """The English words of a mail outside what may be English (module doc)."""
    out = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("::") or line.lstrip().startswith(">"):
            continue                         # njudge's machine lines; the player's own lines quoted
        if line == "-- ":
            break                            # the signature: the judge's name and address
        line = _NOTATION.sub(" ", line)
        for g in games:
            line = re.sub(rf"(?<![A-Za-z]){re.escape(g)}(?![A-Za-z])", " ", line)
        out += [w for w in _WORD.findall(line) if w not in ALLOWED]
    return out


def test_the_property_can_fail():
    assert english_words("游戏 g7：法国 bounced（对峙）", ("g7",)) == ["bounced"]
    assert english_words(":: Judge: X  Game: g7\n> JOIN g7 pw France\n设置 solo=18 Asia/Shanghai UTC") == []
    assert english_words("您是指 Build 吗？\n-- \nDiplomacy Judge <j@x.org>") == []


# ---- reasons of every kind ----------------------------------------------------------------------
SAMPLE = {
    "province": "bur", "destination": "spa/nc", "origin": "lon", "location": "stp/sc", "ordered": "spa/nc",
    "named": "spa/sc", "unit": "F stp/sc", "power": "Russia", "powers": ["England", "France"],
    "expected_power": "France", "written": "A", "actual": "F", "unit_type": "F", "order": "support",
    "phase_kind": "R", "coasts": ["spa/nc", "spa/sc"], "count": 2, "n": 2, "limit": 14, "left": 3,
    "total": 34, "value": "'35'", "need": 18, "year": 1905, "fine": 3, "text": "某某", "what": "solo_centres",
    "keys": ["solo", "tie"], "group": "settings", "allowed": ["share", "continue"], "system": "dss",
    "role": "voter", "award": "best_strategy", "game": "g7", "phase": "S1901M", "pair": "solo=x",
    "usage": "JOIN GAME PASSWORD [POWER] [join_password=JOIN-PASSWORD]", "reason": Reason("bounced"), "word": "Build",
    "sides": [["England"], ["France"]], "centres": [18, 18], "end_at": "2025-06-01T12:00:00+00:00",
    "candidates": ["lvn", "lvp"], "after": "巴黎陆军", "expected": "order", "coast": "nc", "written_coast": "sc",
    "did_you_mean": "", "suggestion_codes": ["par", "pic"], "current": "F1901M", "retry": "PROCESS F1901M",
    "at": "12:00 UTC", "presets": ["house"], "days": 366, "first": 2000, "last": 2199, "partner": "England",
}


def sample_reason(code: str) -> Reason:
    text = TEXTS.get(code) or SENTENCES.get(code, "")
    names = set(re.findall(r"%\((\w+)\)s", text)) | ({"sides", "centres", "need"} if code in SENTENCES else set())
    if "did_you_mean" in names:
        names.add("suggestion_codes")
    return Reason(code, **{k: SAMPLE[k] for k in names if k in SAMPLE and k != "did_you_mean"})


ERRORS = ["unknown_command", "usage", "no_such_game", "game_exists", "bad_game_name", "bad_password",
          "password_needed", "weak_password", "need_signon", "power_taken", "unknown_power", "game_full",
          "already_playing", "bad_language", "bad_names", "bad_address", "gm_only", "bad_deadline", "bad_time",
          "deadline_passed", "no_longer_playing", "no_sender", "not_the_leader", "advisor_is_leader",
          "advisor_elsewhere", "not_an_advisor",
          # issue 12: limits, sender checks, who may join
          "line_too_long", "too_many_passwords", "password_required", "unverified", "not_invited",
          "join_password_needed", "bad_join_password", "no_pending_join",
          # issue 19: lock-out, who a power is
          "password_locked", "password_to_change",
          "asked_again"]      # issue 23: LIST and HELP once a minute
"""The reply's own errors (templates/mail/macros.txt)."""


def reply(lang: str, names: str, results: list[dict], notes=()) -> str:
    subject, body = render("reply.txt", lang, None, re_subject="Re: cmd", judge_name="Diplomacy Judge",
                           judge_address="judge@example.test", results=results,
                           words=words_for(lang, names), notes=list(notes))
    return body           # the subject is the player's own, with Re:


@pytest.mark.parametrize("lang, names", CHINESE)
def test_refusals_of_every_kind(lang, names):
    every = sorted(set(TEXTS) | set(SENTENCES))
    results = [{"kind": "error", "line": f"line {code}", "code": "refused",
                "params": {"reason": GameError(code, **sample_reason(code).params)}} for code in every]
    results += [{"kind": "error", "line": f"line {code}", "code": code,
                 "params": dict(game="g7", text="某某", usage="SIGNON GAME [PASSWORD]", map="standard",
                                power="France", free=["Italy"], powers=["Italy"], suggestion="SIGNON",
                                timezone="Asia/Shanghai", example="SET DEADLINE 2025-01-08 20:00",
                                example_offset="SET DEADLINE 2025-01-08T20:00+08:00", now=T0, chars=1200,
                                limit=1000, until=T0, wrong=5, seconds=30)}
                for code in ERRORS]
    results += [{"kind": "error", "line": "x", "code": c, "params": {"reason": GameError("press_empty"), "text": "p=1"}}
                for c in ("press_refused", "bad_setting")]
    notes = ["html_only", "attachments:2", "charset_unknown:GBK", "charset_wrong:UTF-8", "broken_mime",
             "no_text", "cc_record:a@b.org", "copy_of:c@d.org", "copy_via:e@f.org g@h.org", "unreadable",
             "too_big:600000:524288", "mail_lines:20000", "line_bytes:2000", "mime_deep:10", "mime_parts:100",
             "order_lines:300:12:巴黎陆军移动到勃艮第", "command_lines:100:3:登录 g7 密码", "signon_failed:3"]
    text = reply(lang, names, results, notes)
    assert english_words(text, ("g7",)) == []
    assert text.count("> line ") == len(every) + len(ERRORS)


@pytest.mark.parametrize("lang, names", CHINESE)
def test_every_reason_in_a_results_table(lang, names):
    """Illegal, void and failed orders with every reason, in a results phase."""
    phase = {"game": "g7", "map": "standard", "phase": "S1901M", "processed_at": T0, "random_seed": "s",
             "orders": [{"power": "France", "unused_builds": 1, "results": [
                 {"order": Move("A", "par", "bur"), "outcome": outcome, "reason": sample_reason(code),
                  "dislodged": True, "destroyed": True, "source": "default"}
                 for outcome in ("illegal", "void", "fails") for code in sorted(TEXTS)]}],
             "dislodged": [{"power": "France", "unit": ("F", "spa/sc"), "retreats": ["por", "mao"]}],
             "sc_changed": True, "adjustment": False, "unowned": ["bel"],
             "centres": [{"power": "France", "count": 3, "centres": ["bre", "mar", "par"]}],
             "adjustments": [{"power": "France", "n": 1}, {"power": "Italy", "n": -1}]}
    text = render_text("results/phase.txt", lang, None, phase=phase, w=Words("standard", lang, names))
    assert english_words(text, ("g7",)) == []


# ---- random games ------------------------------------------------------------------------------
def random_game(seed: int) -> Game:
    """A game played a year with random orders: legal ones of every power,
    and some that are not (wrong units, supports and convoys of orders
    nobody gave)."""
    rng = random.Random(seed)
    game = Game.create(f"r{seed}", now=T0, seed=seed)
    gm = load_map("standard")
    now = T0
    for _ in range(5):
        kind = game.phase.kind
        for power in gm.powers:
            options = possible_orders(gm, game.position, power)
            orders = [rng.choice(olist) for olist in options.values() if olist]
            if kind == "M":
                units = list(game.position.units.values())
                for _i in range(2):
                    a, b = rng.choice(units), rng.choice(units)
                    orders.append(Support(a.type, a.location, b.type, b.location, rng.choice(sorted(gm.provinces))))
                    orders.append(Move(a.type, a.location, rng.choice(sorted(gm.provinces))))
            game.submit(power, [Line("x", o) for o in orders], now)
        now += timedelta(days=1)
        game.process(now)
        if game.finished:
            break
    return game


@pytest.mark.parametrize("seed", range(6))
def test_results_of_random_games(seed):
    game = random_game(seed)
    for lang, names in CHINESE:
        w = Words("standard", lang, names)
        for rec in game.history:
            text = phase_text(game, rec.phase, w)
            assert english_words(text, (game.name,)) == [], rec.phase


# ---- the final report ------------------------------------------------------------------------
@pytest.mark.parametrize("lang, names", CHINESE)
def test_final_report_with_awards_and_fines(ended, lang, names):
    text = final_text(ended, lang, names=names)
    assert english_words(text, ("g7",)) == []
    assert ("元首" if lang == "zh-hans" else "元首") in text and ("罚" in text or "罰" in text)


# ---- every notice ----------------------------------------------------------------------------
NOTICES = {
    "abandoned": {"power": "Italy", "count": 3, "missed": ["S1901M", "F1901M"]},
    "started": {"deadline": T0, "timezone": "Asia/Shanghai"}, "deadline": {"deadline": T0},
    "extended": {"deadline": T0}, "resumed": {"deadline": T0}, "outage": {"deadline": T0},
    "rollback": {"deadline": T0}, "paused": {"until": T0},
    "game_over": {},
    "late": {"power": "Italy", "missing": [("A", "rom")], "grace": T0},
    "late_gm": {"late": ["Italy"], "grace": T0},
    "ejected": {"power": "Italy"}, "ejected_player": {"power": "Italy"}, "replacing": {"power": "Italy"},
    "resigned": {"power": "Italy"},
    "press": {"sender": "France", "address": "f@x.org", "to": ["Italy"], "to_gm": True, "text": "你好",
              "gm_sender": False, "broadcast": False, "gm_copy": False, "grey": False},
    "reminder": {"power": "Italy", "missing": [("A", "rom")], "hours": 0.1, "deadline": T0},
    "results": {"phases": ["S1901M"], "missed": {"S1901M": ["Italy"]}, "next_phase": "F1901M",
                "deadline": T0, "finished": False},
    "settings": {"changes": ["solo=16", "tie=continue"]},
    "took_over": {"power": "Italy", "address": "new@x.org"},
    "advisor": {"power": "Italy", "added": True, "mail": True, "leader": "i@x.org"},
    "retreat_gm": {"units": [{"power": "France", "unit": ["F", "spa/sc"], "listed": ["por"],
                              "options": ["mao", "gas"], "default": "mao", "random": False}], "deadline": T0},
    "waiting": {"powers": ["Italy", "Turkey"], "vacant": ["Turkey"]},
    "goes_on": {"deadline": T0},
}
VARIANTS = {
    "press": [dict(broadcast=True, sender=None), dict(gm_copy=True, grey=True), dict(gm_sender=True)],
    "advisor": [dict(mail=False), dict(added=False)],
    "retreat_gm": [dict(deadline=None, units=[dict(NOTICES["retreat_gm"]["units"][0], random=True)])],
    "rollback": [dict(early=True)],
}
"""More data of a notice kind, each rendered too."""
ROLES = {"waiting": ["@gm", "Italy"]}
"""More readers of a notice kind (the template tells them apart)."""


@pytest.mark.parametrize("kind", sorted(NOTICES))
@pytest.mark.parametrize("lang, names", CHINESE)
def test_every_notice(kind, lang, names, ended):
    from judge.game.final_report import final_data
    from judge.game.results import njudge_time, phase_data, rules_data
    from judge.mail.notices import template_of
    from judge.text.reasons import SYSTEMS
    game = sample_game("g7")
    data = {"game": "g7", "map": "standard", "phase": "S1901M", "timezone": "Asia/Shanghai", **NOTICES[kind]}
    if kind == "game_over":
        data = final_data(ended)
    variants = [(dict(data), "France")] + [(dict(data, **more), "France") for more in VARIANTS.get(kind, ())]
    variants += [(dict(data), role) for role in ROLES.get(kind, ())]
    for n, role in variants:
        subject, body = render(template_of(kind), lang, None, n=n, kind=kind, role=role,
                               w=Words("standard", lang, names), tz="UTC",
                               phases=[phase_data(game, game.history[0])], judge_code="JUDGE",
                               judge_name="Diplomacy Judge", judge_address="judge@example.test",
                               njtime=njudge_time, players=[("France", ("f@x.org",)), ("Italy", ())],
                               hidden=False, rules=rules_data(game), systems=SYSTEMS)
        assert english_words(subject + "\n" + body, (n["game"],)) == [], kind
        tag = f" {n['game']} {n['phase']}"
        assert subject.endswith(tag) or subject.endswith(f" {n['game']}"), subject        # the tag


def test_help_and_answers_in_chinese():
    for lang, names in CHINESE:
        results = [{"kind": "help", "line": "帮助", "day": "2025-01-20", "sections": registry.help_sections()},
                   {"kind": "names_set", "line": "设置地名 家规", "names": "house"},
                   {"kind": "language_set", "line": "设置语言 中文", "language": lang}]
        # who may join (issue 12): a JOIN waiting for the GM, the GM's request, approval and refusal
        join = {"game": "g7", "map": "standard", "power": "France", "address": "f@x.org"}
        results += [dict(join, kind="join_pending", line="加入 g7 密码 法国"),
                    dict(join, kind="join_request"),
                    dict(join, kind="join_approved", line="批准 f@x.org", started=True),
                    dict(join, kind="join_rejected", line="拒绝 f@x.org"),
                    dict(join, kind="join_refused")]
        assert english_words(reply(lang, names, results)) == []


STATUSES = [
    {"state": "forming", "vacant": ["Italy"]}, {"state": "forming", "vacant": []},
    {"state": "running", "late": True, "open_to": ["Italy"]}, {"state": "running", "late": False, "open_to": []},
    {"state": "paused", "phase": "S1901M", "left": "36h", "until": T0},
    {"state": "waiting", "phase": "S1901M", "powers": ["Italy"], "open_to": [], "vacant": ["Italy"]},
    {"state": "waiting", "phase": "S1901M", "powers": ["Italy"], "open_to": [], "vacant": []},
    *({"state": "finished", "result": kind, "ended": ended, "end_phase": "F1903M", "awards_until": T0}
      for kind in ("solo", "alliance", "most_centres_at_phase", "most_centres_at_time", "draw", "concession")
      for ended in ("after", "during")),
]
"""Where a game stands in its life (judge.game.turns.lifecycle), as LIST and the GM's replies show it."""


@pytest.mark.parametrize("lang, names", CHINESE)
def test_game_flow_answers_in_chinese(lang, names):
    """The answers of issue 13's flows: the game's status, the house preset,
    advisors, the award vote and its close, one final report per mail."""
    from judge.game.setting_text import PRESETS
    base = {"game": "g7", "map": "standard", "phase": "S1901M", "deadline": T0, "timezone": "Asia/Shanghai"}
    status = [dict({"phase": "S1901M", "timezone": "Asia/Shanghai", "late": False, "open_to": [], "vacant": [],
                    "powers": [], "until": None, "left": None, "awards_until": None}, **st) for st in STATUSES]
    preset = {"name": "house", "lines": [(k, v, code) for k, v, code in PRESETS["house"]], "end_year": True}
    results = [dict(base, kind="list", line="列表 g7", status=st, players=[{"power": "France", "status": "playing"}],
                    units=[("France", [("A", "par")])]) for st in status]
    results += [{"kind": "list", "line": "列表", "open": [], "games": [
        dict(base, name="g7", power="France", state=state) for state in ("running", "paused", "waiting", "finished")]}]
    results += [dict(base, kind="gm", line="SET preset=house", action="settings", changes=["preset=house"],
                     preset=preset, status=status[3])]
    results += [dict(base, kind="created", line="创建 g7 pw 预设=房规", rules="datc", movement="48h",
                     settings=["solo=18"], preset=preset)]
    results += [dict(base, kind="advisor", line="幕僚", power="France", action=action, advisors=advisors)
                for action, advisors in (("list", []), ("add", [("a@x.org", True), ("b@x.org", False)]))]
    results += [dict(base, kind="address_set", line="设置地址 n@x.org", address="n@x.org", old="o@x.org")]
    results += [dict(base, kind="ruling", line="颁奖", action=action, report=report, award="strategy",
                     power="France") for action in ("award_close", "award") for report in ("sent", "with_last")]
    results += [dict(base, kind="ruling", line="终局", action="end", members=["France", "Italy"], report="sent")]
    results += [dict(base, kind="vote", line="投票 最佳战略 法国", power="Italy", action="vote",
                     detail={"award": "strategy", "other": "France", **d, "timezone": "UTC"})
                for d in ({"closed": True, "closes": None}, {"closed": False, "closes": T0},
                          {"closed": False, "closes": None})]
    results += [dict(base, kind="vote", line="和局", power="Italy", action="draw", detail={"members": []},
                     report=report) for report in ("sent", "with_last")]
    text = reply(lang, names, results)
    assert english_words(text, ("g7",)) == []
    assert text.count("> ") == len(results)


# ---- the golden Chinese results mails ---------------------------------------------------------
def test_the_golden_chinese_results_cover_each_script_and_name_set():
    """tests/data/mail/chinese_results (run by test_mail_golden): a game
    created in Chinese (names=house), players in both scripts, two of them
    on standard names (SET NAMES); void orders in the results, illegal
    ones refused in the answers — and no English word in any of them."""
    mails = {p.name: p.read_text(encoding="utf-8") for p in sorted(GOLDEN.glob("*-out-*.eml"))}
    results = {re.search(r"^To: (\S+)", t, re.M).group(1): t for t in mails.values() if "结果 cg" in t or "結果 cg" in t}
    spelled = {"france@example.org": ("布瑞斯特", "伯干第", "俄罗斯"),            # simplified, house
               "germany@example.org": ("布列斯特", "伯乾第", "維也那"),          # traditional, house
               "austria@example.org": ("布雷斯特", "勃艮第", "俄国"),            # simplified, standard
               "russia@example.org": ("布雷斯特", "勃艮第", "維也納")}           # traditional, standard
    for address, words in spelled.items():
        for word in words:
            assert word in results[address], (address, word)
        assert "无效" in results[address] or "無效" in results[address]       # the void support
    refused = [t for t in mails.values() if "未被接受" in t]
    assert len(refused) == 4                                                # an illegal order each
    for text in mails.values():
        body = text.split("\n\n", 1)[1]
        assert english_words(body, ("cg",)) == []
