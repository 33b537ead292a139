"""The offline reader's Spanish summary counts hats of each grade in agreement: noun and adjectives singular
for one hat, plural for more (the workshop catalogue's plural forms; docs/workshop-agent.md, "Summaries")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from shopfloor.workshop.agent.offline import OfflineReader
from shopfloor.workshop.agent.persistence import StoreAgentStore
from shopfloor.workshop.agent.run import run_agent
from shopfloor.workshop.domain import Actor
from shopfloor.workshop.sample import WORKSHOP_A, fresh_sample_store

ANA = Actor("u-ana", WORKSHOP_A, "member", "Ana Morocho")


@pytest.fixture
def agent_store(tmp_path: Path) -> Iterator[StoreAgentStore]:
    store = fresh_sample_store(tmp_path / "workshop.db")
    yield StoreAgentStore(store)
    store.dispose()


def summary(agent_store: StoreAgentStore, note: str, language: str = "es") -> str:
    body = {"note": note}
    result = run_agent(
        agent_store, ANA, body, OfflineReader(), f"req_{abs(hash(note)):016d}"[:20], 100, language=language
    )
    return str(result["summary"])


@pytest.mark.parametrize(
    ("note", "understood"),
    [
        (
            "Doña Rosa Pillco terminó 1 fino de 18 hileras.",
            "1 sombrero fino nuevo de 18 hileras de Rosa Pillco",
        ),
        (
            "Doña Rosa Pillco terminó 3 finos de 18 hileras.",
            "3 sombreros finos nuevos de 18 hileras de Rosa Pillco",
        ),
        (
            "Doña Rosa Pillco terminó 1 superfino de 24 hileras.",
            "1 sombrero superfino nuevo de 24 hileras de Rosa Pillco",
        ),
        (
            "Doña Rosa Pillco terminó 3 superfinos de 24 hileras.",
            "3 sombreros superfinos nuevos de 24 hileras de Rosa Pillco",
        ),
        (
            "Doña Rosa Pillco terminó 1 sombrero estándar de 10 hileras.",
            "1 sombrero estándar nuevo de 10 hileras de Rosa Pillco",
        ),
        (
            "Doña Rosa Pillco terminó 3 sombreros estándar de 10 hileras.",
            "3 sombreros estándar nuevos de 10 hileras de Rosa Pillco",
        ),
    ],
)
def test_the_spanish_summary_agrees_with_the_count_for_each_grade(
    agent_store: StoreAgentStore, note: str, understood: str
) -> None:
    assert summary(agent_store, note).startswith(f"Entendí: {understood}. Preparé 1 acción para revisar")


@pytest.mark.parametrize(
    ("note", "understood"),
    [
        (
            "Doña Rosa Pillco entregó 1 fino.",
            "Rosa Pillco entregó 1 sombrero fino (pregunté cuántas hileras tiene)",
        ),
        (
            "Doña Rosa Pillco entregó 3 superfinos.",
            "Rosa Pillco entregó 3 sombreros superfinos (pregunté cuántas hileras tienen)",
        ),
    ],
)
def test_a_question_cards_understanding_agrees_too(
    agent_store: StoreAgentStore, note: str, understood: str
) -> None:
    assert summary(agent_store, note).startswith(f"Entendí: {understood}.")


def test_english_keeps_its_words(agent_store: StoreAgentStore) -> None:
    said = summary(agent_store, "Doña Rosa Pillco terminó 1 fino de 18 hileras.", language="en")
    assert said.startswith("I understood: 1 new Fino hat of 18 rows from Rosa Pillco.")
