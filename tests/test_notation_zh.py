"""Chinese orders as every community writes them (issue 14): the table of
``tests/data/notation/zh/orders.tsv``, the name variants file, chatter, ambiguous
names and messages that quote the player's own script."""

from __future__ import annotations

import copy
import json
import re
import shlex
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from judge.maps import load_names
from judge.notation import ParseContext, format_order, name_index, parse_line, parse_orders
from judge.notation import zh_words
from judge.notation.lexicon import EN_WORDS, LOC, lexicon, normalise_line
from judge.notation.names import NameIndex, is_cjk
from judge.rules.map import MapError
from test_notation import LANGS, make_context

TABLE = Path(__file__).parent / "data" / "notation" / "zh" / "orders.tsv"
COLUMNS = ["line", "script", "region", "source", "type", "context", "expected"]
ORDER_TYPES = {"hold", "move", "support", "convoy", "retreat", "disband", "build", "waive", "retreat_pref",
               "build_pri", "disband_pri"}
RULE_TEXTS = {"rules-hans": "rules-zh-hans-with-appendices.txt", "rules-hant": "rules-zh-hant.txt"}


@dataclass(frozen=True)
class Row:
    where: str
    line: str
    script: str
    region: str
    source: str
    type: str
    context: tuple
    expected: str


def read_rows(path: Path = TABLE) -> list[Row]:
    rows = []
    lines = path.read_text(encoding="utf-8").splitlines()
    header = next(line for line in lines if not line.startswith("#"))
    assert header.split("\t") == COLUMNS
    for n, raw in enumerate(lines, 1):
        if raw.startswith("#") or raw == header or not raw.strip():
            continue
        fields = raw.split("\t")
        assert len(fields) == len(COLUMNS), f"{path.name}:{n}: {len(fields)} columns"
        line, script, region, source, typ, context, expected = fields
        ctx = tuple(sorted(tuple(kv.split("=", 1)) for kv in shlex.split(context)))
        rows.append(Row(f"{path.name}:{n}", line, script, region, source, typ, ctx, expected))
    return rows


ROWS = read_rows()


@pytest.fixture(scope="module")
def names(std_map, std_names):
    return name_index(std_map, std_names)


@pytest.mark.parametrize("row", ROWS, ids=[r.where for r in ROWS])
def test_zh_table(row: Row, std_map, names):
    ctx = make_context(row.context, std_map, names)
    parsed = parse_line(row.line, ctx)
    if row.expected.startswith("!"):
        assert parsed.kind == "error", [format_order(o, names) for o in parsed.orders]
        assert parsed.error.code == row.expected[1:], parsed.error.message()
        for lang in LANGS:
            assert parsed.error.message(lang)
        for key in ("text", "after"):             # quoted as typed: traditional stays traditional
            quoted = parsed.error.params.get(key)
            if quoted and quoted != "…" and any(is_cjk(c) for c in quoted):
                assert _typed(quoted, row.line), (key, quoted)
    elif row.expected == "(chatter)":
        assert parsed.kind == "chatter", parsed.error.message() if parsed.error else parsed.orders
        (note,) = parsed.notes
        assert note.code == "chatter" and note.params["text"] == row.line.strip()
        assert row.line.strip() in note.message("zh-hant")
    else:
        assert parsed.kind == "orders", parsed.error.message() if parsed.error else parsed.kind
        assert " | ".join(format_order(o, names) for o in parsed.orders) == row.expected
        for lang in LANGS:                        # written back in each language, read back the same
            assert parse_line("；".join(format_order(o, names, lang) for o in parsed.orders), ctx).orders == \
                parsed.orders, lang


def _typed(quoted: str, line: str) -> bool:
    """``quoted`` is a piece of ``line`` as typed (spaces between Chinese words aside)."""
    squeeze = lambda s: re.sub(r"\s+", "", normalise_line(s))           # noqa: E731
    return all(part in squeeze(line) for part in squeeze(quoted).split("…") if part)


def test_table_size_and_coverage():
    """>= 1,000 distinct lines; both scripts for every order type; every type of the issue."""
    assert len({r.line for r in ROWS}) >= 1000
    assert len({(r.line, r.context) for r in ROWS}) == len(ROWS), "a line repeats in one context"
    by_script = Counter(r.script for r in ROWS)
    assert by_script["hans"] >= 500 and by_script["hant"] >= 500
    for script in ("hans", "hant"):
        assert {r.type for r in ROWS if r.script == script} >= ORDER_TYPES | {"chatter", "error"}, script

