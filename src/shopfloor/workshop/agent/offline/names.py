"""Weavers named in a note: "Doña Rosa", a capitalised name, a dictated lower-case name before a delivery verb,
and a hat named by its weaver ("el de Carmen", "Carmen's hat").
"""

from __future__ import annotations

import re

from shopfloor.workshop.agent.offline.text import (
    DOMAIN,
    KNOWN,
    WORD,
    Span,
    fold,
)
from shopfloor.workshop.agent.offline.vocabulary import (
    CODE_PAUSES,
    COUNT_WORDS,
    CREATE_VERBS,
    DELIVERY_PHRASES,
    FILLER_WORDS,
    KIN_OWNERS,
    KIN_WORDS,
    NAME_OPENERS,
    PRONOUNS,
    STAGE_WORDS,
    STOP_WORDS,
)
from shopfloor.workshop.domain import (
    HONORIFICS,
)

_NAME_WORD = r"[A-ZÁÉÍÓÚÑÜ][a-záéíóúñü]+"


def honorific_pattern(folded: str) -> str:
    """The pattern of one folded honorific as written in a note: first letter in either case, "n" also as
    "ñ", an optional closing period ("dona" matches "Doña", "doña", "Dona"; "sra" matches "Sra.")."""
    first, rest = folded[0], folded[1:]
    letters = "".join("[ñn]" if ch == "n" else re.escape(ch) for ch in rest)
    return f"[{first.upper()}{first}]{letters}\\.?"


# Built from the domain's honorifics, longest first, so the reader hears as a title exactly what the weaver
# matcher drops from a name (docs/workshop-agent.md, "One vocabulary").
_HONORIFIC_NAME = re.compile(
    r"(?<![\w])(?:"
    + "|".join(honorific_pattern(h) for h in sorted(HONORIFICS, key=lambda h: (-len(h), h)))
    + r")\s+[A-Za-zÁÉÍÓÚÑÜáéíóúñü]+(?:\s+[A-Za-zÁÉÍÓÚÑÜáéíóúñü]+)?"
)
_WEAVER_HAT = re.compile(
    r"(?<![\w])(?:[Ee]l|[Ll]a|[Ll]os|[Ll]as)\s+(?:(?:[Ss]omb|[Cc]uerp|[Pp]iez)\w*\s+)?(?:de|del)\s+(?:(?:la|el|do[ñn]a|don)\s+)?"
    r"([A-Za-zÁÉÍÓÚÑÜáéíóúñü]+(?:\s+" + _NAME_WORD + r")?)"
    r"|(?<![\w])[Tt]he\s+(?:ones?|hats?)\s+(?:of|from|by)\s+([A-Za-zÁÉÍÓÚÑÜáéíóúñü]+(?:\s+"
    + _NAME_WORD
    + r")?)"
    r"|(" + _NAME_WORD + r"(?:\s+" + _NAME_WORD + r")?)'s\s+(?:hats?|ones?)\b"
    # "uno de Rosa Pillco", "una de doña Carmen": one of a weaver's hats (a capitalised name, never "uno de 24")
    r"|(?<![\w])[Uu]n[oa]\s+(?:de|del)\s+(?:(?:la|el|do[ñn]a|don)\s+)?("
    + _NAME_WORD
    + r"(?:\s+"
    + _NAME_WORD
    + r")?)"
)
# A capitalised name, perhaps ending in an initial ("Rosa P.": the initial is kept, its dot is not).
_CAPITALISED = re.compile(r"(?<![\w\-])" + _NAME_WORD + r"(?:\s+" + _NAME_WORD + r")*(?:\s+[A-Z](?=\.))?")
# Capitalised words that are never a name: time words, and verbs by their endings ("Llegaron", "Vinieron").
_TIME_WORDS = {
    "anoche", "hoy", "ayer", "anteayer", "manana", "tarde", "ahora", "ahorita", "luego", "despues", "recien",
    "temprano", "today", "yesterday", "tonight", "morning", "afternoon", "evening", "hay", "habia", "llego",
    "llegaron", "vino", "vinieron", "parece", "creo", "revise", "revisamos", "vi", "checked", "went", "came",
    "chuta", "according", "aparte", "segun", "casi", "tengo", "toca", "ojo", "dice", "dijo", "dizque",
    "so", "ok", "okay", "well", "then", "also", "entonces", "pues", "last", "night",
    # weekdays, and the words of a log's label ("Desk log Tue:", "Notas del lunes:")
    "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun", "monday", "tuesday", "wednesday",
    "thursday", "friday", "saturday", "sunday", "lunes", "martes", "miercoles", "jueves", "viernes", "sabado",
    "domingo", "desk", "log", "notes", "note", "update", "report", "notas", "nota", "registro", "bitacora",
    "resumen", "diario",
    # the words that open a time said before the name ("On Wednesday Rosa Pillco…", "Since Monday…")
    "on", "in", "at", "by", "since", "after", "before", "during", "until", "this", "every", "early", "late",
}  # fmt: skip
_VERB_ENDING = re.compile(r"(?:aron|ieron|eron|amos|imos|aba|aban|ando|iendo)$")
# Verbs of saying: whoever passes the news on is said before them, the weaver after them ("grandma says manuel
# delgado brought in…", "la vecina cuenta que…"), so they are never part of a name.
_SAYING_WORDS = {
    "says", "said", "tells", "told", "dicen", "dijeron", "cuenta", "cuentan", "conto", "contaron", "comenta",
    "comento", "avisa", "aviso", "avisaron", "asegura",
}  # fmt: skip


