"""The note as text, for the offline reader: folding, spans, words, sentences and clauses.

Matching runs on a *folded* copy of the text (lower case, accents removed, one character per character), so
spans found in it are spans of the original and every quote is copied from the note itself. A :class:`Span`
carries the note, its folded copy and one pair of offsets through every step of the reader.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import snowballstemmer
from rapidfuzz import process
from rapidfuzz.distance import OSA

from shopfloor.workshop.agent.offline.vocabulary import (
    DIGIT_WORDS,
    DOZEN_WORDS,
    FILLER_WORDS,
    FINISH_VERBS,
    FUZZY_NEVER,
    FUZZY_TARGETS,
    GRADE_WORDS,
    HAT_NOUNS,
    NUMBER_WORDS,
    PAIR_WORDS,
    PAST_MOVE_VERBS,
    PRONOUNS,
    ROW_WORDS,
    SHORTHAND,
    STAGE_WORDS,
    STEM_SOURCES,
    STOP_WORDS,
    TENS,
)

WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")

# "que" and "porque" as chats type them ("dice q…", "hay k pasar…", "xq tiene manchas"); a lone "q" or "k"
# after a spelled prefix's "t" or a digit is part of a code ("t q 2c5p0", "7 f 3 k 2"), never the word.
_TEXTED_QUE = r"(?:que|ke|(?<!\bt )(?<!\d )[qk])"
_TEXTED_PORQUE = r"(?:porque|porq|xq|pq|x ?q)"
_QUE_WORD = re.compile(r"\b(?:(porque)|(que))\b")


def texted(pattern: str) -> str:
    """``pattern`` with every whole "que" / "porque" in it also matching their chat spellings, so each rule
    that looks for the word finds them too (docs/workshop-agent.md, "What the reader understands, by class");
    applied once, where a module compiles its patterns."""
    return _QUE_WORD.sub(lambda m: _TEXTED_PORQUE if m.group(1) else _TEXTED_QUE, pattern)


def fold(text: str) -> str:
    """Lower case with accents removed, keeping exactly one character per input character."""
    out = []
    for char in text:
        base = unicodedata.normalize("NFD", char)[:1] or char
        out.append(base.lower() if len(base.lower()) == 1 else char)
    return "".join(out)


@dataclass(frozen=True)
class Span:
    """A stretch ``[start, end)`` of one note, with the note's folded copy.

    Folding keeps one character per character, so one pair of offsets indexes both: patterns match on the
    folded text and every quote is cut from the note itself.
    """

    note: str
    folded: str
    start: int
    end: int
    source: str = ""  # the note as written; ``note`` may have withdrawn words blanked out (same offsets)
    # Corrected values: (start of the new value, start of the withdrawn one), so the new value is read in
    # the place of the old ("de 25, no, de 28 hileras": 28 is the row count).
    moved: tuple[tuple[int, int], ...] = ()
    # Corrected numbers whose role stays in doubt: (start of the new number, its value); see ``withdraw_corrections``.
    doubtful: tuple[tuple[int, int], ...] = ()

    @classmethod
    def whole(
        cls,
        note: str,
        source: str | None = None,
        moved: tuple[tuple[int, int], ...] = (),
        doubtful: tuple[tuple[int, int], ...] = (),
    ) -> Span:
        """All of ``note`` (``source``: the note as written, when ``note`` is a masked copy of it)."""
        return cls(note, fold(note), 0, len(note), note if source is None else source, moved, doubtful)

    def part(self, start: int, end: int) -> Span:
        """Another stretch of the same note."""
        return Span(self.note, self.folded, start, end, self.source, self.moved, self.doubtful)

    @property
    def text(self) -> str:
        """The words the reader reads in this span (withdrawn words blanked out)."""
        return self.note[self.start : self.end]

    @property
    def said(self) -> str:
        """The note's own words in this span, exactly as written (quotes are cut from these)."""
        return (self.source or self.note)[self.start : self.end]

    @property
    def folded_text(self) -> str:
        """The folded words of this span."""
        return self.folded[self.start : self.end]

    @property
    def dictated(self) -> bool:
        """True for an all-lower-case note (speech to text without capitals)."""
        return self.note == self.note.lower()

    def words(self) -> list[str]:
        """The words of this span as the reader knows them (folded, shorthand and slips corrected)."""
        return [t.text for t in self.tokens()]

    def tokens(self) -> list[Token]:
        """The words of this span with their offsets, as the reader knows them."""
        return word_tokens(self.folded_text, self.start, self.note)


