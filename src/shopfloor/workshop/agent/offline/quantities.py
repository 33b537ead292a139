"""Numbers in a note and what each one is: how many hats, rows per inch, a seller's "grado N"; digits, number
words, dozens and pairs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shopfloor.workshop.agent.offline.text import (
    Span,
    Token,
    moved_index,
    word_tokens,
)
from shopfloor.workshop.agent.offline.vocabulary import (
    ANOTHER_WORDS,
    CREATE_VERBS,
    DOZEN_WORDS,
    GRADE_WORDS,
    GRADO_WORDS,
    HALF_WORDS,
    HAT_NOUNS,
    NUMBER_WORDS,
    PAIR_WORDS,
    ROW_WORDS,
    SUM_WORDS,
    TENS,
)

# Words that count hats ("un par", "a couple", "media docena"): a number right after them and "de" is rows.
COUNTING = set(PAIR_WORDS) | set(DOZEN_WORDS)
_TIMES = re.compile(r"^(?:x(\d{1,2})|(\d{1,2})x)$")


def number_at(tokens: list[Token], i: int) -> tuple[int, int] | None:
    """(value, tokens used) of a number starting at token ``i``: digits, words, "x3", "media docena",
    "dos docenas", "un par", "una veintena", "docena y media", "un par de docenas", "tres más dos"."""
    rows_said = i > 0 and tokens[i - 1].text in {"at", "de", "of"}  # "finos at 16, plus a couple at 15"
    found = _counted_at(tokens, i, rows_said)
    if found is None:
        return None
    value, used = found
    after = [t.text for t in tokens[i + used : i + used + 3]]
    said = tokens[i + used - 1].text
    if said in DOZEN_WORDS and (
        after[:2] in (["y", "media"], ["y", "medio"]) or after == ["and", "a", "half"]
    ):
        # "docena y media", "a dozen and a half": half of the collective more.
        return value + DOZEN_WORDS[said] // 2, used + len(after if after[0] == "and" else after[:2])
    if after[:1] and after[0] in SUM_WORDS and i + used + 1 < len(tokens) and not rows_said:
        # "tres más dos": the person added them up aloud.
        more = _counted_at(tokens, i + used + 1)
        if more is not None:
            return value + more[0], used + 1 + more[1]
    return value, used


def _counted_at(tokens: list[Token], i: int, rows_said: bool = False) -> tuple[int, int] | None:
    word = tokens[i].text
    nxt = tokens[i + 1].text if i + 1 < len(tokens) else ""
    nxt2 = tokens[i + 2].text if i + 2 < len(tokens) else ""
    nxt3 = tokens[i + 3].text if i + 3 < len(tokens) else ""
    if word in HALF_WORDS and nxt in DOZEN_WORDS:
        return DOZEN_WORDS[nxt] // 2, 2
    if word in HALF_WORDS and nxt == "a" and nxt2 in DOZEN_WORDS:
        return DOZEN_WORDS[nxt2] // 2, 3
    if word in {"un", "una", "a"} and nxt in PAIR_WORDS and nxt2 in {"de", "of"} and nxt3 in DOZEN_WORDS:
        return 2 * DOZEN_WORDS[nxt3], 4
    if word in {"un", "una", "a"} and nxt in PAIR_WORDS and nxt2 in DOZEN_WORDS:
        return 2 * DOZEN_WORDS[nxt2], 3  # "a couple dozen": two dozen, without the "of"
    if word in PAIR_WORDS and nxt in DOZEN_WORDS:
        return 2 * DOZEN_WORDS[nxt], 2  # "couple dozen finos"
    if word in {"un", "una", "a"} and nxt in PAIR_WORDS:
        return 2, 2
    if word in {"un", "una", "a"} and nxt in DOZEN_WORDS:
        return DOZEN_WORDS[nxt], 2
    if word in DOZEN_WORDS:
        return DOZEN_WORDS[word], 1
    if word in PAIR_WORDS and word != "couple":
        return 2, 1
    if word in {"a", "an"} and (nxt in GRADE_WORDS or nxt in HAT_NOUNS):
        return 1, 1  # "brought in a superfino of 28"
    if word in ANOTHER_WORDS and (nxt in {"de", "of", "at"} or nxt in GRADE_WORDS or nxt in HAT_NOUNS):
        return 1, 1
    times = _TIMES.match(word)
    if times is not None:
        return int(times.group(1) or times.group(2)), 1
    found = _plain_number_at(tokens, i) or ((1, 1) if word in {"un", "una", "a"} else None)
    if found is not None:
        # "one and a half dozen", "una y media docenas", "two and a half dozen": the dozens and half of one more.
        rest = [t.text for t in tokens[i + found[1] : i + found[1] + 4]]
        # A number said as rows ("superfinos de 24 y media docena de finos") ends its batch: the dozens after
        # "y" are the next batch's, never more of it.
        if rest[:1] in (["and"], ["y"]) and not rows_said:
            half = rest[1:3] if rest[1:2] != ["a"] else rest[2:4]
            if len(half) == 2 and half[0] in HALF_WORDS and half[1] in DOZEN_WORDS:
                dozen = DOZEN_WORDS[half[1]]
                return found[0] * dozen + dozen // 2, found[1] + (3 if rest[1:2] != ["a"] else 4)
        if word in {"un", "una", "a"} and found == (1, 1) and _plain_number_at(tokens, i) is None:
            found = None
    if found is not None and i + found[1] < len(tokens) and tokens[i + found[1]].text in DOZEN_WORDS:
        return found[0] * DOZEN_WORDS[tokens[i + found[1]].text], found[1] + 1
    return found


def _plain_number_at(tokens: list[Token], i: int) -> tuple[int, int] | None:
    word = tokens[i].text
    if word.isdigit():
        return int(word), 1
    if word in TENS and i + 2 < len(tokens) and tokens[i + 1].text == "y":
        unit = NUMBER_WORDS.get(tokens[i + 2].text)
        if unit is not None and unit < 10:
            return TENS[word] + unit, 3
    if word in TENS and i + 1 < len(tokens) and tokens[i + 1].text in NUMBER_WORDS:
        unit = NUMBER_WORDS[tokens[i + 1].text]
        if unit < 10 and word in {"twenty", "thirty", "forty"}:
            return TENS[word] + unit, 2
    if "-" in word:
        return None
    if word in NUMBER_WORDS:
        return NUMBER_WORDS[word], 1
    return None


@dataclass
class Numbers:
    """The numbers of one clause by role, as ``read_numbers`` found them."""

    quantity: int | None = None
    said_grade: str | None = None
    rows: int | None = None
    grado: int | None = None
    has_hat_noun: bool = False
    quantity_at: tuple[int, int] | None = None  # offsets of the quantity's words in the note


def _is_number(word: str) -> bool:
    return word.isdigit() or word in NUMBER_WORDS or word in TENS or word in ANOTHER_WORDS


def _number_role(after: list[str], before: list[str], quantity_words: set[str]) -> str | None:
    """What a number is by the words around it: rows, a seller's grado, a quantity, or unknown."""
    if before[-2:] == ["de", "a"]:
        return "rows"  # "2 finos de a 16"
    if after[:1] in (["more"], ["mas"]):
        after = after[1:]  # "2 more finos of 16"
    if after and after[0] in ROW_WORDS:
        return "rows"
    if before and (before[-1] in ROW_WORDS or (before[-1] == "de" and before[-2:-1] == ["hileras"])):
        return "rows"
    if before and before[-1] in GRADO_WORDS:
        return "grado"
    if (
        len(before) > 1
        and before[-1] in {"de", "of", "at"}
        and (
            before[-2] in GRADE_WORDS
            or before[-2] in HAT_NOUNS
            or _is_number(before[-2])
            or before[-2] in {"more", "mas"}  # "two more at 12", "dos más de 12"
            or before[-2] in COUNTING  # "un par de 15", "a couple at 15", "media docena de 18"
        )
    ):
        # "3 finos de 18", "dos de 15 y uno de 17", "one fino at 19": the unit left out after a grade or a
        # count is rows.
        return "rows"
    if before and before[-1] in GRADE_WORDS and not (after and after[0] in quantity_words):
        return "rows"  # "superfinos 24", "3 finos 18": the unit left out right after the grade
    if len(after) > 1 and after[0] in {"de", "of", "at"} and _is_number(after[1]):
        return "quantity"  # "dos de 15", "three at 18 rows and one at 20": how many, then their rows
    if after and (
        after[0] in quantity_words or (after[0] in {"de", "of"} and after[1:2] and after[1] in quantity_words)
    ):
        return "quantity"
    if len(after) > 1 and after[1] in quantity_words and (after[0] in HAT_NOUNS or after[0] in GRADE_WORDS):
        return "quantity"
    return None