def _never_a_name(word: str) -> bool:
    folded = fold(word).strip(".")
    return (
        folded in STOP_WORDS
        or folded in PRONOUNS  # "Me dijo la Rosa Guamán que…": a capitalised pronoun names nobody
        or folded in FILLER_WORDS
        or folded in _TIME_WORDS
        or folded in _SAYING_WORDS
        or folded in CREATE_VERBS
        or folded in STAGE_WORDS
        or (len(folded) > 5 and _VERB_ENDING.search(folded) is not None)
    )


def _is_name(words: str) -> bool:
    parts = fold(words).split()
    return bool(parts) and all(
        p not in STOP_WORDS and p not in FILLER_WORDS and not p.isdigit() for p in parts[:1]
    )


def weaver_hat_ref(span: Span) -> tuple[str, int, int] | None:
    """A hat described by its weaver ("el de Carmen", "the one from Carmen", "Carmen's hat")."""
    for match in _WEAVER_HAT.finditer(span.note, span.start, span.end):
        name = next(g for g in match.groups() if g)
        words = name.split()
        if match.group(3):
            # "Moved Carmen's hat", "of Rosa Pillco's hats": a capitalised word before the name is no part of it.
            while len(words) > 1 and _never_a_name(words[0]):
                words = words[1:]
        # "el de Carmen Quizhpi" keeps the surname; "el de carmen en blanqueo" stops at the first stop word.
        kept = []
        for word in words:
            if fold(word) in STOP_WORDS:
                break
            kept.append(word)
        end = match.end()
        if span.dictated and len(kept) == 1:
            # Dictated: "el de rosa guamán" keeps a lower-case surname that is no word the reader knows.
            after = re.match(r"\s+([a-záéíóúñü]+)", span.note[end : span.end])
            if (
                after is not None
                and is_name_word(fold(after.group(1)))
                and fold(after.group(1)) not in STAGE_WORDS
            ):
                kept.append(after.group(1))
                end += after.end()
        if kept and _is_name(" ".join(kept)):
            return " ".join(kept), match.start(), end
    return None


_KIN = re.compile(r"(?<![\w-])(\w+)\s+([\w-]+)")


