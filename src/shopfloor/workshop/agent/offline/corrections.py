"""Words a note takes back or sets aside, blanked out of what the reader reads: corrections ("no, perdón",
"I mean"), stages said as skipped, asides (docs/workshop-agent.md, "Corrections").

Quotes still come from the note as written; a blanked character becomes a space, so offsets never move.
"""

from __future__ import annotations

import re

from shopfloor.workshop.agent.offline.codes import code_hits
from shopfloor.workshop.agent.offline.names import (
    is_name_word,
)
from shopfloor.workshop.agent.offline.quantities import number_at
from shopfloor.workshop.agent.offline.results import (
    Mark,
    Part,
)
from shopfloor.workshop.agent.offline.text import (
    Span,
    fold,
    texted,
)
from shopfloor.workshop.agent.offline.vocabulary import (
    APPROX_PATTERNS,
    ASIDES_ANYWHERE,
    CORRECTION_FILLERS,
    CORRECTION_PATTERNS,
    COUNTED_AGAIN_PATTERNS,
    COUNTED_HATS,
    GRADE_WORDS,
    HAT_NOUNS,
    HEDGE_PATTERNS,
    NUMBER_WORDS,
    ROW_WORDS,
    SKIP_PATTERNS,
    STAGE_WORDS,
    SUBJECT_VERBS,
)
from shopfloor.workshop.domain import (
    MAX_QUANTITY,
    MIN_QUANTITY,
    grade_for,
    validate_rows,
)

_CORRECTION = re.compile(
    r"[\s,;:]*\b(?:"
    + "|".join(CORRECTION_PATTERNS)
    + r")\b[\s,;:.]*"
    + CORRECTION_FILLERS
    + r"|[\s]*,\s*no\s*,\s*"
    + CORRECTION_FILLERS
    + r"|\s*,\s*no no\s*,?\s*"
    + CORRECTION_FILLERS
)


# A sentence that opens with one of these corrects the one before it ("… 2 finos de 16. Corrijo: fue Rosa
# Pillco"); an apology ("Perdón, …", "Sorry, …") can open a new report, so it does not.
_CORRECTS_BEFORE = re.compile(
    r"\s*(?:corrijo|correccion|correction|me equivoque|me confundi|mentira|mejor dicho|quise decir|quiero decir"
    r"|i mean|i meant|scratch that|strike that|make that)\b"
)


def corrects_the_sentence_before(sentence: Span) -> bool:
    """Whether ``sentence`` opens by correcting the sentence before it ("Corrijo: fue Rosa Pillco")."""
    return _CORRECTS_BEFORE.match(sentence.folded, sentence.start) is not None


# A word trailing off into dots ("tq_9m2xa... ya está en blanqueo") is said unsure, like a hedge.
_HEDGE = re.compile(r"\b(?:" + texted("|".join(HEDGE_PATTERNS)) + r")\b[\s,]*|(?<=\w)(?:\.{3,}|\u2026)")
_NUMBER = (
    r"(?:\d{1,2}|(?:treinta|cuarenta) y \w+|(?:twenty|thirty|forty)[- ]\w+|"
    # Dozens and pairs are numbers too ("roughly half a dozen", "casi una docena", "como un par").
    r"(?:half an?|media|medio|una|un|a) (?:docenas?|dozens?)|(?:un |a )?(?:par|pair|couple)|"
    + "|".join(
        sorted((w for w in NUMBER_WORDS if w not in {"un", "una", "uno", "one"}), key=len, reverse=True)
    )
    + r")(?: docenas?| dozens?)?"
)
# What a number counts, right after it: a grade, a hat noun, rows.
_COUNTED = "|".join(sorted(set(GRADE_WORDS) | HAT_NOUNS | ROW_WORDS, key=len, reverse=True))
_APPROX = re.compile(
    r"\b(?:"
    + "|".join(p.replace("NUMBER", _NUMBER).replace("COUNTED", _COUNTED) for p in APPROX_PATTERNS)
    + r")\b"
)
_COUNTED_AGAIN = re.compile(
    r"\b(?:"
    + "|".join(p.replace("NUMBER", _NUMBER) for p in COUNTED_AGAIN_PATTERNS)
    + r")(?: (?:"
    + _COUNTED
    + r"))?\b"
)
_ASIDE_ANYWHERE = re.compile(r"\b(?:" + "|".join(ASIDES_ANYWHERE) + r")\b")
_SKIP = re.compile(
    r"\b(?:" + "|".join(SKIP_PATTERNS) + r")\s*(?:el |la |los |las |the |por |through )?(?=\w)"
)


