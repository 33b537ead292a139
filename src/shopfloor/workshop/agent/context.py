"""The run context the workshop tools share (docs/workshop-agent.md, "One run", step 4) and the proposals they
buffer.

Handlers read the workshop only through :class:`WorkshopReads`, a read-only view already scoped to the
actor's workshop, so no handler can write a record or see another workshop. Proposals are buffered here and
saved only at the end of a successful run, in one transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from shopfloor.agent.trace import Trace
from shopfloor.workshop.domain import Actor, BufferedStatus, Hat, HatEvent, Weaver

EventHook = Callable[[str, str, dict[str, Any]], None]


@dataclass(frozen=True)
class OpenFlag:
    """An open flag of a hat, as the tools show it."""

    kind: str
    message: str


class WorkshopReads(Protocol):
    """Everything the tools may read, already filtered to one workshop. There is no write method."""

    def weavers(self) -> list[Weaver]:
        """Every weaver of the workshop (archived ones included; the domain decides)."""
        ...

    def hats(self) -> list[Hat]:
        """Every hat of the workshop, archived and finished ones included."""
        ...

    def open_hat_counts(self) -> dict[str, int]:
        """Open (not finished, not archived) hats per weaver id."""
        ...

    def hat_by_code(self, code: str) -> Hat | None:
        """The hat with exactly this code, read fresh, or None."""
        ...

    def events(self, hat: Hat, limit: int) -> list[HatEvent]:
        """The hat's latest events, oldest first."""
        ...

    def open_flags(self, hat: Hat) -> list[OpenFlag]:
        """The hat's open flags."""
        ...

    def open_proposal_exists(self, hat_code: str, proposal_type: str, exclude_run_id: str) -> bool:
        """Whether an earlier run left a pending or question proposal of this type for this hat."""
        ...

    def batch(self) -> AbstractContextManager[None]:
        """Share one consistent read between the calls made inside the block (one model turn's tools)."""
        ...

    def close(self) -> None:
        """Release what the view holds (called once when the run ends)."""
        ...


@dataclass
class BufferedProposal:
    """A proposal a tool prepared; saved with the run when the run ends as ``proposed``."""

    temp_id: str
    type: str
    status: BufferedStatus
    payload: dict[str, Any]
    why: str
    quote: str
    confidence: str
    rule_result: dict[str, Any] | None
    dedupe_key: tuple[Any, ...]
    # The offline reader's codes and params for the card's own texts (``why``, ``question``, ``message``),
    # from its call's planner data; None for every other card (a live model's words are shown as written).
    texts: dict[str, Any] | None = None

    def to_json(self, proposal_id: str | None = None) -> dict[str, Any]:
        """The proposal as the API returns it (``id`` is the stored id once saved)."""
        return {
            "id": proposal_id or self.temp_id,
            "type": self.type,
            "status": self.status,
            "payload": self.payload,
            "why": self.why,
            "quote": self.quote,
            "confidence": self.confidence,
            "rule_result": self.rule_result,
        }


@dataclass
class SeenHat:
    """A hat a read tool returned in this run, with how its code was matched."""

    row: Hat
    match: str = "exact"  # exact | confusable | fuzzy | tag
    heard: str | None = None


@dataclass
class RunContext:
    """State shared by the tools of one run (docs/workshop-agent.md, "One run", step 4)."""

    run_id: str
    request_id: str
    actor: Actor
    workshop_id: str
    note: str
    input_mode: str
    hat_tag: str | None
    reads: WorkshopReads
    now: datetime
    trace: Trace = field(default_factory=Trace)
    seen_weaver_ids: set[str] = field(default_factory=set)
    seen_hats: dict[str, SeenHat] = field(default_factory=dict)
    proposals: list[BufferedProposal] = field(default_factory=list)
    on_event: EventHook | None = None

    def emit(self, event: str, level: str, payload: dict[str, Any]) -> None:
        """Report a log event (rule checks) to the run's logger, if any."""
        if self.on_event is not None:
            self.on_event(event, level, payload)

    def next_temp_id(self) -> str:
        """The id a new buffered proposal gets: p1, p2, ..."""
        return f"p{len(self.proposals) + 1}"
