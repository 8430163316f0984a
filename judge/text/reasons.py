"""Reasons in words: why an order failed or was refused, why a request was
not taken — every code of the rules core (:mod:`judge.rules.reasons`), of
the game (:class:`~judge.game.errors.GameError`, its refusals) and of the
order parser (:mod:`judge.notation.diagnostics`: its words live here), said
in the reader's language by :func:`say`.

A reason's params hold codes; here they become names (:class:`Words`):
``province``, ``destination``, ``origin``, ``location``, ``ordered``,
``named`` are places; ``coasts`` and ``candidates`` lists of places;
``unit`` a unit (``"F stp/sc"``); ``power``/``expected_power`` a power and
``powers`` powers; ``written``, ``actual``, ``unit_type`` unit types;
``order`` an order kind, ``phase_kind`` a phase kind; ``sides`` winning
sides; ``reason`` a reason inside this one. Other params are shown as they
are (numbers, the text a player wrote, setting keys).
"""

from __future__ import annotations

from ..rules.victory import ALLIANCE, AT_PHASE, AT_TIME, CONCESSION, DRAW, SOLO
from .catalogue import N_

TEXTS: dict[str, str] = {
    # ---- failures of a legal order (judge.rules.orders) ------------------------------
    "bounced": N_("bounced"),
    "cut": N_("cut"),
    "dislodged": N_("dislodged"),
    "disrupted": N_("disrupted"),
    "no_convoy": N_("no convoy"),
    "no_order": N_("no order"),
    "civil_disorder": N_("removed by the rules (civil disorder)"),
    "unworded": "%(text)s",
    # ---- illegal and void orders (judge.rules.reasons) -------------------------------
    "wrong_phase": N_("a %(order)s order is not possible in the %(phase_kind)s phase"),
    "no_unit": N_("there is no unit in %(province)s"),
    "not_your_unit": N_("the unit in %(province)s belongs to %(power)s"),
    "wrong_unit_type": N_("the unit in %(province)s is %(actual)s, not %(written)s"),
    "no_dislodged_unit": N_("no unit was dislodged in %(province)s"),
    "unknown_location": N_("%(location)s is not on the map"),
    "own_province": N_("a unit cannot move to the province it is in (%(province)s)"),
    "army_cannot_go": N_("an army cannot go to %(province)s"),
    "cannot_reach": N_("%(unit)s cannot reach %(destination)s"),
    "coast_needed": N_("say which coast of %(province)s: %(coasts)s"),
    "no_convoy_fleets": N_("no fleets stand where they could convoy an army from %(origin)s to %(destination)s"),
    "support_itself": N_("a unit cannot support itself"),
    "support_only_through": N_("the army in %(origin)s could reach %(destination)s only through "
                               "%(province)s, where the supporting fleet is"),
    "convoy_not_at_sea": N_("only a fleet in a sea can convoy"),
    "no_army_to_convoy": N_("there is no army in %(province)s to convoy"),
    "not_on_convoy_route": N_("%(province)s is on no convoy route from %(origin)s to %(destination)s"),
    "cannot_retreat": N_("%(unit)s cannot retreat to %(destination)s"),
    "retreat_not_adjacent": N_("%(unit)s cannot retreat to %(destination)s: it is not next to it"),
    "retreat_attacker": N_("%(unit)s cannot retreat to %(destination)s: the attack that dislodged it came "
                           "from there"),
    "retreat_occupied": N_("%(unit)s cannot retreat to %(destination)s: a unit stands there"),
    "retreat_standoff": N_("%(unit)s cannot retreat to %(destination)s: it was left empty by a standoff"),
    "no_builds": N_("%(power)s has no builds"),
    "builds_used_up": N_("every build due (%(count)s) is ordered already"),
    "not_home_centre": N_("%(province)s is not a home centre of %(power)s"),
    "not_owned": N_("%(power)s does not own %(province)s now"),
    "occupied": N_("cannot build in %(province)s: a unit is there"),
    "unit_type_needed": N_("say what to build in %(province)s: army (A) or fleet (F)"),
    "impossible_unit": N_("%(unit_type)s cannot be in %(province)s"),
    "no_removals": N_("%(power)s need not remove a unit"),
    "removals_used_up": N_("every removal due (%(count)s) is ordered already"),
    "replaced": N_("replaced by a later order for the same unit"),
    "no_convoy_ordered": N_("no convoy was ordered from %(origin)s to %(destination)s"),
    "convoy_not_matched": N_("the army in %(province)s was not ordered to %(destination)s"),
    "supported_no_unit": N_("there is no unit in %(province)s to support"),
    "supported_wrong_type": N_("the unit in %(province)s is not %(written)s"),
    "supported_moves": N_("the unit in %(province)s was ordered to move"),
    "support_not_matched": N_("the unit in %(province)s was not ordered to %(destination)s"),
    "support_other_coast": N_("the unit in %(province)s was ordered to %(ordered)s, not %(named)s"),
    # ---- the game's own refusals of an order (judge.game.refusals) --------------------
    "retreat_lists_off": N_("this game does not use standing retreat lists"),
    "retreat_list_phase": N_("a retreat list is given with movement orders"),
    "priority_lists_off": N_("this game does not use build and disband priority lists"),
    "adjustment_in_winter": N_("builds and removals are ordered in the Winter adjustment phase"),
    "adjustment_with_fall": N_("builds and removals are given with the Fall orders"),
    "retreat_as_list": N_("in this game a retreat is given as a retreat list with the movement orders"),
    "retreat_in_retreat": N_("retreats are ordered in a retreat phase"),
    "movement_phase": N_("this is a movement phase (%(phase)s): order hold, move, support or convoy"),
    "retreat_phase": N_("this is a retreat phase (%(phase)s): order a retreat or a disband"),
    "adjustment_phase": N_("this is an adjustment phase (%(phase)s): order builds, removals or waives"),
    "order_word": N_('"%(text)s" is not an order word; did you mean %(word)s?'),
    # ---- requests the rules core refuses (judge.rules.victory, scoring, phase) ----------
    "naive_time": N_("%(what)s must be a time with its time zone"),
    "not_positive": N_("%(what)s must be a whole number of at least 1, or none (not %(value)s)"),
    "not_a_choice": N_("%(what)s must be one of %(allowed)s (not %(value)s)"),
    "above_map_centres": N_("%(what)s %(value)s is more than the map's %(total)s supply centres"),
    "unknown_settings": N_("unknown key in %(group)s: %(keys)s"),
    "not_a_time": N_('"%(text)s" is not a date and time such as 2027-01-01T00:00Z'),
    "no_winning_side": N_("a result names at least one winner"),
    "bad_centre_count": N_("the SC count of %(power)s must be a whole number of at least 0 (not %(value)s)"),
    "alliance_not_two": N_("an alliance has exactly two powers (not %(powers)s)"),
    "alliance_unknown": N_("%(powers)s: not in this game"),
    "alliance_twice": N_("%(powers)s cannot be in two alliances at once"),
    "ally_self": N_("%(power)s cannot ally with itself"),
    "not_surviving": N_("%(power)s is not a surviving power"),
    "draw_too_small": N_("a draw needs at least two powers; to give the game to one power, concede"),
    "draw_all_survivors": N_("in this game a draw includes every surviving power: %(powers)s"),
    "concede_self": N_("%(power)s cannot concede to itself"),
    "not_scored": N_("%(powers)s: not among the powers scored"),
    "extras_not_house": N_("passive rulings and awards belong to the house scoring, not to %(system)s"),
    "bad_fine": N_("a fine is a whole number of points, 0 or more (not %(value)s)"),
    "no_centres_owned": N_("sum-of-squares scoring needs at least one power with a supply centre"),
    "no_leader": N_("%(power)s has no leader"),
    "self_vote": N_("%(power)s may not vote for itself"),
    "gm_choice_not_tied": N_("%(power)s is not among the tied: %(powers)s"),
    "bad_phase": N_('"%(text)s" is not a phase name like S1901M, F1901R or W1901A'),
    "phase_not_later": N_("%(phase)s is not later than the current phase, %(current)s: orders after PHASE are for a "
                          "phase to come (orders for the current phase need no PHASE line)"),
    "too_many_future": N_("at most %(limit)s lines are kept for %(phase)s"),
    "diary_private": N_("the diaries of game %(game)s are private until the game is over"),
    # ---- the game's errors (judge.game.errors) ----------------------------------------
    "game_over": N_("game %(game)s is over (%(phase)s)"),
    "alliances_off": N_("alliances cannot win game %(game)s: it has no alliance victory condition"),
    "no_such_power": N_('no power "%(text)s" in this game: %(powers)s'),
    "no_such_variant": N_('no variant "%(text)s"; the variants (VARIANTS describes them): %(allowed)s'),
    "has_player": N_("%(power)s has a player; EJECT or REPLACE first"),
    "nobody_plays": N_("nobody plays %(power)s"),
    "no_press": N_("this game has no press"),
    "no_grey_press": N_("this game has no grey (anonymous) press"),
    "grey_only": N_("this game allows only grey (anonymous) press: add GREY"),
    "no_gm_press": N_("this game has no press to the GM"),
    "no_private_press": N_("this game has no private press: use BROADCAST"),
    "deadline_past": N_("the new deadline must be in the future"),
    "short_password": N_("a password has at least 4 characters: REPLACE POWER PASSWORD"),
    "no_clock": N_("game %(game)s has no running clock: the GM starts it with START [DATE TIME]"),
    "not_started": N_("game %(game)s has not started: its clock starts when every power is taken (free: "
                      "%(powers)s), or when the GM sends START [DATE TIME]"),
    "forming_deadline": N_("game %(game)s is still forming (free: %(powers)s), and a deadline would start its "
                           "clock: send START DATE TIME to start it now with that first deadline, or wait: the "
                           "clock starts by itself when every power is taken"),
    "gm_no_vote": N_("the GM enters %(power)s's orders after BECOME, but does not vote for it: draws, concessions "
                     "and alliances are the players' own"),
    "ally_taken": N_("%(power)s is allied with %(partner)s, and an alliance has two powers: it would have to "
                     "UNALLY first"),
    "paused_already": N_("game %(game)s is paused already"),
    "not_paused": N_("game %(game)s is not paused"),
    "started_already": N_("game %(game)s has started already"),
    "pause_limit": N_("a pause lasts more than 0 and at most %(limit)s hours in this game"),
    "no_alliance": N_("%(power)s has declared no alliance"),
    "no_draw_vote": N_("%(power)s has not voted for a draw"),
    "not_conceded": N_("%(power)s has not conceded"),
    "extend_hours": N_("extend by a number of hours above 0"),
    "unknown_zone": N_('unknown time zone "%(text)s" (use an IANA name such as Europe/Paris)'),
    "still_running": N_("game %(game)s is still running"),
    "bad_game_name": N_('"%(text)s" is not a game name: a game name is 1 to 32 letters, digits, "-" or "_", '
                        'without spaces'),
    "no_phase": N_("game %(game)s has no adjudicated phase %(phase)s; it is at %(current)s now"),
    "phase_moved": N_("the command was written for %(phase)s, but game %(game)s is at %(current)s now: nothing "
                      "was done (to do it for %(current)s, send %(retry)s)"),
    "repeated": N_("this mail repeats the one done at %(at)s, and game %(game)s has moved on since (it is at "
                   "%(current)s now): not done again (to do it now, send %(retry)s)"),
    "no_phase_range": N_("game %(game)s has no adjudicated phase in that range"),
    "no_phase_yet": N_("game %(game)s has no adjudicated phase yet: it is at %(current)s"),
    "broadcast_recipients": N_("BROADCAST takes no recipients (use PRESS TO ...): %(text)s"),
    "press_not_power": N_('"%(text)s" is not a power of this game'),
    "press_too_long": N_("press is limited to %(limit)s characters"),
    "press_empty": N_("the press is empty"),
    "not_press_line": N_('not a press line: "%(text)s"'),
    "press_self_only": N_("the press names nobody but yourself"),
    "not_an_award": N_('"%(text)s" is not an award: use strategy or diplomacy'),
    "absence_backwards": N_("an absence must end after it starts"),
    "absence_over": N_("that absence is over already"),
    "absence_limit": N_("absences are limited to %(limit)s days in this game; %(power)s has %(left)s left"),
    "draw_survivors": N_("a draw is of two or more surviving powers: %(powers)s"),
    "house_only": N_("game %(game)s is scored by %(system)s: awards and passive rulings belong to the "
                     "house scoring"),
    "gm_names_awards": N_("in game %(game)s the GM names the awards; leaders do not vote"),
    "award_vote_closed": N_("the award vote of game %(game)s has closed"),
    "no_award_vote": N_("game %(game)s has no open award vote to close"),
    "leader_only": N_("only the leader of %(power)s votes for awards; advisors do not"),
    "tie_break_late": N_("the leaders vote for the awards; the GM breaks a tie once the vote has closed"),
    "no_tie": N_("the leaders' vote gives the %(award)s to %(powers)s; there is no tie for the GM to break"),
    "usage": N_("write it as: %(usage)s"),
    "not_points": N_('"%(text)s" is not a whole number of points (or NONE)'),
    "name_power": N_("name the power (or NONE)"),
    "name_phase": N_("name the phase: ROLLBACK S1901M"),
    # ---- lines the order parser could not read (judge.notation.diagnostics) -----------
    "unknown_province": N_('unknown province "%(text)s"%(did_you_mean)s'),
    "unknown_word": N_('not understood: "%(text)s"'),
    "ambiguous_province": N_('"%(text)s" could be %(candidates)s: write more of the name'),
    "unknown_coast": N_('"%(text)s" is not a coast of %(province)s; its coasts are %(coasts)s'),
    "coast_impossible": N_("%(province)s has no %(coast)s; write %(coasts)s"),
    "incomplete": N_('incomplete order: expected %(expected)s after "%(after)s"'),
    "unexpected": N_('not understood here: "%(text)s"'),
    "several_units": N_("one unit per %(order)s order"),
    "route_not_allowed": N_("no route here: %(reason)s"),
    "route_not_sea": N_("a convoy route goes through seas only; %(province)s is not a sea"),
    "wrong_power": N_("this line is for %(power)s, but these are the orders of %(expected_power)s"),
    "illegal": N_("not a legal order: %(text)s"),
    "unit_coast_corrected": N_("the fleet in %(province)s is on the %(coast)s, not the %(written_coast)s"),
    "chatter": N_('passed over, no order in it: "%(text)s"'),
    "unit_word_for_fleet": N_("read as the order of the fleet in %(province)s (the word written is one for "
                              "soldiers)"),
    # ---- settings (judge.game.setting_text, deadlines, settings) ----------------------
    "bad_key": N_('"%(pair)s": write key=value with a key among %(keys)s'),
    "not_whole_or_none": N_('"%(text)s" is not a whole number (or none)'),
    "not_whole": N_('"%(text)s" is not a whole number'),
    "not_yes_no": N_('"%(text)s" is not yes or no'),
    "not_length": N_('"%(text)s" is not a length such as 48h, 2d or 90m'),
    "length_unit": N_('"%(text)s" has no unit: write %(value)sh, %(value)sd or %(value)sm'),
    "too_long": N_('"%(text)s" is longer than the judge takes: a length is at most %(days)s days'),
    "too_far_year": N_('"%(text)s" is too far off: the judge takes dates in the years %(first)s to %(last)s'),
    "too_far": N_('"%(text)s" is too far ahead: the judge takes dates up to %(days)s days from now'),
    "bad_weekdays": N_('"%(text)s": name weekdays like mon,tue,wed or mon-fri'),
    "bad_press_mode": N_('"%(text)s": use none, white, grey or both'),
    "not_a_flag": N_("%(what)s must be yes or no"),
    "not_hours": N_("%(what)s must be 0 or more hours"),
    "hours_above_zero": N_("%(what)s must be more than 0 hours"),
    "bad_clock": N_('"%(text)s" is not a clock time HH:MM'),
    "not_at_least_zero": N_("%(what)s must be 0 or more"),
    "not_a_setting_value": N_("%(what)s: %(value)s is not a value it takes"),
    "bad_preset": N_('"%(text)s" is not a preset: the presets are %(presets)s (房规)'),
    "weak_join_password": N_("a join password needs at least 4 characters and no spaces"),
    "not_addresses": N_('"%(text)s": name mail addresses such as a@example.org'),
}
"""Every reason code, with its English words (the catalogue's message ids)."""

