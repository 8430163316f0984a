"""The mail templates: one tree, ``templates/mail/``, for every language.

Each template says its words once, in English, inside ``{% trans %}`` blocks
or ``_()`` calls; the catalogue (:mod:`.catalogue`) gives the Chinese. A
judgekeeper rewords a mail by copying its template into the folder
``templates/mail/`` beside the config file (``[judge] templates``,
:attr:`judge.config.Config.templates_dir`) and editing the copy: a template
found there is taken instead of the shipped one, the others are still the
shipped ones. The results of a phase are ``results/phase.txt``; the final
report (SC table, scores, rewards) ``results/final.txt``.

A mail template's first line is ``Subject: ...``, then a blank line, then
the body. Filters: ``when(dt, tz)`` a UTC datetime in a time zone (IANA
name), ``utc(dt)``, ``deadline(dt, tz)`` both (or UTC once), ``reason(x)``
a reason or error in words, ``pad(text, width)`` text padded to a width
in columns (a Chinese character takes two). Globals: ``lang``, ``words(map,
names)`` (a :class:`~judge.text.words.Words`), ``phase_title(phase)``.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path
from types import FunctionType, MethodType

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined
from jinja2.runtime import Context

from .catalogue import TEMPLATES_DIR, check_lang, translations
from .dates import format_deadline, format_time
from .words import Words, phase_title

MAIL_TEMPLATES = TEMPLATES_DIR / "mail"


def width(text: str) -> int:
    """Columns ``text`` takes in a fixed-width font (wide characters: two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in str(text))


def pad(text, columns: int) -> str:
    """``text`` followed by spaces up to ``columns`` columns (:func:`width`)."""
    text = str(text)
    return text + " " * max(columns - width(text), 0)


def words_for(lang: str, names: str | None = None):
    """``words(map_name, names=None)`` for templates: a cached
    :class:`~judge.text.words.Words` in ``lang``, name set ``names`` (the
    given default when the call names none)."""
    cache: dict[tuple, Words] = {}

    def words(map_name: str, names_: str | None = None) -> Words:
        key = (map_name, names_ or names)
        if key not in cache:
            cache[key] = Words(map_name, lang, key[1])
        return cache[key]
    return words


_DICT_ATTRIBUTES = frozenset(dir(dict))


class _Context(Context):
    """Jinja's context, calling a plain function or method of the templates
    (one that asks for no context: no attribute set on it, as
    ``pass_context`` sets) at once — the same call as Jinja's, which first
    looks for those attributes on the callable and on its ``__call__``
    (about 30 calls a reply)."""

    def call(__self, __obj, *args, **kwargs):  # noqa: N805 - Jinja's own signature
        kind = type(__obj)
        if kind is MethodType:
            plain = type(__obj.__func__) is FunctionType and not __obj.__func__.__dict__
        else:
            plain = kind is FunctionType and not __obj.__dict__
        if not plain:
            return super().call(__obj, *args, **kwargs)
        if kwargs:
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:
            return __self.environment.undefined("value was undefined because a callable raised a"
                                                " StopIteration exception")


class _Environment(Environment):
    """Jinja's environment, with the same answers for less work (issue 23):
    ``x.name`` of a plain dict read without first trying (and failing)
    ``getattr`` (a dict's own methods, ``x.items``, are still found as
    methods: a seventh of an order mail's rendering was the AttributeError
    Jinja raised and caught for each); plain functions called at once
    (:class:`_Context`); a template's globals one dict."""

    context_class = _Context

    def make_globals(self, d):
        """A template's globals as one plain dict (Jinja's is a ChainMap over
        the environment's, which every include and import copies key by key
        in Python: a tenth of a reply's rendering). The environment's globals
        are all set before its first template is loaded, as Jinja asks."""
        return {**self.globals, **(d or {})}

    def getattr(self, obj, attribute):
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


@lru_cache(maxsize=None)
def environment(lang: str, overrides: Path | None = None) -> Environment:
    """The Jinja2 environment of the mail templates in ``lang`` (cached):
    ``overrides/mail/`` first when given (a judgekeeper's copies), then the
    shipped tree. ValueError for another language."""
    check_lang(lang)
    loaders = [FileSystemLoader(str(MAIL_TEMPLATES))]
    if overrides is not None:
        loaders.insert(0, FileSystemLoader(str(Path(overrides) / "mail")))
    # a keeper's copies are read again when edited; the shipped tree is not looked at again (a stat
    # of every template file of every answer, issue 23)
    env = _Environment(loader=ChoiceLoader(loaders), autoescape=False, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                      extensions=["jinja2.ext.i18n", "jinja2.ext.do"], auto_reload=overrides is not None)
    env.install_gettext_translations(translations(lang), newstyle=True)
    env.jinja_gettext = {k: env.globals[k] for k in ("_", "gettext", "ngettext")}   # for an HTML overlay
    env.globals.update(_plain_gettext(translations(lang)))
    w = Words("standard", lang)
    env.filters["when"] = lambda dt, tz="UTC": format_time(dt, tz, lang)
    env.filters["utc"] = lambda dt: format_time(dt, "UTC", lang)
    env.filters["deadline"] = lambda dt, tz="UTC": format_deadline(dt, tz, lang)
    env.filters["reason"] = lambda e, words=None: (words or w).reason(e)
    env.filters["pad"] = pad
    env.filters["width"] = width
    env.globals.update(lang=lang, phase_title=lambda phase: phase_title(phase, lang),
                       width=width, pad=pad, zh=lang != "en", result_sentence=_result_sentence)
    return env


def _plain_gettext(catalogue) -> dict:
    """``_``, ``gettext`` and ``ngettext`` for the templates as plain
    functions, the same answers as Jinja's newstyle ones with autoescaping
    off (the text always %-formatted with its keywords; ``num`` set for
    ngettext): Jinja's go through three context calls a word (``_`` looks up
    ``gettext`` in the context, which calls the catalogue), a tenth of a
    reply's rendering (issue 23). Text only: an overlay that escapes HTML
    takes Jinja's own (``env.jinja_gettext``), which mark the catalogue's
    text safe and escape the values."""
    look, look_n = catalogue.gettext, catalogue.ngettext

    def gettext(string: str, /, **variables) -> str:
        return look(string) % variables

    def ngettext(singular: str, plural: str, num: int, /, **variables) -> str:
        variables.setdefault("num", num)
        return look_n(singular, plural, num) % variables
    return {"_": gettext, "gettext": gettext, "ngettext": ngettext}


def _result_sentence(n: dict, w: Words, tz: str = "UTC") -> str:
    from .reports import result_sentence      # reports renders templates: imported when used
    return result_sentence(n, w, tz)


def render_text(name: str, lang: str, overrides: Path | None = None, **context) -> str:
    """Template ``name`` rendered in ``lang`` with ``context``: the text.
    Raises jinja2.TemplateNotFound and jinja2.UndefinedError (a context key
    is missing)."""
    return environment(lang, overrides).get_template(name).render(**context)


def render(name: str, lang: str, overrides: Path | None = None, **context) -> tuple[str, str]:
    """A mail template ``name`` (e.g. ``"reply.txt"``) -> (subject, body).
    Raises as :func:`render_text`, and ValueError for a template whose first
    line is not ``Subject: ...``."""
    text = render_text(name, lang, overrides, **context)
    first, _, body = text.partition("\n")
    if not first.startswith("Subject:"):
        raise ValueError(f"template {name}: the first line must be 'Subject: ...'")
    return first.removeprefix("Subject:").strip(), body.lstrip("\n").rstrip() + "\n"