_CONNECTORS = {
    "de", "a", "al", "en", "el", "la", "los", "las", "del", "of", "to", "the", "in", "at", "un", "una", "y",
    "sombreros", "sombrero", "hats", "hat", "hileras", "hilera", "rows", "row", "tq",
}  # fmt: skip


def _values(span: Span, leading: bool) -> list[tuple[str, int, int]]:
    """Values said in ``span``: (kind, start, end) for codes, numbers, stages, grades and names. With
    ``leading``, only the values at its start (the new value after a correction), up to the first other word."""
    codes = code_hits(span)
    tokens = span.tokens()
    out: list[tuple[str, int, int]] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if leading and out and i and re.search(r"[,;]", span.note[tokens[i - 1].end : tok.start]):
            break  # "…de doce, no, de once, la carmen dejó…": the new value ends at its clause
        code = next((h for h in codes if h.start <= tok.start < h.end), None)
        number = number_at(tokens, i)
        word = tok.text
        original = span.note[tok.start : tok.end]
        if code is not None:
            if not out or out[-1][1] != code.start:
                out.append(("code", code.start, code.end))
            while i < len(tokens) and tokens[i].start < code.end:
                i += 1
            continue
        if number is not None:
            out.append(("number", tok.start, tokens[i + number[1] - 1].end))
            i += number[1]
            continue
        if word in STAGE_WORDS:
            out.append(("stage", tok.start, tok.end))
        elif word in GRADE_WORDS:
            out.append(("grade", tok.start, tok.end))
        elif ((original[:1].isupper() and not span.dictated) or span.dictated) and is_name_word(word):
            if out and out[-1][0] == "name" and span.note[out[-1][2] : tok.start].strip() == "":
                out[-1] = ("name", out[-1][1], tok.end)
            else:
                out.append(("name", tok.start, tok.end))
        elif leading and word not in _CONNECTORS:
            break
        i += 1
    return out


def _rows_like(sentence: Span, value: tuple[str, int, int]) -> bool:
    """Whether a number said in ``sentence`` is a row count by the words right around it."""
    tokens = sentence.tokens()
    at = next((k for k, t in enumerate(tokens) if t.start == value[1]), None)
    if at is None:
        return False
    end = next((k for k, t in enumerate(tokens) if t.end == value[2]), at)
    after = tokens[end + 1].text if end + 1 < len(tokens) else ""
    before = tokens[at - 1].text if at > 0 else ""
    before2 = tokens[at - 2].text if at > 1 else ""
    return after in ROW_WORDS or (
        before in {"de", "of", "at"}
        and (before2 in GRADE_WORDS or before2 in HAT_NOUNS or before2 in {"no", "perdon", "digo", "mean"})
    )


def _number_unit(sentence: Span, value: tuple[str, int, int]) -> str | None:
    """The role a corrected number names itself: "rows" ("no, 22 hileras", "no, de 28"), "quantity" ("no, 4
    sombreros", "no, cinco superfinos"), or None when it is said bare ("no, perdón, eran 22")."""
    if _rows_like(sentence, value):
        return "rows"
    tokens = sentence.tokens()
    end = next((k for k, t in enumerate(tokens) if t.end == value[2]), None)
    after = tokens[end + 1].text if end is not None and end + 1 < len(tokens) else ""
    return "quantity" if after in HAT_NOUNS or after in GRADE_WORDS else None


