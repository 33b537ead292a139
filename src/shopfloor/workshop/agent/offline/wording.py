"""What the offline reader writes, in English and Spanish: the summary's sentences and stage names.

These stand in for text a model would write (the summary, a question's words), so they live with the reader,
not with the pages' labels. The summary is written in the language of the page the note came from; ``why``,
questions and flag messages stay English, as the tools ask (docs/workshop-agent.md, "Summaries").

Phrases that count hats of a grade ("3 new Fino hats", "1 sombrero fino nuevo", "3 sombreros finos nuevos")
come from the workshop's message catalogues through ``ngettext``, one whole phrase per grade, so the noun and
its adjectives agree in number in each language (extracted with the pages' strings: pages/babel.cfg).
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path
from typing import Final

from shopfloor.web.languages import load_catalogue

# The workshop's catalogues (shopfloor/workshop/locale), the ones its pages use.
LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"
LANGUAGES = ("es", "en")

Words = dict[str, str]

STAGE_NAMES: Final[dict[str, Words]] = {
    "en": {"Weaving": "Weaving", "Washing": "Washing", "Bleaching": "Bleaching", "Blocking": "Blocking",
           "Finished": "Finished"},
    "es": {"Weaving": "Tejido", "Washing": "Lavado", "Bleaching": "Blanqueo", "Blocking": "Hormado",
           "Finished": "Terminado"},
}  # fmt: skip
FLAG_NAMES: Final[dict[str, Words]] = {
    "en": {"grade_mismatch": "grade mismatch", "too_fast": "too fast", "weaver_not_found": "missing weaver",
           "other": "problem"},
    "es": {"grade_mismatch": "grado que no coincide", "too_fast": "demasiado rápido",
           "weaver_not_found": "tejedora que falta", "other": "problema"},
}  # fmt: skip

# Sentence pieces; {placeholders} are filled by the summary.
TEXT: Final[dict[str, Words]] = {
    "en": {
        "start": "I understood:",
        "nothing": "nothing in this note to record",
        "advance": "{code} to {stage}",
        "flag": "a {kind} flag on {code}",
        "blocked": "{what} (blocked by the rules)",
        "heard": "{what} (heard as {said})",
        "and": "and",
        "more": "{n} more",
        "q_which_weaver": "hats from {name} (I asked which weaver)",
        "q_unknown_weaver": "hats from {name}, who is not a weaver here (I asked who made them)",
        "q_rows": "{weaver} delivered {what} (I asked the rows per inch)",
        "q_rows_1": "{weaver} delivered {what} (I asked the rows per inch)",
        "q_quantity": "{weaver} delivered {what} (I asked how many)",
        "q_too_many": "{weaver} delivered {n} hats, more than one card holds (I asked how to split them)",
        "q_number": "{weaver} delivered {what}, with a number corrected to {n} (I asked if it is hats or rows)",
        "q_batch": "one batch from {names} (I asked whose hats they are)",
        "q_which_hat": "{what} (I asked which hat)",
        "q_no_hat": "{what}, but no hat here matches it (I asked which hat)",
        "q_partial": "{what}, with part of the code missing (I asked which hat)",
        "delivered_some": "hats",
        "move_heard": "{heard} to {stage}",
        "flag_heard": "a {kind} flag on {heard}",
        "prepared_0": "I prepared no action for review",
        "prepared_1": "I prepared 1 action for review",
        "prepared_n": "I prepared {n} actions for review",
        "instruction": "I ignored an instruction written in the note ({text})",
        "future": "I did not propose what is still to come ({text})",
        "denied": "nothing for what the note says did not happen ({text})",
        "question": "you asked ({text}), which is not a report",
        "answer": "{code} is at {stage}",
        "answer_missing": "I found no hat {code}",
        "unread": "I could not read: {text}",
        "lookups_failed": "{n} lookup(s) failed",
        "same_stage": "{code} is already at {stage}",
        "open_flag": "{code} already has an open {kind} flag",
        "repeated": "one event was said twice",
        "limit": "the note has more than 10 events, so I stopped at 10",
        "gone": "{code} is no longer available",
        "not_prepared": "one event could not be prepared, please check it",
        "skipped": "I did not prepare: {what}",
    },
    "es": {
        "start": "Entendí:",
        "nothing": "nada que registrar en esta nota",
        "advance": "{code} a {stage}",
        "flag": "una alerta de {kind} en {code}",
        "blocked": "{what} (bloqueado por las reglas)",
        "heard": "{what} (oído como {said})",
        "and": "y",
        "more": "{n} más",
        "q_which_weaver": "sombreros de {name} (pregunté qué tejedora es)",
        "q_unknown_weaver": "sombreros de {name}, que no es tejedora de este taller (pregunté quién los hizo)",
        "q_rows": "{weaver} entregó {what} (pregunté cuántas hileras tienen)",
        "q_rows_1": "{weaver} entregó {what} (pregunté cuántas hileras tiene)",
        "q_quantity": "{weaver} entregó {what} (pregunté cuántos son)",
        "q_too_many": "{weaver} entregó {n} sombreros, más de los que caben en una tarjeta (pregunté cómo "
        "dividirlos)",
        "q_batch": "un lote de {names} (pregunté de quién son)",
        "q_number": "{weaver} entregó {what}, con un número corregido a {n} (pregunté si son sombreros o "
        "hileras)",
        "q_which_hat": "{what} (pregunté qué sombrero es)",
        "q_no_hat": "{what}, pero ningún sombrero de aquí coincide (pregunté cuál es)",
        "q_partial": "{what}, con parte del código sin oír (pregunté qué sombrero es)",
        "delivered_some": "sombreros",
        "move_heard": "{heard} a {stage}",
        "flag_heard": "una alerta de {kind} en {heard}",
        "prepared_0": "No preparé ninguna acción para revisar",
        "prepared_1": "Preparé 1 acción para revisar",
        "prepared_n": "Preparé {n} acciones para revisar",
        "instruction": "ignoré una instrucción escrita en la nota ({text})",
        "future": "no propuse lo que aún no pasa ({text})",
        "denied": "nada para lo que la nota dice que no pasó ({text})",
        "question": "usted preguntó ({text}), y eso no es un reporte",
        "answer": "{code} está en {stage}",
        "answer_missing": "no encontré el sombrero {code}",
        "unread": "no pude leer: {text}",
        "lookups_failed": "fallaron {n} búsquedas",
        "same_stage": "{code} ya está en {stage}",
        "open_flag": "{code} ya tiene una alerta de {kind} abierta",
        "repeated": "un hecho se dijo dos veces",
        "limit": "la nota tiene más de 10 hechos, así que paré en 10",
        "gone": "{code} ya no está disponible",
        "not_prepared": "un hecho no se pudo preparar, revíselo",
        "skipped": "no preparé: {what}",
    },
}


@cache
def catalogue(lang: str) -> gettext.GNUTranslations:
    """The workshop's compiled catalogue for ``lang`` ("es" or "en")."""
    return load_catalogue(LOCALE_DIR, lang, LANGUAGES)


