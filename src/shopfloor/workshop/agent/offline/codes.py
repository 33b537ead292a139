"""Hat codes as heard in a note: "TQ-7F3K2", "tq 4k9 d1", a bare body, or spelled in Spanish letter names and
digit words ("te cu siete efe…"); four characters heard of five are a partial code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shopfloor.workshop.agent.offline.text import (
    DOMAIN,
    KNOWN,
    Span,
)
from shopfloor.workshop.agent.offline.vocabulary import (
    CODE_PAUSES,
    DIGIT_WORDS,
    LETTER_NAMES,
    PREFIX_TOKENS,
)

# A hat code as heard: "TQ-7F3K2", "tq 2c5po", "TQ.7F3K2", or a bare body with a digit and a letter.
_CODE_WITH_PREFIX = re.compile(
    r"(?<![A-Za-z0-9])[Tt][Qq][\s.\-]{0,2}(?=[A-Za-z]{0,4}[0-9]|[A-Z]{5})[0-9A-Za-z]{5}(?![A-Za-z0-9])"
)
# The prefix as people type it otherwise: "tq_7f3k2", "T-Q-8H6RT", "TK-2C5P0" (K for Q or "_": check).
_ODD_PREFIX = re.compile(
    r"(?<![A-Za-z0-9])[Tt](?:[\s.\-_]?[Kk]|[\s.\-_][Qq]|[Qq](?=_))[\s.\-_]{1,2}"
    r"(?=[A-Za-z]{0,4}[0-9])([0-9A-Za-z]{5})(?![A-Za-z0-9])"
)
# Four characters of a body without the prefix ("el 7F3K pasó a lavado"): a partial code, asked among the
# open hats that fit; two letters and two digits at least, so no ordinary word or number is one.
_BARE_PART = re.compile(
    r"(?<![A-Za-z0-9\-])(?=(?:[A-Za-z]*[0-9]){2})(?=(?:[0-9]*[A-Za-z]){2})[0-9A-Za-z]{4}(?![A-Za-z0-9\-])"
    # three typed characters of a body, digit capital digit ("el 7F3", "el 8H6"): the start of a code
    r"|(?<![A-Za-z0-9\-])[0-9][A-Z][0-9](?![A-Za-z0-9\-])"
)
# …or dictated in lower case ("el 8h6 ya pasó"; never "2x3", a size), when no longer code holds it ("4k9 d1").
_LOWER_PART = re.compile(r"(?<![A-Za-z0-9\-])[0-9][a-wyz][0-9](?![A-Za-z0-9\-])")
# The prefix and three or four characters of a body ("el TQ-8H6 pasó a terminado"): a partial code too.
_PREFIXED_PART = re.compile(
    r"(?<![A-Za-z0-9])[Tt][Qq][\s\-]?(?=[A-Za-z]*[0-9])([0-9A-Za-z]{3,4})(?![A-Za-z0-9])"
)
_BARE_CODE = re.compile(r"(?<![A-Za-z0-9\-])(?=[0-9A-Z]*[0-9])(?=[0-9A-Z]*[A-Z])[0-9A-Z]{5}(?![A-Za-z0-9])")
# A bare body in lower case, as dictation writes it ("el 7f3k2 ya pasó"): two letters and two digits at least, and
# not a number with a unit ("18hil").
_BARE_LOWER = re.compile(
    r"(?<![A-Za-z0-9\-])(?=(?:[a-z]*[0-9]){2})(?=(?:[0-9]*[a-z]){2})(?![0-9]+[a-z]+(?![A-Za-z0-9]))[0-9a-z]{5}"
    r"(?![A-Za-z0-9])"
)


@dataclass(frozen=True)
class CodeHit:
    """A hat code heard in the note: what to look up, where it was said, and how."""

    heard: str  # what find_hats is given: the words as heard, or the code spelled out ("TQ-4K9D1")
    start: int
    end: int
    spelled: bool = False
    partial: str | None = None  # four characters of the body: one was not heard


_CODE_TOKEN = re.compile(r"[a-z0-9]+")
# One or more pauses between two characters of a spelled code, with their commas and spaces.
_PAUSE = re.compile(r"(?:[\s,.\-]*\b(?:" + CODE_PAUSES + r")\b)+[\s,.\-]*")


def _next_word(span: Span, words: list[tuple[str, int, int]], j: int, end: int) -> int | None:
    """The index of the word that goes on a code body ending at ``end``: word ``j`` right after it (a space or
    a dash between), or the first word after pauses ("…seis, eh, erre…"); None when the code ends there."""
    pause = _PAUSE.match(span.folded, end)
    if pause is not None and pause.end() <= span.end:
        k = next((k for k in range(j, len(words)) if words[k][1] >= pause.end()), None)
        return k if k is not None and words[k][1] == pause.end() else None
    gap = span.note[end : words[j][1]]
    return None if gap.strip(" -.") or len(gap) > 2 else j


def _code_piece(word: str, literal: bool = False) -> tuple[str, bool] | None:
    """The characters one spoken word adds to a code body, and whether it was a letter name or digit word
    (``literal``: a short word is its own letters, "ka" as KA rather than K)."""
    # (…never a word the reader knows, "tq 7f3 ya está…": "ya" is no part of the code)
    if literal and 1 < len(word) <= 3 and word.isalpha() and (word in LETTER_NAMES or word not in KNOWN):
        return word.upper(), False
    if word in LETTER_NAMES and len(word) > 1:
        return LETTER_NAMES[word], True
    if word in DIGIT_WORDS and not word.isdigit() and len(word) > 1:
        return DIGIT_WORDS[word], True
    if len(word) == 1:
        return word.upper(), False
    if len(word) <= 5 and any(c.isdigit() for c in word):
        return word.upper(), False
    if len(word) <= 3 and word not in KNOWN and word not in DOMAIN:
        return word.upper(), False
    return None


def _spoken_codes(span: Span, taken: list[tuple[int, int]]) -> list[CodeHit]:
    """Codes said in pieces: "tq 4k9 d1", "t q 3 d 8 q v", "te cu siete efe tres ka dos" (Spanish letter
    names and digit words), and four-character bodies after the prefix (partial codes)."""
    words = [
        (m.group(), m.start() + span.start, m.end() + span.start)
        for m in _CODE_TOKEN.finditer(span.folded_text)
    ]
    hits: list[CodeHit] = []
    i = 0
    while i < len(words):
        prefix = next((p for p in PREFIX_TOKENS if tuple(w for w, _, _ in words[i : i + len(p)]) == p), None)
        if prefix is None or any(s <= words[i][1] < e for s, e in taken):
            i += 1
            continue
        body, spelled, j, end = _code_body(span, words, i + len(prefix), literal=False)
        if len(body) != 5:
            other = _code_body(span, words, i + len(prefix), literal=True)
            if len(other[0]) == 5:
                body, spelled, j, end = other
        spelled = spelled or prefix not in {("tq",), ("t", "q")}
        start = words[i][1]
        if len(body) == 5:
            heard = f"TQ-{body}" if spelled else span.note[start:end]
            hits.append(CodeHit(heard, start, end, spelled=spelled))
        elif len(body) == 4 and any(c.isdigit() for c in body):
            hits.append(CodeHit(f"TQ-{body}", start, end, spelled=spelled, partial=body))
        i = max(j, i + 1)
    return hits


def _code_body(
    span: Span, words: list[tuple[str, int, int]], j: int, literal: bool
) -> tuple[str, bool, int, int]:
    """The code body said from word ``j`` on: (characters, spelled, next word, end offset)."""
    body, spelled, end = "", False, words[j - 1][2]
    while j < len(words) and len(body) < 5:
        after = _next_word(span, words, j, end)
        if after is None:
            break
        j = after
        piece = _code_piece(words[j][0], literal)
        if piece is None or len(body) + len(piece[0]) > 5:
            break
        body, spelled, end, j = body + piece[0], spelled or piece[1], words[j][2], j + 1
    return body, spelled, j, end


def _spaced_bare_codes(span: Span, taken: list[tuple[int, int]]) -> list[CodeHit]:
    """A code without its prefix said in groups ("el 4k9 d1 pasó"): two or more short groups of letters and
    digits making five characters, with at least two of each (so "18 a 20" is never a code)."""
    words = [
        (m.group(), m.start() + span.start, m.end() + span.start)
        for m in _CODE_TOKEN.finditer(span.folded_text)
    ]
    hits: list[CodeHit] = []
    for i in range(len(words)):
        body, end, j = "", words[i][1], i
        while j < len(words) and len(body) < 5:
            word = words[j][0]
            fits = len(word) == 1 or (
                len(word) <= 4 and any(c.isdigit() for c in word) and not word.isdigit()
            )
            gap = span.note[end : words[j][1]] if j > i else ""
            if not fits or gap.strip(" -") or len(body) + len(word) > 5:
                break
            body, end, j = body + word, words[j][2], j + 1
        start = words[i][1]
        letters, digits = sum(c.isalpha() for c in body), sum(c.isdigit() for c in body)
        overlaps = any(s < end and start < e for s, e in taken) or any(
            h.start < end and start < h.end for h in hits
        )
        if len(body) == 5 and j - i >= 2 and letters >= 2 and digits >= 2 and not overlaps:
            hits.append(CodeHit(span.note[start:end], start, end))
    return hits


def _spelled_piece(word: str) -> tuple[str, bool] | None:
    """One character of a code said as a Spanish letter name or a digit word, and whether that word could
    only be a letter name (not "de", "te", "a": ordinary words of a sentence)."""
    if word in LETTER_NAMES and len(word) > 1:
        return LETTER_NAMES[word], word not in KNOWN
    if word in DIGIT_WORDS and not word.isdigit():
        return DIGIT_WORDS[word], False
    return None


def _spelled_bare_codes(span: Span, taken: list[tuple[int, int]]) -> list[CodeHit]:
    """A code without its prefix said in letter names and digit words ("el siete efe tres ka dos"): a run of
    exactly five such words, at least two letters and two digits, one of the letters a word that is nothing
    but a letter name (so "dos de uno" in a sentence is never a code). Spelled: confidence check."""
    words = [
        (m.group(), m.start() + span.start, m.end() + span.start)
        for m in _CODE_TOKEN.finditer(span.folded_text)
    ]
    hits: list[CodeHit] = []
    i = 0
    while i < len(words):
        run: list[tuple[str, bool]] = []
        j, last = i, i
        while j < len(words) and len(run) < 6:
            if j > i:
                after = _next_word(span, words, j, words[last][2])
                if after is None:
                    break
                j = after
            piece = _spelled_piece(words[j][0])
            if piece is None or any(s <= words[j][1] < e for s, e in taken):
                break
            run.append(piece)
            last, j = j, j + 1
        body = "".join(c for c, _ in run)
        if (
            len(run) == 5
            and sum(c.isalpha() for c in body) >= 2
            and sum(c.isdigit() for c in body) >= 2
            and any(only for _, only in run)
        ):
            hits.append(CodeHit(f"TQ-{body}", words[i][1], words[last][2], spelled=True))
            i = j
            continue
        if (
            len(run) == 4
            and sum(c.isalpha() for c in body) >= 2
            and sum(c.isdigit() for c in body) >= 2
            and sum(only for _, only in run) >= 2
        ):
            # "el siete efe tres ka ya lo lavaron": four characters heard of five, a partial code.
            hits.append(CodeHit(f"TQ-{body}", words[i][1], words[last][2], spelled=True, partial=body))
            i = j
            continue
        i += 1
    return hits


def code_hits(span: Span) -> list[CodeHit]:
    """Every hat code heard in ``span`` (whole, spelled or partial), in order."""
    found: list[CodeHit] = []
    for match in _ODD_PREFIX.finditer(span.note, span.start, span.end):
        # K for Q is a slip, and an underscore ("tq_1p9kd") a separator nobody says: both lower the card.
        odd = "k" in match.group().lower()[1:3] or "_" in match.group()
        found.append(CodeHit(f"TQ-{match.group(1).upper()}", match.start(), match.end(), spelled=odd))
    for pattern in (_CODE_WITH_PREFIX, _BARE_CODE, _BARE_LOWER):
        for match in pattern.finditer(span.note, span.start, span.end):
            if any(h.start <= match.start() < h.end for h in found):
                continue
            found.append(CodeHit(match.group(), match.start(), match.end()))
    taken = [(h.start, h.end) for h in found]
    found.extend(_spoken_codes(span, taken))
    for match in _PREFIXED_PART.finditer(span.note, span.start, span.end):
        if not any(h.start < match.end() and match.start() < h.end for h in found):
            body = match.group(1).upper()
            found.append(CodeHit(f"TQ-{body}", match.start(), match.end(), partial=body))
    for match in _BARE_PART.finditer(span.note, span.start, span.end):
        if not any(h.start < match.end() and match.start() < h.end for h in found):
            body = match.group().upper()
            found.append(CodeHit(f"TQ-{body}", match.start(), match.end(), partial=body))
    taken = [(h.start, h.end) for h in found]
    found.extend(_spaced_bare_codes(span, taken))
    taken = [(h.start, h.end) for h in found]
    found.extend(_spelled_bare_codes(span, taken))
    for match in _LOWER_PART.finditer(span.note, span.start, span.end):
        if not any(h.start < match.end() and match.start() < h.end for h in found):
            body = match.group().upper()
            found.append(CodeHit(f"TQ-{body}", match.start(), match.end(), partial=body))
    return sorted(found, key=lambda h: h.start)


def find_codes(span: Span) -> list[tuple[str, int, int]]:
    """Hat codes as heard in ``span`` with their offsets in the note, in order (partial ones included)."""
    return [(h.heard, h.start, h.end) for h in code_hits(span)]