def _number_value(sentence: Span, value: tuple[str, int, int]) -> int | None:
    tokens = sentence.part(value[1], value[2]).tokens()
    found = number_at(tokens, 0) if tokens else None
    return found[0] if found is not None else None


def _fits(role: str, value: int, grade: str | None) -> bool:
    """Whether ``value`` can be a number of that role: 1 to 20 hats, or 6 to 40 rows of the grade said."""
    if role == "quantity":
        return MIN_QUANTITY <= value <= MAX_QUANTITY
    return validate_rows(value) and (grade is None or grade_for(value) == grade)


def _role_in_doubt(sentence: Span, old: tuple[str, int, int], new: tuple[str, int, int]) -> int | None:
    """For a bare corrected number, its value when the rule's reading does not fit and the other one does
    (docs/workshop-agent.md, "Corrections"): "5 superfinos de 24 hileras, mejor dicho 4" — 4 rows is no row
    count, 4 hats would be — so the reader asks instead of guessing."""
    value = _number_value(sentence, new)
    if value is None:
        return None
    role = "rows" if _rows_like(sentence, old) else "quantity"
    other = "quantity" if role == "rows" else "rows"
    grade = next((GRADE_WORDS[w] for w in sentence.words() if w in GRADE_WORDS), None)
    if not _fits(role, value, grade) and _fits(other, value, grade):
        return value
    return None


def _blank(chars: list[str], start: int, end: int) -> None:
    for k in range(start, end):
        if not chars[k].isspace():
            chars[k] = " "


# "eran cuatro, no tres", "four, not three": the new number said first, then "no" and the number it takes back.
_NAMES_BACK = re.compile(
    r"\b(?P<new>"
    + _NUMBER
    + r")\b\s*,?\s*(?:(?:y|and)\s+)?(?:no|not)\s+(?:(?:eran|era|fueron|son|de|of|at)\s+)?"
    r"(?P<old>" + _NUMBER + r")\b"
)
_OPENING_CORRECTION = re.compile(
    r"[\s,]*(?:(?:" + "|".join(CORRECTION_PATTERNS) + r")\b[\s,;:.]*)?" + CORRECTION_FILLERS
)


def _said_before(span: Span, value: int) -> tuple[str, int, int] | None:
    """The last number of ``value`` said in ``span``, as a value (kind, start, end)."""
    said = [v for v in _values(span, leading=False) if v[0] == "number" and _number_value(span, v) == value]
    return said[-1] if said else None


def takes_back_from(previous: Span, sentence: Span) -> bool:
    """Whether ``sentence`` only corrects a number the sentence before said, naming it after "no" ("Manuel
    entregó 3 superfinos…" then "perdón, eran cuatro no tres"): it continues that sentence, though an apology
    opening a sentence otherwise starts a new report (docs/workshop-agent.md, "Corrections")."""
    opening = _OPENING_CORRECTION.match(sentence.folded, sentence.start, sentence.end)
    named = _NAMES_BACK.match(sentence.folded, opening.end() if opening else sentence.start, sentence.end)
    if named is None or sentence.folded[named.end() : sentence.end].strip(" .,;!"):
        return False
    old = _number_value(sentence, ("number", named.start("old"), named.end("old")))
    return old is not None and _said_before(previous, old) is not None


