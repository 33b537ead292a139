"""The reader's own texts on its cards — questions, reasons ("why") and flag messages — each a stable code and
its params, with the English the tool calls carry.

A :class:`Said` *is* its English (a ``str``, so the plans use it as any text), and it carries the code and params
it was made from. The provider sends the English in the call's arguments, as a live model would write them (the
API keeps them), and the codes beside them (``ToolCall.local``, never in the tool schema); the handler saves
them with the card and the page says the code in its language (``workshop/pages/messages.py``, ``READER``,
keyed by the same codes), never reading the English. A string built from a ``Said`` (a cut, a join) is plain
English again and carries no code.

Params are names, codes and numbers as they are, our vocabulary by its id (a stage, a grade, a flag kind as
``problem``), the weavers of a batch as a list (``weavers``), or another ``Said`` (``heard``). The English here
is the reader's, word for word as it always was (``hats`` after any count included); the page's English comes
from the catalogue and says one hat as one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# One sentence, or a singular and a plural sentence and the param whose count chooses (1 is singular).
English = str | tuple[str, str, str]

_ROWS_ONE = "How many rows per inch (hileras) does this hat from %(name)s have?"
_ROWS_MANY = "How many rows per inch (hileras) do these hats from %(name)s have?"
_GRADO = " The note says grado %(grado)s, which is not a row count."
_OUTSIDE = " The note says %(rows)s, outside %(low)s to %(high)s."

ENGLISH: dict[str, English] = {
    # Questions (``ask_question``'s ``question``).
    "question.number": "The note corrects a number to %(n)s: is that how many hats %(name)s delivered, or their "
    "rows per inch?",
    "question.rows": (_ROWS_ONE, _ROWS_MANY, "count"),
    "question.rows_grado": (_ROWS_ONE + _GRADO, _ROWS_MANY + _GRADO, "count"),
    "question.rows_outside": (_ROWS_ONE + _OUTSIDE, _ROWS_MANY + _OUTSIDE, "count"),
    "question.quantity": "How many hats did %(name)s deliver?",
    "question.too_many": "The note says %(n)s hats from %(name)s; one card holds at most %(max)s. How many go on "
    "this card?",
    "question.unknown_weaver": "I found no weaver called %(name)s in this workshop. Who made these hats?",
    "question.which_weaver": "Which weaver is %(name)s?",
    "question.batch": "The note names %(weavers)s for one batch of %(n)s hats. Whose hats are they?",
    "question.batch_uncounted": "The note names %(weavers)s for one batch of hats. Whose hats are they?",
    "question.partial": "I heard only part of a hat code (%(heard)s). Which hat is it?",
    "question.which_hat": "Which hat did you mean by %(heard)s?",
    "question.no_hat": "I found no hat for %(heard)s. Which hat is it?",
    # Reasons (every propose tool's ``why``).
    "why.number": "The note says %(name)s delivered hats and corrects a number without saying whether it is the "
    "count or the rows, so I asked instead of guessing.",
    "why.rows": "The note says %(name)s delivered hats but does not give the rows per inch.",
    "why.quantity": "The note says %(name)s delivered hats but not how many.",
    "why.too_many": "The note says %(name)s delivered %(n)s hats, more than one card can hold, so I asked instead "
    "of splitting them myself.",
    "why.unknown_weaver": "The note mentions new hats from %(name)s, but no weaver with that name exists here, so "
    "I did not create one.",
    "why.which_weaver": "The note mentions new hats from %(name)s, and %(n)s weavers match that name.",
    "why.create": "%(name)s delivered %(n)s new hats of %(rows)s rows per inch.",
    "why.create_grade": "%(name)s delivered %(n)s new %(grade)s hats of %(rows)s rows per inch.",
    "why.create_heard": "%(name)s (the note says %(said)s) delivered %(n)s new hats of %(rows)s rows per inch.",
    "why.create_grade_heard": "%(name)s (the note says %(said)s) delivered %(n)s new %(grade)s hats of %(rows)s "
    "rows per inch.",
    "why.batch": "Several weavers are named for one batch and the note does not say how it splits, so I did not "
    "divide it myself.",
    "why.partial": "The note names a hat as %(heard)s, with one character of its code missing, so I did not pick "
    "one.",
    "why.which_hat": "The note names %(heard)s, and %(n)s hats could match it, so I did not pick one.",
    "why.no_hat": "The note names %(heard)s, but no hat of this workshop matches it.",
    "why.advance": "The note says %(code)s is now at %(stage)s.",
    "why.advance_heard": "The note says %(code)s (heard as %(heard)s) is now at %(stage)s.",
    "why.flag": "The note reports %(problem)s on %(code)s.",
    "why.flag_heard": "The note reports %(problem)s on %(code)s (heard as %(heard)s).",
    # A flag's message, one per flag kind: what kind of problem, then the person's words.
    "flag.grade_mismatch": 'Grade does not match the rows, the note says: "%(words)s"',
    "flag.too_fast": 'Moved through the stages too fast, the note says: "%(words)s"',
    "flag.weaver_not_found": 'The weaver is missing, the note says: "%(words)s"',
    "flag.other": 'Problem reported in the note: "%(words)s"',
    # A hat said without a code (a ``heard`` part).
    "hat.of_weaver": "the hat of %(name)s",
    "hat.unnamed": "the hat",
}


class Said(str):
    """One text of the reader's cards: its English, with the ``code`` and ``params`` it is said from."""

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, /, **params: Any) -> Said:
        said = super().__new__(cls, english(code, params))
        said.code, said.params = code, params
        return said

    def as_json(self) -> dict[str, Any]:
        """The code and params as a card keeps them (a ``Said`` part as its own code and params)."""
        params = {k: v.as_json() if isinstance(v, Said) else v for k, v in self.params.items()}
        return {"code": self.code, "params": params}


