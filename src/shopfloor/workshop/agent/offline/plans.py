"""The offline reader's plan for a turn: the lookups a reading needs, then one proposal or question per event
from the lookups' results; and the accounting of the note shown in the first turn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from shopfloor.workshop import domain
from shopfloor.workshop.agent.offline import card_texts as texts
from shopfloor.workshop.agent.offline.history import History
from shopfloor.workshop.agent.offline.results import HatRef, NoteEvent, Reading
from shopfloor.workshop.agent.offline.vocabulary import NICKNAMES
from shopfloor.workshop.agent.prompt import UserMessage
from shopfloor.workshop.domain import MAX_FLAG_MESSAGE, MAX_PROPOSALS, MAX_QUANTITY

MAX_CODES_PER_CALL = 10
CLOSE_NAME = 80  # RapidFuzz ratio from which a heard name word is one weaver's name said differently


def plain_text(text: str, limit: int = 60) -> str:
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
    return cut_text(flat, limit - 1).rstrip(" ,") + "…"


def cut_text(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters between words."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ")
    return cut[:space] if space > 0 else cut


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
        lines.append(f"- {label}: {plain_text(part.text, 160)}")
    return "\n".join(lines)


def _code_refs(reading: Reading) -> list[str]:
    codes: list[str] = []
    for event in reading.events:
        if event.hat is not None and event.hat.code is not None and event.hat.code not in codes:
            codes.append(event.hat.code)
        if event.hat is not None:
            codes.extend(c for c in event.hat.choices if c not in codes)
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
        if event.kind != "create" or event.no_weaver:
            continue  # "mi mami" is looked up as nobody's name
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
    words = domain.query_words(name)
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
    words = domain.query_words(name)
    if not words or _first_name(words[0]) == words[0]:
        return name
    return " ".join([_first_name(words[0]), *words[1:]])


def plan_second_lookups(reading: Reading, history: History) -> list[Call]:
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


def _weaver_result(history: History, name: str) -> tuple[Any, bool] | None:
    for call, content, is_error in history.calls("find_weaver"):
        if call.arguments.get("name") == name:
            return content, is_error
    return None


def _other_person(heard: str, own: str) -> bool:
    """Whether a heard first name is another person's name rather than a slip of a weaver's: the same name
    in the other gender ("Manuela" for Manuel, "Carmelo" for Carmela), which is asked."""
    if heard == own:
        return False
    if heard in (own + "a", own + "o") or own in (heard + "a", heard + "o"):
        return True
    return heard[:-1] == own[:-1] and {heard[-1:], own[-1:]} == {"a", "o"}


def close_weavers(name: str, candidates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The candidates a heard name is close to: the first name (after nicknames) one slip away or a prefix,
    and every surname heard close to one of the weaver's (RapidFuzz ratio at least ``CLOSE_NAME``)."""
    words = domain.query_words(name)
    if not words:
        return []
    first, rest = _first_name(words[0]), words[1:]
    close: list[dict[str, Any]] = []
    for candidate in candidates:
        own = domain.query_words(candidate["name"])
        if not own:
            continue
        if _other_person(first, own[0]):
            continue
        # A first name is a slip one edit away or the start of the weaver's; two edits away it is another
        # name ("Carmela" is not Carmen, "Rosario" not Rosa), asked (docs/workshop-agent.md, class 6).
        first_ok = own[0].startswith(first) or (len(first) >= 4 and Levenshtein.distance(first, own[0]) <= 1)
        rest_ok = all(any(fuzz.ratio(w, o) >= CLOSE_NAME for o in own[1:]) for w in rest)
        if first_ok and rest_ok and all(c["weaver_id"] != candidate["weaver_id"] for c in close):
            close.append(candidate)
    return close


def _weaver_matches(history: History, name: str) -> tuple[list[dict[str, Any]], bool] | None:
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


