"""Stage words in a note, each a *target* (where the hat is now or goes) or a *locator* (where the hat is)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from shopfloor.workshop.agent.offline.text import (
    Span,
    Token,
    moved_index,
)
from shopfloor.workshop.agent.offline.vocabulary import (
    FINISH_VERBS,
    STAGE_WORDS,
    TARGET_BEFORE_EN,
)


@dataclass(frozen=True)
class StageMention:
    """A stage word of the note: the stage, whether it is a target, and where it was said."""

    stage: str
    target: bool
    start: int
    word: str = ""  # the stage word as the reader knows it ("listo", "lavado")


# "found it while washing", "lo vi mientras lavaba", "durante el lavado", "al lavarlo": a stage said as the
# time something happened or was found, never where the hat is or goes (no mention at all).
_WHILE_WORDS = {"while", "during", "mientras", "durante", "when", "cuando"}
_AFTER_WHILE = {"el", "la", "the", "lo", "le", "se", "we", "i", "they", "it", "estaba", "was", "were"}  # fmt: skip
_INFINITIVE = re.compile(r"[a-z]+(?:ar|er|ir)(?:lo|la|los|las|se)?")


def _said_as_a_time(span: Span, tokens: list[Token], i: int) -> bool:
    """Whether the stage word ``tokens[i]`` says when something happened (see ``_WHILE_WORDS``)."""
    prev = tokens[i - 1].text if i > 0 else ""
    prev2 = tokens[i - 2].text if i > 1 else ""
    if prev in _WHILE_WORDS or (prev2 in _WHILE_WORDS and prev in _AFTER_WHILE):
        return True
    said = span.folded[tokens[i].start : tokens[i].end]
    return prev == "al" and _INFINITIVE.fullmatch(said) is not None  # "al lavarlo", never "pasó al lavado"


def stage_mentions(span: Span, hat_subject: bool) -> list[StageMention]:
    """Stage words in order; each is a *target* (where the hat is now or goes) or a *locator*
    ("el de Carmen en blanqueo": the hat that is at Bleaching)."""
    tokens = span.tokens()
    mentions = []
    for i, tok in enumerate(tokens):
        stage = STAGE_WORDS.get(tok.text)
        if stage is None and hat_subject and tok.text in FINISH_VERBS:
            stage = "Finished"
        if stage is None or _said_as_a_time(span, tokens, i):
            continue
        at = moved_index(tokens, i, span.moved)
        k = i if at is None else at
        prev = tokens[k - 1].text if k > 0 else ""
        prev2 = tokens[k - 2].text if k > 1 else ""
        prev3 = tokens[k - 3].text if k > 2 else ""
        target = True
        if prev in {"en", "in", "at", "from", "de", "del", "desde", "out"} and prev2 not in (
            TARGET_BEFORE_EN | {"is", "are", "now", "still", "been"}
        ):
            target = False
        # "came out of blocking", "got out of washing", "off the press": the stage the hat left, never where it
        # goes (like "salió del hormado": no move is read).
        if (prev == "of" and prev2 == "out") or (prev == "off" or (prev2 == "off" and prev == "the")):
            target = False
        # "se manchó con el azufre": a stage word after "con" / "with" names a thing, not where the hat goes.
        if {prev, prev2} & {"con", "with", "por", "by"}:
            target = False
        # "el de Carmen que está en lavado pasó a blanqueo": a relative clause says where the hat is (also with
        # "que" texted as "q" or "k": "el sombrero de la rosa q esta en lavado tiene un huequito").
        if prev in {"en", "in", "at"} and prev3 in {"que", "q", "k", "that", "which"}:
            target = False
        mentions.append(StageMention(stage, target, tok.start, tok.text))
    return mentions