def kin_named(span: Span, skip: list[tuple[int, int]]) -> str | None:
    """A person named by kin ("mi mami", "my mom") before any weaver's name, as heard: someone who is no
    weaver by that name; a name said right after it is the person ("mi tía Rosa Pillco")."""
    for match in _KIN.finditer(span.folded, span.start, span.end):
        if match.group(1) not in KIN_OWNERS or match.group(2) not in KIN_WORDS:
            continue
        if any(s <= match.start() < e for s, e in skip):
            continue
        after = re.match(_NAME_WORD, span.note[match.end() : span.end].lstrip())
        if after is not None and not _never_a_name(after.group()):
            return None
        return span.note[match.start() : match.end()]
    return None


def is_kin(name: str) -> bool:
    """Whether a heard name is a person named by kin ("mi mami"), never a weaver's name."""
    words = fold(name).split()
    return len(words) == 2 and words[0] in KIN_OWNERS and words[1] in KIN_WORDS


def person_name(span: Span, skip: list[tuple[int, int]]) -> str | None:
    """The first person named in ``span`` outside the ``skip`` offsets, as heard (a person named by kin, "mi
    mami", when the span names nobody else first)."""
    kin = kin_named(span, skip)
    if kin is not None:
        at = span.note.find(kin, span.start, span.end)
        named = _named(span, skip)
        if named is None or span.note.find(named, span.start, span.end) > at:
            return kin
        return named
    return _named(span, skip)


def _named(span: Span, skip: list[tuple[int, int]]) -> str | None:
    for match in _HONORIFIC_NAME.finditer(span.note, span.start, span.end):
        if not any(s <= match.start() < e for s, e in skip):
            tail = match.group().split()[1:]
            if tail and fold(tail[0]) not in STOP_WORDS:
                words = match.group().split()
                # A surname is taken in lower case only from an all-lower-case (dictated) note.
                if len(words) == 3 and words[2][:1].islower() and not span.dictated:
                    words = words[:2]
                return _trim_name(" ".join(words))
    for match in _CAPITALISED.finditer(span.note, span.start, span.end):
        if any(s <= match.start() < e for s, e in skip):
            continue
        # A capitalised stop word at the start of a sentence ("El", "Mañana") is not part of a name, and
        # neither is a filler word ("Oye, la Carmencita trajo…", "Mira, Manuel…"): filler is never a weaver.
        words = [w for w in match.group().split() if not _never_a_name(w)]
        if words and match.group().split()[0] == words[0]:
            return " ".join(words[:3])
        if words:
            return " ".join(words[:3])
    if span.dictated:
        return _dictated_subject(span, skip)
    return None


_BEFORE_VERB = {"ya", "recien", "tambien", "hoy", "ayer", "anoche", "already", "just", "also", "finally"}


_PAUSE = re.compile(r"(?:" + CODE_PAUSES + r")")
# A delivery said with a verb of coming ("vino a dejar", "came by to drop off") starts where a delivery verb
# would: the name is said right before it.
_DELIVERY_START = re.compile(r"\b(?:" + "|".join(DELIVERY_PHRASES) + r")\b")


def _a_pause(span: Span, before: list[re.Match[str]]) -> bool:
    """Whether the last word of ``before`` is a pause said between commas ("el manuel, este, dejó…")."""
    word = before[-1]
    text = span.folded_text
    return (
        _PAUSE.fullmatch(word.group()) is not None
        and text[: word.start()].rstrip().endswith(",")
        and text[word.end() :].lstrip().startswith(",")
    )


def _dictated_subject(span: Span, skip: list[tuple[int, int]]) -> str | None:
    """In an all-lower-case (dictated) note, the one to three words right before a delivery verb name who
    delivered: "rosa pillco terminó tres finos", "carmen delivered two fine hats"."""
    words = list(WORD.finditer(span.folded_text))
    coming = _DELIVERY_START.search(span.folded_text)
    verb = next(
        (
            i
            for i, w in enumerate(words)
            if w.group() in CREATE_VERBS or (coming is not None and w.start() == coming.start())
        ),
        None,
    )
    if verb is None:
        return _batch_subject(span, words, skip)
    return _name_before(span, words[:verb], skip)