SENTENCES = {
    SOLO: N_("%(winners)s wins alone with %(n)s supply centres."),
    SOLO + "+": N_("%(winners)s reached %(need)s supply centres at the same time and share the win."),
    ALLIANCE: N_("The alliance of %(winners)s wins jointly with %(n)s supply centres."),
    ALLIANCE + "+": N_("The alliances %(winners)s met the alliance condition at the same time and share the win."),
    AT_PHASE: N_("The game ended after Fall %(year)s; %(winners)s has the most supply centres (%(n)s) and wins."),
    AT_PHASE + "+": N_("The game ended after Fall %(year)s; %(winners)s share the most supply centres (%(n)s) "
                       "and the win."),
    AT_TIME: N_("The game's end time (%(end)s) has come; %(winners)s has the most supply centres (%(n)s) and wins."),
    AT_TIME + "+": N_("The game's end time (%(end)s) has come; %(winners)s share the most supply centres (%(n)s) "
                      "and the win."),
    DRAW: N_("The game is drawn between %(winners)s."),
    CONCESSION: N_("The other powers conceded the game to %(winners)s, who wins."),
}
"""The result of a game in a sentence, by kind (``+``: tied sides share the win)."""
TIE = N_("%(winners)s meet the condition at the same time; by the tie rule, play goes on year by year "
         "until exactly one winner remains.")
