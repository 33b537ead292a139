"""The offline reader's last turn: the "I understood: …" summary (docs/workshop-agent.md, "Summaries")."""

from __future__ import annotations

from typing import Any

from shopfloor.agent.providers.base import (
    ToolCall,
)
from shopfloor.workshop.agent.offline.history import History
from shopfloor.workshop.agent.offline.plans import labelled_in_place, plain_text, plan_proposals
from shopfloor.workshop.agent.offline.results import NoteEvent, Part, Reading
from shopfloor.workshop.agent.offline.wording import (
    FLAG_NAMES,
    STAGE_NAMES,
    TEXT,
    delivered_hats,
    more_parts,
    new_hats,
)
from shopfloor.workshop.agent.prompt import UserMessage
from shopfloor.workshop.domain import normalize_code


def _weaver_names(history: History) -> dict[str, str]:
    names: dict[str, str] = {}
    for _call, content, is_error in history.calls("find_weaver"):
        if not is_error:
            names.update({m["weaver_id"]: m["name"] for m in content.get("matches", [])})
    return names


def _hat_stages(history: History) -> dict[str, str]:
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
    words, stage_names = TEXT[lang], STAGE_NAMES[lang]
    weaver = next((c["label"] for c in args.get("choices", []) if c.get("weaver_id")), None) or plain_text(
        event.weaver_name or "", 40
    )
    if kind in {"q_which_weaver", "q_unknown_weaver"}:
        return words[kind].format(name=plain_text(event.weaver_name or "", 40))
    if kind == "q_batch":
        return words[kind].format(names=_join([plain_text(n, 30) for n in event.weavers], lang))
    if kind == "q_too_many":
        return words[kind].format(weaver=weaver, n=event.quantity)
    if kind == "q_number":
        what = delivered_hats(lang, None, event.grade)
        return words[kind].format(weaver=weaver, what=what, n=event.doubtful_number)
    if kind in {"q_rows", "q_quantity"}:
        one = event.quantity == 1 and kind == "q_rows"
        # One hat is one hat: "1 sombrero fino", never "1 sombreros fino" (the catalogue's plural forms).
        count = event.quantity if kind == "q_rows" else None
        what = delivered_hats(lang, count, event.grade)
        return words["q_rows_1" if one else kind].format(weaver=weaver, what=what)
    assert event.hat is not None
    heard = plain_text(event.hat.said or event.hat.code or event.hat.weaver_name or "", 40)
    if event.kind == "advance":
        what = words["move_heard"].format(heard=heard, stage=stage_names[event.to_stage or "Weaving"])
    else:
        what = words["flag_heard"].format(heard=heard, kind=FLAG_NAMES[lang][event.flag_kind or "other"])
    return words[kind].format(what=what)


def _prepared(call: ToolCall, status: str | None, names: dict[str, str], lang: str) -> str:
    words, stage_names = TEXT[lang], STAGE_NAMES[lang]
    args = call.arguments
    if call.name == "propose_create_hats":
        what = new_hats(
            lang,
            args["quantity"],
            args.get("grade"),
            args["rows_per_inch"],
            names.get(args["weaver_id"], "?"),
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


def _answers(reading: Reading, history: History, lang: str) -> list[str]:
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
                out.append(words["answer_missing"].format(code=normalize_code(code) or plain_text(code, 20)))
            else:
                real, stage = hit.split("|")
                out.append(words["answer"].format(code=real, stage=stage_names.get(stage, stage)))
    return out


def _first(parts: list[Part], limit: int = 50) -> str:
    return plain_text(parts[0].text, limit)


def summarize(reading: Reading, history: History, message: UserMessage | None = None) -> str:
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
                items.append(plain_text(call.arguments.get("question", ""), 70))
        else:
            items.append(_prepared(call, status, names, lang))
    if message is not None:
        for code, stage in labelled_in_place(reading, message, history):
            refused.append(words["same_stage"].format(code=code, stage=STAGE_NAMES[lang].get(stage, stage)))
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
        # Two are quoted; the rest are counted, so no unread part leaves the summary unsaid.
        quoted = [plain_text(p.text, 40) for p in unread[:2]]
        if len(unread) > 2:
            quoted.append(more_parts(lang, len(unread) - 2))
        notes.append(words["unread"].format(text=_join(quoted, lang)))
    failed = [c for c, _, err in history.calls("find_weaver", "find_hats", "get_hat") if err]
    if failed:
        notes.append(words["lookups_failed"].format(n=len(failed)))
    key = "prepared_0" if count == 0 else "prepared_1" if count == 1 else "prepared_n"
    second = words[key].format(n=count)
    if notes:
        second += "; " + "; ".join(notes)
    return f"{first} {second}."
