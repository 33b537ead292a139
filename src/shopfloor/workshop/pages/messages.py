"""What the rules, the approvals and the offline reader say, in the page's language.

The rules (``domain.py``) and the approvals write English messages, and the API keeps them so; beside each
message they give a stable ``code`` and its ``params`` (a rule result's ``params``, a card result's
``params``). A page builds its sentence from those alone: each code has a catalogue entry here, its parts
named as in ``params``, translated where they are our vocabulary (stages, grades, flag kinds, field names) and
kept where they are names and codes; counts choose the plural form (``ngettext``). The English message is
never read, so a change of wording in the rules cannot leak English onto a Spanish page.

The offline reader's own texts on its cards (questions, reasons, flag messages) are said the same way: the
reader gives each a code and params (``workshop/agent/offline/card_texts.py``) that the card keeps beside its
English (``proposals.texts``), and ``READER`` has the catalogue entry of each code. A text with no code (a live
model's words, a person's, a card stored before the reader gave codes) is data and is shown as it came
(docs/workshop-pages.md, "Cards"). Pure functions; ``tests/workshop/pages/test_messages.py`` builds every
result with the rules' own code and says every reader code in Spanish.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shopfloor.workshop.pages.labels import FLAG_LABELS, GRADE_LABELS, N_, NN_, STAGE_LABELS

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]

FIELD_LABELS = {
    "weaver_id": N_("weaver"),
    "quantity": N_("how many hats"),
    "rows_per_inch": N_("rows per inch"),
    "grade": N_("grade"),
    "straw": N_("straw"),
    "hat_code": N_("hat code"),
    "to_stage": N_("new stage"),
    "kind": N_("problem"),
    "message": N_("what is wrong"),
}
TYPE_LABELS = {
    "create_hat": N_("new hats"),
    "advance_stage": N_("stage change"),
    "flag_issue": N_("problem report"),
}

# A catalogue entry: one sentence, or a plural pair and the name of the count that chooses between them.
Plural = tuple[str, str, str]
Text = str | Plural

# What a rule result says, by its code (``code.case`` where one code has several sentences).
RULES: dict[str, Text] = {
    "archived": N_("%(code)s is archived; archived hats do not change stage."),
    "not_owner": N_("Only the current owner can change the stage."),
    "already_finished": N_("%(code)s is already Finished; finished hats do not change stage."),
    "same_stage": N_("%(code)s is already at %(stage)s."),
    "backward": N_("%(code)s is at %(stage)s; stages only move forward, so it cannot go back to %(to)s."),
    "stage_skip": N_("%(code)s is at %(stage)s; the next stage is %(next)s, so it cannot skip to %(to)s."),
    "weaver_not_found": N_("The weaver is not (or no longer) in this workshop."),
    "invalid_quantity": N_("How many hats must be between %(low)s and %(high)s."),
    "invalid_rows": N_("Rows per inch must be between %(low)s and %(high)s."),
    "grade_mismatch": NN_(
        "%(grade)s needs %(low)s to %(high)s rows per inch; %(rows)s row is %(actual)s.",
        "%(grade)s needs %(low)s to %(high)s rows per inch; %(rows)s rows is %(actual)s.",
        "rows",
    ),
    "grade_mismatch.outside": NN_(
        "%(grade)s needs %(low)s to %(high)s rows per inch; %(rows)s row is outside 6 to 40.",
        "%(grade)s needs %(low)s to %(high)s rows per inch; %(rows)s rows is outside 6 to 40.",
        "rows",
    ),
    "grade_mismatch.no_grade": NN_(
        "No grade given; %(rows)s row per inch is %(actual)s.",
        "No grade given; %(rows)s rows per inch is %(actual)s.",
        "rows",
    ),
    "grade_mismatch.no_grade_outside": NN_(
        "No grade given; %(rows)s row per inch is outside 6 to 40.",
        "No grade given; %(rows)s rows per inch is outside 6 to 40.",
        "rows",
    ),
    "grade_mismatch.not_a_grade": N_("%(grade)s is not a grade (Standard, Fino or Superfino)."),
    "hat_not_found": N_("No hat %(code)s in this workshop."),
    "invalid_stage": N_("%(value)s is not a stage."),
    "invalid_straw": N_("%(value)s is not a straw (Natural, Bleached or Dyed)."),
    "invalid_kind": N_("%(value)s is not a kind of problem."),
    "invalid_message": N_("What is wrong must be %(low)s to %(high)s characters."),
    "flag_exists": N_("%(code)s already has an open flag: %(kind)s."),
    "conflict": N_("%(code)s changed since this card was made (now at %(stage)s); review the card again."),
    "unknown_type": N_("This card is of a kind the workshop does not know."),
}

# What a card's decision says beyond its rule, by the card result's code (and ``case``).
OUTCOMES: dict[str, Text] = {
    "applied": N_("Approved and saved."),
    "answered": N_("Answer saved; the card can be approved."),
    "not_found.proposal": N_("No such card in this workshop."),
    "not_found.gone": N_("%(code)s is no longer in this workshop."),
    "not_found.hat": N_("No hat %(code)s in this workshop."),
    "not_found.weaver": N_("No such weaver in this workshop."),
    "already_approved": N_("This card was already approved; nothing changed."),
    "already_rejected": N_("This card was already rejected; nothing changed."),
    "already_decided.approved": N_("This card was already approved."),
    "already_decided.rejected": N_("This card was already rejected."),
    "already_decided.meanwhile": N_("This card was decided at the same time; nothing changed."),
    "not_a_question": N_("This card is not an open question any more; nothing changed."),
    "invalid_edit.no_choices": N_("Only a question card has choices."),
    "invalid_edit.no_such_choice": NN_(
        "That choice does not exist; the question has %(count)s choice.",
        "That choice does not exist; the question has %(count)s choices.",
        "count",
    ),
    "invalid_edit.not_editable": N_("%(fields)s cannot be changed on this card."),
    "not_offered.no_choices": N_("Only a question card has choices."),
    "not_offered.weaver": N_(
        '%(name)s is not one of this card\'s choices (%(labels)s); pick one of them, or answer "Someone else" '
        "to name another weaver."
    ),
    "not_offered.hat": N_(
        '%(name)s is not one of this card\'s choices (%(labels)s); pick one of them, or answer "Another hat" '
        "to name another hat."
    ),
    "answer_required": N_("Answer the question first (missing: %(fields)s)."),
    "answer_required.bare": N_("Answer the question first."),
    "answer_incomplete": N_("Still missing: %(fields)s."),
    "unchanged_card": N_("%(rest)s The card was not changed."),
    "not_offered_names": NN_(
        "%(rest)s %(names)s was not one of the card's choices.",
        "%(rest)s %(names)s were not among the card's choices.",
        "count",
    ),
}

# What a hat's record looks like it says wrong, by anomaly kind.
ANOMALIES: dict[str, Text] = {
    "grade_mismatch": N_("%(code)s: %(rest)s"),
    "too_fast": NN_(
        "%(code)s left Weaving %(span)s after it was created; %(grade)s hats take at least %(days)s day to weave.",
        "%(code)s left Weaving %(span)s after it was created; %(grade)s hats take at least %(days)s days to "
        "weave.",
        "days",
    ),
    "too_fast.before": NN_(
        "%(code)s left Weaving before it was created; %(grade)s hats take at least %(days)s day to weave.",
        "%(code)s left Weaving before it was created; %(grade)s hats take at least %(days)s days to weave.",
        "days",
    ),
    "weaver_not_found": N_("%(code)s: its weaver is missing or archived."),
}
SPANS: dict[str, Text] = {
    "hours": NN_("%(n)s hour", "%(n)s hours"),
    "days": NN_("%(n)s day", "%(n)s days"),
}

# How each named part is said: by a vocabulary, as a list of field names, or as it is (names, codes).
PART_KINDS = {
    "stage": "stage",
    "next": "stage",
    "to": "stage",
    "grade": "grade",
    "actual": "grade",
    "kind": "kind",
    "fields": "fields",
    "labels": "list",
    "names": "list",
    "type": "type",
    "problem": "problem",
    "weavers": "and_list",
}


@dataclass(frozen=True)
class Say:
    """The page language's ``gettext`` and ``ngettext``, and what the rules and the reader say in it."""

    gettext: Gettext
    ngettext: Ngettext

    def text(self, entry: Text, params: Mapping[str, Any]) -> str:
        """``entry`` in this language with ``params`` (vocabulary translated, names and codes kept)."""
        parts = {name: self.part(name, value) for name, value in params.items()}
        if isinstance(entry, tuple):
            singular, plural, count = entry
            n = params.get(count)
            return self.ngettext(singular, plural, n if isinstance(n, int) else 2) % parts
        return self.gettext(entry) % parts

    def part(self, name: str, value: Any) -> Any:
        """One named part as this language says it: vocabulary translated, names and codes as they are."""
        kind = PART_KINDS.get(name)
        labels = {"stage": STAGE_LABELS, "grade": GRADE_LABELS, "kind": FLAG_LABELS, "type": TYPE_LABELS}.get(
            kind or ""
        )
        if labels is not None:
            return self.gettext(labels[value]) if value in labels else value
        if kind == "fields" and isinstance(value, list):
            return ", ".join(self.gettext(FIELD_LABELS[f]) if f in FIELD_LABELS else str(f) for f in value)
        if kind == "list" and isinstance(value, list):
            return ", ".join(str(v) for v in value)
        if kind == "and_list" and isinstance(value, list):
            return _join_names(self, [str(v) for v in value])
        if kind == "problem":
            return self.gettext(READER_KINDS[value]) if value in READER_KINDS else value
        return value

    def rule(self, result: Mapping[str, Any] | None) -> str:
        """What a rule result says (``code`` and ``params``); the English message when its code is not ours
        or it was stored before rules gave their params."""
        if not result:
            return ""
        code, params = result.get("code"), result.get("params")
        key = _rule_key(str(code), params) if isinstance(params, dict) else None
        if key is None or key not in RULES:
            return str(result.get("message") or "")
        return self.text(RULES[key], params or {})

    def outcome(
        self,
        outcome: str | None,
        code: str | None,
        params: Mapping[str, Any] | None,
        rule: Mapping[str, Any] | None,
    ) -> str:
        """What a card's decision says: its outcome and code, with the rule's sentence when a rule decided."""
        params = dict(params or {})
        if outcome == "applied":
            return self.text(OUTCOMES["applied"], {})
        if outcome == "answered":
            said = (
                self.text(OUTCOMES["answered"], {})
                if rule is None or rule.get("allowed")
                else self.rule(rule)
            )
            names = params.get("not_offered")
            if isinstance(names, list) and names:
                entry = OUTCOMES["not_offered_names"]
                return self.text(entry, {"rest": said, "names": names, "count": len(names)})
            return said
        if rule is not None and code is not None and rule.get("code") == code and code in _RULE_CODES:
            said = self.rule(rule)
            return self.text(OUTCOMES["unchanged_card"], {"rest": said}) if params.get("unchanged") else said
        if code in _RULE_CODES:
            return self.rule({"code": code, "params": params})
        case = params.get("case") or params.get("status")
        for key in (f"{code}.{case}", str(code)):
            if key in OUTCOMES:
                return self.text(OUTCOMES[key], params)
        if code == "answer_required":
            return self.text(OUTCOMES["answer_required.bare"], {})
        return ""

    def anomaly(self, anomaly: Mapping[str, Any]) -> str:
        """What a hat's record looks like it says wrong (``kind`` and ``params``)."""
        kind, params = str(anomaly.get("kind")), anomaly.get("params")
        if not isinstance(params, dict):
            return str(anomaly.get("message") or "")
        if kind == "grade_mismatch":
            rest = self.rule({"code": "grade_mismatch", "params": params})
            return self.text(ANOMALIES[kind], {"code": params.get("code"), "rest": rest})
        if kind == "too_fast":
            hours = params.get("hours")
            if not isinstance(hours, int) or hours < 0:
                return self.text(ANOMALIES["too_fast.before"], params)
            span = (
                self.text(SPANS["hours"], {"n": hours})
                if hours < 48
                else self.text(SPANS["days"], {"n": hours // 24})
            )
            return self.text(ANOMALIES[kind], {**params, "span": span})
        if kind in ANOMALIES:
            return self.text(ANOMALIES[kind], params)
        return str(anomaly.get("message") or "")

    def reader(self, said: Any, english: str | None) -> str:
        """A text of the offline reader's card from its code and params (``said``, as the card keeps it) in
        this language; ``english`` as it came when there is no code we know (a model's or a person's words, a
        card stored before the reader gave codes)."""
        if not isinstance(said, Mapping) or said.get("code") not in READER:
            return english or ""
        params = said.get("params")
        if not isinstance(params, Mapping):
            return english or ""
        # A part that is itself a text of the reader (how a hat was heard) is said first.
        parts = {k: self.reader(v, "") if isinstance(v, Mapping) else v for k, v in params.items()}
        try:
            return self.text(READER[str(said["code"])], parts)
        except (KeyError, TypeError, ValueError):  # params this entry cannot take: the English, as it came
            return english or ""


# --- the rules' codes ---------------------------------------------------------------------------------------

_RULE_CODES = {key.split(".")[0] for key in RULES}


def _rule_key(code: str, params: Mapping[str, Any]) -> str | None:
    if code != "grade_mismatch":
        return code
    outside = params.get("actual") is None
    if params.get("grade") is None:
        return "grade_mismatch.no_grade_outside" if outside else "grade_mismatch.no_grade"
    if "low" not in params:
        return "grade_mismatch.not_a_grade"
    return "grade_mismatch.outside" if outside else "grade_mismatch"


# --- the offline reader's texts ------------------------------------------------------------------------------

# The offline reader's own texts on its cards, by the code it gives them (workshop/agent/offline/card_texts.py
# has the English each is written with and the params). A plural entry counts by its last name.
READER: dict[str, Text] = {
    "question.number": N_(
        "The note corrects a number to %(n)s: is that how many hats %(name)s delivered, or their rows per inch?"
    ),
    "question.rows": NN_(
        "How many rows per inch (hileras) does this hat from %(name)s have?",
        "How many rows per inch (hileras) do these hats from %(name)s have?",
        "count",
    ),
    "question.rows_grado": NN_(
        "How many rows per inch (hileras) does this hat from %(name)s have? The note says grado %(grado)s, "
        "which is not a row count.",
        "How many rows per inch (hileras) do these hats from %(name)s have? The note says grado %(grado)s, "
        "which is not a row count.",
        "count",
    ),
    "question.rows_outside": NN_(
        "How many rows per inch (hileras) does this hat from %(name)s have? The note says %(rows)s, outside "
        "%(low)s to %(high)s.",
        "How many rows per inch (hileras) do these hats from %(name)s have? The note says %(rows)s, outside "
        "%(low)s to %(high)s.",
        "count",
    ),
    "question.quantity": N_("How many hats did %(name)s deliver?"),
    "question.too_many": NN_(
        "The note says %(n)s hat from %(name)s; one card holds at most %(max)s. How many go on this card?",
        "The note says %(n)s hats from %(name)s; one card holds at most %(max)s. How many go on this card?",
        "n",
    ),
    "question.unknown_weaver": N_("I found no weaver called %(name)s in this workshop. Who made these hats?"),
    "question.which_weaver": N_("Which weaver is %(name)s?"),
    "question.batch": NN_(
        "The note names %(weavers)s for one batch of %(n)s hat. Whose hat is it?",
        "The note names %(weavers)s for one batch of %(n)s hats. Whose hats are they?",
        "n",
    ),
    "question.batch_uncounted": N_("The note names %(weavers)s for one batch of hats. Whose hats are they?"),
    "question.partial": N_("I heard only part of a hat code (%(heard)s). Which hat is it?"),
    "question.which_hat": N_("Which hat did you mean by %(heard)s?"),
    "question.no_hat": N_("I found no hat for %(heard)s. Which hat is it?"),
    "why.number": N_(
        "The note says %(name)s delivered hats and corrects a number without saying whether it is the count or "
        "the rows, so I asked instead of guessing."
    ),
    "why.rows": N_("The note says %(name)s delivered hats but does not give the rows per inch."),
    "why.quantity": N_("The note says %(name)s delivered hats but not how many."),
    "why.too_many": N_(
        "The note says %(name)s delivered %(n)s hats, more than one card can hold, so I asked instead of "
        "splitting them myself."
    ),
    "why.unknown_weaver": N_(
        "The note mentions new hats from %(name)s, but no weaver with that name exists here, so I did not "
        "create one."
    ),
    "why.which_weaver": N_("The note mentions new hats from %(name)s, and %(n)s weavers match that name."),
    "why.create": NN_(
        "%(name)s delivered %(n)s new hat of %(rows)s rows per inch.",
        "%(name)s delivered %(n)s new hats of %(rows)s rows per inch.",
        "n",
    ),
    "why.create_grade": NN_(
        "%(name)s delivered %(n)s new %(grade)s hat of %(rows)s rows per inch.",
        "%(name)s delivered %(n)s new %(grade)s hats of %(rows)s rows per inch.",
        "n",
    ),
    "why.create_heard": NN_(
        "%(name)s (the note says %(said)s) delivered %(n)s new hat of %(rows)s rows per inch.",
        "%(name)s (the note says %(said)s) delivered %(n)s new hats of %(rows)s rows per inch.",
        "n",
    ),
    "why.create_grade_heard": NN_(
        "%(name)s (the note says %(said)s) delivered %(n)s new %(grade)s hat of %(rows)s rows per inch.",
        "%(name)s (the note says %(said)s) delivered %(n)s new %(grade)s hats of %(rows)s rows per inch.",
        "n",
    ),
    "why.batch": N_(
        "Several weavers are named for one batch and the note does not say how it splits, so I did not divide it "
        "myself."
    ),
    "why.partial": N_(
        "The note names a hat as %(heard)s, with one character of its code missing, so I did not pick one."
    ),
    "why.which_hat": NN_(
        "The note names %(heard)s, and %(n)s hat could match it, so I did not pick it.",
        "The note names %(heard)s, and %(n)s hats could match it, so I did not pick one.",
        "n",
    ),
    "why.no_hat": N_("The note names %(heard)s, but no hat of this workshop matches it."),
    "why.advance": N_("The note says %(code)s is now at %(stage)s."),
    "why.advance_heard": N_("The note says %(code)s (heard as %(heard)s) is now at %(stage)s."),
    "why.flag": N_("The note reports %(problem)s on %(code)s."),
    "why.flag_heard": N_("The note reports %(problem)s on %(code)s (heard as %(heard)s)."),
    "flag.grade_mismatch": N_('Grade does not match the rows, the note says: "%(words)s"'),
    "flag.too_fast": N_('Moved through the stages too fast, the note says: "%(words)s"'),
    "flag.weaver_not_found": N_('The weaver is missing, the note says: "%(words)s"'),
    "flag.other": N_('Problem reported in the note: "%(words)s"'),
    "hat.of_weaver": N_("the hat of %(name)s"),
    "hat.unnamed": N_("the hat"),
}
# A flag kind as the reader's reasons say it ("The note reports a missing weaver on …").
READER_KINDS = {
    "grade_mismatch": N_("a grade that does not match the rows"),
    "too_fast": N_("a hat that moved too fast"),
    "weaver_not_found": N_("a missing weaver"),
    "other": N_("a problem"),
}
AND = N_("%(names)s and %(last)s")


def _join_names(say: Say, names: Sequence[str]) -> str:
    if len(names) < 2:
        return "".join(names)
    return say.gettext(AND) % {"names": ", ".join(names[:-1]), "last": names[-1]}
