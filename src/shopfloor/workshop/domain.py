"""Toquilla Trace domain rules as pure functions (stages, grades, codes, weavers, advancing, anomalies).

Nothing here touches a database, the network or the clock: callers pass the rows and ``now``. The agent's
propose tools and the approval path both call these functions, so a rule has exactly one definition.

This module is also the workshop's one vocabulary (docs/workshop-agent.md, "One vocabulary"): stages, grades,
straws, flag kinds, proposal types and statuses, the quantity, rows, quote and proposal bounds, and the
honorifics. The tool schemas, the argument models, the offline reader, the handlers and the approval path
read them from here.
"""

from __future__ import annotations

import math
import random
import re
import secrets
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal, TypedDict

# ---------------------------------------------------------------------------------------------------------
# Stages
# ---------------------------------------------------------------------------------------------------------

Stage = Literal["Weaving", "Washing", "Bleaching", "Blocking", "Finished"]
STAGES: tuple[Stage, ...] = ("Weaving", "Washing", "Bleaching", "Blocking", "Finished")
FINISHED: Stage = "Finished"
# The stages a hat is still being made in: every stage before Finished.
OPEN_STAGES: tuple[Stage, ...] = tuple(s for s in STAGES if s != FINISHED)


def stage_index(stage: str) -> int:
    """Position of ``stage`` in :data:`STAGES` (Weaving is 0). Raises ``ValueError`` for an unknown stage."""
    try:
        return STAGES.index(stage)  # type: ignore[arg-type]
    except ValueError:
        raise ValueError(f"Unknown stage {stage!r}; stages are {', '.join(STAGES)}.") from None


def is_stage(value: object) -> bool:
    """True when ``value`` is one of the five stage names (exact spelling)."""
    return isinstance(value, str) and value in STAGES


def next_stage(stage: str) -> Stage | None:
    """The stage after ``stage``, or None after Finished."""
    i = stage_index(stage)
    return STAGES[i + 1] if i + 1 < len(STAGES) else None


# ---------------------------------------------------------------------------------------------------------
# Grades and rows per inch
# ---------------------------------------------------------------------------------------------------------

Grade = Literal["Standard", "Fino", "Superfino"]
GRADES: tuple[Grade, ...] = ("Standard", "Fino", "Superfino")
MIN_ROWS = 6
MAX_ROWS = 40
# Rows per inch counted across the crown; inclusive ranges that tile 6..40 without gaps.
GRADE_ROWS: Mapping[Grade, tuple[int, int]] = {"Standard": (6, 13), "Fino": (14, 20), "Superfino": (21, 40)}
# Shortest believable weaving time per grade, measured from creation to leaving Weaving.
MIN_WEAVING_DAYS: Mapping[Grade, int] = {"Standard": 1, "Fino": 7, "Superfino": 21}
ROWS_ERROR = f"Rows per inch must be between {MIN_ROWS} and {MAX_ROWS}."

Straw = Literal["Natural", "Bleached", "Dyed"]
STRAWS: tuple[Straw, ...] = ("Natural", "Bleached", "Dyed")


def is_grade(value: object) -> bool:
    """True when ``value`` is one of the three grade names (exact spelling)."""
    return isinstance(value, str) and value in GRADES


def validate_rows(rows: object) -> bool:
    """True when ``rows`` is an integer (not a bool) from 6 to 40."""
    return isinstance(rows, int) and not isinstance(rows, bool) and MIN_ROWS <= rows <= MAX_ROWS


def grade_for(rows: int) -> Grade | None:
    """The grade that ``rows`` per inch belongs to, or None outside 6..40."""
    if not validate_rows(rows):
        return None
    for grade in GRADES:
        low, high = GRADE_ROWS[grade]
        if low <= rows <= high:
            return grade
    return None  # pragma: no cover - the ranges tile 6..40


def grade_mismatch(grade: str | None, rows: int) -> bool:
    """True when ``grade`` is not the grade of ``rows`` (an unknown grade or out-of-range rows also mismatch)."""
    expected = grade_for(rows)
    return expected is None or grade != expected