def dictated_reporter(span: Span, report: int) -> str | None:
    """In an all-lower-case (dictated) note, the one to three words right before a report at offset ``report``
    name the one who passed it on ("carmen quizhpi dice que ya entregó…", "la rosa guaman me mandó un audio
    que…"): whose delivery it is when what is passed on names nobody (docs/workshop-agent.md, "The three
    rules" 2)."""
    if not span.dictated:
        return None
    words = [w for w in WORD.finditer(span.folded_text) if span.start + w.start() < report]
    name = _name_before(span, words, [])
    if name is None:
        return None
    said_before = span.folded[span.start : span.note.find(name, span.start, report)].split()
    # "la hija de rosa pillco dice que…": the one who passed it on is the daughter, no weaver named.
    return None if said_before[-1:] in (["de"], ["of"]) else name


def _name_before(span: Span, before: list[re.Match[str]], skip: list[tuple[int, int]]) -> str | None:
    start = span.start
    kept: list[re.Match[str]] = []
    while before and (before[-1].group() in _BEFORE_VERB or _a_pause(span, before)):
        # "la rosa guaman ya trajo…", "manuel recién entregó…": the adverb is no name; "el manuel, este,
        # dejó…": nor a pause set off by commas.
        before = before[:-1]
    for word in reversed(before):
        text = word.group()
        inside_skip = any(s <= start + word.start() < e for s, e in skip)
        if text in STOP_WORDS or text in PRONOUNS or not text.isalpha() or inside_skip or len(kept) == 3:
            break
        if _never_a_name(text):
            break  # "anoche manuel delgado dejó…", "ok so rosa guaman brought…": a time word or filler before

        kept.insert(0, word)
    if not kept:
        return None
    return span.note[start + kept[0].start() : start + kept[-1].end()]


# A batch that borrows its verb opens with who made it ("…y el manuel, este, tres superfinos de 22", "y la rosa
# guaman tres más dos estándar"): an article or title, one to three name words, filler, then the count.
_BATCH_OPENERS = NAME_OPENERS | {"also", "tambien"}
_BATCH_COUNTS = COUNT_WORDS | {"un", "una", "a"}


def _batch_subject(span: Span, words: list[re.Match[str]], skip: list[tuple[int, int]]) -> str | None:
    """In a dictated clause with no verb of its own, the name words that open it before its count."""
    k = 0
    while k < len(words) and words[k].group() in _BATCH_OPENERS:
        k += 1
    if k == 0:
        return None  # "…pero tiene una mancha": without "y" or an article the word is no name
    kept: list[re.Match[str]] = []
    while k < len(words) and len(kept) < 3:
        text = words[k].group()
        if not is_name_word(text) or _never_a_name(text) or text in PRONOUNS:
            break
        if any(s <= span.start + words[k].start() < e for s, e in skip):
            break
        kept.append(words[k])
        k += 1
    while k < len(words) and words[k].group() in FILLER_WORDS:
        k += 1
    if not kept or k >= len(words) or not (words[k].group() in _BATCH_COUNTS or words[k].group().isdigit()):
        return None
    return span.note[span.start + kept[0].start() : span.start + kept[-1].end()]


def _trim_name(name: str) -> str:
    words = name.split()
    kept = [words[0]]
    for word in words[1:]:
        if fold(word).strip(".") in STOP_WORDS:
            break
        kept.append(word)
    return " ".join(kept)


def is_name_word(word: str) -> bool:
    """Whether a folded word can be part of a name: a word the reader knows for nothing else."""
    return word.isalpha() and word not in KNOWN and word not in DOMAIN and word not in CREATE_VERBS


def name_at(span: Span, name: str) -> tuple[int, int] | None:
    """Where a name read in ``span`` stands in the note."""
    at = span.note.find(name, span.start, span.end)
    if at < 0:
        at = span.folded.find(fold(name), span.start, span.end)
    return (at, at + len(name)) if at >= 0 else None
