"""A judgekeeper rewords a mail by copying its template into the config
folder (``[judge] templates``): the copy is taken, the other templates stay
the shipped ones; one template tree serves every language."""

from __future__ import annotations

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