def grade_mismatch_message(grade: str | None, rows: int) -> str:
    """A plain sentence explaining why ``grade`` and ``rows`` disagree, e.g. for a blocked card.

    ``"Fino needs 14 to 20 rows per inch; 12 rows is Standard."``
    """
    actual = grade_for(rows)
    if actual is None:
        what = f"{rows} rows is outside {MIN_ROWS} to {MAX_ROWS}"
    else:
        what = f"{rows} rows is {actual}"
    if grade in GRADE_ROWS:
        low, high = GRADE_ROWS[grade]  # type: ignore[index]
        return f"{grade} needs {low} to {high} rows per inch; {what}."
    if grade is None:
        return f"No grade given; {what}."
    return f"{grade!s} is not a grade (Standard, Fino or Superfino); {what}."


# ---------------------------------------------------------------------------------------------------------
# Hat codes
# ---------------------------------------------------------------------------------------------------------

CODE_PREFIX = "TQ-"
CODE_BODY_LEN = 5
# New codes avoid I, L, O (read as 1, 1, 0) and U (heard as V), so a new code is never itself confusable.
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_CONFUSABLE = str.maketrans({"O": "0", "I": "1", "L": "1"})
_CODE_NOISE = re.compile(r"[\s.\-_]+")
_BODY = re.compile(r"^[A-Z0-9]+$")
_SEPARATED_PREFIX = re.compile(r"^TQ[\s.\-_]")

MatchStep = Literal["exact", "confusable", "fuzzy"]


def _raw_body(raw: str) -> str | None:
    """The uppercase characters after dropping separators and an optional TQ prefix (any length).

    A TQ set apart ("TQ-7F3", "tq 7f3") is always the prefix; a TQ run into five characters ("TQ7F3") is
    read as the body, since nothing tells the two apart (new codes never start with TQ, see :func:`new_code`).
    """
    upper = raw.strip().upper()
    text = _CODE_NOISE.sub("", upper)
    if not text.isascii() or not _BODY.match(text or "-"):
        return None
    if text.startswith("TQ") and (len(text) != CODE_BODY_LEN or _SEPARATED_PREFIX.match(upper)):
        text = text[2:]
    return text or None


def normalize_code(raw: str) -> str | None:
    """``TQ-XXXXX`` for "tq 7f3k2", "TQ7F3K2", "7F3K2", "tq-7f3k2" or "TQ.7F3K2"; None if the body is not 5 chars.

    Idempotent: a normalized code normalizes to itself.
    """
    if not isinstance(raw, str):
        return None
    body = _raw_body(raw)
    if body is None or len(body) != CODE_BODY_LEN:
        return None
    return CODE_PREFIX + body


def code_body(code: str) -> str:
    """The 5-character body of a normalized code."""
    return code[len(CODE_PREFIX) :] if code.startswith(CODE_PREFIX) else code


def canonical_code(code: str) -> str:
    """``code`` with the confusable letters replaced (O as 0, I and L as 1); used only for comparing."""
    return CODE_PREFIX + code_body(code).upper().translate(_CONFUSABLE)


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (insertions, deletions, substitutions) between two short strings."""
    if a == b:
        return 0
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def within_one_edit(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` are at most one insertion, deletion or substitution apart (fast path)."""
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) <= 1
    if abs(len(a) - len(b)) != 1:
        return False
    return edit_distance(a, b) == 1


@dataclass(frozen=True)
class CodeMatch:
    """Result of :func:`match_code`.

    ``code`` is set when exactly one hat matched; ``step`` says which step decided (``exact``, ``confusable``,
    ``fuzzy``), also when several ``candidates`` tied at that step (then ``code`` is None). ``normalized`` is
    the heard code after normalization (None when it is not a 5-character code).
    """

    heard: str
    normalized: str | None
    code: str | None
    step: MatchStep | None
    candidates: tuple[str, ...] = ()

    @property
    def matched(self) -> bool:
        """True when exactly one hat was found."""
        return self.code is not None

    @property
    def exact(self) -> bool:
        """True for an exact match (any other match must be checked by a person)."""
        return self.step == "exact" and self.code is not None


