"""The offline note reader as a provider: it reads the note and the tool results so far, and returns the next
turn a careful model would return — lookups first, then one proposal or question per event, then the
"I understood: …" summary.

It holds only the run's first user message, as data (input mode, hat tag, note): every call re-reads the note
and the tool calls and results already in ``request.messages``, so it drives the same loop, dispatcher and handlers
as a live model and every rule, quote check, seen-id check and cap applies unchanged. It never guesses: an
ambiguous or empty lookup, or a missing fact, becomes ask_question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from shopfloor.agent.providers.base import (
    AssistantTurn,
    ModelRequest,
    StopReason,
    ToolCall,
    ToolResults,
    Turn,
    Usage,
)
from shopfloor.workshop import domain
from shopfloor.workshop.agent.offline.reader import read_note
from shopfloor.workshop.agent.offline.results import HatRef, NoteEvent, Part, Reading
from shopfloor.workshop.agent.offline.text import fold
from shopfloor.workshop.agent.offline.vocabulary import NICKNAMES
from shopfloor.workshop.agent.offline.wording import FLAG_NAMES, GRADE_NAMES, STAGE_NAMES, TEXT
from shopfloor.workshop.agent.prompt import UserMessage
from shopfloor.workshop.domain import MAX_FLAG_MESSAGE, MAX_PROPOSALS, MAX_QUANTITY, normalize_code

MODEL_NAME = "offline-reader"
MAX_CODES_PER_CALL = 10

FLAG_LABELS = {
    "grade_mismatch": "Grade does not match the rows, the note says",
    "too_fast": "Moved through the stages too fast, the note says",
    "weaver_not_found": "The weaver is missing, the note says",
    "other": "Problem reported in the note",
}
CLOSE_NAME = 80  # RapidFuzz ratio from which a heard name word is one weaver's name said differently


@dataclass
class _History:
    """Every tool call made so far in the run, with its result."""

    pairs: list[tuple[ToolCall, Any, bool]] = field(default_factory=list)  # (call, content, is_error)
    turns: int = 0

    def calls(self, *names: str) -> list[tuple[ToolCall, Any, bool]]:
        return [p for p in self.pairs if p[0].name in names]


def _history(request: ModelRequest) -> _History:
    history = _History()
    pending: dict[str, ToolCall] = {}
    for message in request.messages:
        if isinstance(message, AssistantTurn):
            history.turns += 1
            pending.update({c.id: c for c in message.turn.tool_calls})
        elif isinstance(message, ToolResults):
            for result in message.results:
                call = pending.get(result.call_id)
                if call is not None:
                    # A result trimmed to a stub (or any non-object) counts as a failed call: never guess from it.
                    failed = bool(result.is_error) or not isinstance(result.content, dict)
                    history.pairs.append((call, result.content, failed))
    return history


@dataclass
class _Resolved:
    """What a hat reference resolved to: one code, or candidates to ask about."""

    code: str | None = None
    exact: bool = True
    candidates: list[str] = field(default_factory=list)
    failed: str | None = None
    stage: str | None = None  # where the hat is now, per the lookup


Call = tuple[str, dict[str, Any]]
# What each planned call is about, so the summary can say what was understood (kind of question, event).
Planned = tuple[NoteEvent, str, Call]


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
        history = _history(request)
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
    tool_calls = tuple(ToolCall(f"r{turn_index}_{i}", name, args) for i, (name, args) in enumerate(calls))
    return Turn(
        stop_reason=StopReason.TOOL_USE,
        text=text,
        tool_calls=tool_calls,
        usage=Usage(),
        model=MODEL_NAME,
        raw_stop_reason="tool_use",
    )


def accounting(reading: Reading) -> str:
    """The reader's account of every part of the note, one line each ("read (create): …", "instruction
    (ignored): …"), as the text of its first turn in the trace (docs/workshop-agent.md, "Every part of a
    note")."""
    labels = {
        "read": "read",
        "filler": "filler",
        "instruction": "instruction (ignored)",
        "future": "future (not proposed)",
        "question": "question (not a report)",
        "withdrawn": "withdrawn (corrected)",
        "denied": "denied (did not happen)",
        "unread": "unread",
    }
    lines = ["Reading of the note:"]
    for part in reading.parts:
        label = labels[part.mark] + (f" as {part.event}" if part.event else "")
        lines.append(f"- {label}: {_plain(part.text, 160)}")
    return "\n".join(lines)