@dataclass(frozen=True)
class Token:
    """A word of the note with its offsets."""

    text: str  # folded, then corrected (shorthand, diminutives, one-letter slips)
    start: int
    end: int


KNOWN = (
    STOP_WORDS
    | FILLER_WORDS
    | PRONOUNS
    | set(NUMBER_WORDS)
    | set(DIGIT_WORDS)
    | set(DOZEN_WORDS)
    | set(PAIR_WORDS)
    | FINISH_VERBS
)
DOMAIN = set(STAGE_WORDS) | set(GRADE_WORDS) | HAT_NOUNS | ROW_WORDS
COUNTING = set(DOZEN_WORDS) | set(PAIR_WORDS)  # "una docenita", "un parcito"
_DIMINUTIVE = re.compile(r"^(\w{3,}?)(?:c?it)(o|a|os|as)$")


@lru_cache(maxsize=8192)
def canon(word: str, capitalised: bool = False) -> str:
    """A folded word as the reader's tables know it: shorthand ("std", "hil"), diminutives ("finitos",
    "sombrerito", "lavadito") and one-letter slips of long domain words ("ileras", "sombreo"), found with
    RapidFuzz. A capitalised word (a name in a typed note) is only expanded from shorthand, never corrected."""
    if word in KNOWN or word in DOMAIN or word.isdigit():
        return word
    if word in SHORTHAND:
        return SHORTHAND[word]
    if capitalised:
        # A conjugated stage verb that opens a typed sentence ("Prensaron el TQ-…", "Prensándolo…") is
        # capitalised too; a verb's ending is never a name's, so its stem is read ("Tejada" stays a name).
        stemmed = _stage_stem(word) if _CONJUGATED.search(word) else None
        return word if stemmed is None else stemmed
    small = _DIMINUTIVE.match(word)
    if small is not None and small.group(1) + small.group(2) in DOMAIN | COUNTING:
        return small.group(1) + small.group(2)
    if small is not None and small.group(1) in COUNTING:  # "parcito"
        return small.group(1)
    stemmed = _stage_stem(word)
    if stemmed is not None:
        return stemmed
    return slip_of(word) or word


_SPANISH = snowballstemmer.stemmer("spanish")
# Snowball stem of each Spanish stage verb or noun → the stage word of the reader's tables.
_STAGE_STEMS = {_SPANISH.stemWord(word): stage_word for word, stage_word in STEM_SOURCES.items()}


def _stage_stem(word: str) -> str | None:
    """The stage word for any form of a Spanish stage verb ("prensaron", "hormandose", "lavandolo"), by
    its Snowball stem; None for other words."""
    if len(word) < 4 or not word.isalpha():
        return None
    return _STAGE_STEMS.get(_SPANISH.stemWord(word))


_PRETERITE_PLURAL = re.compile(r"(?:aron|ieron)$")
# Endings of a conjugated Spanish verb (plural preterite, first person plural, gerund, with an enclitic).
_CONJUGATED = re.compile(r"(?:aron|ieron|amos|imos|ando|iendo)(?:se|lo|la|los|las)?$")


def says_past_move(span: Span) -> bool:
    """Whether ``span`` reports a change of stage in the past: "moved", "pasaron", or any third-person plural
    preterite of a stage verb, by its Snowball stem ("lavaron", "blanquearon", "prensaron"). Read on the
    note's own folded words, before ``canon`` turns the verb into its stage word."""
    for m in WORD.finditer(span.folded_text):
        word = m.group()
        if word in PAST_MOVE_VERBS or (_PRETERITE_PLURAL.search(word) and _stage_stem(word) is not None):
            return True
    return False