def test_every_row_names_its_region_and_source(std_names):
    sources = set(zh_words.SOURCES) | set(std_names["variants"]["sources"])
    for r in ROWS:
        assert r.script in ("hans", "hant", "latn"), r.where
        assert all(x in zh_words.REGIONS for x in r.region.split(",")), r.where
        keys = [k for k in r.source.split() if not k.startswith("§")]
        assert keys and set(keys) <= sources, r.where
        assert r.type in ORDER_TYPES | {"chatter", "error"}, r.where


def test_table_has_every_word_and_every_name(std_names):
    """Every order word (both scripts) and every name variant of the names file is in a line."""
    text = "\n".join(r.line for r in ROWS)
    for words, *_ in zh_words.ROWS:
        for hans, hant in zh_words.pairs(words):
            assert hans in text and hant in text, (hans, hant)
    variants = std_names["variants"]
    for section in ("provinces", "powers", "coasts"):
        for key, entries in variants[section].items():
            for v in entries:
                assert v["name"] in text, (section, key, v["name"])


def test_table_has_every_frame_of_the_issue():
    lines = [r.line for r in ROWS]
    frames = {
        "～ as the move sign": lambda s: "～" in s,
        "a trailing 省/省份": lambda s: re.search(r"省(份)?(陆军|陸軍|$)", s) is not None,
        "a generic unit word": lambda s: any(w in s for w in ("部队", "部隊", "兵", "船", "单位", "單位")),
        "a one-character power prefix": lambda s: re.match(r"^[英法德奥奧意義俄土][ ：:]", s) is not None,
        "a waive with filler words": lambda s: re.search(r"(放弃|放棄).+(建造)", s) is not None,
        "an English keyword misspelt": lambda s: any(w in s.split() for w in ("suport", "convoi", "retreet", "buld")),
        "a move word after the destination": lambda s: s.endswith(("进攻", "進攻", "去")),
        "a chatter line": lambda s: s.startswith(("各位好", "本回合指令如下")),
    }
    for what, test in frames.items():
        assert any(test(s) for s in lines), what


def test_every_lexicon_row_has_region_and_source():
    words: dict[str, tuple] = {}
    for row in zh_words.ROWS:
        text, kind, value, region, source = row
        assert region in zh_words.REGIONS, row
        keys = [k for k in source.split() if not k.startswith("§")]
        assert keys and all(k in zh_words.SOURCES for k in keys), row
        for hans, hant in zh_words.pairs(text):
            assert words.setdefault(hans, (kind, value)) == (kind, value), f"{hans} is two kinds of word"
            assert len(hans) == len(hant), (hans, hant)


def test_english_order_words_are_no_province_names(names):
    for word in EN_WORDS:
        assert names.province(word) is None or word in ("eng",), word


# ---- the name variants file ---------------------------------------------------------
def test_every_variant_is_read(names, std_names):
    variants = std_names["variants"]
    for code, entries in variants["provinces"].items():
        for v in entries:
            assert names.province(v["name"]) == code, v
    for power, entries in variants["powers"].items():
        for v in entries:
            assert names.power(v["name"]) == power, v
    for coast, entries in variants["coasts"].items():
        for v in entries:
            assert names.coast(v["name"]) == coast, v
    for v in variants["ambiguous"]:
        assert names.ambiguous[names.fold(v["name"])] == tuple(v["codes"])


def test_variant_scripts_and_display_names(names, std_names):
    """A traditional variant has traditional characters; every display name is listed."""
    variants = std_names["variants"]
    for section in ("provinces", "powers", "coasts"):
        for key, entries in variants[section].items():
            listed = {v["name"] for v in entries}
            entry = std_names[section][key]
            assert {entry["zh_hans"], entry["zh_hant"]} <= listed, (section, key)
            for v in entries:
                folded = names.fold(v["name"])
                assert (folded != v["name"]) == (v["script"] == "hant"), v


@pytest.mark.parametrize("source,file", sorted(RULE_TEXTS.items()))
def test_rule_text_spellings_are_all_listed(source, file, names, std_names, shared_dir):
    """Every place and power name the rule text spells (as the reader finds it) is a
    variant tagged with that text, and every variant tagged so is in the text verbatim."""
    text = (shared_dir / "rules" / file).read_text(encoding="utf-8")
    variants = std_names["variants"]
    tagged = {v["name"] for section in ("provinces", "powers") for entries in variants[section].values()
              for v in entries if source in v["source"].split()}
    for name in tagged:
        assert name in text, name
    lex = lexicon(names)
    found = set()
    for line in re.split(r"[\n。；]", text):
        for t in lex.tokens(line):
            if t.kind in (LOC, "power") and len(t.text) > 1 and any(is_cjk(c) for c in t.text):
                found.add(t.shown)                  # (one-character powers also match inside prose words)
    assert found and found <= tagged, sorted(found - tagged)