def match_code(heard: str, open_codes: Iterable[str], all_codes: Iterable[str] | None = None) -> CodeMatch:
    """Find the hat a heard code means: exact, then confusable (O/0, I/1, L/1), then one edit on the body.

    The exact step looks in ``all_codes`` when given (every hat of the workshop), else in ``open_codes``; the
    confusable and fuzzy steps look only in ``open_codes``. Several hats at one step are returned as
    ``candidates`` without a match, so the caller asks instead of guessing.
    """
    opened = sorted({c for c in open_codes})
    every = sorted(set(all_codes)) if all_codes is not None else opened
    normalized = normalize_code(heard)
    if normalized is not None and normalized in every:
        return CodeMatch(heard, normalized, normalized, "exact", (normalized,))
    body = code_body(normalized) if normalized else _raw_body(heard) if isinstance(heard, str) else None
    if not body:
        return CodeMatch(heard, normalized, None, None)
    heard_canonical = canonical_code(body)
    if normalized is not None:
        same = tuple(c for c in opened if canonical_code(c) == heard_canonical)
        if same:
            return CodeMatch(heard, normalized, same[0] if len(same) == 1 else None, "confusable", same)
    if abs(len(body) - CODE_BODY_LEN) <= 1:
        near = tuple(
            c for c in opened if edit_distance(code_body(canonical_code(c)), code_body(heard_canonical)) == 1
        )
        if near:
            return CodeMatch(heard, normalized, near[0] if len(near) == 1 else None, "fuzzy", near)
    return CodeMatch(heard, normalized, None, None)


def new_code(existing: Iterable[str], rng: random.Random | None = None, attempts: int = 10_000) -> str:
    """A fresh ``TQ-XXXXX`` from :data:`CODE_ALPHABET` that differs from every existing code.

    It never equals an existing code even after the confusable mapping, and is not one edit away from one,
    so a misheard new code is less likely to land on another hat. Its body never starts with TQ, so
    "TQ7F3" heard without a separator cannot be read two ways for a new code.
    """
    pick = rng or secrets.SystemRandom()
    taken = {code_body(canonical_code(c)) for c in existing}
    for _ in range(attempts):
        body = "".join(pick.choice(CODE_ALPHABET) for _ in range(CODE_BODY_LEN))
        if body in taken or body.startswith("TQ"):
            continue
        if any(within_one_edit(body, t) for t in taken):
            continue
        return CODE_PREFIX + body
    raise RuntimeError("Could not find a free hat code.")  # pragma: no cover - 33M codes


def new_codes(count: int, existing: Iterable[str], rng: random.Random | None = None) -> list[str]:
    """``count`` new codes, unique among themselves and against ``existing``."""
    taken = list(existing)
    out: list[str] = []
    for _ in range(count):
        code = new_code(taken, rng)
        taken.append(code)
        out.append(code)
    return out


# ---------------------------------------------------------------------------------------------------------
# Records as plain values (no ORM): what the rules read
# ---------------------------------------------------------------------------------------------------------

OwnerType = Literal["workshop", "seller", "buyer"]
OWNER_TYPES: tuple[OwnerType, ...] = ("workshop", "seller", "buyer")
Role = Literal["member", "admin"]
EventType = Literal["created", "stage_changed", "flag_raised", "flag_resolved", "owner_changed"]
EVENT_TYPES: tuple[EventType, ...] = (
    "created",
    "stage_changed",
    "flag_raised",
    "flag_resolved",
    "owner_changed",
)
FlagKind = Literal["grade_mismatch", "too_fast", "weaver_not_found", "other"]
FLAG_KINDS: tuple[FlagKind, ...] = ("grade_mismatch", "too_fast", "weaver_not_found", "other")
MAX_FLAG_MESSAGE = 200
FLAG_MESSAGE_ERROR = f"message must be 1 to {MAX_FLAG_MESSAGE} characters."


def flag_record_message(message: str, quote: str) -> str:
    """The text a raised flag keeps: the person's own words (the card's quote) and the card's message.

    A message that holds the quote, or is itself part of it, already carries the person's words and is kept
    as it is; otherwise the quote comes first, then the message (``"mancha en el ala" — Stain on the brim.``),
    cut to :data:`MAX_FLAG_MESSAGE` characters. White space runs count as one space.
    """
    text, words = collapse_spaces(message), collapse_spaces(quote)
    if not words or words in text or (text and text in words):
        return (text or words)[:MAX_FLAG_MESSAGE]
    if not text:
        return words[:MAX_FLAG_MESSAGE]
    return f'"{words}" — {text}'[:MAX_FLAG_MESSAGE]


# ---------------------------------------------------------------------------------------------------------
# Proposals: what a card proposes, where it stands, and how much one note may ask for
# ---------------------------------------------------------------------------------------------------------