@lru_cache(maxsize=8192)
def slip_of(word: str) -> str | None:
    """The domain word a folded word is a one-letter slip of (an edit or two letters swapped: "lavdo",
    "balnqueo", "termiando"), found with RapidFuzz's OSA distance; None when it is none. A card read through
    a slip is never ``high`` (``has_slip``)."""
    if len(word) < 5 or not word.isalpha() or word in FUZZY_NEVER or word in KNOWN or word in DOMAIN:
        return None
    hit = process.extractOne(word, FUZZY_TARGETS, scorer=OSA.distance, score_cutoff=1)
    return None if hit is None else str(hit[0])


def has_slip(span: Span) -> bool:
    """Whether the reader corrected a slip in ``span`` (a guess: the card it reads is ``check``)."""
    note = span.note
    for m in WORD.finditer(span.folded_text):
        start = m.start() + span.start
        capital = note[start : start + 1].isupper() and note != note.lower()
        if not capital and canon(m.group()) != m.group() and canon(m.group()) == slip_of(m.group()):
            return True
    return False


def word_tokens(folded: str, offset: int = 0, note: str | None = None) -> list[Token]:
    """The words of folded text as the reader knows them (``canon``), at ``offset`` in ``note``; a word is
    capitalised when it is so in a typed note (``note`` not all lower case)."""
    tokens = []
    for m in WORD.finditer(folded):
        start = m.start() + offset
        capital = note is not None and note[start : start + 1].isupper() and note != note.lower()
        tokens.append(Token(canon(m.group(), capital), start, m.end() + offset))
    return tokens


# A comma said aloud in a dictated note ("…de veinticuatro hileras coma perdón eran tres…").
_SPOKEN_COMMA = re.compile(r"(?<=\s)(?:coma|comma)\b", re.IGNORECASE)


def spoken_commas(note: str) -> str:
    """``note`` with each comma said aloud ("coma", "comma") written as the comma it stands for, padded with
    spaces so every offset stays: a spoken comma is a comma to every rule (docs/workshop-agent.md, "The three
    rules"); quotes still come from the note as written."""
    return _SPOKEN_COMMA.sub(lambda m: "," + " " * (len(m.group()) - 1), note)


# A sentence ends at . ! ? ; before a space or the end, at a line break, before a numbered item on the same
# line ("1) … 2) …"; "16. Hay…" is a number ending a sentence, not an item), at a dictated "punto" ("punto y
# seguido", "punto y aparte"; not "a punto de"), and at a dictated "period", "full stop", "new line".
_SENTENCE_BREAK = re.compile(
    r"(?:<|&lt;)\|im_end\|>|#{2,}\s*(?:end|fin)\s*#{2,}|[.!?;]+(?=\s|$)|\n+|\s+(?=\d{1,2}\)\s)|(?<=\s)\d{1,2}\)\s+|^\s*\d{1,2}\)\s+"
    r"|[\s,]*\b(?<!\ba )(?:punto y (?:seguido|aparte)|punto (?:aparte|final)|punto)\b(?! de\b)[\s,]*"
    # Spoken in English or Spanish dictation ("…of fifteen rows period tq 8h6rt…"); never the noun ("a period",
    # "the drying period was short", "a full stop", "a new line of hats").
    r"|[\s,]*\b(?<!\ba )(?<!\bthe )(?<!\bthis )(?<!\bthat )(?:period|full stop|new line|new paragraph|next line"
    r"|nueva l[ií]nea|nuevo p[aá]rrafo|salto de l[ií]nea)\b"
    r"(?!\s+(?:of|was|is|were|has|had|for|in|to|when|which|where|after|before|since|until|ended|lasted)\b)[\s,]*",
    re.IGNORECASE,
)


# Words written with a dot that does not end the sentence.
# A title before a name is an abbreviation too ("Ms. Quizhpi told me…", "According to Mr. Delgado, …").
_ABBREVIATION = re.compile(r"\b(?:aprox|approx|aprx|sr|sra|srta|dr|dra|nro|num|mr|mrs|ms)$")
# A code or a fragment of one (three to five characters with a digit and a letter: "el 9M2X. pasó…").
_CODE_BEFORE = re.compile(r"(?<![A-Za-z0-9])(?=[0-9]*[A-Za-z])(?=[A-Za-z]{0,4}[0-9])[0-9A-Za-z]{3,5}$")
# Its prefix as heard ("TQ-", "tq ", "TK."), no word before the code.
_CODE_PREFIX = re.compile(r"\bt\s*[qk][\s.\-_]*$")