def test_variants_file_is_checked(std_map, std_names):
    def broken(change):
        raw = copy.deepcopy(std_names)
        change(raw["variants"])
        with pytest.raises(MapError) as e:
            NameIndex(std_map, raw)
        return str(e.value)

    assert "script" in broken(lambda v: v["provinces"]["par"][0].update(script="latin"))
    assert "region" in broken(lambda v: v["provinces"]["par"][0].update(region="europe"))
    assert "source" in broken(lambda v: v["provinces"]["par"][0].update(source="nowhere"))
    assert "not in the map" in broken(lambda v: v["provinces"].update(xyz=[]))
    assert "also used for" in broken(lambda v: v["provinces"]["par"].append(
        {"name": "勃艮第", "script": "both", "region": "all", "source": "judge"}))
    assert "two or more" in broken(lambda v: v["ambiguous"].append(
        {"name": "某海", "codes": ["nth"], "script": "both", "region": "all", "source": "judge"}))


def test_loader_reads_the_variants_beside_names(tmp_path, std_names):
    (tmp_path / "names.json").write_text(json.dumps({k: v for k, v in std_names.items() if k != "variants"}),
                                         encoding="utf-8")
    assert "variants" not in load_names(str(tmp_path))
    load_names.cache_clear()
    (tmp_path / "name_variants.json").write_text('{"provinces": ', encoding="utf-8")
    with pytest.raises(MapError, match="name_variants.json"):
        load_names(str(tmp_path))
    load_names.cache_clear()


# ---- behaviour ----------------------------------------------------------------------
def test_errors_quote_the_players_script(std_map, names):
    ctx = ParseContext(std_map, names)
    err = parse_line("聖彼得格陸軍移動到芬蘭", ctx).error
    assert err.params["text"] == "聖彼得格"
    assert "「聖彼得格」" in err.message("zh-hant") and "“聖彼得格”" in err.message("zh-hans")
    err = parse_line("維也納陸軍飛到波希米亞", ctx).error
    assert (err.code, err.params["text"]) == ("unknown_word", "飛")
    err = parse_line("維也納陸軍移動到", ctx).error
    assert err.params["after"] == "維也納陸軍移動到"
    assert parse_line("维也纳陆军飞到波希米亚", ctx).error.params["text"] == "飞"


def test_ambiguous_names_list_the_choices(std_map, names):
    ctx = ParseContext(std_map, names)
    for line, codes in (("地中海艦隊防守", ["eas", "wes"]), ("爱尔兰海舰队移动到大西洋", ["mao", "nao"]),
                        ("F Eng - Atlantic", ["mao", "nao"]), ("F Ion - Med", ["eas", "wes"])):
        err = parse_line(line, ctx).error
        assert err.code == "ambiguous_province" and err.params["candidates"] == codes, line
    err = parse_line("地中海艦隊防守", ctx).error
    assert "東地中海或西地中海" in err.message("zh-hant")
    assert "Eastern Mediterranean or Western Mediterranean" in err.message("en")


def test_chatter_is_passed_over_and_orders_still_fail(std_map, names):
    ctx = ParseContext(std_map, names)
    lines = parse_orders("各位好\n本回合指令如下：\n巴黎陆军移动到勃艮第\n巴黎陆军移动到勃根弟\n谢谢！", ctx)
    assert [p.kind for p in lines] == ["chatter", "chatter", "orders", "error", "chatter"]
    assert lines[0].notes[0].message() == 'passed over, no order in it: "各位好"'
    assert lines[0].notes[0].message("zh-hans") == "已略过（其中没有命令）：“各位好”"
    assert lines[3].error.params["suggestion_codes"] == ["bur"]
    assert parse_line("法国：", ctx).kind == "empty"
    assert parse_line("Hello all", ctx).kind == "error"        # English talk is not guessed at


def test_typed_text_keeps_traditional_characters_and_normalises_width(std_map, names):
    ctx = ParseContext(std_map, names)
    err = parse_line("巴黎陸軍移動到澳門", ctx).error
    assert err.params["text"] == "澳門" and "「澳門」" in err.message("zh-hant")
    err = parse_line("巴黎陸軍　移動到　ＸＹＺ", ctx).error
    assert err.params["text"] == unicodedata.normalize("NFKC", "ＸＹＺ").casefold()