def read_numbers(span: Span) -> Numbers:
    """Quantity (a number before a grade word or hat noun), grade, rows (a number by "hileras"/"rows")
    and a bare "grado N" in ``span``."""
    start = span.start
    text = re.sub(r"(twenty|thirty|forty)-", r"\1 ", span.folded_text)
    text = re.sub(r"\bsuper\s+(fin[oa]s?|fine)\b", lambda m: "super" + m.group(1) + " " * 1, text)
    tokens = word_tokens(text, start, span.note)
    out = Numbers()
    numbers: dict[int, tuple[int, int]] = {}
    i = 0
    while i < len(tokens):
        found = number_at(tokens, i)
        if found is not None:
            numbers[i] = found
            i += found[1]
        else:
            i += 1
    for tok in tokens:
        word = tok.text
        if word in GRADE_WORDS and out.said_grade is None:
            out.said_grade = GRADE_WORDS[word]
        if word in HAT_NOUNS:
            out.has_hat_noun = True
    quantity_words = GRADE_WORDS.keys() | HAT_NOUNS
    free: list[int] = []
    for i, (value, used) in numbers.items():
        after = [t.text for t in tokens[i + used : i + used + 3]]
        before = [t.text for t in tokens[max(0, i - 2) : i]]
        role = _number_role(after, before, quantity_words)
        at = moved_index(tokens, i, span.moved)
        if at is not None:
            # A corrected value is read where the withdrawn one stood ("seis finos…, no, eran siete").
            moved_after = [t.text for t in tokens[at : at + 3] if t.start != tokens[i].start]
            moved_role = _number_role(
                moved_after, [t.text for t in tokens[max(0, at - 2) : at]], quantity_words
            )
            role = moved_role or role
        where = (tokens[i].start, tokens[i + used - 1].end)
        if _TIMES.match(tokens[i].text):
            role = "quantity"
        if role == "rows":
            out.rows = value if out.rows is None else out.rows
        elif role == "grado":
            out.grado = value
        elif role == "quantity":
            if out.quantity is None:
                out.quantity, out.quantity_at = value, where
        elif before and before[-1] in CREATE_VERBS:
            free.append(i)
    if out.quantity is None and free:
        # "trajo siete, finos de 18 hileras": the number right after the delivery verb is how many.
        value, used = numbers[free[0]]
        out.quantity, out.quantity_at = value, (tokens[free[0]].start, tokens[free[0] + used - 1].end)
    return out