def split_sentences(whole: Span) -> list[Span]:
    """Sentences: a boundary is . ! ? ; followed by space or the end, or a line break."""
    note = whole.note
    spans = []
    start = 0
    for match in _SENTENCE_BREAK.finditer(note):
        if (
            note[match.start() - 2 : match.start() - 1] == " "
            and note[match.start() - 1 : match.start()].isupper()
        ):
            continue  # "Rosa P. trajo…": an initial, not the end of a sentence
        if note[match.start() : match.start() + 1] == "." and _ABBREVIATION.search(
            fold(note[: match.start()])
        ):
            continue  # "aprox. 6 finos", "la Sra. Carmen": an abbreviation's dot
        code = _CODE_BEFORE.search(note, 0, match.start())
        # The code opens the sentence: at most two words before it, its prefix no word of them ("Y el TQ.2C5P0.
        # pasó…", "ya el 9M2X. pasó…").
        lead = _CODE_PREFIX.sub("", fold(note[start : code.start()])) if code is not None else ""
        if (
            code is not None
            and len(WORD.findall(lead)) <= 2
            and note[match.end() :].lstrip()[:1].islower()
            # …but a line that ends in ":" is a heading of its own ("7f3k2" then "mañana:").
            and not ("\n" in match.group() and note[match.end() :].split("\n", 1)[0].rstrip().endswith(":"))
        ):
            continue  # "TQ 4K9D1. pasó a hormado": the dot closes the code that opens the sentence
        spans.append(whole.part(start, match.start()))
        start = match.end()
    spans.append(whole.part(start, len(note)))
    return [strip_span(span) for span in spans if span.text.strip()]


def strip_span(span: Span) -> Span:
    """``span`` without the spaces, commas, dashes and quotes around it."""
    note, start, end = span.note, span.start, span.end
    while start < end and note[start] in " \t\r\n,:-¡¿\"'":
        start += 1
    while end > start and note[end - 1] in " \t\r\n,:-\"'":
        end -= 1
    return span.part(start, end)


# "treinta y cinco" is one number, not two clauses.
_CLAUSE_BREAK = re.compile(
    r":\s*(?=(?:\d{1,2}|uno|una|one|dos|two|tres|three)\s)"  # "two superfinos: one of 22 rows and one of 30"
    r"|\s*(?:\n|;(?=\s))[\s\-*•]*"  # in a sentence joined from lines or from "; " (``reader``), not "&lt;"
    r"|(?:,|\s+(?:coma|comma)\b)\s*(?:(?:y|e|and|pero|but|then)\s+)?|\s+&\s+|(?<!treinta)(?<!cuarenta)\s+(?:y|e|and|pero|but|then|also|tambien)\s+"
    # "one and a half dozen", "una y media docenas": one number, not two clauses
    r"(?!(?:a\s+)?(?:half|media|medio)\s+(?:dozen|docena|decena|veintena)s?\b)"
    r"|(?:(?<=treinta)|(?<=cuarenta))\s+(?:e|and|pero|but|then|also|tambien)\s+"
)


# "un fino de quince otro de diecisiete", "one at 24 another at 26": a further batch dictated without a comma
# starts at "otro" / "another" right after the number that ends the batch before it.
_ANOTHER_BATCH = re.compile(r"\s+(?=(?:otro|otra|otros|otras|another)\s+(?:de|of|at|\d{1,2}\b|[a-z]+)\b)")
_ENDS_A_BATCH = {*NUMBER_WORDS, *TENS, *ROW_WORDS, *GRADE_WORDS}


