"""The judge's verbs: every command, one record each (:mod:`.registry`),
run over a typed session (:mod:`.session`) by the mail and by the
judgekeeper's command line alike.

The handlers, one function a verb, by kind: :mod:`.anyone` (CREATE, JOIN,
SIGNON, LIST, OBSERVE, SET LANGUAGE, SET NAMES, SIGNOFF), :mod:`.player`
(SET PASSWORD, SET ADDRESS, SET WAIT, SET ABSENCE, ADVISOR, RESIGN),
:mod:`.orders` (order lines, press), :mod:`.gm` (the GM's clock, players,
settings, joins), :mod:`.ending` (votes and rulings), :mod:`.archive`
(HISTORY, SUMMARY, MAP), :mod:`.keeper` (the command line's own).

Imports point inward: ``verbs`` uses ``game``, ``storage``, ``text``,
``archive`` and ``notation``, and never :mod:`judge.mail`: what the verbs
need of a mail comes in on the session.
"""