def new_hats(lang: str, n: int, grade: str | None, rows: int, weaver: str) -> str:
    """A create proposal as the summary says it: "3 new Fino hats of 18 rows from Rosa Pillco"."""
    t = catalogue(lang)
    parts = {"n": n, "rows": rows, "weaver": weaver}
    if grade == "Standard":
        text = t.ngettext(
            "%(n)s new Standard hat of %(rows)s rows from %(weaver)s",
            "%(n)s new Standard hats of %(rows)s rows from %(weaver)s",
            n,
        )
    elif grade == "Fino":
        text = t.ngettext(
            "%(n)s new Fino hat of %(rows)s rows from %(weaver)s",
            "%(n)s new Fino hats of %(rows)s rows from %(weaver)s",
            n,
        )
    elif grade == "Superfino":
        text = t.ngettext(
            "%(n)s new Superfino hat of %(rows)s rows from %(weaver)s",
            "%(n)s new Superfino hats of %(rows)s rows from %(weaver)s",
            n,
        )
    else:
        text = t.ngettext(
            "%(n)s new hat of %(rows)s rows from %(weaver)s",
            "%(n)s new hats of %(rows)s rows from %(weaver)s",
            n,
        )
    return text % parts


def more_parts(lang: str, n: int) -> str:
    """The unread parts a summary does not quote, counted: "2 more parts", "1 parte más"."""
    return catalogue(lang).ngettext("%(n)s more part", "%(n)s more parts", n) % {"n": n}


def delivered_hats(lang: str, n: int | None, grade: str | None) -> str:
    """What a question card understood was delivered: "3 Fino hats", "1 hat", "Fino hats", "hats"."""
    t = catalogue(lang)
    if n is None:
        if grade == "Standard":
            return t.gettext("Standard hats")
        if grade == "Fino":
            return t.gettext("Fino hats")
        if grade == "Superfino":
            return t.gettext("Superfino hats")
        return t.gettext("hats")
    if grade == "Standard":
        text = t.ngettext("%(n)s Standard hat", "%(n)s Standard hats", n)
    elif grade == "Fino":
        text = t.ngettext("%(n)s Fino hat", "%(n)s Fino hats", n)
    elif grade == "Superfino":
        text = t.ngettext("%(n)s Superfino hat", "%(n)s Superfino hats", n)
    else:
        text = t.ngettext("%(n)s hat", "%(n)s hats", n)
    return text % {"n": n}