def english(code: str, params: Mapping[str, Any]) -> str:
    """The English of ``code`` with ``params``, as the reader writes it."""
    entry = ENGLISH[code]
    if isinstance(entry, tuple):
        singular, plural, count = entry
        entry = singular if params.get(count) == 1 else plural
    return entry % {name: _part(name, value) for name, value in params.items()}


def _part(name: str, value: Any) -> Any:
    if name == "weavers":
        return ", ".join(value[:-1]) + f" and {value[-1]}"
    if name == "problem":
        return str(value).replace("_", " ")
    return value


def kept(text: str, source: str) -> str:
    """``text``, a cut of ``source``'s English, with the code and params ``source`` carries (the page says the
    whole text in its language)."""
    if text is source or not isinstance(source, Said):
        return text
    cut = str.__new__(Said, text)
    cut.code, cut.params = source.code, source.params
    return cut


def rows_question(
    name: str, count: int | None, grado: int | None, rows: int | None, low: int, high: int
) -> Said:
    """How many rows per inch, of one hat or of several, with what the note said instead (a seller's grado, or
    rows outside the bounds)."""
    if rows is not None:
        return Said("question.rows_outside", name=name, count=count, rows=rows, low=low, high=high)
    if grado:
        return Said("question.rows_grado", name=name, count=count, grado=grado)
    return Said("question.rows", name=name, count=count)


def create_why(name: str, said: str | None, n: int | None, grade: str | None, rows: int | None) -> Said:
    """Who delivered how many new hats (of which grade) of how many rows; ``said`` is the name the note
    used when it was heard differently."""
    code = "why.create" + ("_grade" if grade else "") + ("_heard" if said is not None else "")
    params: dict[str, Any] = {"name": name, "n": n, "rows": rows}
    if grade:
        params["grade"] = grade
    if said is not None:
        params["said"] = said
    return Said(code, **params)


def batch_question(weavers: list[str], n: int | None) -> Said:
    """Whose hats one batch said of several weavers is."""
    if n is None:
        return Said("question.batch_uncounted", weavers=weavers)
    return Said("question.batch", weavers=weavers, n=n)


def flag_message(kind: str, words: str) -> Said:
    """A flag's message: the kind's sentence, then the person's words."""
    return Said("flag." + kind, words=words)


def flag_room(kind: str) -> int:
    """How many characters a flag message of ``kind`` takes besides the person's words."""
    return len(english("flag." + kind, {"words": ""}))


def hat_heard(weaver_name: str | None) -> Said:
    """A hat the note named without a code: by its weaver, or not at all."""
    return Said("hat.of_weaver", name=weaver_name) if weaver_name else Said("hat.unnamed")


def advance_why(code: str, heard: str | None, stage: str | None) -> Said:
    """The hat now at a stage, with how it was heard when that was not its exact code."""
    if heard is None:
        return Said("why.advance", code=code, stage=stage)
    return Said("why.advance_heard", code=code, heard=heard, stage=stage)


def flag_why(kind: str, code: str, heard: str | None) -> Said:
    """A problem reported on a hat, with how it was heard when that was not its exact code."""
    if heard is None:
        return Said("why.flag", problem=kind, code=code)
    return Said("why.flag_heard", problem=kind, code=code, heard=heard)
