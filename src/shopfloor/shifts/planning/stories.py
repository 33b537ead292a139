"""A long, story-like question (docs/shifts-agent.md, "Dates as people say them"): the clause the supervisor
asks decides the measure and grouping, and its sentence's own date words win over the story's. Pure text,
split out of the router (planning/router.py) by responsibility."""

from __future__ import annotations

import re
from dataclasses import replace

from shopfloor.shifts.planning.scope_words import ScopeWords, has, scope_words
from shopfloor.shifts.plant.scope import Scope

# A long, story-like question: the clause the supervisor asks ("... anyway, just show me downtime by reason
# for my shift") decides the measure and grouping; the story's words never do. Scope words are read from
# the whole question first.
_ASK = (
    r"\b(?:just |so |anyway,? |can you |could you |please )*(?:show me|give me|tell me|pull up|get me"
    r"|i (?:just |really |only )?(?:need|want)|show|give|break down|what was|how many|how much)\b"
    # A yes/no sentence closing the story ("… the phone never stopped. did second shift make target?").
    r"|(?<=[.!?] )(?:did|was|is|were|are|does|do|has|have)\b"
)
_CLAUSE_DATE = (
    r"\b(today|tonight|yesterday|this (week|month|period|quarter)|last (week|month|period)|monday|tuesday"
    r"|wednesday|thursday|friday)\b"
)
STORY_WORDS = 14  # a question longer than this, with an asking clause, is read from that clause


def asked_clause(q: str) -> str:
    """The asking clause of a long question (from its last asking words to the end), else the question."""
    if len(q.split()) <= STORY_WORDS:
        return q
    found = list(re.finditer(_ASK, q))
    return q[found[-1].start() :] if found else q


def story_scope(q: str, words: ScopeWords, scope: Scope) -> ScopeWords:
    """The scope words of a long question's asking sentence when it names its own day, else ``words``."""
    clause = asked_clause(q)
    at = q.rfind(clause)
    # The sentence the asking clause is in ("… whatever. today I just want the rejects").
    # ("… cranky after the meeting, today i just want the rejects": a comma ends the story's clause too).
    ends = (q.rfind(mark, 0, at) for mark in (". ", "! ", "? ", ", "))
    sentence = q[max(ends) + 1 :].strip()
    if clause != q and has(sentence, _CLAUSE_DATE):
        # The asking sentence names its own day ("… yesterday was rough … today I just want the rejects"):
        # the story's date words are the story's.
        said = scope_words(sentence, scope)
        if isinstance(said, ScopeWords):
            return said if said.shifts or not words.shifts else replace(said, shifts=words.shifts)
    return words