def withdraw_named_values(
    sentence: Span, chars: list[str], moved: list[tuple[int, int]], parts: list[Part]
) -> tuple[list[int], list[int]]:
    """A correction that names what it takes back, the new number first ("3 superfinos de 24 hileras, perdón,
    eran cuatro no tres"): the number after "no" is the one said before, so it is withdrawn there, with its
    "no", and the new number takes its place and role (docs/workshop-agent.md, "Corrections"). Returns where
    each new number starts, and where those that reach back past a sentence's end start (read at ``check``)."""
    kept: list[int] = []
    reaching: list[int] = []
    for match in _NAMES_BACK.finditer(sentence.folded, sentence.start, sentence.end):
        old = _number_value(sentence, ("number", match.start("old"), match.end("old")))
        said = _said_before(sentence.part(sentence.start, match.start()), old) if old is not None else None
        if said is None:
            continue  # "…, no 4": nothing said before is named, so the "no" is read as it stands
        _, old_start, old_end = said
        for start, end in ((old_start, old_end), (match.end("new"), match.end())):
            parts.append(Part("withdrawn", sentence.source[start:end].strip(" ,"), start, end))
            _blank(chars, start, end)
        moved.append((match.start("new"), old_start))
        kept.append(match.start("new"))
        ends = list(re.finditer(r"[.!?;\n][.!?;\s]*", sentence.note[old_end : match.start()]))
        if ends:
            # Past the end of the sentence that said it: the two are read as one clause (the break blanked).
            for k in range(old_end + ends[-1].start(), old_end + ends[-1].end()):
                chars[k] = " "
            reaching.append(match.start("new"))
    return kept, reaching


def withdraw_corrections(
    sentence: Span,
    chars: list[str],
    moved: list[tuple[int, int]],
    parts: list[Part],
    doubtful: list[tuple[int, int]],
    named: tuple[int, ...] = (),
) -> None:
    """Withdraw what a correction takes back: the value before "no, perdón" / "digo" / "I mean" of the same
    kind as the value after it. The withdrawn words and the correction words are blanked out of the text the
    reader reads (quotes still come from the note as written).

    A corrected number takes the role of the nearest number before it ("finos de 20 hileras, no, perdón, eran
    18" is 18 rows), unless it names its own ("no, 4 sombreros" is how many); when the rule's reading does not
    fit and the other one does, the old number is withdrawn and the new one kept as doubtful, so the reader asks
    (docs/workshop-agent.md, "Corrections"). A correction whose new value starts at one of ``named`` has been
    read by ``withdraw_named_values``: only its words are blanked."""
    scope = sentence.start
    spelled = [(h.start, h.end) for h in code_hits(sentence)]
    for match in _CORRECTION.finditer(sentence.folded, sentence.start, sentence.end):
        m0, m1 = match.start(), match.end()
        if any(start < m0 and m1 < end for start, end in spelled):
            # "te cu siete efe, o sea, tres ka dos": a pause inside a spelled code, not a correction (codes.py).
            parts.append(Part("filler", sentence.source[m0:m1].strip(" ,"), m0, m1))
            continue
        bare = (
            "perd" not in match.group() and re.search(r"[a-z]{3,}", match.group().replace("no", "")) is None
        )
        new_values = _values(sentence.part(m1, sentence.end), leading=True)
        if new_values and new_values[0][1] in named:
            # "perdón, eran cuatro no tres": the value it takes back is named, and already withdrawn.
            parts.append(Part("filler", sentence.source[m0:m1].strip(" ,"), m0, m1))
            _blank(chars, m0, m1)
            continue
        old_values = _values(sentence.part(scope, m0), leading=False)
        withdrawn: list[tuple[str, int, int, int]] = []  # kind, old start, old end, new start
        doubts = len(doubtful)
        for kind in dict.fromkeys(k for k, _, _ in new_values):
            new_of_kind = [v for v in new_values if v[0] == kind]
            old_of_kind = [v for v in old_values if v[0] == kind]
            if kind == "number" and len(new_of_kind) == 1 and old_of_kind:
                unit = _number_unit(sentence, new_of_kind[0])
                if unit is not None:
                    # "de 24 hileras, no, 4 sombreros": the new number replaces the one of the role it names,
                    # or none when the note gave no number of that role before.
                    old_of_kind = [v for v in old_of_kind if _rows_like(sentence, v) == (unit == "rows")]
                else:
                    old_of_kind = old_of_kind[-1:]
                    value = _role_in_doubt(sentence, old_of_kind[0], new_of_kind[0])
                    if value is not None:
                        (_, old_start, old_end), new = old_of_kind[0], new_of_kind[0]
                        parts.append(
                            Part("withdrawn", sentence.source[old_start:old_end], old_start, old_end)
                        )
                        _blank(chars, old_start, old_end)
                        doubtful.append((new[1], value))
                        old_of_kind = []
            old_of_kind = old_of_kind[-len(new_of_kind) :] if old_of_kind else []
            for old, new in zip(
                old_of_kind, new_of_kind[-len(old_of_kind) :] if old_of_kind else [], strict=False
            ):
                withdrawn.append((kind, old[1], old[2], new[1]))
        if not withdrawn:
            if bare and len(doubtful) == doubts:
                continue  # a plain ", no," with nothing to replace is a denial, read as one
            parts.append(Part("filler", sentence.source[m0:m1].strip(" ,"), m0, m1))
            _blank(chars, m0, m1)
            continue
        for kind, start, end, new_start in withdrawn:
            parts.append(Part("withdrawn", sentence.source[start:end], start, end))
            _blank(chars, start, end)
            if kind in {"number", "stage"}:
                moved.append((new_start, start))
        parts.append(Part("filler", sentence.source[m0:m1].strip(" ,"), m0, m1))
        _blank(chars, m0, m1)
        scope = m1


