"""One sentence to segments: clauses that continue the one before are joined to it, further batches of the
same weaver and flags on the hat just moved are segments of their own, bare names join the delivery after them.
Each segment is then read into events (``events``).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from shopfloor.workshop.agent.offline.codes import find_codes
from shopfloor.workshop.agent.offline.events import (
    delivering_person,
    grade_against_rows,
    is_future,
    read_segment,
    reference_of,
)
from shopfloor.workshop.agent.offline.names import (
    is_name_word,
    name_at,
    person_name,
    weaver_hat_ref,
)
from shopfloor.workshop.agent.offline.quantities import number_at, read_numbers
from shopfloor.workshop.agent.offline.results import (
    HatRef,
    NoteEvent,
    Part,
    Skipped,
    skip_part,
)
from shopfloor.workshop.agent.offline.signals import (
    ASIDE,
    TAKEN_AWAY,
    flag_kind_of,
    is_negated,
    is_noise,
    own_verb,
    reason_with_a_problem,
)
from shopfloor.workshop.agent.offline.stages import stage_mentions
from shopfloor.workshop.agent.offline.text import (
    Span,
    split_clauses,
    strip_span,
)
from shopfloor.workshop.agent.offline.vocabulary import (
    CREATE_VERBS,
    GRADE_WORDS,
    HAT_NOUNS,
    NAME_OPENERS,
    PRONOUNS,
    ROW_WORDS,
    STOP_WORDS,
)
from shopfloor.workshop.domain import QUOTE_MAX


def _has_subject(span: Span) -> bool:
    """Whether a clause names its own subject: a hat code, a hat by its weaver, or a person."""
    if find_codes(span) or weaver_hat_ref(span) or reference_of(span) is not None:
        return True
    return person_name(span, []) is not None


def _add_filler(clause: Span, skipped: list[Skipped], parts: list[Part]) -> None:
    """Account for a filler or aside clause; filler that runs on ("hola, buenos días") is one part."""
    folded = clause.folded_text
    previous = parts[-1] if parts else None
    if (
        previous is not None
        and previous.mark == "filler"
        # only the filler right before it: an aside accounted earlier may stand later in the note
        and previous.end <= clause.start
        and not clause.note[previous.end : clause.start].strip(" ,")
    ):
        merged = clause.source[previous.start : clause.end]
        parts[-1] = Part("filler", merged, previous.start, clause.end)
        if skipped and skipped[-1].reason == "noise":
            skipped[-1] = Skipped("noise", merged)
        return
    if is_noise(folded):
        skipped.append(Skipped("noise", clause.said))
    parts.append(Part("filler", clause.said, clause.start, clause.end))


def _own_card_on_the_same_hat(clause: Span, previous: Span, hat: Span) -> bool:
    """Whether a clause without a subject is its own card about the hat ``hat`` names (the clause before).

    "pasó a blanqueo, pero ojo que tiene una mancha": a flag on the hat just moved, its own card, as is a
    problem of another kind beside a grade said against its rows; "tiene una mancha, pero igual pásalo a
    blanqueo": the move is its own card, and the flag keeps only the person's words
    about the hat; "ya no está en lavado, pasó a blanqueo": the denial keeps to its clause, the move is read.
    """
    names_hat = bool(find_codes(hat) or weaver_hat_ref(hat) or reference_of(hat))  # "It has…, and…"
    # A grade said against its rows and a problem of another kind are two flags ("le pusieron fino pero no le
    # alcanzan las hileras, y además tiene el ala torcida"), in either order.
    kind, kind_before = flag_kind_of(clause), flag_kind_of(previous)
    other_kind = (
        kind is not None
        and kind_before is not None
        and kind != kind_before
        and "grade_mismatch" in (kind, kind_before)
        # the grade may be said in the clause that named the hat ("le pusieron fino, pero no le alcanzan…")
        and _grade_and_row_words(clause.part(min(hat.start, previous.start), clause.end))
    )
    own_flag = kind is not None and (kind_before is None or other_kind)
    own_move = (
        flag_kind_of(previous) is not None
        and flag_kind_of(clause) is None
        and any(m.target for m in stage_mentions(clause, True))
        and not any(m.target for m in stage_mentions(previous, True))
    )
    after_denial = is_negated(previous) and not is_negated(clause) and _has_content(clause)
    return names_hat and (own_flag or own_move or after_denial)


def _grade_and_row_words(span: Span) -> bool:
    """Whether ``span`` says a grade and rows, so a grade mismatch in it is a grade said against its rows, in
    numbers or in words ("dice fino pero tiene 12 hileras", "le pusieron fino pero no le alcanzan las
    hileras"), not only "no coincide el grado"."""
    words = set(span.words())
    return bool(words & set(GRADE_WORDS)) and bool(words & ROW_WORDS)


def read_sentence(
    sentence: Span, has_hat_tag: bool, events: list[NoteEvent], skipped: list[Skipped], parts: list[Part]
) -> None:
    """Read one sentence (corrections already withdrawn) into events, clause by clause: a clause that names no
    subject continues the segment before it, unless it is filler, unread, a denial, another batch of the same
    weaver or its own card about the same hat."""
    segments, inherited, inherited_hats = _segments_of(sentence, skipped, parts)
    segments = _join_bare_hats(segments)
    segments, partners = _join_bare_people(segments)
    _read_segments(segments, has_hat_tag, events, skipped, parts, inherited, inherited_hats, partners)


def _segments_of(
    sentence: Span, skipped: list[Skipped], parts: list[Part]
) -> tuple[list[Span], dict[Span, str], dict[Span, Span]]:
    """The sentence's clauses joined into segments, each one event's words, with the weaver a further batch
    inherits and the hat a clause about the same hat inherits; filler and unread clauses are accounted."""
    segments: list[Span] = []
    inherited: dict[Span, str] = {}  # a further batch of the same weaver ("…y 2 estándar de 12")
    inherited_hats: dict[Span, Span] = {}  # a flag clause about the hat the clause before moved
    clauses = _reasons_apart(split_clauses(sentence))
    for index, clause in enumerate(clauses):
        folded = clause.folded_text
        subject = _has_subject(clause)
        if not subject and (ASIDE.match(folded) or (is_noise(folded) and clause.text.strip())):
            _add_filler(clause, skipped, parts)
            continue
        if segments and not subject and more_of_same(clause) is not None:
            # "…entregó 2 normales de 12 hileras y luego otros 3 iguales": more of the batch before.
            segments.append(clause)
            continue
        closing = index == len(clauses) - 1 or _has_subject(clauses[index + 1])
        said_before = bool(segments) and (
            _has_content(segments[-1]) or more_of_same(segments[-1]) is not None
        )
        if segments and not subject and closing and not _has_content(clause) and said_before:
            # "…pasó a lavado, y la paja llegó mojada": words that add nothing to the event before them are
            # not read into it; they are named as unread (also after "y otro más igual, ya le cancelé").
            skip_part(skipped, parts, "unread", clause)
            continue
        if segments and not subject:
            _continue_segment(clause, segments, inherited, inherited_hats, skipped, parts)
        else:
            _start_segment(clause, segments, inherited)
    return segments, inherited, inherited_hats


def _reasons_apart(clauses: list[Span]) -> list[Span]:
    """Clauses with a reason that reports a problem split before it: the problem is a clause of its own about
    the same hat, never denied by a "no" before it (docs/workshop-agent.md, rule 3)."""
    out: list[Span] = []
    for clause in clauses:
        found = reason_with_a_problem(clause)
        if found is None:
            out.append(clause)
            continue
        out.extend(part for part in (clause.part(clause.start, found[0]), clause.part(found[1], clause.end)))
    return [strip_span(span) for span in out if span.text.strip()]


def _continue_segment(
    clause: Span,
    segments: list[Span],
    inherited: dict[Span, str],
    inherited_hats: dict[Span, Span],
    skipped: list[Skipped],
    parts: list[Part],
) -> None:
    """A clause that names no subject: its own part, a batch or card of its own, or the last segment's
    continuation."""
    if is_future(clause) and not is_future(segments[-1]):
        # "ya lavamos el TQ-7F3K2 y el viernes le toca blanqueo": a plan said after a report is its own
        # part, never read into the report.
        skip_part(skipped, parts, "future", clause)
        return
    if (
        _OTHER.match(clause.folded_text)
        and not is_negated(clause)
        and not (
            _is_batch(clause) and (inherited.get(segments[-1]) or _create_subject(segments[-1])) is not None
        )
    ):
        # ("…, uno de 24 y el otro de 26 hileras" is the batch's other hat, read as a batch below.)
        # "uno pasó a lavado y el otro sigue en tejido": the other hat is not pinned down, and what is
        # said of it is not the first one's; named unread.
        skip_part(skipped, parts, "unread", clause)
        return
    if is_negated(clause) and (_has_content(clause) or _OTHER.match(clause.folded_text)):
        # A denial belongs to its own clause ("…pasó a lavado, no a blanqueo", "not bleached yet", "uno
        # ya está en lavado, el otro no").
        skipped.append(Skipped("negated", clause.said))
        parts.append(Part("denied", clause.said, clause.start, clause.end))
        return
    if TAKEN_AWAY.search(clause.folded_text) or (_is_batch(clause) and own_verb(clause)):
        # "…, la rosa guaman se fue con dos normales": hats taken away, not delivered; "…y pidió 3 de 16": a
        # batch with a verb of its own that delivers nothing. Named unread.
        skip_part(skipped, parts, "unread", clause)
        return
    if _is_batch(clause) and _bare_person(segments[-1]) is not None:
        # "Entregaron hoy:" then "• Carmen, 2 finos de 16 hileras": the name and its batch are one item.
        person = segments.pop()
        if segments and _delivery_heading(segments[-1]):
            segments[-1] = clause.part(segments[-1].start, clause.end)
            return
        item = clause.part(person.start, clause.end)
        licence = (
            bool(segments) and (inherited.get(segments[-1]) or _create_subject(segments[-1])) is not None
        )
        segments.append(item)
        if licence:
            inherited[item] = _bare_person(person) or ""
        return
    weaver = inherited.get(segments[-1]) or _create_subject(segments[-1])
    licensed = not is_negated(segments[-1]) and not is_future(segments[-1])
    if weaver is not None and licensed and _is_batch(clause):
        # A batch takes its licence from a delivery said before it, never from one denied or planned
        # ("Manuel hasn't dropped off the superfinos yet, 3 of 28 rows when he does").
        segments.append(clause)
        inherited[clause] = weaver
        return
    opens = clause.words()[:1] and clause.words()[0] in NAME_OPENERS
    if clause.dictated and opens and _bare_person(clause) is not None and _bare_person(segments[-1]) is None:
        # "…uno de catorce, y el manuel, este, tres superfinos de 22": a name said alone after the batch
        # before is not that batch's; it waits for the batch after it (above), or is named unread.
        segments.append(clause)
        return
    last = inherited_hats.get(segments[-1], segments[-1])
    if _own_card_on_the_same_hat(clause, segments[-1], last):
        segments.append(clause)
        inherited_hats[clause] = last
        return
    # A clause with no subject continues the last one.
    joined = clause.part(segments[-1].start, clause.end)
    if segments[-1] in inherited_hats:
        inherited_hats[joined] = inherited_hats.pop(segments[-1])
    if segments[-1] in inherited:  # "…y otro de 26 hileras, superfinos": still that weaver's batch
        inherited[joined] = inherited.pop(segments[-1])
    segments[-1] = joined


def _start_segment(clause: Span, segments: list[Span], inherited: dict[Span, str]) -> None:
    """A clause that names its subject starts a segment (or is a delivery heading's first item)."""
    if segments and _delivery_heading(segments[-1]) and person_name(clause, []) and _is_batch(clause):
        # "Entregaron hoy:" then "Rosa Pillco 3 finos de 18": the heading's verb is the first item's.
        segments[-1] = clause.part(segments[-1].start, clause.end)
        return
    segments.append(clause)
    gapped = person_name(clause, []) if segments[:-1] and _is_batch(clause) else None
    # "…entregó docena y media de 11 hileras, y otros 2 iguales; la Carmen un par de 15": the batch the
    # verb was said with stands before the hats added to it.
    batch = len(segments) - 2
    while batch > 0 and more_of_same(segments[batch]) is not None:
        batch -= 1
    if (
        gapped
        and not set(clause.words()) & CREATE_VERBS
        and not own_verb(clause)  # "…, y Manuel se llevó 5 superfinos": his own verb, no delivery
        and (inherited.get(segments[batch]) or _create_subject(segments[batch])) is not None
    ):
        # "Manuel entregó 1 superfino de 24, Carmen Quizhpi 1 fino de 16": the verb said once is each
        # weaver's ("entregó" licenses Carmen's batch too).
        inherited[clause] = gapped


def _read_segments(
    segments: list[Span],
    has_hat_tag: bool,
    events: list[NoteEvent],
    skipped: list[Skipped],
    parts: list[Part],
    inherited: dict[Span, str],
    inherited_hats: dict[Span, Span],
    partners: dict[Span, tuple[str, ...]],
) -> None:
    """Each segment read into its events; "lo mismo Carmen" and "otros 3 iguales" repeat the one before."""
    read_from: dict[Span, list[NoteEvent]] = {}
    moved_in: dict[Span, list[NoteEvent]] = {}
    for index, segment in enumerate(segments):
        name = _same_for(segment)
        more = more_of_same(segment)
        before = segments[index - 1] if index else None
        if (name is not None or more is not None) and before is not None and read_from.get(before):
            _read_same_for(segment, before, name, read_from[before], events, parts, more)
            read_from[segment] = read_from[before]
            continue
        also = _also_hat(segment)
        if also is not None and before is not None and moved_in.get(before):
            # "El TQ-2C5P0 pasó a blanqueo y el de Carmen también": her hat shares the move before it.
            moved_in[segment] = [_shared_move(segment, before, also, moved_in[before][-1])]
            events.extend(moved_in[segment])
            parts.append(Part("read", segment.said, segment.start, segment.end, "advance"))
            continue
        first = len(events)
        read_segment(
            segment,
            has_hat_tag,
            events,
            skipped,
            parts,
            inherited.get(segment),
            partners.get(segment, ()),
            inherited_hats.get(segment),
        )
        read_from[segment] = [e for e in events[first:] if e.kind == "create" and not e.weavers]
        moved_in[segment] = [e for e in events[first:] if e.kind == "advance"]


def _also_hat(span: Span) -> tuple[str, int, int] | None:
    """The hat a clause names by its weaver when it says nothing else of it but "también" / "igual" / "too"
    ("y el de Carmen también", "and Carmen's hat too"): it shares the move said before it."""
    by_weaver = weaver_hat_ref(span)
    if by_weaver is None or find_codes(span) or not _ALSO.search(span.folded_text):
        return None
    if stage_mentions(span, True) or flag_kind_of(span) is not None or is_negated(span):
        return None
    numbers = read_numbers(span)
    if numbers.quantity is not None or numbers.rows is not None or set(span.words()) & CREATE_VERBS:
        return None
    return by_weaver


def _shared_move(span: Span, before: Span, by_weaver: tuple[str, int, int], move: NoteEvent) -> NoteEvent:
    """The move said before, for the hat ``span`` names by its weaver: an inference (found by weaver and
    stage borrowed), so never ``high``; its quote runs from the move's words to the hat's."""
    said = span.source[before.start : span.end]
    quote = said if len(said) <= QUOTE_MAX else span.said
    ref = HatRef(weaver_name=by_weaver[0])
    where = (("weaver", by_weaver[1], by_weaver[2]),)
    return NoteEvent("advance", quote, hat=ref, to_stage=move.to_stage, sources=where, unsure=True)


# "…; Rosa Guamán también", "…, and Carmen too", "lo mismo Carmen": the delivery before is this person's too.
_SAME_FOR = re.compile(
    r"^(?:y |e |and )?(?:(?:lo mismo|igual|tambien|same (?:for|with)|so did) .+|.+ (?:tambien|too|as well|igual|lo mismo))$"
)


def _same_for(span: Span) -> str | None:
    """The person a clause says the event before is also about ("Rosa Guamán también"): a name and an
    "also" word, nothing else of an event (no number, stage, hat or problem); None otherwise."""
    if not _SAME_FOR.match(" ".join(span.folded_text.split())):
        return None
    if is_negated(span) or is_future(span) or find_codes(span) or weaver_hat_ref(span):
        return None
    numbers = read_numbers(span)
    if numbers.quantity is not None or numbers.rows is not None or stage_mentions(span, False):
        return None
    if set(span.words()) & CREATE_VERBS or flag_kind_of(span) is not None:
        return None
    return person_name(span, [])


# "y luego otros 3 iguales", "otras dos más", "and another 2 like those": more hats of the batch before.
_MORE = re.compile(
    r"^(?:(?:y|e|and|luego|despues|then|ademas|plus)\s+)*(?:otros|otras|another|other)\s+(\w+(?:\s+y\s+\w+)?)"
    r"(?:\s+(?:mas|more))?(?:\s+(?:iguales|igualitos|del mismo|de los mismos|asi|like (?:those|them|that)|the same))?$"
)


# "y otro más igual", "uno más", "and one more like that": one more hat of the batch before ("otro" alone is
# another hat, "el otro" a reference, and "otro de 26" a batch of its own: none of them says "the same").
_SAME = r"(?:igual|igualito|igualita|asi|del mismo|like (?:that|those|them|it)|the same)"
_ONE_MORE = re.compile(
    r"^(?:(?:y|e|and|luego|despues|then|ademas|plus)\s+)*"
    r"(?:(?:otro|otra)\s+(?:mas(?:\s+" + _SAME + r")?|" + _SAME + r")|(?:uno|una)\s+mas(?:\s+" + _SAME + r")?"
    r"|one more(?:\s+" + _SAME + r")?|another(?:\s+one)?\s+" + _SAME + r")$"
)


def more_of_same(span: Span) -> int | None:
    """How many more hats of the batch before a clause says ("otros 3 iguales", "otro más igual": one), or
    None when it says something else."""
    said = " ".join(span.folded_text.split())
    if _ONE_MORE.match(said):
        return 1
    found = _MORE.match(said)
    if found is None:
        return None
    tokens = Span.whole(found.group(1)).tokens()
    number = number_at(tokens, 0) if tokens else None
    return number[0] if number is not None and number[1] == len(tokens) else None


def _read_same_for(
    span: Span,
    before: Span,
    name: str | None,
    delivered: list[NoteEvent],
    events: list[NoteEvent],
    parts: list[Part],
    more: int | None = None,
) -> None:
    """The batches the segment before delivered, as this person's too ("…; Rosa Guamán también"), or ``more``
    hats of the last of them ("y otros 3 iguales", added to it by ``reader.merge_batches``): an inference (the
    note does not say the batch again), so never ``high`` (docs/workshop-agent.md, "The three rules", rule 2)."""
    said = span.source[before.start : span.end]
    quote = said if len(said) <= QUOTE_MAX else span.said
    where: tuple[tuple[str, int, int], ...]
    if more is not None:
        event = delivered[-1]
        where = (("quantity", span.start, span.end),)
        kept = tuple(s for s in event.sources if s[0] != "quantity")
        events.append(replace(event, quantity=more, quote=quote, unsure=True, sources=kept + where))
    else:
        assert name is not None
        named = name_at(span, name)
        where = (("weaver", named[0], named[1]),) if named is not None else ()
        for event in delivered:
            kept = tuple(s for s in event.sources if s[0] != "weaver")
            events.append(replace(event, weaver_name=name, quote=quote, unsure=True, sources=where + kept))
    parts.append(Part("read", span.said, span.start, span.end, "create"))


def _has_content(span: Span) -> bool:
    """Whether a clause says something an event is made of (a stage, a delivery, a number, a flag)."""
    words = set(span.words())
    return bool(
        stage_mentions(span, True)
        or words & CREATE_VERBS
        or flag_kind_of(span) is not None
        or read_numbers(span).quantity is not None
        or words & (set(GRADE_WORDS) | HAT_NOUNS | ROW_WORDS)
        or re.search(r"\b(?:problem\w*|defect\w*|nada|nothing)\b", span.folded_text)
    )


def _delivery_heading(span: Span) -> bool:
    """A clause that says a delivery and nothing else ("Entregaron hoy", "Hoy entregaron"): no one, no count."""
    return (
        bool(set(span.words()) & CREATE_VERBS)
        and person_name(span, []) is None
        and read_numbers(span).quantity is None
        and not find_codes(span)
    )


def _create_subject(span: Span) -> str | None:
    """The weaver of a segment that reports new hats, if it is one."""
    if find_codes(span) or weaver_hat_ref(span):
        return None
    if not set(span.words()) & CREATE_VERBS and read_numbers(span).quantity is None:
        return None
    return delivering_person(span)


@lru_cache(maxsize=1024)
def _is_batch(span: Span) -> bool:
    """A clause with its own quantity and grade or rows: another batch, not more words about the last one."""
    numbers = read_numbers(span)
    return numbers.quantity is not None and (numbers.said_grade is not None or numbers.rows is not None)


def _join_bare_hats(segments: list[Span]) -> list[Span]:
    """A clause that only names hats shares a verb: the next clause's ("TQ-7F3K2 y TQ-7F3KA pasaron a
    lavado"), or the one before when that one said its stage before its code ("Pasaron a lavado TQ-7F3K2,
    TQ-1P9KD, y TQ-2C5P0 ya está en blanqueo", a heading "Lavado: TQ-7F3KA, TQ-1P9KD"): a clause with a verb
    of its own keeps it."""
    joined: list[Span] = []
    carry: int | None = None
    for index, span in enumerate(segments):
        begin = carry if carry is not None else span.start
        carry = None
        bare = bool(find_codes(span)) and not stage_mentions(span, True) and flag_kind_of(span) is None
        following = segments[index + 1] if index + 1 < len(segments) else None
        if (
            bare
            and grade_against_rows(span)
            and (following is None or flag_kind_of(following) != "grade_mismatch")
        ):
            # "TQ-4K9D1 dice fino pero tiene 12 hileras, y la copa rota": it says its own flag; with "no cuadra
            # el grado" after it, the two say one grade mismatch.
            bare = False
        if bare and not set(span.words()) & CREATE_VERBS:
            if (
                begin == span.start
                and joined
                and (_stage_first(joined[-1]) or _ALSO.search(span.folded_text) or _move_alone(joined[-1]))
            ):
                # "Lavado: TQ-7F3KA, TQ-1P9KD"; "TQ-7F3K2 pasó a lavado y el TQ-1P9KD también".
                joined[-1] = joined[-1].part(joined[-1].start, span.end)
                continue
            if following is not None and (reference_of(following) is None or find_codes(following)):
                carry = begin
                continue
            # "Revisé el TQ-8H6RT y el TQ-4K9D1, el segundo…": the hats are named for a reference after them.
        joined.append(span.part(begin, span.end))
    return joined


# "el TQ-1P9KD también": the verb before is this hat's too; "sigue igual" (still the same) says no change.
_ALSO = re.compile(r"\b(?:tambien|(?<!sigue )(?<!siguen )(?<!esta )(?<!queda )igual|too|as well)\s*$")
# "el otro no", "the other one not": a denial about the other hat of two, with nothing else in it.
_OTHER = re.compile(r"^(?:y |and )?(?:el|la|the) (?:otro|otra|other)(?: one)?\b")


def _move_alone(span: Span) -> bool:
    """Whether a segment says a move and names no hat, so the hats named right after it are its own
    ("Lavamos también el TQ-3D8QV", "Pasaron a lavado, el TQ-7F3KA y el TQ-1P9KD")."""
    return (
        not find_codes(span)
        and not weaver_hat_ref(span)
        and person_name(span, []) is None
        and any(m.target for m in stage_mentions(span, False))
    )


def _stage_first(span: Span) -> bool:
    """Whether a segment says its target stage before the hat code it is about ("Pasaron a lavado TQ-…")."""
    codes = find_codes(span)
    targets = [m for m in stage_mentions(span, True) if m.target]
    return bool(codes and targets) and targets[0].start < min(start for _, start, _ in codes)


def _bare_person(span: Span) -> str | None:
    """The person a clause only names ("Rosa", "doña Rosa Guamán"): no verb, number, hat or stage."""
    if find_codes(span) or weaver_hat_ref(span):
        return None
    if set(span.words()) & CREATE_VERBS or flag_kind_of(span) is not None:
        return None
    numbers = read_numbers(span)
    if numbers.quantity is not None or numbers.rows is not None or stage_mentions(span, False):
        return None
    name = person_name(span, [])
    if name is None and span.dictated:
        # Dictated: a clause of one to three plain words ("rosa pillco y carmen entregaron…") is a name.
        words = span.words()
        plain = all(w.isalpha() and w not in STOP_WORDS and w not in PRONOUNS for w in words)
        name = span.text.strip() if words and len(words) <= 3 and plain else None
        if name is None:
            # "…y el manuel, este, tres superfinos": a name after "y" and its article waits for its batch.
            opened = list(words)
            while opened and opened[0] in NAME_OPENERS:
                opened = opened[1:]
            if opened and len(opened) < len(words) and len(opened) <= 3 and all(map(is_name_word, opened)):
                name = " ".join(opened)
    return name


def _join_bare_people(segments: list[Span]) -> tuple[list[Span], dict[Span, tuple[str, ...]]]:
    """Clauses that only name people join the delivery that follows them ("Rosa y Carmen entregaron 2 finos"):
    one batch said of several weavers, returned with their names in the note's order."""
    joined: list[Span] = []
    partners: dict[Span, tuple[str, ...]] = {}
    waiting: list[tuple[Span, str]] = []  # bare-name clauses not yet joined
    for span in segments:
        name = _bare_person(span)
        if name is not None:
            waiting.append((span, name))
            continue
        subject = _create_subject(span) if waiting else None
        if subject is not None:
            batch = span.part(waiting[0][0].start, span.end)
            partners[batch] = (*(n for _, n in waiting), subject)
            joined.append(batch)
        else:
            joined.extend(s for s, _ in waiting)
            joined.append(span)
        waiting = []
    joined.extend(s for s, _ in waiting)
    return joined, partners
