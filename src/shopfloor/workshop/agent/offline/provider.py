"""The offline note reader as a provider: it reads the note and the tool results so far, and returns the next
turn a careful model would return — lookups first, then one proposal or question per event, then the
"I understood: …" summary.

It holds only the run's first user message, as data (input mode, hat tag, note): every call re-reads the note
and the tool calls and results already in ``request.messages``, so it drives the same loop, dispatcher and handlers
as a live model and every rule, quote check, seen-id check and cap applies unchanged. It never guesses: an
ambiguous or empty lookup, or a missing fact, becomes ask_question. Its cards' own texts go in the arguments as
English and, beside them, as codes and params (``card_texts``; ``ToolCall.local``) for the page to translate.
"""

from __future__ import annotations

from typing import Any

from shopfloor.agent.providers.base import (
    ModelRequest,
    StopReason,
    ToolCall,
    Turn,
    Usage,
)
from shopfloor.workshop.agent.offline.card_texts import Said
from shopfloor.workshop.agent.offline.history import history_of
from shopfloor.workshop.agent.offline.plans import (
    Call,
    accounting,
    plan_lookups,
    plan_proposals,
    plan_second_lookups,
)
from shopfloor.workshop.agent.offline.reader import read_note
from shopfloor.workshop.agent.offline.summary import summarize
from shopfloor.workshop.agent.prompt import UserMessage

MODEL_NAME = "offline-reader"


class OfflineReader:
    """A deterministic provider for workshop notes (model ``offline-reader``, zero tokens, zero cost).

    ``OfflineReader()`` is what a caller chooses; the run binds it to its note with :meth:`for_message`
    (see ``prompt.ReadsUserMessage``), because the core's ``ModelRequest`` carries only rendered text.
    """

    name = "offline"
    model = MODEL_NAME
    local = True  # computes its turn in process: the loop calls it directly

    def __init__(self, message: UserMessage | None = None) -> None:
        self._message = message

    def for_message(self, message: UserMessage) -> OfflineReader:
        """A reader of ``message``: the run's first user message as data, never parsed back from its text."""
        return OfflineReader(message)

    @property
    def message(self) -> UserMessage:
        """The note this reader reads (a reader not bound to one cannot take a turn)."""
        if self._message is None:
            raise RuntimeError("The offline reader reads one run's note: bind it with for_message() first.")
        return self._message

    def complete(self, request: ModelRequest) -> Turn:
        """The next turn: lookups, then proposals or questions, then the summary."""
        # The reader quotes the note as a live model sees it, inside the <note> tags (escaped).
        reading = read_note(self.message.escaped_note, has_hat_tag=self.message.hat_tag is not None)
        history = history_of(request)
        # The first turn carries the reader's accounting of the note, so the run's trace shows it.
        notes = accounting(reading) if history.turns == 0 else None
        lookups_done = bool(history.calls("find_weaver", "find_hats", "get_hat"))
        proposals_done = bool(
            history.calls("propose_create_hats", "propose_advance_stage", "propose_flag", "ask_question")
        )
        if not lookups_done and not proposals_done:
            lookups = plan_lookups(reading)
            if lookups:
                return _tool_turn(history.turns, lookups, notes)
        if not proposals_done:
            again = plan_second_lookups(reading, history)
            if again:
                return _tool_turn(history.turns, again, notes)
            proposals = [call for _, _, call in plan_proposals(reading, self.message, history)]
            if proposals:
                return _tool_turn(history.turns, proposals, notes)
        return Turn(
            stop_reason=StopReason.END_TURN,
            text=summarize(reading, history, self.message),
            usage=Usage(),
            model=MODEL_NAME,
            raw_stop_reason="end_turn",
        )


def _tool_turn(turn_index: int, calls: list[Call], text: str | None = None) -> Turn:
    tool_calls = tuple(_tool_call(f"r{turn_index}_{i}", name, args) for i, (name, args) in enumerate(calls))
    return Turn(
        stop_reason=StopReason.TOOL_USE,
        text=text,
        tool_calls=tool_calls,
        usage=Usage(),
        model=MODEL_NAME,
        raw_stop_reason="tool_use",
    )


def _tool_call(call_id: str, name: str, args: dict[str, Any]) -> ToolCall:
    """One call: the reader's texts in the arguments as plain English (what a model would write), and their
    codes and params beside them (``ToolCall.local``), which the handler keeps with the card."""
    said = {key: value.as_json() for key, value in args.items() if isinstance(value, Said)}
    arguments = {key: str(value) if isinstance(value, Said) else value for key, value in args.items()}
    return ToolCall(call_id, name, arguments, local={"card_texts": said} if said else {})


__all__ = ["OfflineReader"]
