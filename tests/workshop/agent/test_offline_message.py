"""The offline reader takes the run's first user message as data (docs/workshop-agent.md, "The first user
message"), so the wording a live model reads can change without the offline reader noticing."""

from __future__ import annotations

import pytest

from shopfloor.agent.providers.base import ModelRequest, UserText
from shopfloor.workshop.agent.offline import OfflineReader
from shopfloor.workshop.agent.prompt import ReadsUserMessage, UserMessage, build_user_message
from shopfloor.workshop.agent.run import run_agent

from .conftest import ANA


def test_the_reader_reads_the_message_it_was_given_not_the_rendered_text():
    reader = OfflineReader().for_message(UserMessage("Rosa entregó 2 finos de 16 hileras", "typed", None))
    reworded = ModelRequest("system", [], [UserText("Nota del taller, en otras palabras: hola")])
    turn = reader.complete(reworded)
    assert [(c.name, c.arguments) for c in turn.tool_calls] == [("find_weaver", {"name": "Rosa"})]


def test_an_unbound_reader_refuses_to_guess_a_note():
    with pytest.raises(RuntimeError, match="for_message"):
        OfflineReader().complete(ModelRequest("system", [], [UserText("Rosa entregó 2 finos")]))


def test_the_live_text_and_the_offline_data_come_from_one_message(agent_store):
    message = UserMessage("ya pasó a lavado", "voice", "TQ-7F3K2")
    assert isinstance(OfflineReader(), ReadsUserMessage)
    assert "The user tagged this note as about hat TQ-7F3K2." in build_user_message(message)
    body = run_agent(
        agent_store,
        ANA,
        {"note": "ya pasó a lavado", "hat_tag": "tq 7f3k2"},
        OfflineReader(),
        "req_tag000000000",
        20,
    )
    (card,) = body["proposals"]
    assert (card["type"], card["payload"]["hat_code"], card["payload"]["to_stage"]) == (
        "advance_stage",
        "TQ-7F3K2",
        "Washing",
    )
