"""The questions refused before any reading: an action, an edit of a record, a forecast (docs/shifts-agent.md,
"Reading": refusals). Pure text, checked on the question in the router's words and on the words as typed, so a
spelling correction never turns an action into a question.
"""

from __future__ import annotations

from shopfloor.shifts.planning.plans import Unavailable
from shopfloor.shifts.planning.scope_words import has, normalize

ACTION = "The investigator reads records; it cannot change settings, schedules or equipment, send messages or run code."
EDIT = (
    "The investigator only reads the records; it cannot change, correct or delete a record (a stop's kind, "
    "reason and minutes stay as the crew recorded them)."
)
FORECAST_REASON = (
    "The records describe the past: they cannot say what speed, output or downtime will be. Ask about a "
    "production day or a window that has happened."
)

FORBIDDEN = (
    r"\b(schedule|reschedule|email|e-mail|send|delete|drop|insert|update|shut ?down|restart|set the|change the"
    r" (target|speed|schedule)|raise the|lower the|run (this )?sql|execute|browse|download|fetch)\b"
    r"|\bselect \*|https?://|;\s*--"
)
ACTION_TYPED = (
    r"^(?:(?:please|pls|can you|could you|go ahead and|let's|lets|i want to|we need to)\s+)*"
    r"(?:schedule|reschedule|book)\b"
    # In Spanish ("programa un mantenimiento …", "agenda el cambio"): an action, whatever it names.
    r"|^(?:(?:por favor|puedes|podr[ií]as|hay que)\s+)*(?:programa(?:r|le|lo|la)?|reprograma(?:r)?|agend(?:a|ar|e))\b"
)
# An edit of a record, asked in so many words: a record's verb ("change", "recode", "mark … as") before a
# pointer at a record ("that stop"), a stop's own id ("D3-04") or a new value ("from maint to operator", "as
# operator"); or the question opening with the verb, in English or Spanish ("cambia el paro", "corrige",
# "borra", "márcalo como operador"). "How did speed change from monday to friday" asks a question.
_EDIT_VERB = (
    r"(change|move|reclassify|recode|relabel|rename|edit|mark|correct|fix|delete|remove|erase)"
    r"(?! (in|over|between|of|me|if)\b)"
)
_ES_EDIT_VERB = (
    r"(c[aá]mbi(a|e|ar|alo|ala|ale)|corr[ií]j(a|e)|corr[ií]ge(lo|la)?|corregir|b[oó]rr(a|e|ar|alo|ala)"
    r"|elimin(a|e|ar)|edit(a|e|ar)|m[aá]rc(a|alo|ala|ar)|reclasific(a|ar)|p[oó]n(lo|la|le)|pasa(lo|la))"
)
EDIT_WORDS = (
    rf"\b{_EDIT_VERB}\b (that|this|it|those|these)\b.*\b(from|to|as|into)\b"
    rf"|\b{_EDIT_VERB}\b\W+([a-z]+\W+)?[a-z]\d-\d{{2,}}\b"
    rf"|\b{_EDIT_VERB}\b\W+(the\W+|that\W+|this\W+)?(\w+\W+){{0,3}}(stops?|records?|entry|entries|rows?|codes?)\b"
    r".*\b(from|to|as|into)\b"
    rf"|^(?:(?:please|pls|plz|can you|could you|can we|could we|go ahead and|i need you to|i want you to"
    rf"|we need to|por favor|puedes|podr[ií]as)\s+)*(?:{_EDIT_VERB}|{_ES_EDIT_VERB})\b"
    rf"|\b{_ES_EDIT_VERB}\b.*\b(de \w+ a|como)\b"
)
# What something will be, said in any wording ("what will 3rd shift speed be monday", "will we hit target",
# "¿cuál va a ser …?", "¿cómo nos irá?"); the forms the Spanish layer gives are English ("will be", "will go").
_SUBJECT = (
    r"(we|we're|we are|they|they're|it|it's|you|speed|downtime|output|[123](?:st|nd|rd)|shift [123]"
    r"|(?:first|second|third|night|day|swing) shift|crew [a-d]|the (?:line|plant|shift|crew|month|week|period))"
)
FORECAST = (
    r"\b(forecast|predict|prediction|projected|projection)\b"
    r"|\b(will|going to|gonna)\b.*\b(tomorrow|next (shift|week|month|period)|future)\b"
    # Where a window "will end up" is a forecast in any wording ("where we gonna land this month").
    r"|\b(will|going to|gonna)\b.*\b(end up|land|finish|close out|wind up)\b"
    r"|\b(it'll|it will|will it|will we) take\b|\bhow long will\b"
    r"|\bwhat will\b|\bwhat'll\b|\b(what|which|how) (is|are) (\w+ ){0,3}(going to|gonna) be\b"
    rf"|\bwill {_SUBJECT}\b|\b{_SUBJECT} (\w+ )?(will|gonna|going to) (be|hit|make|run|do|get|reach|go)\b"
    # The Spanish layer's forms after a leading clause ("con lo que va del mes, ¿vamos a llegar a la meta?").
    r"|\b(what|which|how) will (be|go)\b|\bwill (go|hit|be)\b|^will\b"
)


def refused(question: str, q: str) -> Unavailable | None:
    """The refusals before any reading: empty, an action, an edit of a record or a forecast (``q`` is the
    question in the router's words, ``question`` as typed)."""
    if not q:
        return Unavailable("The question is empty.")
    reason = action_refusal(question, q)
    if reason is not None:
        return Unavailable(reason)
    if has(q, FORECAST):
        return Unavailable(FORECAST_REASON)
    return None


def action_refusal(question: str, q: str) -> str | None:
    """Why an action or an edit of a record is refused (checked on ``q`` and on the words as typed), or None."""
    typed = normalize(question)
    if has(q, EDIT_WORDS) or has(typed, EDIT_WORDS):
        return EDIT
    # The words as typed are checked too: a correction never turns an action ("schedule PM on the double
    # backer") into a question ("scheduled pm"); "the new schedule" stays a noun.
    if has(q, FORBIDDEN) or has(typed, ACTION_TYPED):
        return ACTION
    return None