ProposalType = Literal["create_hat", "advance_stage", "flag_issue"]
PROPOSAL_TYPES: tuple[ProposalType, ...] = ("create_hat", "advance_stage", "flag_issue")
ProposalStatus = Literal["pending", "question", "blocked", "approved", "rejected"]
PROPOSAL_STATUSES: tuple[ProposalStatus, ...] = ("pending", "question", "blocked", "approved", "rejected")
# A run buffers cards in the first three statuses; only a person's decision gives the last two.
BufferedStatus = Literal["pending", "question", "blocked"]
DecidedStatus = Literal["approved", "rejected"]
DECIDED_STATUSES: tuple[DecidedStatus, ...] = ("approved", "rejected")
Confidence = Literal["high", "check"]
CONFIDENCES: tuple[Confidence, ...] = ("high", "check")

MIN_QUANTITY = 1
MAX_QUANTITY = 20
QUANTITY_ERROR = f"quantity must be between {MIN_QUANTITY} and {MAX_QUANTITY}."
MAX_PROPOSALS = 10
# A note for the agent: 1 to MAX_NOTE characters after trimming, the same for the API, the pages and the run.
MAX_NOTE = 1000


def validate_quantity(quantity: object) -> bool:
    """True when ``quantity`` is an integer (not a bool) from 1 to 20: how many hats one card may create."""
    return (
        isinstance(quantity, int)
        and not isinstance(quantity, bool)
        and MIN_QUANTITY <= quantity <= MAX_QUANTITY
    )


@dataclass(frozen=True)
class Actor:
    """Who is acting: a signed-in user of one workshop."""

    user_id: str
    workshop_id: str
    role: Role = "member"
    name: str = ""

    @property
    def is_admin(self) -> bool:
        """True for workshop admins."""
        return self.role == "admin"


@dataclass(frozen=True)
class Weaver:
    """A weaver of a workshop."""

    id: str
    name: str
    village: str = ""
    province: str = ""
    specialty: str | None = None
    archived: bool = False
    workshop_id: str = ""


@dataclass(frozen=True)
class Hat:
    """A hat record as the rules see it. ``weaver`` is the hat's weaver row, None when it is missing."""

    code: str
    stage: str
    grade: str
    rows_per_inch: int
    workshop_id: str
    created_at: datetime
    owner_type: str = "workshop"
    owner_name: str | None = None
    archived: bool = False
    weaver_id: str | None = None
    weaver: Weaver | None = None
    straw: str | None = None
    version: int = 1
    id: str = ""


@dataclass(frozen=True)
class HatEvent:
    """One event of a hat's history."""

    type: str
    created_at: datetime
    from_stage: str | None = None
    to_stage: str | None = None


class RuleResult(TypedDict):
    """What a rule said: ``allowed``, a stable ``code`` (None when allowed), a plain ``message``, a ``fix``,
    and ``params``: the message's parts by name, so a page can say the same in its own language from
    ``code`` and ``params`` (docs/workshop-pages.md, "Cards")."""

    allowed: bool
    code: str | None
    message: str
    fix: dict[str, Any] | None
    params: dict[str, Any]


def rule_result(
    allowed: bool,
    code: str | None,
    message: str,
    fix: dict[str, Any] | None = None,
    params: dict[str, Any] | None = None,
) -> RuleResult:
    """The one way to build what a rule said (``code`` is None when allowed; ``fix`` a suggested change;
    ``params`` the parts of ``message``)."""
    return {"allowed": allowed, "code": code, "message": message, "fix": fix, "params": dict(params or {})}


def refusal(
    code: str, message: str, fix: dict[str, Any] | None = None, params: dict[str, Any] | None = None
) -> RuleResult:
    """A rule saying no, with its stable ``code`` and the ``params`` of its message."""
    return rule_result(False, code, message, fix, params)


def grade_mismatch_params(grade: str | None, rows: int) -> dict[str, Any]:
    """The parts of :func:`grade_mismatch_message`: the grade given, its row range (when it is a grade), the
    rows and the grade they belong to (None outside 6..40)."""
    params: dict[str, Any] = {"grade": grade, "rows": rows, "actual": grade_for(rows)}
    if grade in GRADE_ROWS:
        params["low"], params["high"] = GRADE_ROWS[grade]  # type: ignore[index]
    return params


def checked(
    result: Mapping[str, Any], now: datetime, warnings: Sequence[str] | None = None, **extra: Any
) -> dict[str, Any]:
    """``result`` as a card stores it: with ``warnings`` (given, else the result's own, else none) and
    ``checked_at``, then any ``extra`` fields (docs/workshop.md, "Rules")."""
    kept = list(warnings) if warnings is not None else list(result.get("warnings", []))
    return {**result, "warnings": kept, "checked_at": now.isoformat(), **extra}