def _code_refs(reading: Reading) -> list[str]:
    codes: list[str] = []
    for event in reading.events:
        if event.hat is not None and event.hat.code is not None and event.hat.code not in codes:
            codes.append(event.hat.code)
    for question in reading.questions:
        codes.extend(c for c in question.codes if c not in codes)
    return codes


def _weaver_refs(reading: Reading) -> list[tuple[str, str | None]]:
    refs: list[tuple[str, str | None]] = []
    for event in reading.events:
        if event.hat is not None and event.hat.weaver_name is not None:
            key = (event.hat.weaver_name, event.hat.stage)
            if key not in refs:
                refs.append(key)
    return refs


def _create_names(reading: Reading) -> list[str]:
    names: list[str] = []
    for event in reading.events:
        if event.kind != "create":
            continue
        for name in event.weavers or ((event.weaver_name,) if event.weaver_name else ()):
            if name not in names:
                names.append(name)
    return names


def plan_lookups(reading: Reading) -> list[Call]:
    """The independent lookups of the first turn: every person named, every code, every hat by weaver, and
    the open hats by stage when a code was heard only in part."""
    calls: list[Call] = [("find_weaver", {"name": name}) for name in _create_names(reading)]
    codes = _code_refs(reading)
    # Codes are looked up with open_only false: a finished or archived hat must reach the rules, which block it.
    for i in range(0, len(codes), MAX_CODES_PER_CALL):
        chunk = codes[i : i + MAX_CODES_PER_CALL]
        calls.append(("find_hats", {"codes": chunk, "weaver_name": None, "stage": None, "open_only": False}))
    for name, stage in _weaver_refs(reading):
        query = hat_weaver_query(name)
        calls.append(("find_hats", {"codes": [], "weaver_name": query, "stage": stage, "open_only": True}))
    if any(e.hat is not None and e.hat.partial for e in reading.events):
        # The hats a partial code could be: every open hat, by stage (a lookup needs a filter).
        for stage in domain.OPEN_STAGES:
            calls.append(("find_hats", {"codes": [], "weaver_name": None, "stage": stage, "open_only": True}))
    return calls


_WORDS = re.compile(r"[a-z]+")
_TITLES = domain.HONORIFICS | {"la", "el"}


def _name_words(name: str) -> list[str]:
    return [w for w in _WORDS.findall(fold(name)) if w not in _TITLES]


def _first_name(word: str) -> str:
    """A nickname or diminutive said for a first name, as the name ("Rosita" → rosa, "Manolo" → manuel)."""
    if word in NICKNAMES:
        return NICKNAMES[word]
    small = re.match(r"^(\w{3,}?)(cit[oa]|it[oa]|ill[oa])$", word)
    if small is not None:
        stem = small.group(1)
        return stem if small.group(2).startswith("c") else stem + small.group(2)[-1]
    return word


def weaver_queries(name: str) -> list[str]:
    """Other ways to look up a name that found nobody: the first name behind a nickname, the first name
    alone (for a surname heard differently), and its first three letters (for a first name heard differently)."""
    words = _name_words(name)
    if not words:
        return []
    first = _first_name(words[0])
    rest = words[1:]
    queries = []
    if first != words[0]:
        queries.append(" ".join([first, *rest]))
    if rest:
        queries.append(first)
    if len(first) >= 3:
        queries.append(first[:3])
    heard = " ".join(words)
    return [q for q in dict.fromkeys(queries) if q != heard]


def hat_weaver_query(name: str) -> str:
    """The weaver name to look hats up by: the first name behind a nickname ("el de Manolo" → manuel)."""
    words = _name_words(name)
    if not words or _first_name(words[0]) == words[0]:
        return name
    return " ".join([_first_name(words[0]), *words[1:]])


def plan_second_lookups(reading: Reading, history: _History) -> list[Call]:
    """After the first lookups: the other ways to look up a weaver nobody matched, once."""
    done = {call.arguments.get("name") for call, _, _ in history.calls("find_weaver")}
    calls: list[Call] = []
    for name in _create_names(reading):
        found = _weaver_result(history, name)
        if found is None or found[1] or found[0].get("matches"):
            continue
        for query in weaver_queries(name):
            if query not in done:
                done.add(query)
                calls.append(("find_weaver", {"name": query}))
    return calls