def blank_skipped_stages(sentence: Span, chars: list[str], parts: list[Part]) -> None:
    """A stage said as skipped ("sáltate el lavado", "without washing") is part of the request, never its
    target: the skip words and the stage are blanked out of what the reader reads."""
    for match in _SKIP.finditer(sentence.folded, sentence.start, sentence.end):
        rest = sentence.part(match.end(), sentence.end).tokens()
        if rest and rest[0].text in STAGE_WORDS:
            _blank(chars, match.start(), rest[0].end)
            parts.append(
                Part("read", sentence.source[match.start() : rest[0].end], match.start(), rest[0].end)
            )


def _blank_matches(
    pattern: re.Pattern[str], sentence: Span, chars: list[str], parts: list[Part], mark: Mark
) -> list[int]:
    """Blank out every match of ``pattern`` in ``sentence`` and account for each as a part of ``mark``;
    returns where each match starts."""
    found = []
    for match in pattern.finditer(sentence.folded, sentence.start, sentence.end):
        found.append(match.start())
        _blank(chars, match.start(), match.end())
        parts.append(Part(mark, sentence.source[match.start() : match.end()], match.start(), match.end()))
    return found


def blank_asides(sentence: Span, chars: list[str], parts: list[Part]) -> None:
    """Asides ("no hay tiempo", "no worries") deny nothing the note reports: blanked out, marked filler."""
    _blank_matches(_ASIDE_ANYWHERE, sentence, chars, parts, "filler")


def blank_hedges(sentence: Span, chars: list[str], parts: list[Part]) -> list[int]:
    """Hedges ("creo que", "me parece", "maybe", "not sure") are blanked out (they deny nothing and name
    nobody) and accounted as filler; returns where each one stands, so the event it is said of is never
    ``high``."""
    return _blank_matches(_HEDGE, sentence, chars, parts, "filler")


# What may stand before a hedge that opens a clause of its own ("…, y capaz que el TQ-… ya está en blanqueo").
_OPENS_A_CLAUSE = re.compile(r"(?:^|[.;:!?\n]|,|\b(?:y|e|o|and|or|pero|but|aunque))[\s,]*$")


def hedge_opens(folded: str, at: int, sentence_start: int) -> int | None:
    """Where the words a hedge at ``at`` opens begin, when it opens a clause of its own ("…, y capaz que el
    TQ-… ya está en blanqueo": the move is doubted, not the delivery before it); None for a hedge said after
    what it doubts ("…pasó a lavado, creo") or in the middle of a clause."""
    match = _HEDGE.match(folded, at)
    if match is None or not match.group().strip(" ,") or match.group().startswith("."):
        return None
    if _OPENS_A_CLAUSE.search(folded[sentence_start:at]) is None:
        return None
    return match.end()