class Anomaly(TypedDict):
    """Something odd in a hat's record: ``kind`` is a flag kind, ``message`` a plain sentence."""

    kind: str
    message: str
    params: dict[str, Any]


# ---------------------------------------------------------------------------------------------------------
# Advancing a hat
# ---------------------------------------------------------------------------------------------------------

NOT_OWNER_MESSAGE = "Only the current owner can change the stage."


def can_advance(hat: Hat, to_index: int, actor: Actor) -> RuleResult:
    """May ``actor`` move ``hat`` to stage ``STAGES[to_index]``? Checks, in order: archived, not_owner,
    already_finished, same_stage, backward, stage_skip (with fix ``{"to_stage": next_stage(from)}``).

    A hat is the workshop's to move only when it is owned by the workshop (not a seller or buyer) and belongs
    to the actor's workshop. Raises ``ValueError`` for an index outside the five stages.
    """
    if not 0 <= to_index < len(STAGES):
        raise ValueError(f"Stage index {to_index} is outside 0..{len(STAGES) - 1}.")
    target = STAGES[to_index]
    from_index = stage_index(hat.stage)
    if hat.archived:
        return refusal(
            "archived",
            f"{hat.code} is archived; archived hats do not change stage.",
            params={"code": hat.code},
        )
    if hat.owner_type != "workshop" or hat.workshop_id != actor.workshop_id:
        return refusal("not_owner", NOT_OWNER_MESSAGE)
    if STAGES[from_index] == FINISHED:
        return refusal(
            "already_finished",
            f"{hat.code} is already Finished; finished hats do not change stage.",
            params={"code": hat.code},
        )
    if to_index == from_index:
        return refusal(
            "same_stage", f"{hat.code} is already at {target}.", params={"code": hat.code, "stage": target}
        )
    if to_index < from_index:
        return refusal(
            "backward",
            f"{hat.code} is at {hat.stage}; stages only move forward, so it cannot go back to {target}.",
            params={"code": hat.code, "stage": hat.stage, "to": target},
        )
    following = next_stage(hat.stage)
    if to_index > from_index + 1:
        return refusal(
            "stage_skip",
            f"{hat.code} is at {hat.stage}; the next stage is {following}, so it cannot skip to {target}.",
            {"to_stage": following},
            {"code": hat.code, "stage": hat.stage, "next": following, "to": target},
        )
    return rule_result(True, None, f"{hat.code} can move from {hat.stage} to {target}.")


# ---------------------------------------------------------------------------------------------------------
# Anomalies
# ---------------------------------------------------------------------------------------------------------


def left_weaving_at(events: Iterable[HatEvent]) -> datetime | None:
    """When the hat first left Weaving (the earliest stage change out of Weaving), if it did."""
    times = [
        e.created_at
        for e in events
        if e.type == "stage_changed"
        and (e.from_stage == "Weaving" or (e.from_stage is None and e.to_stage not in (None, "Weaving")))
    ]
    return min(times) if times else None


# A hat delivered by its weaver arrives woven: its ``created`` event comes *from* Weaving (weaving ended at the
# delivery), so how long it was woven is not in the record and is never judged too fast (docs/workshop.md,
# "Rules").
WOVEN_AT_DELIVERY: Stage = "Weaving"


def arrived_woven(events: Iterable[HatEvent]) -> bool:
    """True when the record says the hat arrived already woven: its ``created`` event comes from Weaving."""
    return any(e.type == "created" and e.from_stage == WOVEN_AT_DELIVERY for e in events)