def _another_batch_breaks(sentence: Span) -> list[tuple[int, int]]:
    """Where a further batch said without a comma starts (see ``_ANOTHER_BATCH``)."""
    breaks = []
    for match in _ANOTHER_BATCH.finditer(sentence.folded, sentence.start, sentence.end):
        before = WORD.findall(sentence.folded[sentence.start : match.start()])[-1:]
        if before and (before[0].isdigit() or before[0] in _ENDS_A_BATCH):
            breaks.append((match.start(), match.end()))
    return breaks


# "four superfinos three at twenty two rows and one at thirty", "cuatro finos tres de dieciséis y uno de
# dieciocho": a part said by its count right after the total's grade or hat noun, without a comma, starts at
# its count ("a count", "de" / "of" / "at", a number), as it does after a comma; so does a part right after the
# rows of the part before it ("two at 16 three at 18").
_PART_AFTER_TOTAL = re.compile(r"\s+(?=([a-z0-9]+)\s+(?:de|of|at)\s+([a-z0-9]+)\b)")
_NUMBERS = {*NUMBER_WORDS, *TENS}


def _part_breaks(sentence: Span) -> list[tuple[int, int]]:
    """Where a part of a total said without a comma starts (see ``_PART_AFTER_TOTAL``)."""
    breaks = []
    for match in _PART_AFTER_TOTAL.finditer(sentence.folded, sentence.start, sentence.end):
        count, rows = match.group(1), match.group(2)
        if not all(word.isdigit() or word in _NUMBERS for word in (count, rows)):
            continue
        before = WORD.findall(sentence.folded[sentence.start : match.start()])[-2:]
        if not before:
            continue
        last = before[-1]
        ends_a_part = (
            len(before) == 2 and before[0] in {"de", "of", "at"} and (last.isdigit() or last in _NUMBERS)
        )
        if last in GRADE_WORDS or last in HAT_NOUNS or last in ROW_WORDS or ends_a_part:
            breaks.append((match.start(), match.end()))
    return breaks


# "superfinos de 24 y media docena de finos": after a row count ("de" / "of" / "at" and a number), "y media
# docena" is the next batch, not half a dozen more of that number (``quantities.number_at`` reads it so too).
_HALF_AFTER = re.compile(
    r"\s+(?:y|and)\s+(?=(?:a\s+)?(?:half|media|medio)\s+(?:dozen|docena|decena|veintena)s?\b)"
)


def _half_dozen_breaks(sentence: Span) -> list[tuple[int, int]]:
    """Where a batch said as half a dozen starts after the rows of the batch before (see ``_HALF_AFTER``)."""
    breaks = []
    for match in _HALF_AFTER.finditer(sentence.folded, sentence.start, sentence.end):
        before = WORD.findall(sentence.folded[sentence.start : match.start()])[-2:]
        if (
            len(before) == 2
            and before[0] in {"de", "of", "at"}
            and (before[1].isdigit() or before[1] in _NUMBERS)
        ):
            breaks.append((match.start(), match.end()))
    return breaks


def split_clauses(sentence: Span) -> list[Span]:
    """Clauses of a sentence: a break is a comma, "&", a joining word ("y", "and", "pero", "then"), or a
    further batch or part said without one ("un fino de quince otro de diecisiete", "four superfinos three
    at 22")."""
    spans = []
    cursor = sentence.start
    found = [
        (m.start(), m.end()) for m in _CLAUSE_BREAK.finditer(sentence.folded, sentence.start, sentence.end)
    ]
    further = _another_batch_breaks(sentence) + _part_breaks(sentence) + _half_dozen_breaks(sentence)
    for start, end in sorted(found + further):
        if start < cursor:
            continue
        spans.append(sentence.part(cursor, start))
        cursor = end
    spans.append(sentence.part(cursor, sentence.end))
    return [strip_span(span) for span in spans if span.text.strip()]


def moved_index(tokens: list[Token], i: int, moved: tuple[tuple[int, int], ...]) -> int | None:
    """For a corrected value, the token index where the withdrawn value stood (its context is the new one's)."""
    for new_start, old_start in moved:
        if tokens[i].start == new_start:
            return next((k for k, t in enumerate(tokens) if t.start >= old_start), len(tokens))
    return None