def blank_estimates(sentence: Span, chars: list[str], parts: list[Part]) -> bool:
    """A number said as an estimate or a range ("como tres o cuatro", "entre 4 y 6", "around six", "a few")
    is blanked out, so the event has no number there and the reader asks for it instead of picking one; the
    words are accounted as unread. True when the sentence has one.

    A range said in a clause of its own doubts a number said before it ("trajo 3 estándar de 12 hileras, no
    sé si 3 o 4"): the number it names again, or else every number of the clause before, is blanked out too,
    so the card asks for it (docs/workshop-agent.md, "The three rules", rule 3). A count of hats said as the
    subject of a problem ("unos 2 tienen manchas") is no estimate of a delivery: it stays, and the flag asks
    which hats (``events.reference_of``)."""
    found = False
    for match in _APPROX.finditer(sentence.folded, sentence.start, sentence.end):
        if _SUBJECT_COUNT.match(sentence.folded, match.end()):
            continue
        found = True
        if _alone(chars, sentence, match.start(), match.end()):
            # "o eran 5" offers another number: a doubt, like a hedge.
            hedged = _hedged(chars, sentence, match.start()) or _OTHER_NUMBER.match(match.group()) is not None
            _doubt_number_before(sentence, chars, parts, match.start(), _values_said(sentence, match), hedged)
        _blank(chars, match.start(), match.end())
        parts.append(Part("unread", sentence.source[match.start() : match.end()], match.start(), match.end()))
    for match in _COUNTED_AGAIN.finditer(sentence.folded, sentence.start, sentence.end):
        # "…3 finos de 18, pero yo conté 2": two counts that disagree; the one said first is not read either.
        if not _alone(chars, sentence, match.start(), match.end()):
            continue
        values = _values_said(sentence, match)
        before = {n[0] for n in _numbers_before(sentence, chars, match.start())}
        if not before or values <= before:
            continue  # nothing counted before it, or the same count said again: it confirms
        found = True
        unit = match.group().split()[-1]
        role = (
            "rows" if unit in ROW_WORDS else "quantity" if unit in HAT_NOUNS or unit in GRADE_WORDS else None
        )
        _doubt_number_before(sentence, chars, parts, match.start(), values, True, role)
        # The word joining it to the count goes with it ("pero yo conté 2"), never left as a clause alone.
        joined = _JOINED_BY.search(sentence.folded, sentence.start, match.start())
        start = match.start() if joined is None else joined.start()
        _blank(chars, start, match.end())
        parts.append(Part("unread", sentence.source[start : match.end()], start, match.end()))
    for match in _SAID_NUMBER.finditer(sentence.folded, sentence.start, sentence.end):
        # "…2 superfinos de 26, creo que eran 3": a number said again with a hedge, in a clause of its own.
        if not "".join(chars[match.start() : match.end()]).strip():
            continue  # already read as an estimate ("o eran 5")
        if _alone(chars, sentence, match.start(), match.end()) and _hedged(chars, sentence, match.start()):
            found = True
            _doubt_number_before(sentence, chars, parts, match.start(), _values_said(sentence, match), True)
            _blank(chars, match.start(), match.end())
            parts.append(
                Part("unread", sentence.source[match.start() : match.end()], match.start(), match.end())
            )
    return found


_JOINED_BY = re.compile(r"\b(?:pero|but|aunque|although|though|y|and)\s+$")
_OTHER_NUMBER = re.compile(r"(?:o|u|or)\s")
# A number said as what something was ("eran 3", "it was 4"): read as a doubt only after a hedge.
_SAID_NUMBER = re.compile(r"\b(?:eran|fueron|era|fue|son|were|was|it was|there were) " + _NUMBER + r"\b")


# After a count, a verb of what the hats have or are ("unos 2 tienen manchas", "about two have stains").
_SUBJECT_COUNT = re.compile(r"\s+" + COUNTED_HATS + r"?(?:tiene|has|" + SUBJECT_VERBS + r")\b")
_CLAUSE_EDGE = re.compile(r"[,;:]|\b(?:y|e|and|pero|but)\b")


