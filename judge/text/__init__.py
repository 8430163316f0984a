"""Words at the edge: every word the judge writes, in the reader's language.

The rules core and the game give codes, numbers and names of things (a
:class:`~judge.rules.reasons.Reason`, a GameError, a notice's data); this
layer words them, in English, simplified or traditional Chinese:

- :mod:`.catalogue`: the one gettext catalogue (Babel), English message ids,
  ``templates/locale/``; its words follow ``templates/locale/GLOSSARY.md``;
- :mod:`.names`: the names of powers and places, in a name set
  (``standard``, or ``house``: the rule texts' own spellings);
- :mod:`.words`: :class:`Words`, one reader's words (names, phases, units,
  orders, lists, times, reasons);
- :mod:`.reasons`: every reason code in words (:func:`say`);
- :mod:`.dates`: times with Babel;
- :mod:`.templates`: the one mail template tree (``templates/mail/``,
  ``{% trans %}``), which a judgekeeper can override.

Imports point inward: ``rules <- notation <- game <- text <- (archive, mail)``.
"""

from .catalogue import LANGS, check_lang, gettext, lang_of
from .reasons import say
from .words import Words, phase_title


def english(thing) -> str:
    """``thing`` (a reason, an error) in English, standard names (logs and
    the command line)."""
    return say(thing, Words("standard", "en"))


__all__ = ["LANGS", "Words", "check_lang", "english", "gettext", "lang_of", "phase_title", "say"]
