"""Passwords never appear in a mail the judge sends (issue 12 point 7,
issue 19 point 9), and nothing else is masked (issue 18).

The answer to a mail quotes its lines (``> JOIN g1 secret1 France``), and a
copy goes to the address of record. :func:`secrets_of` names the passwords a
command line holds (``CREATE``, ``JOIN``, ``SIGNON``, ``SET PASSWORD``,
``REPLACE``, a ``join_password=`` setting); :func:`line_secrets` the word in
the password's place of any line that has a sign-on, join or password word,
wherever it stands and however malformed (``SIGNON g=pw``, ``SIGNON g/pw``,
``please SIGNON g pw``, ``SINGON g pw``, ``登录g1 pw``, a verb word with
damage in it: ``SIG\\x1dON g pw``, ``<junk>\\ufffd\\ufffdATE g pw``); the mail reader
(:func:`judge.mail.message.read_mail`) runs it over the body decoded in every
charset the mail may be in, so a password in a mislabelled mail is known as
well. :func:`mask` replaces every password (of 4 characters or more) wherever
it stands as a word in the answer's data, and the word in the password's
place of every quoted line (:func:`mask_line`) whatever its length, with
:data:`MASK` (the passwords first: one glued behind junk in its own word is
masked whole). Words in no password's place (``Sent from my iPhone``,
``Sent: Monday``) are never masked.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
import unicodedata

from ..game.setting_text import KEYS, SPECIAL
from ..verbs.registry import BY_NAME

MASK = "********"

_SETTING = re.compile(r"(?i)(?:\bjoin[-_]?password|加入密码|加入密碼)\s*[=＝]\s*(\S+)")


def secrets_of(name: str | None, args: tuple[str, ...], line: str, suggestion: str | None = None) -> set[str]:
    """The passwords in one command line: ``name`` and ``args`` as read
    (:class:`judge.verbs.session.CommandLine`; the verb's record says which
    argument is a password, :attr:`judge.verbs.registry.Verb.secret`), and
    those of :func:`line_secrets` (the word in a password's place, however
    malformed the line; ``suggestion`` is no longer needed and ignored)."""
    found = set(_SETTING.findall(line)) | line_secrets(line)
    if name is None:
        return {s for s in found if s}
    if name == "signon":              # SIGNON takes a game and a password: any word after the game may be it
        found |= set(args[1:])
    at = BY_NAME[name].secret
    plain = [a for a in args if "=" not in a]
    if at is not None and (len(plain) > at if at >= 0 else len(plain) >= 2):
        found.add(plain[at])
    return {s for s in found if s}


# ---- the word in the password's place, by the line's shape --------------------------
_SIGN_ZH = ("登录", "登錄", "登入", "签到", "簽到")
_LEAD_ZH = ("加入", "创建", "創建", "建立")
_PASSWORD_ZH = ("设置密码", "設定密碼", "設置密碼", "修改密码", "修改密碼", "设定密码", "更改密码", "更改密碼")
_SIGN_EN = ("SIGNON", "LOGIN", "LOGON", "SIGNIN")
_LEAD_EN = ("JOIN", "CREATE")
_KEYWORDS = re.compile("(" + "|".join(map(re.escape, _SIGN_ZH + _LEAD_ZH + _PASSWORD_ZH)) + ")")
_SEPARATORS = re.compile(r"[=/:,;|\\＝：，；]")
_TRIM = "\"'“”‘’「」()[]<>.,;!?。，；！？*"
_DAMAGE = re.compile("[\ufffd\x00-\x08\x0b-\x1f\x7f]")
"""A character the charset could not read, or a control character: damage, in no word anyone writes."""
_QUICK = re.compile(r"(?i)sign|log|join|create|pass|pw|replace|登|簽|签|加入|创建|創建|建立|密|sing|sgin|sino|"
                    + _DAMAGE.pattern)      # a damaged verb word (\ufffd\ufffdATE) may have lost all those letters


_PARTIAL_SIGN_ZH = ("登", "签", "簽")
"""The first character of a Chinese sign-on word, left alone when the rest of the word was damaged."""
_CJK_THEN_LATIN = re.compile(r"(?<=[登签簽])(?=[A-Za-z0-9])")


_SPACE = re.compile(r"[^\S\x0b-\x1f\x85]+")
"""Spaces that are no damage (a control character that ``str.split`` takes for a space is damage)."""


def _tokens(line: str, damage_splits: bool = True) -> list[str]:
    """The words of ``line``; a damaged character separates two words unless
    ``damage_splits`` is false (then it stays in its word: ``SIG\\x1dON``)."""
    text = unicodedata.normalize("NFKC", line)
    text = _KEYWORDS.sub(r" \1 ", text)
    text = _CJK_THEN_LATIN.sub(" ", text)          # 登fz pw: a damaged 登录 glued to the game
    if damage_splits:
        text = _DAMAGE.sub(" ", text)              # SIGNON\ufffdfz pw: a byte the charset could not read
    words = [w.strip(_TRIM).rstrip(":：=") for w in (text.split() if damage_splits else _SPACE.split(text))]
    return [w for w in words if w and w not in ("-", "—", ">")]


def _letters(word: str) -> str:
    """The Latin letters of ``word``, upper case: a command word with an emoji,
    a digit or a replacement character in it (``😀SIGNON``, ``S٣IGNON``) is still read as one."""
    return re.sub(r"[^A-Z]", "", word.upper())


def _is_sign(word: str) -> bool:
    w = word.upper().replace("-", "").replace("_", "")
    if w in _SIGN_EN or word in _SIGN_ZH or word in _PARTIAL_SIGN_ZH:
        return True
    w = _letters(word)
    return len(w) >= 5 and _may_be_close(w, _SIGN_SHAPES, 0.75) and \
        bool(difflib.get_close_matches(w, _SIGN_EN, n=1, cutoff=0.75))


def _is_lead(word: str) -> bool:
    w = word.upper()
    if w in _LEAD_EN or word in _LEAD_ZH:
        return True
    w = _letters(word)
    return len(w) >= 4 and _may_be_close(w, _LEAD_SHAPES, 0.8) and \
        bool(difflib.get_close_matches(w, _LEAD_EN, n=1, cutoff=0.8))


def _shapes(words: tuple[str, ...]) -> tuple[tuple[frozenset[str], int], ...]:
    return tuple((frozenset(x), len(x)) for x in words)


_SIGN_SHAPES, _LEAD_SHAPES = _shapes(_SIGN_EN), _shapes(_LEAD_EN)


def _may_be_close(w: str, shapes, cutoff: float) -> bool:
    """False when ``difflib.get_close_matches(w, words, cutoff=cutoff)`` is
    surely empty (``shapes``: each word's letters and length): its ratio
    ``2 * matches / (len(w) + len(x))`` has at most as many matches as ``w``
    has letters of ``x``, and at most ``len(x)``. The test is exact, only
    cheaper (issue 23: most words of a sign-on line, the password, are far
    from any sign-on word, and difflib's matcher costs ~0.1 ms a word)."""
    return any(2.0 * min(sum(c in letters for c in w), n) / (len(w) + n) >= cutoff for letters, n in shapes)


_GAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,32}")


def _after_game(words: list[str], k: int, glued_only: bool = False) -> str | None:
    """The password after the game word at ``words[k]`` (a game name, with
    njudge's power letter or not): the part after a separator glued to it
    (``g=pw``, ``g/pw``), else (unless ``glued_only``) the next word."""
    if k >= len(words):
        return None
    parts = [p for p in _SEPARATORS.split(words[k]) if p]
    # the game's name with what damage put in it (a combining mark, an emoji) left out
    if not parts or not _GAME.fullmatch("".join(c for c in parts[0] if c.isascii() and (c.isalnum() or c in "_-"))):
        return None
    if len(parts) > 1:
        return parts[1]
    return words[k + 1] if k + 1 < len(words) and not glued_only else None


@functools.lru_cache(maxsize=1024)
def line_secrets(line: str) -> frozenset[str]:
    """The words of ``line`` in a password's place: after a sign-on word
    (``SIGNON``/``登录``/``登入``/``LOGIN``, misspelt or glued, anywhere in the
    line) and its game; after ``JOIN``/``CREATE``/``加入``/``创建`` and the game
    at the start of the line; after ``SET PASSWORD``/``设置密码`` (and
    ``SET PW``); after ``REPLACE POWER``; and after such a verb word with
    damage in it (:func:`_damaged_verb`: ``SIG\\x1dON``, ``\\ufffd\\ufffdATE``,
    ``<junk>SET PASSWORD``), wherever it stands. The last lines asked for
    are kept (a sign-on line is asked for four times a mail and more)."""
    if not _QUICK.search(line):
        return frozenset()
    words = _tokens(line)
    found: set[str] = set()
    upper = [w.upper() for w in words]
    for k, w in enumerate(words):
        if k + 1 < len(words) and upper[k] in ("SIGN", "LOG") and upper[k + 1] in ("ON", "IN"):
            pw = _after_game(words, k + 2)          # "SIGN ON g pw"
        elif _is_sign(w):
            pw = _after_game(words, k + 1)
        elif k == 0 and _is_lead(w):          # the command itself: secrets_of has its password
            pw = _after_game(words, 1, glued_only=sum("=" not in x for x in words) > 5)   # settings aside
        elif w in _PASSWORD_ZH or (upper[k] in _PASSWORD_EN and k > 0 and _letters(words[k - 1]) in _SET_EN):
            pw = _new_password(words[k + 1:])
        elif k > 0 and upper[k - 1] in ("SET", "CHANGE") and _SEPARATORS.search(w) and \
                _SEPARATORS.split(upper[k])[0] in _PASSWORD_EN:
            pw = next((p for p in _SEPARATORS.split(w)[1:] if p), None)       # "SET PW=abcd"
        elif k == 0 and upper[k] == "REPLACE" and len(words) > 2:
            pw = words[2]
        else:
            continue
        if pw:
            found.add(pw)
    if _DAMAGE.search(line):
        found |= _after_damaged_verbs(line)
    return frozenset(found)


_PASSWORD_EN = ("PASSWORD", "PASSWD", "PW", "PWD", "PASS")
_SET_EN = ("SET", "CHANGE", "NEW")


def _new_password(rest: list[str]) -> str | None:
    """The password among the words after ``SET PASSWORD``."""
    rest = [x for x in rest if x not in ("=", ":", "：", "to", "TO")]
    pw = rest[0] if rest else None
    return pw[1:] if pw and _SEPARATORS.match(pw) else pw


def _after_damaged_verbs(line: str) -> set[str]:
    """The words in a password's place after a verb word that has damage in
    it (a word of ``line`` split at spaces only, :data:`_DAMAGE` kept in it):
    a sign-on, ``JOIN``/``CREATE`` or ``SET`` word by :func:`_damaged_verb`,
    anywhere in the line (a word anyone writes has no damage in it, so no
    word of a player's text is taken for one: issue 18); after a sign-on
    word (or a JOIN/CREATE starting the line) whose game's word is all
    damage (``SIGNON \\ufffd\\x07 pw``), the word after that; and the word
    between a damaged word and the line's first game setting
    (``<junk> pw deadline=...``: a CREATE whose verb and game damage took)."""
    words = _tokens(line, damage_splits=False)
    found = set()
    for k, w in enumerate(words):
        hurt = bool(_DAMAGE.search(w))
        lost = k + 2 < len(words) and _all_damage(words[k + 1])      # SIGNON \ufffd\x07 pw: the game's word lost
        if not (lost or hurt and _THREE_LETTERS.search(w)):       # no damage, or too few letters for a verb
            continue
        if _is_sign(w) or (hurt and _damaged_verb(w, _SIGN_EN)):
            kind = "sign"
        elif (hurt or k == 0) and (_is_lead(w) or (hurt and _damaged_verb(w, _LEAD_EN))):
            kind = "lead"
        elif hurt and (_letters(w) in _SET_EN or _damaged_verb(w, _SET_EN)):
            kind = "set"
        else:
            continue
        rest = _tokens(" ".join(words[k + 1:k + 8]))      # what follows, read as always (enough of it)
        pieces = _tokens(w)                                 # CREATE\ufffdfar1 pw: the game glued on by damage
        if kind != "set" and len(pieces) > 1 and _GAME.fullmatch(pieces[-1]) and \
                not _verb_like(pieces[-1], kind) and _verb_like(pieces[-2], kind):
            pw = rest[0] if rest else None
        elif lost and kind != "set":
            pw = words[k + 2]
        elif kind == "sign":
            pw = _after_game(rest, 0)
        elif kind == "lead":
            pw = _after_game(rest, 0, glued_only=sum("=" not in x for x in rest) > 4)   # settings aside
        else:
            pw = _new_password(rest[1:]) if rest and rest[0].upper() in _PASSWORD_EN else None
        if pw:
            found.add(pw)
    first = next((k for k, w in enumerate(words) if w.partition("=")[0].lower() in _SETTING_KEYS and "=" in w), 0)
    if first >= 2 and "=" not in words[first - 1] and _DAMAGE.search(words[first - 2]):
        found.add(words[first - 1])          # <damage> pw deadline=...: a CREATE whose verb and game damage took
    return found


_SETTING_KEYS = frozenset(KEYS) | frozenset(SPECIAL) | {"deadline"}     # a game's settings, CREATE's deadline=


def _verb_like(word: str, kind: str) -> bool:
    """``word`` reads as a sign-on (``kind`` "sign") or JOIN/CREATE ("lead") word."""
    if kind == "sign":
        return _is_sign(word) or _damaged_verb(word, _SIGN_EN)
    return _is_lead(word) or _damaged_verb(word, _LEAD_EN)


def _all_damage(word: str) -> bool:
    """``word`` is damage only: no letter or digit left in it."""
    return bool(_DAMAGE.search(word)) and not any(c.isalnum() for c in word)


_THREE_LETTERS = re.compile("(?:[A-Za-z][^A-Za-z]*){3}")
_NOT_LETTER = re.compile("[^A-Z\ufffd\x00-\x08\x0b-\x1f\x7f]")


def _damaged_verb(word: str, verbs: tuple[str, ...]) -> bool:
    """Whether ``word`` ends in one of ``verbs`` (upper case) as damage left
    it: its Latin letters, a damaged character (:data:`_DAMAGE`) standing for
    any one letter, anything else left out; the verb matched by the end of
    the word with no edit, at least 3 of its letters (and all but 3) read as
    written, or with one edit (a verb of 5 letters or more) and all its
    letters but one read as written. So
    ``\\x15\\ufffd\\ufffdATE`` is ``CREATE``, ``SIG\\x1dON`` ``SIGNON``, ``<junk>irCSET`` ``SET``."""
    seq = _DAMAGE.sub("?", _NOT_LETTER.sub("", word[-80:].upper()))
    for verb in verbs:
        end = seq[-2 * len(verb):]
        if sum(c in verb for c in end) < 3:          # junk: no verb in it (most words; the match costs more)
            continue
        edits, read = _end_distance(verb, end)
        if (edits == 0 and read >= max(3, len(verb) - 3)) or (edits == 1 and len(verb) > 4 and read >= len(verb) - 1):
            return True
    return False


def _end_distance(verb: str, seq: str) -> tuple[int, int]:
    """``(edits, letters read as written)`` of the best match of ``verb``
    with an end of ``seq`` (``?``: any one letter, at no cost): fewest edits,
    then most letters read."""
    prev = [(0, 0)] * (len(seq) + 1)                 # the match may start anywhere in seq
    for i, letter in enumerate(verb, 1):
        cur = [(i, 0)]
        for j, c in enumerate(seq, 1):
            d, r = prev[j - 1]
            diag = (d, r - 1) if c == letter else (d, r) if c == "?" else (d + 1, r)
            cur.append(min(diag, (prev[j][0] + 1, prev[j][1]), (cur[j - 1][0] + 1, cur[j - 1][1])))
        prev = cur
    edits, read = prev[-1]
    return edits, -read


def words_after_games(line: str, is_game, damaged_only: bool = False) -> set[str]:
    """The words of ``line`` right after a word that names a game (``is_game(name)``,
    with njudge's power letter before it or not, whatever damage put in it):
    in a line that is no command, the word where a sign-on line's password
    stands, however damaged its sign-on word (``SI<junk>GNON fz pw``). A
    game's name with damage inside it (``f\\x00z pw``: a word of the line
    split at spaces only; or one of it lost: ``\\x0ez pw``, :func:`_one_lost`)
    counts too; with ``damaged_only``, only such a name
    (in a player's talk, ``I think fz seems fun``, a plain name masks nothing: issue 18)."""
    found = set()
    for hurt in (False, True):
        if damaged_only and not hurt:
            continue
        if hurt and not _DAMAGE.search(unicodedata.normalize("NFKC", line)):
            break                    # no word with damage in it (the words are of the line as NFKC has it)
        words = _tokens(line, damage_splits=not hurt)
        for k, w in enumerate(words):
            if hurt and not _DAMAGE.search(w):
                continue
            glued = [p for p in _SEPARATORS.split(w) if p]           # fz:pw
            name = "".join(c for c in (glued or [""])[0] if c.isascii() and (c.isalnum() or c in "_-"))
            if name and (is_game(name) or (len(name) > 1 and is_game(name[1:]))) or \
                    hurt and any(map(is_game, _one_lost((glued or [""])[0]))):
                after = glued[1] if len(glued) > 1 else words[k + 1] if k + 1 < len(words) else None
                if after:
                    found.add(after)
    return found


def _one_lost(word: str) -> list[str]:
    """The names ``word`` may have been before damage took one character of it
    (``\\x0ez``: ``az`` ... ``fz`` ... ``9z``); none if more was lost or added."""
    stem = _DAMAGE.sub("?", word)
    if stem.count("?") != 1 or len(stem) > 33 or not _GAME.fullmatch(stem.replace("?", "x")):
        return []
    return [stem.replace("?", c) for c in "abcdefghijklmnopqrstuvwxyz0123456789"]


def mask_line(line: str) -> str:
    """``line`` with the words in a password's place (:func:`line_secrets`),
    whatever their length, replaced by :data:`MASK` (where they stand as a
    word of this line)."""
    return _mask_words(line, line_secrets(line))


def _mask_words(line: str, found: set[str]) -> str:
    if not found:
        return line
    words = "|".join(re.escape(x) for x in sorted(found, key=len, reverse=True))
    return re.sub(rf"(?<![^\W_])(?:{words})(?![^\W_])", MASK, line)


TEXT_KEYS = frozenset({"line", "input", "text", "reason", "changes", "settings", "subject", "params", "error"})
"""Keys of an answer's data whose strings are the sender's own text (codes
of powers, places and units are never touched): an error's params too (a
game name typed ``g:pw`` is quoted in "there is no game ...")."""
NEVER_KEYS = frozenset({"usage", "code", "kind", "map", "power", "powers", "game_map"})
"""Keys whose strings are the judge's own (catalogue entries, codes): never masked."""


def mask(value, secrets: set[str]):
    """``value`` with every secret (of 4 characters or more) that stands as
    a word (no letter or digit on either side) in the sender's text, and every
    word in a password's place of a line (:func:`mask_line`), replaced by
    :data:`MASK`: a str is masked; in dicts, lists and tuples the strings
    under :data:`TEXT_KEYS` are (new containers are made); other values are
    kept as they are."""
    secrets = {x for x in secrets if len(x) >= 4}
    pattern = None
    if secrets:
        words = "|".join(re.escape(x) for x in sorted(secrets, key=len, reverse=True))
        pattern = re.compile(rf"(?<!\w)(?:{words})(?!\w)")
    return _walk(value, pattern, True) if isinstance(value, str) else _walk(value, pattern, False)


def _masked(text: str, pattern) -> str:
    if not _QUICK.search(text) and (pattern is None or not pattern.search(text) and (
            text.isascii() or not pattern.search(unicodedata.normalize("NFKC", text)))):
        return text             # no line in a password's place, no password: the text as it is (most strings)
    return _masked_lines(text, pattern)


def _masked_lines(text: str, pattern) -> str:
    # the words in a password's place are read from the lines as written, but replaced after the mail's
    # passwords: a password the line's shape cuts in two (SIGNON fz `<f\ufffd9\x17...pw, its first
    # piece in the password's place) is masked whole
    found = [line_secrets(x) for x in text.split("\n")]
    if pattern is not None:
        masked = pattern.sub(MASK, text)
        # a password read from its compatibility form (①pw is read as 1pw): the line shown in the read form
        normal = unicodedata.normalize("NFKC", masked)
        text = pattern.sub(MASK, normal) if normal != masked and pattern.search(normal) else masked
    lines = text.split("\n")
    if len(lines) != len(found):           # (a compatibility form with a line break in it)
        found = [set().union(*found)] * len(lines)
    return "\n".join(_mask_words(x, f) for x, f in zip(lines, found))


CODE_PARAMS = frozenset({"province", "destination", "origin", "location", "ordered", "named", "coasts",
                         "candidates", "suggestion_codes", "unit", "power", "expected_power", "powers",
                         "written", "actual", "unit_type", "order", "phase_kind", "sides", "coast",
                         "written_coast", "map", "role", "award", "system", "retreats", "labels"})
"""Params of a reason that hold codes (places, powers, units ...: never a
player's text, never masked); its other strings are the sender's text."""


def _walk(value, pattern, text: bool):
    if isinstance(value, str):
        return _masked(value, pattern) if text else value
    if isinstance(value, dict):
        return {k: v if k in NEVER_KEYS else _walk(v, pattern, text or k in TEXT_KEYS) for k, v in value.items()}
    if isinstance(value, list):
        return [_walk(v, pattern, text) for v in value]
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(_walk(v, pattern, text) for v in value)
    code, params = getattr(value, "code", None), getattr(value, "params", None)
    if isinstance(code, str) and isinstance(params, dict):     # a reason worded at render time
        return _masked_reason(value, code, params,
                              re.compile(pattern.pattern, re.IGNORECASE) if pattern is not None else None)
    return value


def _masked_reason(value, code: str, params: dict, pattern):
    """``value`` (a Reason, RuleError, GameError or parser Diagnostic: a
    ``code`` and ``params``) of the same kind with the sender's text in its
    params masked (the parser quotes a line in lower case: any case matches)."""
    masked = {k: v if k in CODE_PARAMS else _walk(v, pattern, True) for k, v in params.items()}
    if masked == params:
        return value
    if dataclasses.is_dataclass(value):
        return dataclasses.replace(value, params=masked)
    try:
        return type(value)(code, **masked)
    except Exception:  # noqa: BLE001 - a kind made otherwise: a plain reason says the same
        from ..rules.reasons import Reason
        return Reason(code, **masked)