"""A tie under tie rule ``continue`` (``judge.rules.victory.Tie``)."""


ORDER_KINDS = {
    "hold": N_("hold"), "move": N_("move"), "support": N_("support"), "convoy": N_("convoy"),
    "retreat": N_("retreat"), "disband": N_("disband"), "build": N_("build"), "waive": N_("waive"),
    "retreat_pref": N_("retreat preference"), "build_pri": N_("build priority list"),
    "disband_pri": N_("disband priority list"),
}
UNIT_TYPES = {"A": N_("an army"), "F": N_("a fleet")}
EXPECTED = {"order": N_("an order (H, -, S, C, ...)"), "location": N_("a province"),
            "destination": N_("a destination"), "unit": N_("the unit it applies to")}
"""What an incomplete line lacks (``incomplete``)."""
ROUTES = {"fleet": N_("a fleet moves one step and is never convoyed"),
          "retreat": N_("a retreat goes to one adjacent province, never by convoy")}
"""Why a line may name no route (``route_not_allowed``)."""
DID_YOU_MEAN = N_("; did you mean %(names)s?")
PHASE_KINDS = {"M": N_("movement"), "R": N_("retreat"), "A": N_("adjustment")}
ROLES = {"voter": N_("the voter"), "draw_member": N_("a member of the draw"),
         "conceded_to": N_("the power conceded to"), "ally": N_("the ally")}
