"""A prescription asked in any wording: the records cannot recommend an adjustment, so the answer shows what they
hold and says so (docs/shifts-agent.md, "Reading", qualified)."""

from __future__ import annotations

import re
import unicodedata

# Asked as the adjustment or the action itself ("what adjustment will stop the jams", "what should we change"),
# as what must be done ("what do we need to do to stop the knife jams", "what can we do about warp"), as how to
# remove a loss ("how do we fix / prevent / reduce …", "how to cut …"), or as a speed or action to choose.
PRESCRIPTION = (
    r"\b(what|which) (machine |place |knife |speed )?(adjustments?|settings?|fix|fixes)\b"
    r"|\bwhat (do|can|could|should|must|shall|would) (we|i|they|the crew)( (need|have|got) to| ought to)? do\b"
    r"|\bwhat (do|does) (we|i|they|the crew) (need|have) to (do|change|adjust|fix|set)\b"
    r"|\bwhat (needs|has) to (change|be done|be changed|be fixed)\b"
    r"|\bhow (do|can|could|should|would|might) (we|i|they|the crew) (fix|stop|prevent|avoid|reduce|cut|lower"
    r"|eliminate|get rid of|decrease|minimi[sz]e|bring down|curb)\b"
    r"|\bhow to (fix|stop|prevent|avoid|reduce|cut|lower|eliminate|get rid of|decrease|bring down)\b"
    r"|\bwhat should (we|i|they|the crew) (do|change|adjust|set|fix)\b"
    # "What speed should we run 26-C at", "should we slow down 275-BC": a speed or action to choose.
    r"|\b(what|which) (speed|fpm|pace) should\b|^should (we|i|they|the crew)\b|\bshould we (slow|speed|run|go)\b"
)

# The same asked in Spanish, read on the question without accents ("¿qué hacemos para …?", "¿qué hay que
# cambiar?", "¿cómo evitamos los atascos?").
_SPANISH = (
    r"\bque (hacemos|hago|hacer|(hay|tenemos|debemos|podemos) que (hacer|cambiar|ajustar|arreglar)"
    r"|(debemos|podemos|deberiamos|necesitamos) (hacer|cambiar|ajustar|arreglar))\b"
    r"|\bcomo (le )?(hacemos|evitamos|arreglamos|reducimos|bajamos|paramos|prevenimos|corregimos|quitamos"
    r"|eliminamos|evito|arreglo|reduzco|bajo) "
)


def _plain(question: str) -> str:
    folded = unicodedata.normalize("NFKD", question.lower())
    return "".join(c for c in folded if not unicodedata.combining(c))


def prescribed(question: str, canonical: str) -> bool:
    """True when the question asks what to do or change (a prescription), in English or Spanish; ``canonical``
    is the question in the router's words (planning/reading.canonical)."""
    return bool(re.search(PRESCRIPTION, canonical) or re.search(_SPANISH, _plain(question)))