def _weaver_result(history: _History, name: str) -> tuple[Any, bool] | None:
    for call, content, is_error in history.calls("find_weaver"):
        if call.arguments.get("name") == name:
            return content, is_error
    return None


def close_weavers(name: str, candidates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The candidates a heard name is close to: the first name (after nicknames) one slip away or a prefix,
    and every surname heard close to one of the weaver's (RapidFuzz ratio at least ``CLOSE_NAME``)."""
    words = _name_words(name)
    if not words:
        return []
    first, rest = _first_name(words[0]), words[1:]
    close: list[dict[str, Any]] = []
    for candidate in candidates:
        own = _name_words(candidate["name"])
        if not own:
            continue
        first_ok = (
            own[0].startswith(first)
            or (len(first) >= 4 and Levenshtein.distance(first, own[0]) <= 1)
            or fuzz.ratio(first, own[0]) >= CLOSE_NAME
        )
        rest_ok = all(any(fuzz.ratio(w, o) >= CLOSE_NAME for o in own[1:]) for w in rest)
        if first_ok and rest_ok and all(c["weaver_id"] != candidate["weaver_id"] for c in close):
            close.append(candidate)
    return close


def _weaver_matches(history: _History, name: str) -> tuple[list[dict[str, Any]], bool] | None:
    """The weavers a heard name means, and whether they were found as said (exact) or close to it."""
    found = _weaver_result(history, name)
    if found is None or found[1]:
        return None
    matches = list(found[0].get("matches", []))
    if matches:
        return matches, True
    candidates: list[dict[str, Any]] = []
    for query in weaver_queries(name):
        again = _weaver_result(history, query)
        if again is not None and not again[1]:
            candidates.extend(again[0].get("matches", []))
    return close_weavers(name, candidates), False


def _resolve_hat(ref: HatRef, message: UserMessage, history: _History) -> _Resolved:
    if ref.partial is not None:
        return _resolve_partial(ref.partial, history)
    if ref.code is not None:
        for call, content, is_error in history.calls("find_hats"):
            if ref.code not in call.arguments.get("codes", []):
                continue
            if is_error:
                return _Resolved(failed=str(content))
            for hat in content.get("hats", []):
                if hat.get("matched_from") == ref.code:
                    return _Resolved(
                        code=hat["code"], exact=hat.get("match") == "exact", stage=hat.get("stage")
                    )
            for missing in content.get("not_found", []):
                if missing.get("input") == ref.code:
                    return _Resolved(candidates=list(missing.get("candidates", [])))
        return _Resolved(failed="not looked up")
    if ref.weaver_name is not None:
        query = hat_weaver_query(ref.weaver_name)
        for call, content, is_error in history.calls("find_hats"):
            args = call.arguments
            if args.get("weaver_name") == query and args.get("stage") == ref.stage:
                if is_error:
                    return _Resolved(failed=str(content))
                hats = content.get("hats", [])
                if len(hats) == 1:
                    exact = query == ref.weaver_name
                    return _Resolved(code=hats[0]["code"], exact=exact, stage=hats[0].get("stage"))
                return _Resolved(candidates=[hat["code"] for hat in hats])
        return _Resolved(failed="not looked up")
    if message.hat_tag is not None:
        return _Resolved(code=message.hat_tag)
    return _Resolved(failed="no hat named")


def _resolve_partial(partial: str, history: _History) -> _Resolved:
    """The open hats whose code has the four characters heard, with one more anywhere."""
    fits: list[str] = []
    for call, content, is_error in history.calls("find_hats"):
        if is_error or call.arguments.get("stage") is None or call.arguments.get("weaver_name"):
            continue
        for hat in content.get("hats", []):
            body = str(hat["code"])[3:]
            if any(body[:k] + body[k + 1 :] == partial for k in range(len(body))) and hat["code"] not in fits:
                fits.append(hat["code"])
    return _Resolved(candidates=sorted(fits))


def _draft(**values: Any) -> dict[str, Any]:
    draft: dict[str, Any] = {
        "hat_code": None,
        "quantity": None,
        "grade": None,
        "rows_per_inch": None,
        "to_stage": None,
        "flag_kind": None,
    }
    draft.update(values)
    if draft["quantity"] is not None and not domain.validate_quantity(draft["quantity"]):
        draft["quantity"] = None
    if draft["rows_per_inch"] is not None and not domain.validate_rows(draft["rows_per_inch"]):
        draft["rows_per_inch"] = None
    return draft


def _ask(
    proposal_type: str,
    question: str,
    choices: list[dict[str, Any]],
    draft: dict[str, Any],
    event: NoteEvent,
    why: str,
) -> Call:
    return (
        "ask_question",
        {
            "proposal_type": proposal_type,
            "question": _cut(question, 160),
            "choices": choices[:4],
            "draft": draft,
            "quote": event.quote,
            "why": why,
        },
    )


def _plan_create(event: NoteEvent, history: _History) -> tuple[str, Call] | None:
    """One create card or question for one weaver's batch; the first element says which (for the summary)."""
    name = event.weaver_name or ""
    found = _weaver_matches(history, name)
    if found is None:
        return None
    matches, exact = found
    draft = _draft(quantity=event.quantity, grade=event.grade, rows_per_inch=event.rows)
    choices = [{"label": m["name"], "weaver_id": m["weaver_id"], "hat_code": None} for m in matches]
    what = f"new hats from {name}"
    if not matches:
        return "q_unknown_weaver", _ask(
            "create_hat",
            f"I found no weaver called {name} in this workshop. Who made these hats?",
            [],
            draft,
            event,
            f"The note mentions {what}, but no weaver with that name exists here, so I did not create one.",
        )
    if len(matches) > 1:
        return "q_which_weaver", _ask(
            "create_hat",
            f"Which weaver is {name}?",
            choices,
            draft,
            event,
            f"The note mentions {what}, and {len(matches)} weavers match that name.",
        )
    weaver = matches[0]
    if event.doubtful_number is not None:
        return "q_number", _ask(
            "create_hat",
            f"The note corrects a number to {event.doubtful_number}: is that how many hats {weaver['name']} "
            "delivered, or their rows per inch?",
            choices,
            draft,
            event,
            f"The note says {weaver['name']} delivered hats and corrects a number without saying whether it is "
            "the count or the rows, so I asked instead of guessing.",
        )
    if event.rows is None or not domain.validate_rows(event.rows):
        said = f" The note says grado {event.grado}, which is not a row count." if event.grado else ""
        if event.rows is not None:
            said = f" The note says {event.rows}, outside {domain.MIN_ROWS} to {domain.MAX_ROWS}."
        return "q_rows", _ask(
            "create_hat",
            f"How many rows per inch (hileras) do these hats from {weaver['name']} have?{said}",
            choices,
            draft,
            event,
            f"The note says {weaver['name']} delivered hats but does not give the rows per inch.",
        )
    if event.quantity is None or event.quantity < 1:
        return "q_quantity", _ask(
            "create_hat",
            f"How many hats did {weaver['name']} deliver?",
            choices,
            draft,
            event,
            f"The note says {weaver['name']} delivered hats but not how many.",
        )
    if event.quantity > MAX_QUANTITY:
        return "q_too_many", _ask(
            "create_hat",
            f"The note says {event.quantity} hats from {weaver['name']}; one card holds at most {MAX_QUANTITY}. "
            "How many go on this card?",
            choices,
            draft,
            event,
            f"The note says {weaver['name']} delivered {event.quantity} hats, more than one card can hold, so I "
            "asked instead of splitting them myself.",
        )
    grade = f"{event.grade} " if event.grade else ""
    heard = "" if exact else f" (the note says {name})"
    return "create", (
        "propose_create_hats",
        {
            "weaver_id": weaver["weaver_id"],
            "quantity": event.quantity,
            "grade": event.grade,
            "rows_per_inch": event.rows,
            "straw": None,
            "quote": event.quote,
            "why": f"{weaver['name']}{heard} delivered {event.quantity} new {grade}hats of {event.rows} rows "
            "per inch.",
            "confidence": "high" if exact else "check",
        },
    )


def _plan_shared_batch(event: NoteEvent, history: _History) -> list[tuple[str, Call]]:
    """One batch said of several weavers. With "cada una" each weaver gets the batch; otherwise the note does
    not say whose hats they are (all of them together? split how?), so the reader asks instead of guessing."""
    if event.each:
        single = [
            _plan_create(replace(event, weaver_name=name, weavers=()), history) for name in event.weavers
        ]
        return [call for call in single if call is not None]
    choices: list[dict[str, Any]] = []
    for name in event.weavers:
        found = _weaver_matches(history, name)
        for match in found[0] if found is not None else []:
            if all(c["weaver_id"] != match["weaver_id"] for c in choices):
                choices.append({"label": match["name"], "weaver_id": match["weaver_id"], "hat_code": None})
    names = ", ".join(event.weavers[:-1]) + f" and {event.weavers[-1]}"
    count = f"{event.quantity} hats" if event.quantity is not None else "hats"
    return [
        (
            "q_batch",
            _ask(
                "create_hat",
                f"The note names {names} for one batch of {count}. Whose hats are they?",
                choices,
                _draft(quantity=event.quantity, grade=event.grade, rows_per_inch=event.rows),
                event,
                "Several weavers are named for one batch and the note does not say how it splits, so I did not "
                "divide it myself.",
            ),
        )
    ]


def flag_message(event: NoteEvent) -> str:
    """The flag's message: what kind of problem, then the person's own words from the note."""
    label = FLAG_LABELS[event.flag_kind or "other"]
    words = _plain(event.flag_words or event.quote, MAX_FLAG_MESSAGE - len(label) - 4)
    return f'{label}: "{words}"'


def _plan_hat_event(event: NoteEvent, message: UserMessage, history: _History) -> tuple[str, Call] | None:
    assert event.hat is not None
    ref = event.hat
    resolved = _resolve_hat(ref, message, history)
    if resolved.failed is not None:
        return None
    heard = ref.said or ref.code or (f"the hat of {ref.weaver_name}" if ref.weaver_name else "the hat")
    proposal_type = "advance_stage" if event.kind == "advance" else "flag_issue"
    if resolved.code is None:
        choices = [{"label": code, "weaver_id": None, "hat_code": code} for code in resolved.candidates]
        draft = (
            _draft(to_stage=event.to_stage) if event.kind == "advance" else _draft(flag_kind=event.flag_kind)
        )
        if ref.partial is not None:
            kind = "q_partial"
            question = f"I heard only part of a hat code ({heard}). Which hat is it?"
            why = f"The note names a hat as {heard}, with one character of its code missing, so I did not pick one."
        elif choices:
            kind = "q_which_hat"
            question = f"Which hat did you mean by {heard}?"
            why = f"The note names {heard}, and {len(choices)} hats could match it, so I did not pick one."
        else:
            kind = "q_no_hat"
            question = f"I found no hat for {heard}. Which hat is it?"
            why = f"The note names {heard}, but no hat of this workshop matches it."
        return kind, _ask(proposal_type, question, choices, draft, event, why)
    exact = resolved.exact and not ref.spelled
    confidence = "high" if exact else "check"
    heard_note = "" if exact else f" (heard as {heard})"
    if event.kind == "advance":
        return "advance", (
            "propose_advance_stage",
            {
                "hat_code": resolved.code,
                "to_stage": event.to_stage,
                "quote": event.quote,
                "why": f"The note says {resolved.code}{heard_note} is now at {event.to_stage}.",
                "confidence": confidence,
            },
        )
    kind = event.flag_kind or "other"
    return "flag", (
        "propose_flag",
        {
            "hat_code": resolved.code,
            "kind": kind,
            "message": flag_message(event),
            "quote": event.quote,
            "why": f"The note reports {kind.replace('_', ' ')} on {resolved.code}{heard_note}.",
            "confidence": confidence,
        },
    )


def plan_proposals(reading: Reading, message: UserMessage, history: _History) -> list[Planned]:
    """One proposal or question per event, from the lookup results (at most 10), each with its event and
    what kind of card it is."""
    planned: list[Planned] = []
    for event in reading.events:
        if len(planned) >= MAX_PROPOSALS:
            break
        if event.kind == "create" and len(event.weavers) > 1:
            planned.extend((event, kind, call) for kind, call in _plan_shared_batch(event, history))
            continue
        one = (
            _plan_create(event, history)
            if event.kind == "create"
            else _plan_hat_event(event, message, history)
        )
        if one is not None:
            planned.append((event, one[0], one[1]))
    return planned[:MAX_PROPOSALS]


# ---------------------------------------------------------------------------------------------------------
# The summary (docs/workshop-agent.md, "Summaries")
# ---------------------------------------------------------------------------------------------------------


def _plain(text: str, limit: int = 60) -> str:
    """Note text made safe for a one-line summary: no markup, no sentence ends, no line breaks, and cut only
    between words (with "…")."""
    text = (
        text.replace("&lt;", " ")
        .replace("&gt;", " ")
        .replace("&amp;", "&")
        .replace("<", " ")
        .replace(">", " ")
    )
    flat = " ".join(re.sub(r"[.?!¿¡;:\"]+", " ", text).split())
    if len(flat) <= limit:
        return flat
    return _cut(flat, limit - 1).rstrip(" ,") + "…"


def _cut(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters between words."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ")
    return cut[:space] if space > 0 else cut


def _weaver_names(history: _History) -> dict[str, str]:
    names: dict[str, str] = {}
    for _call, content, is_error in history.calls("find_weaver"):
        if not is_error:
            names.update({m["weaver_id"]: m["name"] for m in content.get("matches", [])})
    return names


def _hat_stages(history: _History) -> dict[str, str]:
    stages: dict[str, str] = {}
    for _call, content, is_error in history.calls("find_hats"):
        if not is_error:
            stages.update({h["code"]: h["stage"] for h in content.get("hats", [])})
    return stages


def _join(items: list[str], lang: str) -> str:
    words = TEXT[lang]
    if len(items) > 4:
        items = [*items[:3], words["more"].format(n=len(items) - 3)]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {words['and']} " + items[-1]


def _understood(event: NoteEvent, kind: str, args: dict[str, Any], names: dict[str, str], lang: str) -> str:
    """What a question card understood, in the summary's words."""
    words, stage_names, grades = TEXT[lang], STAGE_NAMES[lang], GRADE_NAMES[lang]
    weaver = next((c["label"] for c in args.get("choices", []) if c.get("weaver_id")), None) or _plain(
        event.weaver_name or "", 40
    )
    if kind in {"q_which_weaver", "q_unknown_weaver"}:
        return words[kind].format(name=_plain(event.weaver_name or "", 40))
    if kind == "q_batch":
        return words[kind].format(names=_join([_plain(n, 30) for n in event.weavers], lang))
    if kind == "q_too_many":
        return words[kind].format(weaver=weaver, n=event.quantity)
    if kind == "q_number":
        grade = grades[event.grade] if event.grade else ""
        what = words["delivered_grade"].format(grade=grade) if grade else words["delivered_some"]
        return words[kind].format(weaver=weaver, what=what, n=event.doubtful_number)
    if kind in {"q_rows", "q_quantity"}:
        grade = grades[event.grade] if event.grade else ""
        if event.quantity is not None and kind == "q_rows":
            what = words["delivered_n"].format(
                n=event.quantity, grade=f"{grade} " if lang == "en" and grade else grade
            )
        elif grade:
            what = words["delivered_grade"].format(grade=grade)
        else:
            what = words["delivered_some"]
        return words[kind].format(weaver=weaver, what=" ".join(what.split()))
    assert event.hat is not None
    heard = _plain(event.hat.said or event.hat.code or event.hat.weaver_name or "", 40)
    if event.kind == "advance":
        what = words["move_heard"].format(heard=heard, stage=stage_names[event.to_stage or "Weaving"])
    else:
        what = words["flag_heard"].format(heard=heard, kind=FLAG_NAMES[lang][event.flag_kind or "other"])
    return words[kind].format(what=what)


def _prepared(call: ToolCall, status: str | None, names: dict[str, str], lang: str) -> str:
    words, stage_names, grades = TEXT[lang], STAGE_NAMES[lang], GRADE_NAMES[lang]
    args = call.arguments
    if call.name == "propose_create_hats":
        grade = grades.get(args.get("grade") or "", "")
        noun = words["hat"] if args["quantity"] == 1 else words["hats"]
        what = words["create"].format(
            n=args["quantity"],
            grade=f"{grade} " if grade else "",
            noun=noun,
            rows=args["rows_per_inch"],
            weaver=names.get(args["weaver_id"], "?"),
        )
    elif call.name == "propose_advance_stage":
        what = words["advance"].format(code=args["hat_code"], stage=stage_names[args["to_stage"]])
    else:
        what = words["flag"].format(kind=FLAG_NAMES[lang][args["kind"]], code=args["hat_code"])
    what = " ".join(what.split())
    return words["blocked"].format(what=what) if status == "blocked" else what


def _not_prepared(call: ToolCall, content: Any, stages: dict[str, str], lang: str) -> str:
    """A refused call in the reader's own words (never the tool's message)."""
    words = TEXT[lang]
    message = str(content)
    code = call.arguments.get("hat_code") or ""
    if "already at" in message:
        stage = STAGE_NAMES[lang].get(stages.get(code, ""), "")
        return words["same_stage"].format(code=code, stage=stage) if stage else words["not_prepared"]
    if "already has an open" in message:
        kind = FLAG_NAMES[lang].get(call.arguments.get("kind", "other"), "")
        return words["open_flag"].format(code=code, kind=kind)
    if "already proposed" in message or "already exists" in message:
        return words["repeated"]
    if "Limit of" in message:
        return words["limit"]
    if "no longer available" in message:
        return words["gone"].format(code=code)
    return words["not_prepared"]


def _answers(reading: Reading, history: _History, lang: str) -> list[str]:
    """What the read tools say about the hats a question asked about."""
    words, stage_names = TEXT[lang], STAGE_NAMES[lang]
    found: dict[str, str] = {}
    for call, content, is_error in history.calls("find_hats"):
        if is_error or not call.arguments.get("codes"):
            continue
        for hat in content.get("hats", []):
            found[str(hat.get("matched_from"))] = f"{hat['code']}|{hat['stage']}"
    out = []
    for question in reading.questions:
        for code in question.codes:
            hit = found.get(code)
            if hit is None:
                out.append(words["answer_missing"].format(code=normalize_code(code) or _plain(code, 20)))
            else:
                real, stage = hit.split("|")
                out.append(words["answer"].format(code=real, stage=stage_names.get(stage, stage)))
    return out


def _first(parts: list[Part], limit: int = 50) -> str:
    return _plain(parts[0].text, limit)


def summarize(reading: Reading, history: _History, message: UserMessage | None = None) -> str:
    """At most two short sentences, starting "I understood:" (or "Entendí:" for a Spanish page): what was
    prepared or asked, then how many actions wait for review and what was ignored, asked, denied, refused or
    could not be read. Only the reader's own words and the note's, never a tool's message or markup."""
    lang = message.language if message is not None else "en"
    words = TEXT[lang]
    names = _weaver_names(history)
    stages = _hat_stages(history)
    done = history.calls("propose_create_hats", "propose_advance_stage", "propose_flag", "ask_question")
    planned = plan_proposals(reading, message, history) if message is not None else []
    items: list[str] = []
    refused: list[str] = []
    for index, (call, content, is_error) in enumerate(done):
        if is_error:
            refused.append(_not_prepared(call, content, stages, lang))
            continue
        status = content.get("status") if isinstance(content, dict) else None
        if call.name == "ask_question":
            plan = planned[index] if index < len(planned) and planned[index][2][1] == call.arguments else None
            if plan is not None:
                items.append(_understood(plan[0], plan[1], call.arguments, names, lang))
            else:
                items.append(_plain(call.arguments.get("question", ""), 70))
        else:
            items.append(_prepared(call, status, names, lang))
    count = sum(1 for _, _, err in done if not err)
    first = f"{words['start']} {_join(items, lang) if items else words['nothing']}."
    notes: list[str] = []
    if reading.marked("instruction"):
        notes.append(words["instruction"].format(text=_first(reading.marked("instruction"), 40)))
    if reading.marked("future"):
        notes.append(words["future"].format(text=_first(reading.marked("future"))))
    if reading.marked("denied"):
        notes.append(words["denied"].format(text=_first(reading.marked("denied"))))
    if reading.marked("question"):
        answer = _answers(reading, history, lang)
        asked = words["question"].format(text=_first(reading.marked("question")))
        notes.append(asked + (": " + _join(answer, lang) if answer else ""))
    if refused:
        notes.append(words["skipped"].format(what=_join(list(dict.fromkeys(refused)), lang)))
    unread = reading.marked("unread")
    if unread:
        notes.append(words["unread"].format(text=_join([_plain(p.text, 40) for p in unread[:2]], lang)))
    failed = [c for c, _, err in history.calls("find_weaver", "find_hats", "get_hat") if err]
    if failed:
        notes.append(words["lookups_failed"].format(n=len(failed)))
    key = "prepared_0" if count == 0 else "prepared_1" if count == 1 else "prepared_n"
    second = words[key].format(n=count)
    if notes:
        second += "; " + "; ".join(notes)
    return f"{first} {second}."


__all__ = ["OfflineReader", "accounting", "flag_message", "plan_lookups", "plan_proposals", "summarize"]