AWARDS = {"best_strategy": N_("best strategy award"), "best_diplomacy": N_("best diplomacy award"),
          "strategy": N_("best strategy award"), "diplomacy": N_("best diplomacy award")}
SYSTEMS = {"house": N_("house rules, Appendix 2"), "dss": N_("draw-size scoring"),
           "sum_of_squares": N_("sum of squares"), "c_diplo": "C-Diplo"}
"""Scoring systems (``C-Diplo`` is a name: the same in every language)."""

_PLACES = ("province", "destination", "origin", "location", "ordered", "named")
_UNIT_TYPES = ("written", "actual", "unit_type")


def sides_text(sides, w) -> str:
    """Winning sides: ``England, France and Italy``; sides of two or more
    powers each: ``England and France; Italy and Turkey``."""
    if len(sides) == 1 or all(len(s) == 1 for s in sides):
        return w.join(w.powers([p for s in sides for p in s]), "and")
    return w(N_("; ")).join(w.join(w.powers(s), "and") for s in sides)


def tie_reason(tie):
    """The reason of a :class:`~judge.rules.victory.Tie`: code ``tie``."""
    from ..rules.reasons import Reason
    return Reason("tie", sides=tie.sides)


def _victory(code: str, params: dict, w) -> str:
    """A game's end (or a tie) from its reason's params: ``sides``,
    ``centres`` (each side's SCs), ``need``, ``year``, ``end_at`` (ISO 8601)."""
    from datetime import datetime
    sides = params.get("sides") or ()
    winners = sides_text(sides, w)
    if code == "tie":
        return w(TIE, winners=winners)
    key = code + ("+" if len(sides) > 1 and code in (SOLO, ALLIANCE, AT_PHASE, AT_TIME) else "")
    end = params.get("end_at")
    return w(SENTENCES[key], winners=winners, n=(params.get("centres") or ["?"])[0],
             need=params.get("need", "?"), year=params.get("year", "?"),
             end=w.deadline(datetime.fromisoformat(end)) if end else "?")


