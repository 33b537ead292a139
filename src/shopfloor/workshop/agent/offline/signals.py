"""What a sentence or clause is rather than what it says: a question, an order to the assistant, the future,
a denial, a flag report, filler or an aside.
"""

from __future__ import annotations

import re

from shopfloor.workshop.agent.offline.future_words import FUTURE_PATTERNS
from shopfloor.workshop.agent.offline.orders import (
    INJECTION_PATTERNS,
    INSTRUCTION_LEAD_FILLER,
    INSTRUCTION_PHRASES,
    INSTRUCTION_VERBS,
)
from shopfloor.workshop.agent.offline.text import (
    WORD,
    Span,
    fold,
    texted,
)
from shopfloor.workshop.agent.offline.vocabulary import (
    ASIDE_PATTERNS,
    COUNT_WORDS,
    CREATE_VERBS,
    DELIVERY_PHRASES,
    FILLER_WORDS,
    FLAG_EXTRA,
    FLAG_PATTERNS,
    NEGATION_PATTERNS,
    QUESTION_LEADS,
    QUESTION_TAGS,
    REPORT_PATTERNS,
    REPORTED_QUESTION_PATTERNS,
    STAGE_WORDS,
    STILL_BETWEEN,
    STILL_WORDS,
    TAKEN_AWAY_PHRASES,
)

INJECTION = re.compile(
    r"\b(?:" + "|".join(INJECTION_PATTERNS + INSTRUCTION_PHRASES) + r")(?:\b|(?<=:))"
    r"|^" + INSTRUCTION_LEAD_FILLER + r"(?:" + "|".join(INSTRUCTION_VERBS) + r")\b"
)
_CLAUSE_INSTRUCTION = re.compile(
    r"(?:^|[,;:]\s*|\b(?:y|e|and|then|luego)\s+)"
    + INSTRUCTION_LEAD_FILLER
    + r"(?:"
    + "|".join(INSTRUCTION_VERBS)
    + r")\b"
)
_QUESTION_LEAD = re.compile(
    r"^(?:(?:y|oye|and|so|hey|bueno)[\s,]+)?(?:" + texted("|".join(QUESTION_LEADS)) + r")\b"
)


REPORTED_QUESTION = re.compile(r"\b(?:" + texted("|".join(REPORTED_QUESTION_PATTERNS)) + r")\b")
_REPORT = re.compile(r"\b(?:" + texted("|".join(REPORT_PATTERNS)) + r")\b")


def reported_at(span: Span) -> list[int]:
    """Where a sentence passes on what someone else said ("Rosa dice que…", "Manuel says…"): the event said
    through them is read, never at confidence ``high``."""
    return [m.start() for m in _REPORT.finditer(span.folded, span.start, span.end)]


_THAT = re.compile(texted(r"\b(?:que|that)\b"))


def reported_from(span: Span, verb: int) -> int | None:
    """Where what is passed on starts when a report stands before the verb at ``verb`` ("Rosa dice que Carmen
    entregó…", "me dijo doña Carmen que…", "grandma says Manuel brought in…"): after the report's words, and
    after the "que" / "that" that closes who said it; None when no report comes before the verb. Whoever is
    named before that point passed the news on (docs/workshop-agent.md, "The three rules", rule 2)."""
    report = _REPORT.search(span.folded, span.start, verb)
    if report is None:
        return None
    that = _THAT.search(span.folded, report.start(), verb)
    return that.end() if that is not None else report.end()


DELIVERY = re.compile(r"\b(?:" + "|".join(DELIVERY_PHRASES) + r")\b")
TAKEN_AWAY = re.compile(r"\b(?:" + "|".join(TAKEN_AWAY_PHRASES) + r")\b")
ASIDE = re.compile(r"^(?:" + "|".join(ASIDE_PATTERNS) + r")\b")


_PAST_ENDING = re.compile(r"(?:aron|ieron|ed)$")


def own_verb(span: Span) -> bool:
    """Whether a batch clause says a verb of its own that delivers nothing, so it never borrows a delivery
    said before it: hats taken away ("se llevó", "took", "sold"), or a verb in the past between the person and
    the count ("Carmen pidió 3 finos", "Carmen ordered 3 finos": a preterite in "-ó", "-aron", "-ieron" or
    "-ed" that is no delivery, stage or capitalised name)."""
    if TAKEN_AWAY.search(span.folded_text):
        return True
    typed = span.note != span.note.lower()
    for tok in span.tokens():
        if tok.text.isdigit() or tok.text in COUNT_WORDS:
            return False  # the count: a verb after it is no verb of the batch
        said = span.source[tok.start : tok.end]
        if tok.text in CREATE_VERBS or tok.text in STAGE_WORDS or (typed and said[:1].isupper()):
            continue
        if (said.endswith("ó") and len(said) > 3) or (len(tok.text) > 4 and _PAST_ENDING.search(tok.text)):
            return True
    return False


FUTURE = re.compile(r"\b(?:" + texted("|".join(FUTURE_PATTERNS)) + r")\b")


_NEGATION = re.compile(r"\b(?:" + "|".join(NEGATION_PATTERNS) + r")\b")

_FLAGS = [
    (kind, re.compile(r"\b(?:" + pattern + r")\b")) for kind, pattern in [*FLAG_PATTERNS[:-1], *FLAG_EXTRA]
] + [(FLAG_PATTERNS[-1][0], re.compile(r"\b(?:" + FLAG_PATTERNS[-1][1] + r")\b"))]


