"""What the rules, the approvals and the offline reader say, in the page's language: each rule result and each
text of the reader's cards is built by their own code and said from its ``code`` and ``params`` alone, so a
change of the English wording cannot put English on a Spanish page; a text without a code is shown as it came."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from shopfloor.workshop import domain
from shopfloor.workshop.agent.offline import card_texts
from shopfloor.workshop.agent.offline.card_texts import Said
from shopfloor.workshop.pages.i18n import translations
from shopfloor.workshop.pages.messages import READER, RULES, Say

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


# Every code of the offline reader's card texts, built with the reader's own code
# (src/shopfloor/workshop/agent/offline/card_texts.py), and the Spanish the page says it in.
def _reader_texts() -> list[tuple[Said, str]]:
    t = card_texts
    rosa, carmen = "Rosa Pillco", "Carmen Quizhpi"
    rows_es = "¿Cuántas hileras por pulgada tiene este sombrero de Carmen Quizhpi?"
    return [
        (
            Said("question.number", n=18, name=rosa),
            "La nota corrige un número a 18: ¿es cuántos sombreros entregó Rosa Pillco, o sus hileras por pulgada?",
        ),
        (t.rows_question(carmen, 1, None, None, 6, 40), rows_es),
        (
            t.rows_question(carmen, 3, None, None, 6, 40),
            "¿Cuántas hileras por pulgada tienen estos sombreros de Carmen Quizhpi?",
        ),
        (
            t.rows_question(carmen, None, 3, None, 6, 40),
            "¿Cuántas hileras por pulgada tienen estos sombreros de Carmen Quizhpi? La nota dice grado 3, que no "
            "es un número de hileras.",
        ),
        (t.rows_question(carmen, 1, None, 45, 6, 40), rows_es + " La nota dice 45, fuera de 6 a 40."),
        (Said("question.quantity", name=rosa), "¿Cuántos sombreros entregó Rosa Pillco?"),
        (
            Said("question.too_many", n=25, name=rosa, max=20),
            "La nota dice 25 sombreros de Rosa Pillco; una tarjeta lleva como máximo 20. ¿Cuántos van en esta "
            "tarjeta?",
        ),
        (
            Said("question.unknown_weaver", name="Mercedes"),
            "No encontré ninguna tejedora llamada Mercedes en este taller. ¿Quién hizo estos sombreros?",
        ),
        (Said("question.which_weaver", name="Rosa"), "¿Qué tejedora es Rosa?"),
        (
            t.batch_question(["Rosa", "Carmen", "Luz"], 3),
            "La nota nombra a Rosa, Carmen y Luz para un lote de 3 sombreros. ¿De quién son?",
        ),
        (
            t.batch_question(["Rosa", "Carmen"], None),
            "La nota nombra a Rosa y Carmen para un lote de sombreros. ¿De quién son?",
        ),
        (
            Said("question.partial", heard="7F3K"),
            "Solo entendí parte de un código de sombrero (7F3K). ¿Qué sombrero es?",
        ),
        (
            Said("question.which_hat", heard=t.hat_heard("Rosa")),
            "¿Qué sombrero quiso decir con el sombrero de Rosa?",
        ),
        (
            Said("question.no_hat", heard=t.hat_heard(None)),
            "No encontré ningún sombrero para el sombrero. ¿Qué sombrero es?",
        ),
        (
            Said("why.number", name=rosa),
            "La nota dice que Rosa Pillco entregó sombreros y corrige un número sin decir si es la cantidad o las "
            "hileras, así que pregunté en lugar de adivinar.",
        ),
        (
            Said("why.rows", name=carmen),
            "La nota dice que Carmen Quizhpi entregó sombreros pero no da las hileras por pulgada.",
        ),
        (Said("why.quantity", name=rosa), "La nota dice que Rosa Pillco entregó sombreros pero no cuántos."),
        (
            Said("why.too_many", name=rosa, n=25),
            "La nota dice que Rosa Pillco entregó 25 sombreros, más de los que caben en una tarjeta, así que "
            "pregunté en lugar de dividirlos yo.",
        ),
        (
            Said("why.unknown_weaver", name="Mercedes"),
            "La nota menciona sombreros nuevos de Mercedes, pero aquí no existe ninguna tejedora con ese nombre, "
            "así que no la creé.",
        ),
        (
            Said("why.which_weaver", name="Rosa", n=2),
            "La nota menciona sombreros nuevos de Rosa, y 2 tejedoras coinciden con ese nombre.",
        ),
        (
            t.create_why(rosa, None, 3, None, 18),
            "Rosa Pillco entregó 3 sombreros nuevos de 18 hileras por pulgada.",
        ),
        (
            t.create_why(rosa, None, 1, "Fino", 18),
            "Rosa Pillco entregó 1 sombrero Fino nuevo de 18 hileras por pulgada.",
        ),
        (
            t.create_why(rosa, "Rosita", 2, None, 12),
            "Rosa Pillco (la nota dice Rosita) entregó 2 sombreros nuevos de 12 hileras por pulgada.",
        ),
        (
            t.create_why(rosa, "Rosa", 1, "Standard", 12),
            "Rosa Pillco (la nota dice Rosa) entregó 1 sombrero Estándar nuevo de 12 hileras por pulgada.",
        ),
        (
            Said("why.batch"),
            "Se nombran varias tejedoras para un lote y la nota no dice cómo se reparte, así que no lo dividí yo.",
        ),
        (
            Said("why.partial", heard="7F3K"),
            "La nota nombra un sombrero como 7F3K, con un carácter de su código faltante, así que no elegí uno.",
        ),
        (
            Said("why.which_hat", heard=t.hat_heard("Rosa"), n=2),
            "La nota nombra el sombrero de Rosa, y 2 sombreros podrían coincidir, así que no elegí uno.",
        ),
        (
            Said("why.which_hat", heard="TQ-7F3KX", n=1),
            "La nota nombra TQ-7F3KX, y 1 sombrero podría coincidir, así que no lo elegí.",
        ),
        (
            Said("why.no_hat", heard=t.hat_heard(None)),
            "La nota nombra el sombrero, pero ningún sombrero de este taller coincide.",
        ),
        (t.advance_why("TQ-7F3K2", None, "Washing"), "La nota dice que TQ-7F3K2 ahora está en Lavado."),
        (
            t.advance_why("TQ-7F3K2", t.hat_heard("Carmen"), "Bleaching"),
            "La nota dice que TQ-7F3K2 (entendido como el sombrero de Carmen) ahora está en Blanqueo.",
        ),
        (
            t.flag_why("grade_mismatch", "TQ-4K9D1", None),
            "La nota reporta un grado que no coincide con las hileras en TQ-4K9D1.",
        ),
        (
            t.flag_why("too_fast", "TQ-4K9D1", "te cu cuatro"),
            "La nota reporta un sombrero que avanzó demasiado rápido en TQ-4K9D1 (entendido como te cu cuatro).",
        ),
        (
            t.flag_why("weaver_not_found", "TQ-4K9D1", None),
            "La nota reporta una tejedora que falta en TQ-4K9D1.",
        ),
        (t.flag_why("other", "TQ-4K9D1", None), "La nota reporta un problema en TQ-4K9D1."),
        (
            t.flag_message("grade_mismatch", "dice fino pero tiene 11"),
            "El grado no coincide con las hileras, dice la nota: «dice fino pero tiene 11»",
        ),
        (
            t.flag_message("too_fast", "salió muy rápido"),
            "Pasó por las etapas demasiado rápido, dice la nota: «salió muy rápido»",
        ),
        (
            t.flag_message("weaver_not_found", "no está la tejedora"),
            "Falta la tejedora, dice la nota: «no está la tejedora»",
        ),
        (
            t.flag_message("other", "tiene una mancha en el ala"),
            "Problema reportado en la nota: «tiene una mancha en el ala»",
        ),
    ]


# Names, codes and the person's words the texts above hold (kept as they are, in any language).
KEPT = ("Rosa Pillco", "Carmen Quizhpi", "Mercedes", "Rosita", "Fino", "TQ-7F3K2", "TQ-7F3KX", "TQ-4K9D1")


@pytest.mark.parametrize(("said", "spanish"), _reader_texts(), ids=lambda v: getattr(v, "code", ""))
def test_every_reader_text_code_reads_in_spanish_from_its_code(said: Said, spanish: str) -> None:
    stored = said.as_json()  # as the card keeps it beside the English
    assert ES.reader(stored, str(said)) == spanish
    assert english_words(spanish, KEPT) == set(), spanish
    # The English page says the same from the code; only its counts are counted ("1 new Fino hat").
    english = EN.reader(stored, "something else")
    assert english == str(said) or said.params.get("n") == 1 or said.code.startswith("why.flag"), english


def test_every_code_the_reader_writes_has_a_catalogue_entry_and_a_spanish_example() -> None:
    shown = {said.code for said, _ in _reader_texts()} | {"hat.of_weaver", "hat.unnamed"}
    assert set(card_texts.ENGLISH) == set(READER) == shown
    assert {f"flag.{kind}" for kind in domain.FLAG_KINDS} <= set(READER)


def test_a_text_without_a_code_we_know_is_shown_as_it_came() -> None:
    # A live model's words, a person's, or a card stored before the reader gave codes: never parsed.
    assert ES.reader(None, "Rosa said the brim is stained.") == "Rosa said the brim is stained."
    old = "The note says TQ-7F3K2 is now at Washing."
    assert ES.reader(None, old) == old
    assert ES.reader({"code": "why.someday", "params": {}}, old) == old
    # Params an entry cannot take are not guessed at either.
    assert ES.reader({"code": "why.advance", "params": {"stage": "Washing"}}, old) == old