def _parts(thing) -> tuple[str | None, dict]:
    """``(code, params)`` of a reason, an error or a diagnostic."""
    if isinstance(thing, dict) and "code" in thing:        # a reason in its stored form
        return thing["code"], {k: v for k, v in thing.items() if k != "code"}
    code = getattr(thing, "code", None)
    return (code, dict(getattr(thing, "params", None) or {})) if isinstance(code, str) else (None, {})


def _shown(key: str, value, w) -> str:
    if key in _PLACES and isinstance(value, str):
        return w.location(value) if value in w.names.index.map.provinces or "/" in value else value
    if key in ("coasts", "candidates", "suggestion_codes"):
        return w.join([w.coast(c) if key == "coasts" else w.location(c) for c in value], "or")
    if key == "unit" and isinstance(value, str):
        return w.unit(value)
    if key in ("power", "expected_power", "partner") and isinstance(value, str):
        return w.power(value)
    if key == "powers":
        return w.join(w.powers(value), "and")
    if key in _UNIT_TYPES and value in UNIT_TYPES:
        return w(UNIT_TYPES[value])
    if key == "order" and value in ORDER_KINDS:
        return w(ORDER_KINDS[value])
    if key == "phase_kind" and value in PHASE_KINDS:
        return w(PHASE_KINDS[value])
    if key == "role" and value in ROLES:
        return w(ROLES[value])
    if key == "award" and value in AWARDS:
        return w(AWARDS[value])
    if key == "system" and value in SYSTEMS:
        return w(SYSTEMS[value])
    if key == "sides":
        return w.join([w.join(w.powers(side), "and") for side in value], "and")
    if key == "reason" and value in ROUTES:
        return w(ROUTES[value])
    if key == "expected" and value in EXPECTED:
        return w(EXPECTED[value])
    if key in ("coast", "written_coast") and isinstance(value, str):
        return w.names.coast_name(value)
    if key == "reason":
        return say(value, w)
    if key == "usage" and isinstance(value, str):
        return w(value)
    if isinstance(value, (list, tuple)):
        return w.join(str(v) for v in value)
    if isinstance(value, float):
        return w.number(value)
    return str(value)


