"""Stage words in a note, each a *target* (where the hat is now or goes) or a *locator* (where the hat is)."""

from __future__ import annotations

from dataclasses import dataclass

from shopfloor.workshop.agent.offline.text import (
    Span,
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


def stage_mentions(span: Span, hat_subject: bool) -> list[StageMention]:
    """Stage words in order; each is a *target* (where the hat is now or goes) or a *locator*
    ("el de Carmen en blanqueo": the hat that is at Bleaching)."""
    tokens = span.tokens()
    mentions = []
    for i, tok in enumerate(tokens):
        stage = STAGE_WORDS.get(tok.text)
        if stage is None and hat_subject and tok.text in FINISH_VERBS:
            stage = "Finished"
        if stage is None:
            continue
        at = moved_index(tokens, i, span.moved)
        k = i if at is None else at
        prev = tokens[k - 1].text if k > 0 else ""
        prev2 = tokens[k - 2].text if k > 1 else ""
        prev3 = tokens[k - 3].text if k > 2 else ""
        target = True
        if prev in {"en", "in", "at", "from", "de", "del", "desde", "out"} and prev2 not in (
            TARGET_BEFORE_EN | {"is", "are", "now", "still"}
        ):
            target = False
        # "se manchó con el azufre": a stage word after "con" / "with" names a thing, not where the hat goes.
        if {prev, prev2} & {"con", "with", "por", "by"}:
            target = False
        # "el de Carmen que está en lavado pasó a blanqueo": a relative clause says where the hat is.
        if prev in {"en", "in", "at"} and prev3 in {"que", "that", "which"}:
            target = False
        mentions.append(StageMention(stage, target, tok.start, tok.text))
    return mentions
