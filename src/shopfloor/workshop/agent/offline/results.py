"""What the offline reader gives back: the events of a note, its skipped text and the account of every part
(docs/workshop-agent.md, "Every part of a note").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from shopfloor.workshop.agent.offline.text import (
    Span,
)

EventKind = Literal["create", "advance", "flag"]
SkipReason = Literal["injection", "future", "negated", "noise", "unread", "question"]
# How the reader accounts for each part of a note (docs/workshop-agent.md, "Every part of a note").
Mark = Literal["read", "filler", "instruction", "future", "question", "withdrawn", "denied", "unread"]
_MARK_OF: dict[str, Mark] = {
    "injection": "instruction",
    "future": "future",
    "negated": "denied",
    "noise": "filler",
    "unread": "unread",
    "question": "question",
}


@dataclass(frozen=True)
class HatRef:
    """How the note names a hat: a code as heard, a weaver ("el de Carmen"), or nothing (the hat tag)."""

    code: str | None = None
    weaver_name: str | None = None
    stage: str | None = None  # where the note says the hat is ("el de Carmen en blanqueo")
    spelled: bool = False  # said with letter names or digit words ("te cu siete efe…"): confidence check
    partial: str | None = None  # four of the five characters heard ("tq 4k9d"): ask among the open hats
    said: str | None = None  # the words of a spelled or partial code as written in the note
    # "uno de ellos", "one of them": the hats the note named before, offered as choices (codes as heard)
    choices: tuple[str, ...] = ()
    # "uno de Carmen", "uno tiene una mancha" after her delivery: one of the weaver's hats, maybe one just
    # delivered and not a record yet, so it is asked even when the lookup finds a single hat.
    ask: bool = False


@dataclass(frozen=True)
class NoteEvent:
    """One thing that happened, with the exact words of the note that say it."""

    kind: EventKind
    quote: str
    weaver_name: str | None = None
    quantity: int | None = None
    grade: str | None = None
    rows: int | None = None
    grado: int | None = None  # "grado N" said without rows: a seller's grade number, not a row count
    hat: HatRef | None = None
    to_stage: str | None = None
    flag_kind: str | None = None
    # One batch said of several weavers ("Rosa y Carmen entregaron…"), in the note's order; ``each`` when the
    # note gives the quantity per weaver ("… cada una").
    weavers: tuple[str, ...] = ()
    each: bool = False
    # Where in the note the weaver, code and quantity were read: (field, start, end) offsets of the note.
    sources: tuple[tuple[str, int, int], ...] = ()
    flag_words: str | None = None  # the person's own words for a flag
    # A corrected number whose role (how many hats, or rows per inch) stays in doubt: the reader asks, and
    # leaves both the quantity and the rows out of the draft.
    doubtful_number: int | None = None
    # Said with a hedge or passed on from someone else ("creo que", "Rosa dice que"), or inferred (a hat found
    # by its weaver or by reference, Finished read from "listo"): never confidence high.
    unsure: bool = False
    # A stage given as a field of its code, with no verb ("TQ-2C5P0: blanqueado", "TQ-8H6RT - Hormado"): a
    # label, so a hat already at that stage is no change and gets no card.
    label: bool = False
    # A person named by kin ("mi mami terminó 3 finos"): no weaver's name, so the card asks who, with no lookup.
    no_weaver: bool = False


@dataclass(frozen=True)
class Skipped:
    """Text the reader made no event of, and why."""

    reason: SkipReason
    text: str


@dataclass(frozen=True)
class Part:
    """One stretch of the note and how the reader accounted for it."""

    mark: Mark
    text: str
    start: int
    end: int
    event: str | None = None  # for a part read into a card: create, advance or flag


@dataclass(frozen=True)
class Question:
    """A sentence that asks rather than reports, with the hat codes it asks about (answered from a lookup)."""

    text: str
    codes: tuple[str, ...] = ()
    to_stage: str | None = None


@dataclass(frozen=True)
class Reading:
    """Everything the reader understood from one note."""

    events: tuple[NoteEvent, ...] = ()
    skipped: tuple[Skipped, ...] = ()
    parts: tuple[Part, ...] = ()
    questions: tuple[Question, ...] = ()

    def marked(self, *marks: Mark) -> list[Part]:
        """The parts of the note with one of ``marks``."""
        return [p for p in self.parts if p.mark in marks]


def skip_part(skipped: list[Skipped], parts: list[Part], reason: SkipReason, span: Span) -> None:
    """Name ``span`` as skipped for ``reason`` and account for it as the part of that mark."""
    skipped.append(Skipped(reason, span.said))
    parts.append(Part(_MARK_OF[reason], span.said, span.start, span.end))
