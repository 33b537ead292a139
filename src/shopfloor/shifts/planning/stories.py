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
    # "I need to explain it at the meeting" says why the question is asked, never what it asks.
    r"|i (?:just |really |only )?(?:need|want)(?! to (?!know|see|get|find|look|check|have)\w| (?:it|this|that) for\b)"
    r"|show|give|break down|what was|how many|how much"
    # A share, a comparison or how a window went, asked after the story ("…, so humor me, what percent of …").
    r"|what (?:percent|percentage|share|fraction|portion|part)|compare|how (?:did|was|were|is|are|does|do))\b"
    # A yes/no sentence closing the story ("… the phone never stopped. did second shift make target?").
    r"|(?<=[.!?] )(?:did|was|is|were|are|does|do|has|have)\b"
    # Or after the story's ", so" ("… when I started, so were we around 85% of target on 2nd?").
    r"|(?<=, so )(?:did|was|is|were|are|does|do|has|have)\b"
)
_CLAUSE_DATE = (
    r"\b(today|tonight|yesterday|this (week|month|period|quarter)|last (week|month|period)|monday|tuesday"
    r"|wednesday|thursday|friday)\b"
)
STORY_WORDS = 14  # a question longer than this, with an asking clause, is read from that clause
# A tag closing a statement ("… we were near 90 % of target last week. were we?"): the yes/no of that statement.
_TAG = r"^(?:did|was|is|were|are|does|do|has|have) (?:we|it|they|you|i|he|she|that|there)\s*\??\s*$"
# An asking clause that names nothing of its own ("…, roughly how much?"): it asks about its sentence.
_NAMES_NOTHING = (
    r"^(?:(?:so|and|but|roughly|about|around|approximately|like|more or less) )*"
    r"(?:how (?:much|many|long|bad)|what was it)\s*\??\s*$"
)
_SENTENCE_ENDS = (". ", "! ", "? ", ".. ")
# A second ask joined to the first ("dt by reason and also how many paper changes"): one question per answer
# is read, the first; the second is named as not applied (planning/accounting), never answered in its place
# (docs/shifts-agent.md, "Reading").
SECOND_ASK = (
    r"\b(?:and also|and then|as well as|plus|(?:y )?también|(?:y )?además)"
    r"( (?:how many|how much|what|which|where|when|why|who|did|was|were|is|are|cuántos|cuántas|cuánto|qué)\b.*)"
)


def first_ask(q: str) -> str:
    """``q`` without a second ask joined to it (``SECOND_ASK``), else ``q``."""
    second = re.search(SECOND_ASK, q)
    return q[: second.start()].rstrip(" ,") if second is not None and second.start() > 0 else q


def _sentence_start(q: str, at: int) -> int:
    """Where the sentence holding ``q[at]`` begins."""
    return max(
        (q.rfind(mark, 0, at) + len(mark) for mark in _SENTENCE_ENDS if q.rfind(mark, 0, at) >= 0), default=0
    )


def asked_clause(q: str) -> str:
    """The asking clause of a long question (from its last asking words to the end), else the question. A tag
    ("were we?") asks about the statement before it, said as that statement's yes/no; a clause naming nothing
    ("roughly how much?") reaches back to the start of its sentence (docs/shifts-agent.md, "Reading")."""
    if len(q.split()) <= STORY_WORDS:
        return q
    found = list(re.finditer(_ASK, q))
    # The asking words of a second ask joined to the first are no asking clause of their own.
    second = re.search(SECOND_ASK, q)
    if second is not None and any(m.start() < second.start() for m in found):
        found = [m for m in found if m.start() < second.start()]
    if not found:
        return q
    at = found[-1].start()
    # One ask said in two parts ("how much of the stop time was maintenance and how much the operators"): its
    # second part repeats the first's asking words after "and", so the ask starts at the first.
    start = _sentence_start(q, at)
    said = found[-1].group(0)
    first = next((m for m in found if start <= m.start() < at and m.group(0) == said), None)
    if first is not None and re.search(r"\band\s*$", q[:at]):
        at = first.start()
    clause = q[at:]
    if has(clause, _TAG):
        statement = q[_sentence_start(q, at - 2) : at].strip().rstrip(".!")
        return f"{statement}, {clause}" if statement else clause
    if has(clause, _NAMES_NOTHING):
        return q[_sentence_start(q, at) :]
    return clause


def story_scope(q: str, words: ScopeWords, scope: Scope) -> ScopeWords:
    """The scope words of a long question's asking sentence when it names its own day, else ``words``."""
    clause = asked_clause(q)
    at = q.rfind(clause)
    # The sentence the asking clause is in ("… whatever. today I just want the rejects").
    # ("… cranky after the meeting, today i just want the rejects": a comma ends the story's clause too).
    ends = (q.rfind(mark, 0, at) for mark in (". ", "! ", "? ", ", "))
    # A tag's clause is its statement said again ("…, were we?"): that is its sentence.
    sentence = q[max(ends) + 1 :].strip() if at >= 0 else clause
    if clause != q and has(sentence, _CLAUSE_DATE):
        # The asking sentence names its own day ("… yesterday was rough … today I just want the rejects"):
        # the story's date words are the story's.
        said = scope_words(sentence, scope)
        if isinstance(said, ScopeWords):
            return said if said.shifts or not words.shifts else replace(said, shifts=words.shifts)
    return words