def say(thing, w) -> str:
    """``thing`` — a :class:`~judge.rules.reasons.Reason`, a
    :class:`~judge.rules.reasons.RuleError`, a GameError, a parser
    Diagnostic or any exception — as a sentence in ``w``'s language and
    names (``w``: a :class:`~judge.text.words.Words`). A code this table
    does not know is shown as it is (a GameError made with an English
    sentence for the command line)."""
    if thing is None:
        return ""
    code, params = _parts(thing)
    if code in SENTENCES or code == "tie":
        return _victory(code, params, w)
    if code is None or code not in TEXTS:
        return code if code is not None else str(thing)
    text = w(TEXTS[code])
    shown = {k: _shown(k, v, w) for k, v in params.items() if k not in ("labels", "map", "retreats")}
    if isinstance(params.get("retreats"), (list, tuple)):       # a refused retreat: where it may go
        text += w(N_("; it may retreat to %(retreats)s")) % {"retreats": w.join(
            [w.location(r) for r in params["retreats"]], "or")} if params["retreats"] else \
            w(N_("; it cannot retreat anywhere and will be disbanded"))
    if code == "unknown_province":
        codes = params.get("suggestion_codes") or []
        shown["did_you_mean"] = w(DID_YOU_MEAN, names=w.join(w.locations(codes), "or", question=True)) if codes else ""
    try:
        text = text % shown
    except (KeyError, TypeError, ValueError):
        return f"{text} {shown}"
    pair = params.get("pair")
    return text if pair is None or code == "bad_key" else w(N_("%(pair)s: %(reason)s"), pair=pair, reason=text)
