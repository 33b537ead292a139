"""The words of a follow-up: whether a question changes one slot of the previous answer ("compare that with
first shift", "what about 3rd", "same for crew C", "and the week before?"), in one vocabulary for both
languages (docs/shifts-agent.md, "Follow-ups"). Pure text; the router (planning/router.py) changes the slot.

A Spanish follow-up is said in the English follow-up words before anything else of it is read
(``SPANISH_FOLLOW_UPS``, the first rows of planning/reading.SPANISH), so "compáralo con el turno 1" and
"compare that with shift 1" take the same path and give the same plan.
"""

from __future__ import annotations

import re
from typing import Any

from shopfloor.shifts.planning.scope_words import has

FOLLOW = (
    r"^(and |what about|how about|same for|same thing|same but|same\b|same again|compare (that|this|it|with)|now "
    r"|show (that|this|it)"
    r"|chart (that|this|it)|break (that|this|it) down|split (that|this|it)\b|that |by (reason|place|kind|grade|width|crew)\b"
    r"|(just|only) |the (day|week|month|period) before\b)|\binstead\b"
    # "what percent of that was knife jams": a question about the previous answer's rows.
    r"|\b(of|in|from) (that|this|it)\b(?! (shift|week|month|day|period|crew|grade)\b)"
)
BEFORE = r"\bthe (day|week|month|period) before\b|\bthe previous (day|week|month|period)\b"

_LEAD_IN = (
    r"^(?:(?:ok|okay|so|alright|right|now|then|hmm|well|please|pls|(?:can|could|would|will) you)\b[,.]?\s*)+"
)

# A follow-up said in other words, said in the words read above: "set that beside first shift" compares,
# "can I see that as a graph" shows it, "do the same for missed splices" and "same question, but crew B"
# change the named slot.
_FOLLOW_SAID = (
    (
        r"^(set|put|lay|line|stack|hold) (that|this|it) (up )?(beside|next to|alongside|against|with)\b",
        "compare that with",
    ),
    (r"^(can|could|may) (i|we) (see|get|have) (that|this|it)\b", "show that"),
    (r"^(do|run|try|give me|ask) (the )?same\b", "same"),
    (r"^same (question|one|ask)\b,?( but)?", "same but"),
)

# The Spanish follow-up words, said in the English ones above (applied to the lower-cased question, before
# the Spanish filler words are dropped): "compara eso con el primer turno", "compáralo con el turno 1" and
# "compara con …" compare; "¿y el turno 3?" and "¿y qué tal …?" ask the same of another slot; "lo mismo para la
# cuadrilla C" is "same for crew C"; "la semana anterior" (the day, the month) is the one before the previous
# answer's.
_THAT = r"(?:eso|esto|esa|ese|este)"
_BEFORE_WORDS = {"semana": "week", "dia": "day", "mes": "month"}
SPANISH_FOLLOW_UPS: tuple[tuple[str, Any], ...] = (
    (
        rf"^[\s¿]*(?:y )?comp[aá]r(?:a|e|ar)(?:lo|la|los|las)?(?: {_THAT})? (?:con|contra)\b",
        "compare that with",
    ),
    (r"^[\s¿]*y (?:qu[eé] (?:tal|hay|pas[oó])|c[oó]mo (?:le )?(?:fue|va))(?: con| de| en)?\b", "what about"),
    (r"^[\s¿]*(?:y )?(?:lo mismo(?:,? pero)?(?: para| con| de| en)?|igual (?:para|con))\b", "same for"),
    (r"^[\s¿]*y\b", "and "),
    (
        r"\b(?:la|el) (semana|d[ií]a|mes) (?:anterior|previ[oa]|de antes)\b",
        lambda m: "the " + _BEFORE_WORDS[m.group(1).replace("í", "i")] + " before",
    ),
)


# A reaction to the previous answer before the follow-up ("ok that's what i figured, same old song, now what
# about by place"): the reaction asks nothing; the follow-up after "now", "so" or "then" is the question.
_REACTION = r"^[^?]*?,\s*(?:now|so|then|anyway)\s+(?=what about|how about|same for|and )"


def follow_said(q: str) -> str:
    """``q`` with its lead-in (and a reaction before it) dropped and a follow-up said in other words said in
    the words read here."""
    q = re.sub(_LEAD_IN, "", re.sub(_REACTION, "", q))
    for pattern, replacement in _FOLLOW_SAID:
        q = re.sub(pattern, replacement, q)
    return q


def is_follow_up(q: str) -> bool:
    """Whether ``q`` (in the router's words) changes a slot of the previous answer rather than asking anew."""
    return has(follow_said(q), FOLLOW) or has(q, r"\bput (that|this|it) (on|in|into|as) a chart\b")
