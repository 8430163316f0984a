"""A judgekeeper rewords a mail by copying its template into the config
folder (``[judge] templates``): the copy is taken, the other templates stay
the shipped ones; one template tree serves every language."""

from __future__ import annotations

import pytest

from judge.config import load_config
from judge.text.templates import MAIL_TEMPLATES, render


def test_one_tree_for_every_language():
    assert (MAIL_TEMPLATES / "results" / "phase.txt").is_file()
    assert not any((MAIL_TEMPLATES.parent / lang).exists() for lang in ("en", "zh-hans", "zh-hant"))


def test_a_copy_in_the_config_folder_overrides_the_shipped_template(tmp_path):
    (tmp_path / "judge.toml").write_text('[judge]\naddress = "judge@example.test"\n')
    assert load_config(tmp_path / "judge.toml").templates_dir is None       # no copies: the shipped ones
    mine = tmp_path / "templates" / "mail" / "notices"
    mine.mkdir(parents=True)
    (mine / "settings.txt").write_text('Subject: {{ _("Diplomacy settings") }} {{ n.game }}\n\n'
                                       'Our house: {{ n.changes | join(" / ") }}\n')
    cfg = load_config(tmp_path / "judge.toml")
    assert cfg.templates_dir == tmp_path / "templates"
    context = {"n": {"game": "g7", "changes": ["solo=16", "tie=continue"]}}
    subject, body = render("notices/settings.txt", "zh-hans", cfg.templates_dir, **context)
    assert (subject, body) == ("强权外交 设置 g7", "Our house: solo=16 / tie=continue\n")
    shipped = render("notices/settings.txt", "zh-hans", None, judge_name="J", judge_address="j@x", **context)
    assert "GM修改了游戏“g7”的设置" in shipped[1]
    # the templates not copied are the shipped ones
    help_subject, _ = render("shunted.txt", "en", cfg.templates_dir, subject="orders")
    assert help_subject == "Re: orders"


def test_the_environment_reads_a_dicts_names_as_jinja_does():
    """``x.name`` of a plain dict is read without Jinja's failed getattr
    first: the same answers as Jinja's own (a key; a dict's method even when
    a key has its name; undefined, and an error when used, when missing)."""
    import collections

    import jinja2
    from jinja2 import StrictUndefined

    from judge.text.templates import environment
    ours = environment("en")
    theirs = jinja2.Environment(undefined=StrictUndefined)
    source = "{{ d.a }}|{{ d['a'] }}|{{ d.items | string | truncate(20) }}|{{ d.b.c }}|{{ d.get('a') }}|{{ o.real }}"
    for d in ({"a": 1, "b": {"c": "x"}}, {"a": "華沙", "items": 3, "b": {"c": [1]}},
              collections.OrderedDict(a=2, b={"c": 0})):
        context = {"d": d, "o": 5}
        assert ours.from_string(source).render(**context) == theirs.from_string(source).render(**context)
    for missing in ("{{ d.nope }}", "{{ d.b.nope }}"):
        with pytest.raises(jinja2.UndefinedError):
            ours.from_string(missing).render(d={"b": {}})
    assert ours.from_string("{{ d.nope is defined }}").render(d={}) == "False"


def test_the_environment_translates_and_calls_as_jinja_does():
    """The templates' plain ``_``/``gettext``/``ngettext`` and their quick
    call of plain functions (:mod:`judge.text.templates`, issue 23) give
    Jinja's own answers: newstyle gettext (always %-formatted, ``num`` set),
    ``{% trans %}`` blocks, functions asking for the context, callable
    objects, methods, calls in loops, a StopIteration."""
    import functools

    import jinja2
    from jinja2 import StrictUndefined, pass_context

    from judge.text.catalogue import translations
    from judge.text.templates import environment

    class Box:
        def __init__(self, n):
            self.n = n

        def twice(self, x=1):
            return self.n * 2 * x

        @pass_context
        def lang_of(self, context):
            return context.get("tag", "-")

    class Callable:
        @pass_context
        def __call__(self, context, x):
            return f"{context['tag']}:{x}"

    def stops():
        raise StopIteration

    @functools.wraps(stops)
    def wrapped(x):
        return x + 1

    source = ("{{ _('Every unit of %(power)s has an order.', power='France') }}|{{ _('100%%') }}|"
              "{{ gettext('Send HELP for the list of commands.') }}|"
              "{{ ngettext('%(power)s must remove %(num)s unit: %(ordered)s ordered', "
              "'%(power)s must remove %(num)s units: %(ordered)s ordered', k, power='Italy', ordered=0) }}|"
              "{% trans n=3 %}{{ n }} things{% endtrans %}|"
              "{% trans count=k %}one item{% pluralize %}{{ count }} items{% endtrans %}|"
              "{{ b.twice() }} {{ b.twice(x=3) }} {{ b.lang_of() }} {{ c(5) }} {{ f(1) }} {{ (lambda_ or f)(2) }}|"
              "{% for i in [1, 2] %}{% set tag = 'loop' ~ i %}{{ b.lang_of() }}{{ c(i) }}{{ b.twice(i) }}{% endfor %}|"
              "{{ stops() is defined }}")
    for lang in ("en", "zh-hans", "zh-hant"):
        theirs = jinja2.Environment(undefined=StrictUndefined, extensions=["jinja2.ext.i18n"])
        theirs.install_gettext_translations(translations(lang), newstyle=True)
        for k in (1, 2):
            context = {"b": Box(k), "c": Callable(), "f": wrapped, "lambda_": None, "stops": stops, "tag": "top",
                       "k": k}
            mine = environment(lang).from_string(source).render(**context)
            assert mine == theirs.from_string(source).render(**context)
            assert "France" in mine and ("|3 " in mine or "3" in mine)
