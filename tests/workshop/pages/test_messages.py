"""What the rules, the approvals and the offline reader say, in the page's language: each rule result is built
by the rules' own code and said from its ``code`` and ``params`` alone, so a change of the English wording
cannot put English on a Spanish page; the reader's texts are recognised by their templates."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from shopfloor.workshop import domain
from shopfloor.workshop.pages.i18n import translations
from shopfloor.workshop.pages.messages import RULES, Say

NOW = datetime(2026, 5, 4, 12, tzinfo=UTC)
ACTOR = domain.Actor("u1", "ws-a")
WEAVER = domain.Weaver("w1", "Rosa Pillco", workshop_id="ws-a")
HAT = domain.Hat("TQ-2C5P0", "Washing", "Standard", 12, "ws-a", NOW - timedelta(days=30), weaver=WEAVER)

ES = Say(translations("es").gettext, translations("es").ngettext)
EN = Say(translations("en").gettext, translations("en").ngettext)

# Words that are English and not Spanish: none of them may reach a Spanish sentence.
ENGLISH = {
    "the", "is", "not", "and", "hat", "hats", "weaver", "rows", "row", "note", "card", "which", "how", "many",
    "found", "this", "workshop", "already", "stage", "cannot", "must", "between", "says", "missing", "answer",
    "choice", "choices", "needs", "inch", "per", "outside", "only", "owner", "change", "changed", "archived",
    "finished", "forward", "back", "next", "skip", "left", "weaving", "days", "day", "hour", "hours", "open",
    "flag", "delivered", "did", "who", "made", "whose", "heard", "part", "code", "mean", "asked", "instead",
    "guessing", "grade", "match", "matches", "reports", "pick", "one", "of", "it", "to", "at", "was", "were",
}  # fmt: skip


def english_words(text: str, keep: tuple[str, ...] = ()) -> set[str]:
    """The English words of ``text``, leaving out names and codes (``keep``)."""
    for name in keep:
        text = text.replace(name, " ")
    words = {w.strip(".,;:()«»\"'¿?").lower() for w in text.split()}
    return words & ENGLISH


def _rule_results() -> list[domain.RuleResult]:
    move = domain.can_advance
    return [
        move(HAT, domain.stage_index("Blocking"), ACTOR),  # stage_skip
        move(HAT, domain.stage_index("Weaving"), ACTOR),  # backward
        move(HAT, domain.stage_index("Washing"), ACTOR),  # same_stage
        move(replace(HAT, archived=True), 2, ACTOR),
        move(replace(HAT, stage="Finished"), 4, ACTOR),
        move(replace(HAT, workshop_id="ws-b"), 2, ACTOR),  # not_owner
        domain.refusal("grade_mismatch", "-", params=domain.grade_mismatch_params("Fino", 12)),
        domain.refusal("grade_mismatch", "-", params=domain.grade_mismatch_params("Fino", 44)),
        domain.refusal("grade_mismatch", "-", params=domain.grade_mismatch_params(None, 12)),
        domain.refusal("grade_mismatch", "-", params=domain.grade_mismatch_params("Fine", 12)),
    ]


@pytest.mark.parametrize("result", _rule_results(), ids=lambda r: str(r["code"]))
def test_every_rule_result_reads_in_spanish_from_its_code(result: domain.RuleResult) -> None:
    spanish = ES.rule(result)
    assert spanish and spanish != result["message"]
    assert english_words(spanish, ("TQ-2C5P0", "Fine")) == set(), spanish


def test_the_english_page_says_what_the_rules_say() -> None:
    for result in _rule_results()[:6]:
        assert EN.rule(result) == result["message"]


def test_parts_are_translated_codes_kept_and_counts_choose_the_plural() -> None:
    skip = domain.can_advance(HAT, domain.stage_index("Blocking"), ACTOR)
    assert ES.rule(skip) == (
        "TQ-2C5P0 está en Lavado; la etapa siguiente es Blanqueo, así que no puede saltar a Hormado."
    )
    fino = domain.refusal("grade_mismatch", "-", params=domain.grade_mismatch_params("Fino", 12))
    assert ES.rule(fino) == "Fino necesita de 14 a 20 hileras por pulgada; 12 hileras es Estándar."
    assert EN.rule(fino) == "Fino needs 14 to 20 rows per inch; 12 rows is Standard."


def test_the_english_message_is_not_read() -> None:
    # Only code and params speak: a rule that changes its English wording changes nothing on the page.
    result = domain.refusal(
        "same_stage", "Some other English words.", params={"code": "TQ-2C5P0", "stage": "Washing"}
    )
    assert ES.rule(result) == "TQ-2C5P0 ya está en Lavado."
    # A code the page does not know (or a result stored before params) shows the message as it came.
    assert ES.rule({"code": "new_rule", "message": "Said in English.", "params": {}}) == "Said in English."


def test_every_rule_code_has_a_sentence() -> None:
    codes = {
        "archived",
        "not_owner",
        "already_finished",
        "same_stage",
        "backward",
        "stage_skip",
        "grade_mismatch",
    }
    assert codes <= {key.split(".")[0] for key in RULES}


def test_card_outcomes_from_code_and_params() -> None:
    assert ES.outcome("applied", None, {}, None) == "Aprobada y guardada."
    assert (
        ES.outcome("invalid", "answer_required", {"fields": ["quantity", "rows_per_inch"]}, None)
        == "Primero responda la pregunta (falta: cuántos sombreros, hileras por pulgada)."
    )
    assert (
        ES.outcome("invalid", "invalid_edit", {"case": "no_such_choice", "choice": 5, "count": 1}, None)
        == "Esa opción no existe; la pregunta tiene 1 opción."
    )
    refused = domain.refusal("invalid_rows", "-", params={"low": 6, "high": 40})
    assert (
        ES.outcome("invalid", "invalid_rows", {"low": 6, "high": 40, "unchanged": True}, dict(refused))
        == "Las hileras por pulgada deben estar entre 6 y 40. La tarjeta no se cambió."
    )
    assert ES.outcome("unchanged", "already_approved", {"status": "approved"}, None) == (
        "Esta tarjeta ya estaba aprobada; no cambió nada."
    )


def test_anomalies_from_kind_and_params() -> None:
    fast = replace(HAT, stage="Washing", grade="Fino", rows_per_inch=16, created_at=NOW - timedelta(hours=30))
    events = [
        domain.HatEvent("stage_changed", NOW - timedelta(hours=5), from_stage="Weaving", to_stage="Washing"),
    ]
    [anomaly] = [a for a in domain.detect_anomalies(fast, events, NOW) if a["kind"] == "too_fast"]
    assert ES.anomaly(anomaly) == (
        "TQ-2C5P0 salió de Tejido 25 horas después de crearse; los sombreros Fino tardan al menos 7 días en tejerse."
    )
    assert EN.anomaly(anomaly) == anomaly["message"]


# The offline reader's texts as its plans write them (src/shopfloor/workshop/agent/offline/plans.py).
READER = [
    ("Which weaver is Rosa?", "¿Qué tejedora es Rosa?"),
    ("How many hats did Rosa Pillco deliver?", "¿Cuántos sombreros entregó Rosa Pillco?"),
    (
        "The note mentions new hats from Rosa, and 2 weavers match that name.",
        "La nota menciona sombreros nuevos de Rosa, y 2 tejedoras coinciden con ese nombre.",
    ),
    (
        "Rosa Pillco (the note says Rosa) delivered 1 new Fino hats of 18 rows per inch.",
        "Rosa Pillco (la nota dice Rosa) entregó 1 sombrero Fino nuevo de 18 hileras por pulgada.",
    ),
    ("The note says TQ-7F3K2 is now at Washing.", "La nota dice que TQ-7F3K2 ahora está en Lavado."),
    (
        "How many rows per inch (hileras) does this hat from Carmen Quizhpi have?",
        "¿Cuántas hileras por pulgada tiene este sombrero de Carmen Quizhpi?",
    ),
    (
        "How many rows per inch (hileras) does this hat from Carmen Quizhpi have? The note says 45, outside 6 to 40.",
        "¿Cuántas hileras por pulgada tiene este sombrero de Carmen Quizhpi? La nota dice 45, fuera de 6 a 40.",
    ),
    (
        "How many rows per inch (hileras) do these hats from Carmen Quizhpi have?",
        "¿Cuántas hileras por pulgada tienen estos sombreros de Carmen Quizhpi?",
    ),
    (
        "Which hat did you mean by the hat of Rosa?",
        "¿Qué sombrero quiso decir con el sombrero de Rosa?",
    ),
    (
        "The note names Rosa, Carmen and Luz for one batch of 3 hats. Whose hats are they?",
        "La nota nombra a Rosa, Carmen y Luz para un lote de 3 sombreros. ¿De quién son?",
    ),
    (
        'Grade does not match the rows, the note says: "dice fino pero tiene 11"',
        "El grado no coincide con las hileras, dice la nota: «dice fino pero tiene 11»",
    ),
]


@pytest.mark.parametrize(("english", "spanish"), READER)
def test_the_offline_readers_texts_by_their_templates(english: str, spanish: str) -> None:
    assert ES.reader(english) == spanish
    assert EN.reader(english).replace("1 new Fino hat ", "1 new Fino hats ") == english


def test_a_text_no_template_knows_is_data() -> None:
    assert ES.reader("Rosa said the brim is stained.") == "Rosa said the brim is stained."