def detect_anomalies(hat: Hat, events: Sequence[HatEvent], now: datetime) -> list[Anomaly]:
    """What looks wrong in ``hat``'s record: ``grade_mismatch`` (grade vs rows), ``too_fast`` (left Weaving
    sooner than the grade's minimum weaving days after creation, for a hat whose weaving the record holds: not
    one that :func:`arrived_woven`) and ``weaver_not_found`` (missing or archived).

    Events later than ``now`` are ignored, so a caller may pass a simulated event at ``now`` to ask "would this
    move be too fast?".
    """
    found: list[Anomaly] = []
    if grade_mismatch(hat.grade, hat.rows_per_inch):
        found.append(
            {
                "kind": "grade_mismatch",
                "message": f"{hat.code}: {grade_mismatch_message(hat.grade, hat.rows_per_inch)}",
                "params": {"code": hat.code, **grade_mismatch_params(hat.grade, hat.rows_per_inch)},
            }
        )
    known = [e for e in events if e.created_at <= now]
    left = left_weaving_at(known)
    if left is not None and hat.grade in MIN_WEAVING_DAYS and not arrived_woven(known):
        days = MIN_WEAVING_DAYS[hat.grade]  # type: ignore[index]
        took = left - hat.created_at
        if took < timedelta(days=days):
            found.append(
                {
                    "kind": "too_fast",
                    "message": (
                        f"{hat.code} left Weaving {_describe_span(took)} after it was created; "
                        f"{hat.grade} hats take at least {days} day{'s' if days != 1 else ''} to weave."
                    ),
                    # The span in whole hours (negative: before creation), so a page can say it in words.
                    "params": {
                        "code": hat.code,
                        "grade": hat.grade,
                        "days": days,
                        "hours": math.floor(took.total_seconds() / 3600),
                    },
                }
            )
    weaver = hat.weaver
    if weaver is None or weaver.archived or (hat.weaver_id is not None and weaver.id != hat.weaver_id):
        found.append(
            {
                "kind": "weaver_not_found",
                "message": f"{hat.code}: its weaver is missing or archived.",
                "params": {"code": hat.code},
            }
        )
    return found


def _describe_span(span: timedelta) -> str:
    hours = span.total_seconds() / 3600
    if hours < 0:
        return "before it was created"
    if hours < 48:
        return f"{int(hours)} hour{'s' if int(hours) != 1 else ''}"
    return f"{int(hours // 24)} days"


# ---------------------------------------------------------------------------------------------------------
# Weavers
# ---------------------------------------------------------------------------------------------------------

# Folded honorifics: the weaver matcher drops them from a heard name, and the offline reader builds its
# "Doña Rosa" pattern from them, so a title the reader hears is always one the matcher ignores
# (docs/workshop.md, "Weavers").
HONORIFICS = frozenset({"dona", "don", "sra", "senora", "srta", "sr", "senor", "mrs", "mr", "ms", "miss"})
MAX_WEAVER_MATCHES = 5
_WORD = re.compile(r"[^\W_]+")


def fold(text: str) -> str:
    """Lowercase without accents ("Doña Rosa Guamán" -> "dona rosa guaman"), for comparing names."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def name_words(text: str) -> list[str]:
    """Folded words of a name, honorifics kept."""
    return _WORD.findall(fold(text))


def query_words(query: str) -> list[str]:
    """Folded words of a heard name with honorifics dropped ("Doña Rosa" -> ["rosa"])."""
    return [w for w in name_words(query) if w not in HONORIFICS]


def match_weavers(
    query: str, weavers: Iterable[Weaver], include_archived: bool = False, limit: int = MAX_WEAVER_MATCHES
) -> list[Weaver]:
    """Weavers whose name has, for every query word, a word starting with it (accents, case and honorifics
    ignored); archived weavers are skipped unless asked. At most ``limit`` (5), in the given order.
    """
    words = query_words(query)
    if not words:
        return []
    found: list[Weaver] = []
    for weaver in weavers:
        if weaver.archived and not include_archived:
            continue
        names = name_words(weaver.name)
        if all(any(n.startswith(w) for n in names) for w in words):
            found.append(weaver)
            if len(found) >= limit:
                break
    return found


# ---------------------------------------------------------------------------------------------------------
# Quotes
# ---------------------------------------------------------------------------------------------------------

QUOTE_MIN = 3
QUOTE_MAX = 160


def collapse_spaces(text: str) -> str:
    """Runs of white space as one space, trimmed."""
    # str.split() splits on the characters the regex's \s matches (str.isspace), several times faster.
    return " ".join(text.split())


def escape_note(note: str) -> str:
    """The note as the model sees it inside ``<note>`` tags: ``<`` written as ``&lt;``."""
    return note.replace("<", "&lt;")


def quote_in_note(quote: str, note: str) -> bool:
    """True when ``quote`` (3 to 160 characters) is words copied exactly from ``note`` or its escaped form.

    White space runs count as one space on both sides; case and accents must match.
    """
    if not isinstance(quote, str) or not isinstance(note, str):
        return False
    wanted = collapse_spaces(quote)
    if not QUOTE_MIN <= len(wanted) <= QUOTE_MAX:
        return False
    return wanted in collapse_spaces(note) or wanted in collapse_spaces(escape_note(note))