def _resolve_hat(ref: HatRef, message: UserMessage, history: History) -> _Resolved:
    if ref.partial is not None:
        return _resolve_partial(ref.partial, history)
    if ref.choices:
        # "uno de ellos": one of the hats the note named; the person picks, the reader never does.
        picked = [_resolve_hat(HatRef(code=code), message, history).code for code in ref.choices]
        return _Resolved(candidates=[code for code in dict.fromkeys(picked) if code is not None])
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
                if len(hats) == 1 and not ref.ask:
                    exact = query == ref.weaver_name
                    return _Resolved(code=hats[0]["code"], exact=exact, stage=hats[0].get("stage"))
                return _Resolved(candidates=[hat["code"] for hat in hats])
        return _Resolved(failed="not looked up")
    if message.hat_tag is not None:
        return _Resolved(code=message.hat_tag)
    return _Resolved(failed="no hat named")


def _resolve_partial(partial: str, history: History) -> _Resolved:
    """The open hats whose code has the four characters heard, with one more anywhere, or starts with the
    three heard."""
    fits: list[str] = []
    for call, content, is_error in history.calls("find_hats"):
        if is_error or call.arguments.get("stage") is None or call.arguments.get("weaver_name"):
            continue
        for hat in content.get("hats", []):
            body = str(hat["code"])[3:]
            # Four characters: the code with one more anywhere; three ("el 7F3"): the code that starts so.
            fits_four = any(body[:k] + body[k + 1 :] == partial for k in range(len(body)))
            fits_three = len(partial) == 3 and body.startswith(partial)
            if (fits_four or fits_three) and hat["code"] not in fits:
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
            "question": texts.kept(cut_text(question, 160), question),
            "choices": choices[:4],
            "draft": draft,
            "quote": event.quote,
            "why": why,
        },
    )


def _missing_fact(
    event: NoteEvent, weaver: dict[str, Any], choices: list[dict[str, Any]], draft: dict[str, Any]
) -> tuple[str, Call] | None:
    """The question for a batch of a known weaver whose count or rows the note leaves open, or in doubt, or
    out of bounds; None when the batch can be a card."""
    if event.doubtful_number is not None:
        return "q_number", _ask(
            "create_hat",
            texts.Said("question.number", n=event.doubtful_number, name=weaver["name"]),
            choices,
            draft,
            event,
            texts.Said("why.number", name=weaver["name"]),
        )
    if event.rows is None or not domain.validate_rows(event.rows):
        return "q_rows", _ask(
            "create_hat",
            # One hat is asked about as one hat; the note's grado, or rows out of bounds, are said after.
            texts.rows_question(
                weaver["name"], event.quantity, event.grado, event.rows, domain.MIN_ROWS, domain.MAX_ROWS
            ),
            choices,
            draft,
            event,
            texts.Said("why.rows", name=weaver["name"]),
        )
    if event.quantity is None or event.quantity < 1:
        return "q_quantity", _ask(
            "create_hat",
            texts.Said("question.quantity", name=weaver["name"]),
            choices,
            draft,
            event,
            texts.Said("why.quantity", name=weaver["name"]),
        )
    if event.quantity > MAX_QUANTITY:
        return "q_too_many", _ask(
            "create_hat",
            texts.Said("question.too_many", n=event.quantity, name=weaver["name"], max=MAX_QUANTITY),
            choices,
            draft,
            event,
            texts.Said("why.too_many", name=weaver["name"], n=event.quantity),
        )
    return None


def _plan_create(event: NoteEvent, history: History) -> tuple[str, Call] | None:
    """One create card or question for one weaver's batch; the first element says which (for the summary)."""
    name = event.weaver_name or ""
    found = ([], True) if event.no_weaver else _weaver_matches(history, name)
    if found is None:
        return None
    matches, exact = found
    draft = _draft(quantity=event.quantity, grade=event.grade, rows_per_inch=event.rows)
    choices = [{"label": m["name"], "weaver_id": m["weaver_id"], "hat_code": None} for m in matches]
    if not matches:
        return "q_unknown_weaver", _ask(
            "create_hat",
            texts.Said("question.unknown_weaver", name=name),
            [],
            draft,
            event,
            texts.Said("why.unknown_weaver", name=name),
        )
    if len(matches) > 1:
        return "q_which_weaver", _ask(
            "create_hat",
            texts.Said("question.which_weaver", name=name),
            choices,
            draft,
            event,
            texts.Said("why.which_weaver", name=name, n=len(matches)),
        )
    weaver = matches[0]
    asked = _missing_fact(event, weaver, choices, draft)
    if asked is not None:
        return asked
    return "create", (
        "propose_create_hats",
        {
            "weaver_id": weaver["weaver_id"],
            "quantity": event.quantity,
            "grade": event.grade,
            "rows_per_inch": event.rows,
            "straw": None,
            "quote": event.quote,
            "why": texts.create_why(
                weaver["name"], None if exact else name, event.quantity, event.grade, event.rows
            ),
            "confidence": "high" if exact and not event.unsure else "check",
        },
    )


