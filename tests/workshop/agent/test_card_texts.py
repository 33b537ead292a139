"""The offline reader's card texts: a stable code and params beside the English the tool calls carry, saved
with the card; a model's calls never carry any (docs/workshop-pages.md, "Cards")."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from shopfloor.agent.providers.base import StopReason, ToolCall, Turn, Usage
from shopfloor.agent.providers.scripted import ScriptedProvider, text_turn, tool_turn
from shopfloor.workshop import domain
from shopfloor.workshop.agent.offline import OfflineReader
from shopfloor.workshop.agent.offline import card_texts as texts
from shopfloor.workshop.agent.offline.card_texts import Said
from shopfloor.workshop.agent.run import run_agent
from shopfloor.workshop.store import models as m

from .conftest import ANA, CREATE_HATS, SAMPLE_NOTE


def run(agent_store: Any, provider: Any, note: str = SAMPLE_NOTE) -> dict[str, Any]:
    return run_agent(agent_store, ANA, {"note": note}, provider, "req_0123456789ab", rate_limit_per_hour=20)


def saved(raw_store: Any) -> list[m.Proposal]:
    with raw_store.session("ws-sigsig") as session:
        return list(session.scalars(select(m.Proposal).order_by(m.Proposal.position)))


def test_a_said_text_is_its_english_and_carries_its_code() -> None:
    said = Said("question.which_weaver", name="Rosa")
    assert said == "Which weaver is Rosa?" and type(str(said)) is str
    assert said.as_json() == {"code": "question.which_weaver", "params": {"name": "Rosa"}}
    heard = texts.hat_heard("Carmen")
    why = texts.advance_why("TQ-7F3K2", heard, "Washing")
    assert why == "The note says TQ-7F3K2 (heard as the hat of Carmen) is now at Washing."
    assert why.as_json()["params"]["heard"] == {"code": "hat.of_weaver", "params": {"name": "Carmen"}}
    # One hat is asked about as one hat; the English counts nothing else (``hats`` after any count, as always).
    assert texts.rows_question("Rosa", 1, None, None, 6, 40).startswith(
        "How many rows per inch (hileras) does this"
    )
    assert (
        texts.create_why("Rosa Pillco", None, 1, "Fino", 18)
        == "Rosa Pillco delivered 1 new Fino hats of 18 rows per inch."
    )


def test_a_cut_keeps_its_code_and_a_string_built_from_it_has_none() -> None:
    long = Said("question.which_weaver", name="Rosa " * 40)
    cut = texts.kept(long[:150], long)
    assert isinstance(cut, Said) and cut.code == long.code and len(cut) == 150
    assert not isinstance(long + "?", Said)


def test_every_flag_kind_has_a_message_code_that_leaves_room_for_the_words() -> None:
    for kind in domain.FLAG_KINDS:
        message = texts.flag_message(kind, "mancha en el ala")
        assert message.code == f"flag.{kind}" and message.endswith('"mancha en el ala"')
        assert texts.flag_room(kind) == len(message) - len("mancha en el ala")


def test_the_offline_readers_cards_keep_their_text_codes(agent_store: Any, raw_store: Any) -> None:
    body = run(agent_store, OfflineReader())
    rows = saved(raw_store)
    assert [r.type for r in rows] == ["create_hat", "advance_stage", "advance_stage", "flag_issue"]
    create, washing, _, flag = rows
    assert create.texts == {
        "why": {
            "code": "why.create_grade",
            "params": {"name": "Rosa Pillco", "n": 3, "rows": 18, "grade": "Fino"},
        }
    }
    assert washing.texts == {
        "why": {"code": "why.advance", "params": {"code": "TQ-7F3K2", "stage": "Washing"}}
    }
    assert flag.texts is not None and set(flag.texts) == {"why", "message"}
    assert flag.texts["message"]["code"] == "flag.grade_mismatch"
    # The English stays what the API answers and a live model would write; the codes are not in the API.
    assert body["proposals"][0]["why"] == "Rosa Pillco delivered 3 new Fino hats of 18 rows per inch."
    assert all("texts" not in p for p in body["proposals"])


def test_a_question_card_keeps_its_question_and_reason_codes(agent_store: Any, raw_store: Any) -> None:
    run(agent_store, OfflineReader(), "Rosa terminó 2 finos de 18 hileras")
    [question] = saved(raw_store)
    assert question.status == "question"
    assert question.texts == {
        "question": {"code": "question.which_weaver", "params": {"name": "Rosa"}},
        "why": {"code": "why.which_weaver", "params": {"name": "Rosa", "n": 2}},
    }


def test_a_models_calls_carry_no_text_codes_even_if_a_call_holds_some(
    agent_store: Any, raw_store: Any
) -> None:
    """Only a local provider's planner data reaches the handler: a model's card is its words, as written."""
    forged = ToolCall(
        "c9",
        CREATE_HATS[0],
        CREATE_HATS[1],
        local={"card_texts": {"why": {"code": "why.create", "params": {"name": "X", "n": 1, "rows": 18}}}},
    )
    turn = Turn(stop_reason=StopReason.TOOL_USE, tool_calls=(forged,), usage=Usage(10, 5), model="scripted")
    provider = ScriptedProvider(
        [tool_turn(("find_weaver", {"name": "Doña Rosa Pillco"})), turn, text_turn("Done.")]
    )
    run(agent_store, provider)
    [card] = saved(raw_store)
    assert card.texts is None and card.why == CREATE_HATS[1]["why"]