def _alone(chars: list[str], sentence: Span, start: int, end: int) -> bool:
    """Whether the words from ``start`` to ``end`` are a clause of their own once hedges are blanked out
    ("…, no sé si 3 o 4": only "3 o 4" is left of it), after some other clause of the sentence."""
    before = fold("".join(chars[sentence.start : start]))
    after = fold("".join(chars[end : sentence.end]))
    edge = [m.end() for m in _CLAUSE_EDGE.finditer(before)]
    if not edge or before[edge[-1] :].strip(" ,"):
        return False
    following = _CLAUSE_EDGE.search(after)
    return not (after[: following.start()] if following else after).strip(" ,.")


def _hedged(chars: list[str], sentence: Span, start: int) -> bool:
    """Whether a hedge was blanked out right before ``start`` in its clause ("no sé si 3 o 4")."""
    before = fold("".join(chars[sentence.start : start]))
    edge = [m.end() for m in _CLAUSE_EDGE.finditer(before)]
    opening = sentence.start + (edge[-1] if edge else 0)
    return bool(sentence.source[opening:start].strip(" ,"))


def _values_said(sentence: Span, match: re.Match[str]) -> set[int]:
    """The numbers a range or estimate names ("3 o 4": 3 and 4)."""
    tokens = sentence.part(match.start(), match.end()).tokens()
    values = set()
    for i in range(len(tokens)):
        number = number_at(tokens, i)
        if number is not None:
            values.add(number[0])
    return values


def _numbers_before(sentence: Span, chars: list[str], at: int) -> list[tuple[int, int, int]]:
    """The numbers said in ``sentence`` before ``at`` and still read (not blanked): value, start, end."""
    tokens = sentence.part(sentence.start, at).tokens()
    said: list[tuple[int, int, int]] = []
    i = 0
    while i < len(tokens):
        number = number_at(tokens, i)
        if number is None:
            i += 1
            continue
        start, end = tokens[i].start, tokens[i + number[1] - 1].end
        if "".join(chars[start:end]).strip():
            said.append((number[0], start, end))
        i += number[1]
    return said


def _doubt_number_before(
    sentence: Span,
    chars: list[str],
    parts: list[Part],
    at: int,
    values: set[int],
    hedged: bool,
    role: str | None = None,
) -> None:
    """Blank out the number a range said after it doubts: the last one before ``at`` that the range names
    again, or, when it names none of them and is said with a hedge ("no sé si 5 o 6"), every number of the
    clause right before it (none is picked), or only those of ``role`` when the doubt names its unit ("yo
    conté 17 hileras": the rows)."""
    said = _numbers_before(sentence, chars, at)
    if not said:
        return
    same = [n for n in said if n[0] in values]
    if same:
        doubted = same[-1:]
    elif not hedged:
        return  # "superfinos de 26, como 5": the estimate counts what the clause before left uncounted
    else:
        edges = [m.end() for m in _CLAUSE_EDGE.finditer(sentence.folded, sentence.start, said[-1][1])]
        opening = edges[-1] if edges else sentence.start
        doubted = [n for n in said if n[1] >= opening]
        # A number that can only be a count ("o eran 5": no row count) or only rows (over 20) doubts the
        # numbers of that role; otherwise every number of the clause.
        rows = {n for n in doubted if _rows_like(sentence, ("number", n[1], n[2]))}
        if role is not None:
            doubted = [n for n in doubted if (n in rows) == (role == "rows")]
        elif values and all(_fits("quantity", v, None) and not _fits("rows", v, None) for v in values):
            doubted = [n for n in doubted if n not in rows]
        elif values and all(_fits("rows", v, None) and not _fits("quantity", v, None) for v in values):
            doubted = [n for n in doubted if n in rows]
    for _, start, end in doubted:
        _blank(chars, start, end)
        parts.append(Part("unread", sentence.source[start:end], start, end))