def _plan_shared_batch(event: NoteEvent, history: History) -> list[tuple[str, Call]]:
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
    return [
        (
            "q_batch",
            _ask(
                "create_hat",
                texts.batch_question(list(event.weavers), event.quantity),
                choices,
                _draft(quantity=event.quantity, grade=event.grade, rows_per_inch=event.rows),
                event,
                texts.Said("why.batch"),
            ),
        )
    ]


def flag_message(event: NoteEvent) -> str:
    """The flag's message: what kind of problem, then the person's own words from the note."""
    kind = event.flag_kind or "other"
    words = plain_text(event.flag_words or event.quote, MAX_FLAG_MESSAGE - texts.flag_room(kind))
    return texts.flag_message(kind, words)


def _plan_hat_event(event: NoteEvent, message: UserMessage, history: History) -> tuple[str, Call] | None:
    assert event.hat is not None
    ref = event.hat
    resolved = _resolve_hat(ref, message, history)
    if resolved.failed is not None:
        return None
    heard = ref.said or ref.code or texts.hat_heard(ref.weaver_name)
    proposal_type = "advance_stage" if event.kind == "advance" else "flag_issue"
    if resolved.code is None:
        choices = [{"label": code, "weaver_id": None, "hat_code": code} for code in resolved.candidates]
        draft = (
            _draft(to_stage=event.to_stage) if event.kind == "advance" else _draft(flag_kind=event.flag_kind)
        )
        if ref.partial is not None:
            kind = "q_partial"
            question = texts.Said("question.partial", heard=heard)
            why = texts.Said("why.partial", heard=heard)
        elif choices:
            kind = "q_which_hat"
            question = texts.Said("question.which_hat", heard=heard)
            why = texts.Said("why.which_hat", heard=heard, n=len(choices))
        else:
            kind = "q_no_hat"
            question = texts.Said("question.no_hat", heard=heard)
            why = texts.Said("why.no_hat", heard=heard)
        return kind, _ask(proposal_type, question, choices, draft, event, why)
    if event.label and resolved.stage == event.to_stage:
        return None  # "TQ-8H6RT - Hormado" of a hat at Blocking: the label says where it is, no change
    exact = resolved.exact and not ref.spelled
    confidence = "high" if exact and not event.unsure else "check"
    heard_note = None if exact and ref.weaver_name is None else heard
    if event.kind == "advance":
        return "advance", (
            "propose_advance_stage",
            {
                "hat_code": resolved.code,
                "to_stage": event.to_stage,
                "quote": event.quote,
                "why": texts.advance_why(resolved.code, heard_note, event.to_stage),
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
            "why": texts.flag_why(kind, resolved.code, heard_note),
            "confidence": confidence,
        },
    )


def labelled_in_place(reading: Reading, message: UserMessage, history: History) -> list[tuple[str, str]]:
    """The hats a label gives the stage they are already at ("TQ-8H6RT - Hormado" of a hat at Blocking), as
    (code, stage): no card, said in the summary."""
    found = []
    for event in reading.events:
        if event.kind == "advance" and event.label and event.hat is not None and event.to_stage is not None:
            resolved = _resolve_hat(event.hat, message, history)
            if resolved.code is not None and resolved.stage == event.to_stage:
                found.append((resolved.code, event.to_stage))
    return found


def plan_proposals(reading: Reading, message: UserMessage, history: History) -> list[Planned]:
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