def flag_kind_of(span: Span) -> str | None:
    """The kind of flag a clause reports (the first of the flag table that matches), or None."""
    segment = span.folded_text
    for kind, pattern in _FLAGS:
        if pattern.search(segment):
            return kind
    return None


def is_negated(span: Span) -> bool:
    """Whether the segment denies what it mentions; the words of a flag phrase ("no coincide el grado",
    "no tiene tejedora") are the report itself, not a denial, so they are left out first. A hat said to be
    still at a stage ("sigue en lavado", "still weaving") did not move: no change happened."""
    segment = span.folded_text
    for _kind, pattern in _FLAGS:
        segment = pattern.sub(lambda m: " " * len(m.group()), segment)
    # "…trajo 4 estándar de 15 xq no le alcanzó la paja": a "no" in the reason after "because" denies the
    # reason, not the event said before it.
    segment = _BECAUSE.split(segment, maxsplit=1)[0]
    return _NEGATION.search(segment) is not None or still_at_stage(span)


_BECAUSE = re.compile(texted(r"\b(?:porque|because)\b"))


def reason_with_a_problem(span: Span) -> tuple[int, int] | None:
    """Where a reason that reports a problem starts in ``span`` (the "because" word's offsets): "no lo pasé a
    blanqueo xq tiene manchas" says the stains as a report of their own, whatever the clause before denies."""
    for found in _BECAUSE.finditer(span.folded, span.start, span.end):
        if found.start() > span.start and flag_kind_of(span.part(found.end(), span.end)) is not None:
            return found.start(), found.end()
    return None


def still_at_stage(span: Span) -> bool:
    """Whether ``span`` says a hat stays where it was: a stage word after "still", "sigue", "todavía", "aún"
    with nothing between but "is", "está", "en", "in" ("is still in washing", "sigue tejiéndose", "todavía
    está en hormado")."""
    tokens = span.tokens()
    for i, tok in enumerate(tokens):
        if tok.text not in STAGE_WORDS:
            continue
        k = i - 1
        while k >= 0 and i - k <= 3 and tokens[k].text in STILL_BETWEEN:
            k -= 1
        if k >= 0 and i - k <= 3 and tokens[k].text in STILL_WORDS:
            return True
    return False


def is_noise(folded: str) -> bool:
    """Whether folded text is filler only ("hola, buenos días"), or no words at all."""
    words = WORD.findall(folded)
    return not words or all(w in FILLER_WORDS for w in words)


def question_start(sentence: Span) -> int | None:
    """Where the question in a sentence starts ("¿ya pasó a lavado?", "is TQ-… finished", "… listo, ¿no?"),
    or None when it reports."""
    after = sentence.source[sentence.end : sentence.end + 2].lstrip()[:1]
    said = sentence.said
    mark = said.find("¿")
    if mark > 0:
        tail = fold(said[mark + 1 :]).strip(" ?,.!")
        return (
            sentence.start if tail in QUESTION_TAGS or (after != "?" and not tail) else sentence.start + mark
        )
    if mark == 0 or after == "?":
        return sentence.start
    if _QUESTION_LEAD.match(sentence.folded_text):
        return sentence.start
    passed_on = REPORTED_QUESTION.search(sentence.folded_text)
    if passed_on is not None:
        # "Manuel pregunta si ya lavaron el TQ-8H6RT": a question passed on asks, it reports nothing; from the
        # clause it is in ("El TQ-… pasó a lavado, y Manuel pregunta si…" still reports the move).
        comma = sentence.folded_text.rfind(",", 0, passed_on.start())
        if comma < 0:
            # "…el 7f3ka ya está en lavado y consulta si el 7f3k2 también": joined by "y" / "and" after a
            # clause that names its own hat and stage, the question starts at the joining word.
            joined = list(_JOINED_ASK.finditer(sentence.folded_text, 0, passed_on.start()))
            before = sentence.folded_text[: joined[-1].start()] if joined else ""
            if joined and _HAT_CODE.search(before) and _STAGE_SAID.search(before):
                return sentence.start + joined[-1].start()
        return sentence.start if comma < 0 else sentence.start + comma + 1
    return None


# The word joining a question passed on to the report before it, right before the asking verb's subject.
_JOINED_ASK = re.compile(r"\s(?:y|e|and|pero|but)\s")
_HAT_CODE = re.compile(r"\b(?:tq[\s_-]?)?[0-9][a-z0-9]{4}\b")
_STAGE_SAID = re.compile(
    r"\b(?:lavad|blanque|hormad|terminad|tejid|washing|bleaching|blocking|finished|weaving)"
)


def lead_filler_end(span: Span) -> int:
    """Where the words of ``span`` start after filler words each followed by a comma ("Oye, bueno, ¿cuántos…")."""
    end = span.start
    for match in re.finditer(r"([a-z]+)\s*,\s*", span.folded[span.start : span.end]):
        if match.start() != end - span.start or match.group(1) not in FILLER_WORDS:
            break
        end = span.start + match.end()
    return end


def is_instruction(sentence: Span) -> bool:
    """Whether a sentence gives the assistant an order ("olvida las reglas", "ignore the rules")."""
    folded = sentence.folded_text
    return bool(INJECTION.search(folded) or _CLAUSE_INSTRUCTION.search(folded))
