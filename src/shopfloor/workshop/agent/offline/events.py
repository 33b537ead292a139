"""One segment of a note to its events (the cards: create, advance, flag), or to a part named as skipped."""

from __future__ import annotations

import re
from dataclasses import replace

from shopfloor.workshop.agent.offline.codes import CodeHit, code_hits
from shopfloor.workshop.agent.offline.future_words import LATER_TODAY_PATTERNS
from shopfloor.workshop.agent.offline.names import (
    dictated_reporter,
    is_kin,
    name_at,
    person_name,
    weaver_hat_ref,
)
from shopfloor.workshop.agent.offline.quantities import read_numbers
from shopfloor.workshop.agent.offline.results import (
    HatRef,
    NoteEvent,
    Part,
    Skipped,
    SkipReason,
    skip_part,
)
from shopfloor.workshop.agent.offline.signals import (
    DELIVERY,
    FUTURE,
    INJECTION,
    flag_kind_of,
    is_negated,
    is_noise,
    own_verb,
    reported_at,
    reported_from,
)
from shopfloor.workshop.agent.offline.stages import stage_mentions
from shopfloor.workshop.agent.offline.text import (
    Span,
    fold,
    has_slip,
    says_past_move,
    split_clauses,
)
from shopfloor.workshop.agent.offline.vocabulary import (
    CREATE_VERBS,
    REFERENCE_PATTERNS,
    STAGE_BY_INFERENCE,
    STAGE_WORDS,
)
from shopfloor.workshop.domain import (
    QUOTE_MAX,
    QUOTE_MIN,
    grade_mismatch,
    validate_rows,
)

# "Rosa y Carmen entregaron 3 finos cada una", "Rosa and Carmen each delivered…": the quantity is per weaver.
# Right after a row count, "cada uno" / "each" ("de 18 hileras cada uno", "of 18 rows each") is about every hat
# (sombreros, hats); the feminine "cada una" can only be about the weavers (tejedoras).
_AFTER_ROWS = r"(?<!hileras )(?<!hilera )(?<!rows )(?<!row )"
_EACH = re.compile(rf"\b(?:cada una|cada quien|apiece)\b|{_AFTER_ROWS}\b(?:cada uno|each)\b")


def _quote(span: Span) -> str:
    """The exact words of the note for a span, cut at a word boundary to at most 160 characters."""
    text = span.said
    if len(text) <= QUOTE_MAX:
        return text
    cut = text[:QUOTE_MAX]
    space = cut.rfind(" ")
    return cut[:space] if space >= QUOTE_MIN else cut


def _flag_words(span: Span) -> str:
    """The person's own words for a flag: the segment as written, without the words that only join it to
    the clause before ("pero ojo que tiene una mancha" gives "tiene una mancha")."""
    flagged = [c for c in split_clauses(span) if flag_kind_of(c) is not None]
    if flagged:
        # "Por favor revisa el TQ-8H6RT, creo que está roto": the words of the report, from its first clause.
        begin = flagged[0].start
        back = begin
        while back > span.start and span.note[back - 1].isspace():
            back -= 1
        blanked = span.source[back:begin]
        if (
            blanked.strip()
        ):  # a hedge blanked before the report is still the person's words ("creo que está roto")
            begin = back + len(blanked) - len(blanked.lstrip())
        span = span.part(begin, span.end)
    said = span.said
    # The words that name the hat ("TQ-8H6RT", "el de Manuel") are not the report.
    named = [(h.start, h.end) for h in code_hits(span)]
    by_weaver = weaver_hat_ref(span)
    if by_weaver is not None:
        named.append((by_weaver[1], by_weaver[2]))
    for start, end in sorted(named, key=lambda n: -n[0]):
        before = said[: start - span.start]
        # The article of the code goes with it ("el TQ-8H6RT tiene…"); the person's own articles stay.
        before = re.sub(r"(?i)\b(?:el|la|al|del|de|of the|of|the)\s+$", "", before)
        said = before + said[end - span.start :]
    said = re.sub(r"\s+([,;])", r"\1", said)
    words = said.replace(":", " ").split()
    while len(words) > 2 and (
        fold(words[0]).strip(",") in _FLAG_LEADS
        or (fold(words[0]) in _ARTICLES and fold(words[1]).strip(",") in _FLAG_LEADS | _ARTICLES)
    ):
        words = words[1:]
    return " ".join(words)


# Words that only join a flag clause to what comes before it, or point at the hat; an article goes only with
# them ("el sombrero tiene…"), never before the person's own words ("la copa salió amarillenta").
_FLAG_LEADS = {
    "pero", "y", "ojo", "que", "aunque", "ademas", "tambien", "but", "and", "also", "though", "note",
    "sombrero", "hat", "-",
}  # fmt: skip
_ARTICLES = {"el", "la", "al", "de", "del", "the"}


Sources = tuple[tuple[str, int, int], ...]


_REFERENCES = [(kind, re.compile(r"\b(?:" + pattern + r")\b")) for kind, pattern in REFERENCE_PATTERNS]


def reference_of(span: Span) -> tuple[str, int, int] | None:
    """A word in ``span`` that points back at hats the note named ("el segundo", "los dos", "ese mismo",
    "uno de ellos"): (which, start, end), or None."""
    for kind, pattern in _REFERENCES:
        for found in pattern.finditer(span.folded, span.start, span.end):
            if span.source[found.start() : found.start() + 2].lower() == "él":
                continue  # "los entregó él mismo": "he himself", not "the same one"
            if kind == "both" and _names_both_right_before(span, found.start()):
                continue  # "2C5P0 and 9M2XA both moved": the two hats are named, "both" points at none
            if kind == "some_of":
                if flag_kind_of(span) is None:
                    continue  # "2 están en lavado" after a delivery is not read as a reference
                kind = "one_of"  # which of them is asked, never picked
            return kind, found.start(), found.end()
    hits = [h for h in code_hits(span) if h.partial is None]
    for k, hit in enumerate(hits):
        # "del tq 7f3k2 y el tq 7f3ka uno ya pasó a lavado": "uno" right after the codes, as the subject of a
        # verb, is one of them (the pattern above wants a word that opens a clause before it, not a code).
        one = _ONE_AFTER_CODES.match(span.folded, hit.end, span.end)
        if one is not None and k >= 1:
            return "one_of", one.start(1), one.end(1)
    return None


_ONE_AFTER_CODES = re.compile(r"[ ,]+(uno|una)(?= (?:ya|se|esta|estan|paso|sigue|tiene|quedo|salio)\b)")


def _names_both_right_before(span: Span, at: int) -> bool:
    """Whether two hats are named right before ``at`` in ``span`` ("TQ-2C5P0 y TQ-9M2XA, los dos…", "… were
    both washed")."""
    hits = [h for h in code_hits(span.part(span.start, at)) if h.partial is None]
    if len(hits) < 2:
        return False
    # Only a verb of the two may come between ("TQ-7F3K2 and TQ-7F3KA were both washed"): still their clause.
    between = span.folded[hits[-1].end : at].strip(" ,")
    return not between or (
        _AUXILIARY.fullmatch(between) is not None and "," not in span.note[hits[-1].end : at]
    )


_AUXILIARY = re.compile(r"(?:(?:were|are|have|had|got|ya|fueron|estan|han|se) ?){1,2}")


def _referred_hats(span: Span) -> list[tuple[HatRef, Sources]]:
    """The hats a reference in ``span`` means, among the codes named before it in the note, in order; a
    reference that could mean several ("uno de ellos") is one ref with them as choices."""
    found = reference_of(span)
    if found is None:
        return []
    kind, start, end = found
    before = list(dict.fromkeys(h.heard for h in code_hits(span.part(0, start)) if h.partial is None))
    said = span.source[start:end]
    where: Sources = (("code", start, end),)
    if not before and kind == "one_of":
        # "Del par de Rosa Pillco, uno pasó a lavado": one of the hats of the weaver named before it; the
        # lookup by weaver offers them (a question when there are several).
        opening = max(span.note.rfind(mark, 0, start) for mark in ".!?;\n") + 1  # this sentence only
        weaver = person_name(span.part(opening, start), [])
        return [(HatRef(weaver_name=weaver, ask=True), where)] if weaver else []
    if not before and kind in {"same", "that_one", "last"}:
        # "Carmen's hat that is in bleaching got a dent. That same hat was moved…": the hat named by its weaver
        # before (and where it was said to be), found again the same way.
        earlier = span.part(0, start)
        by_weaver = weaver_hat_ref(earlier)
        if by_weaver is None:
            return []
        named = earlier.part(by_weaver[1], start)
        locator = next((m.stage for m in stage_mentions(named, True) if not m.target), None)
        return [(HatRef(weaver_name=by_weaver[0], stage=locator), where)]
    if not before:
        return []
    if kind == "one_of" or (kind == "that_one" and len(before) > 1):
        return [(HatRef(said=said, choices=tuple(before[-2:] if len(before) > 1 else before)), where)]
    if kind == "both":
        picked = before[-2:]
    elif kind == "first":
        picked = before[:1]
    elif kind == "second":
        picked = before[1:2]
    else:
        picked = before[-1:]
    return [(HatRef(code=code, said=said), where) for code in picked]


_THEN = {"luego", "despues", "later"}
_LATER_TODAY = re.compile(
    r"(?:(?:y|e|and|pero|but|bueno|ok|oye)[\s,]+)?(?:" + "|".join(LATER_TODAY_PATTERNS) + r")\b"
)
# A verb said in the past after such a time: a written preterite accent ("pasó", "lavé"), or English "-ed".
_PAST_AS_WRITTEN = re.compile(r"\b\w+(?:[óé]|ed)\b", re.IGNORECASE)


def is_future(span: Span) -> bool:
    """Whether ``span`` speaks of the future ("mañana", "va a traer", "quedó en traer", "will"); "después
    Manuel trajo 1 superfino": "then" before a delivery in the past is a sequence, not a plan."""
    future = FUTURE.search(span.folded_text)
    past = bool(set(span.words()) & CREATE_VERBS) or says_past_move(span)
    if future is None:
        later = _LATER_TODAY.match(span.folded, span.start, span.end)
        # "después del almuerzo paso el TQ-… a blanqueo": a clause that opens with a time still to come and
        # goes on with a verb not in the past is a plan (a verb typed with no accent may be a preterite: no
        # card either way, never a guess); said after the verb ("pasó a terminado después del almuerzo",
        # "lo blanqueamos ayer en la tarde") the time says when it happened.
        return (
            later is not None and not past and not _PAST_AS_WRITTEN.search(span.note, later.end(), span.end)
        )
    return not (future.group() in _THEN and past)


def _skip_reason(span: Span) -> SkipReason | None:
    """Why a segment makes no event before it is read further: an order to the assistant, the future, filler,
    a denial, or too few words to quote."""
    segment = span.folded_text
    if INJECTION.search(segment):
        return "injection"
    if is_future(span):
        return "future"
    if is_noise(segment):
        return "noise"
    if is_negated(span):
        return "negated"
    if len(_quote(span).strip()) < QUOTE_MIN:
        return "unread"
    return None


def _hat_events(
    span: Span, quote: str, ref: HatRef, sources: Sources, to_stage: str | None, flag_kind: str | None
) -> list[NoteEvent]:
    """What a segment says of one hat: the move to ``to_stage``, then the flag, each when said."""
    out = []
    if to_stage is not None:
        out.append(NoteEvent("advance", quote, hat=ref, to_stage=to_stage, sources=sources))
    if flag_kind is not None:
        flag_words = _flag_words(span)
        out.append(
            NoteEvent("flag", quote, hat=ref, flag_kind=flag_kind, sources=sources, flag_words=flag_words)
        )
    return out


def _some_of_weaver(span: Span, by_weaver: tuple[str, int, int]) -> bool:
    """Whether the weaver's hats are said as one or some of them ("uno de Rosa Pillco", "two of Manuel's
    hats"): maybe hats just delivered and not records yet, so which is asked even when she has one open hat."""
    if span.folded[by_weaver[1] : by_weaver[1] + 4] in ("uno ", "una "):
        return True
    pointer = reference_of(span)
    return pointer is not None and pointer[0] == "one_of" and pointer[1] < by_weaver[1]


def _hat_refs(
    span: Span, hits: list[CodeHit], by_weaver: tuple[str, int, int] | None, locator: str | None
) -> list[tuple[HatRef, Sources]]:
    """The hats a segment names, by code (whole, spelled or partial) or else by their weaver."""
    if by_weaver and not hits:
        ask = _some_of_weaver(span, by_weaver)
        ref = HatRef(weaver_name=by_weaver[0], stage=locator, ask=ask)
        return [(ref, (("weaver", by_weaver[1], by_weaver[2]),))]
    return [
        (
            HatRef(
                code=None if h.partial else h.heard,
                spelled=h.spelled,
                partial=h.partial,
                said=span.source[h.start : h.end] if h.spelled or h.partial else None,
            ),
            (("code", h.start, h.end),),
        )
        for h in hits
    ]


def _create_event(
    span: Span, quote: str, inherited_weaver: str | None, partners: tuple[str, ...]
) -> NoteEvent | None:
    """The new hats a segment reports of a weaver, or None when it reports none."""
    numbers = read_numbers(span)
    # A delivery verb needs something delivered ("dejó las cajas en la bodega" is not new hats).
    said_hats = numbers.quantity is not None or numbers.said_grade is not None or numbers.has_hat_noun
    # No card without a licence: a delivery verb in the past ("entregó", "trajo", "delivered") in this
    # segment, or a further batch of the weaver a licensed segment before it named ("…y 2 estándar de 12").
    # "se llevó 5 finos", "los tiene listos en su casa, 3 superfinos" name hats but deliver none.
    delivered = _delivery_verb(span) is not None
    name = delivering_person(span) or inherited_weaver
    licensed = delivered or (inherited_weaver is not None and not own_verb(span))
    create_signal = licensed and (said_hats or numbers.rows is not None)
    doubt = next((value for at, value in span.doubtful if span.start <= at < span.end), None)
    if doubt is not None:
        # Both readings of a doubtful correction change the quantity or the rows: neither is read.
        numbers.quantity, numbers.quantity_at, numbers.rows = None, None, None
        create_signal = create_signal or delivered
    if name is None or not create_signal:
        return None
    sources: list[tuple[str, int, int]] = []
    named = name_at(span, name)
    if named is not None:
        sources.append(("weaver", named[0], named[1]))
    if numbers.quantity_at is not None:
        sources.append(("quantity", numbers.quantity_at[0], numbers.quantity_at[1]))
    return NoteEvent(
        "create",
        quote,
        weaver_name=name,
        quantity=numbers.quantity,
        grade=numbers.said_grade,
        rows=numbers.rows,
        grado=numbers.grado if numbers.rows is None else None,
        weavers=partners,
        each=bool(partners) and _EACH.search(span.folded_text) is not None,
        sources=tuple(sources),
        doubtful_number=doubt,
        no_weaver=is_kin(name),
    )


def _delivery_verb(span: Span) -> int | None:
    """Where the segment's delivery verb or verb of coming to deliver starts ("entregó", "vino a dejar")."""
    verb = next((t.start for t in span.tokens() if t.text in CREATE_VERBS), None)
    coming = DELIVERY.search(span.folded, span.start, span.end)
    if coming is not None and (verb is None or coming.start() < verb):
        return coming.start()
    return verb


def delivering_person(span: Span) -> str | None:
    """Who delivered, as the segment names them: after a report said before the delivery verb, the person
    named in what is passed on ("Rosa dice que Carmen entregó…" is Carmen's delivery); the one named before it
    when what is passed on names nobody, or only by kin ("Rosa dice que ya entregó los tres", "me dijo la hija
    de doña Rosa que su mamá dejó…")."""
    verb = _delivery_verb(span)
    passed_on = reported_from(span, verb) if verb is not None else None
    if passed_on is not None:
        named = person_name(span.part(passed_on, span.end), [])
        if named is not None and not is_kin(named):
            return named
        if named is None:
            starts = [at for at in reported_at(span) if at < passed_on]
            reporter = dictated_reporter(span, starts[-1]) if starts else None
            if reporter is not None:
                return reporter
    return person_name(span, [])


_WHICH = re.compile(r",\s*(?:which is|which are|that is|que es|que son|o sea)\b")


def grade_against_rows(span: Span) -> bool:
    """Whether a segment about a hat says its grade and a row count of another grade ("dice fino pero tiene
    12 hileras", "labelled superfine but has 16 rows"): a grade mismatch reported in the person's words. A
    count of hats or a delivery verb makes it a batch, never a report on one hat. A clause after the rows that
    names the grade they fit (", which is a Standard count", ", que es de estándar") explains, and is not read."""
    which = _WHICH.search(span.folded, span.start, span.end)
    if which is not None:
        span = span.part(span.start, which.start())
    numbers = read_numbers(span)
    if numbers.said_grade is None or numbers.rows is None or numbers.quantity is not None:
        return False
    if set(span.words()) & CREATE_VERBS:
        return False
    return validate_rows(numbers.rows) and grade_mismatch(numbers.said_grade, numbers.rows)


def _delivered_by(span: Span) -> bool:
    """Whether a segment reports a delivery with what was delivered and no move or flag: a delivery verb, a
    count or grade, no target stage and no problem."""
    numbers = read_numbers(span)
    delivered = bool(set(span.words()) & CREATE_VERBS) or DELIVERY.search(span.folded_text) is not None
    moves = any(m.target for m in stage_mentions(span, False))
    return delivered and numbers.quantity is not None and not moves and flag_kind_of(span) is None


# A colon, a tab, or a dash set off by spaces ("TQ-8H6RT - Hormado", a status list's line).
_FIELD = re.compile(r"[ \t]*(?::|\t|(?<=[ \t])[-–—](?=[ \t]))[ \t:]*")


def stage_as_a_field(span: Span, hits: list[CodeHit], target: int) -> bool:
    """Whether the stage word at ``target`` is given as a field of the code before it, after a colon, a tab or
    a dash with only stage words between ("TQ-2C5P0: blanqueado", "TQ-8H6RT - Hormado", a pasted table's row
    "TQ-4K9D1<tab>blanqueo<tab>hormado"): a label, not a change the note reports, so the move is read at
    ``check``, and none for a hat already there (docs/workshop-agent.md, "The three rules": only the heading
    "Lavado: TQ-…" names its stage first and is licensed)."""
    before = [h for h in hits if h.end <= target and h.partial is None]
    if not before:
        return False
    between = span.note[before[-1].end : target]
    field = _FIELD.match(between)
    if field is None:
        return False
    rest = span.part(before[-1].end + field.end(), target)
    return all(tok.text in STAGE_WORDS for tok in rest.tokens())


def read_segment(
    span: Span,
    has_hat_tag: bool,
    events: list[NoteEvent],
    skipped: list[Skipped],
    parts: list[Part],
    inherited_weaver: str | None = None,
    partners: tuple[str, ...] = (),
    inherited_hat: Span | None = None,
) -> None:
    """Read one segment into ``events`` and account for it in ``parts`` (or ``skipped``).

    A segment that names hats (by code or by weaver, its own or the ``inherited_hat`` of the clause before)
    moves or flags them; otherwise it reports new hats of a weaver (its own, ``inherited_weaver``, or a batch
    of ``partners``); with the hat tag, a move or flag without a hat is about the tagged hat.
    """
    reason = _skip_reason(span)
    if reason is not None:
        skip_part(skipped, parts, reason, span)
        return
    quote = _quote(span)
    hat = inherited_hat or span
    hits = code_hits(hat)
    by_weaver = weaver_hat_ref(hat)
    hat_subject = bool(hits or by_weaver)
    targets = [m for m in stage_mentions(span, hat_subject) if m.target]
    to_stage = targets[-1].stage if targets else None
    flag_kind = flag_kind_of(span)
    # "el segundo dice fino pero tiene 12 hileras": a hat named by reference says its grade against its rows too.
    named = hat_subject or reference_of(span) is not None
    if flag_kind is None and to_stage is None and named and grade_against_rows(span):
        flag_kind = "grade_mismatch"
    read: list[NoteEvent] = []
    pointer = reference_of(span)
    # "TQ-7F3K2, TQ-1P9KD: the last one moved to washing": a reference after the codes picks among them.
    after_codes = pointer is not None and not by_weaver and all(h.end <= pointer[1] for h in hits)
    referred = _referred_hats(span) if not hat_subject or after_codes else []
    if not referred and not hat_subject and inherited_hat is not None:
        # "It does not have enough rows…, and there is a stain…": the clause is about the hat the one before
        # pointed back at, found the same way (never high).
        referred = _referred_hats(inherited_hat)
    if referred:
        # A hat named by reference is an inference: its card is never high.
        targets = [m for m in stage_mentions(span, True) if m.target]
        to_stage = targets[-1].stage if targets else None
        for ref, where in referred:
            events_of = _hat_events(span, quote, ref, where, to_stage, flag_kind)
            read.extend(replace(event, unsure=True) for event in events_of)
    elif by_weaver and not hits and _delivered_by(span):
        # "Llegaron los de Manuel, los entregó él mismo, dos superfinos de 24": hats named by their weaver and
        # a delivery of them are that weaver's new hats, not a move.
        create = _create_event(span, quote, by_weaver[0], partners)
        read = [create] if create is not None else []
    elif hat_subject:
        locator = next((m.stage for m in stage_mentions(hat, hat_subject) if not m.target), None)
        for ref, where in _hat_refs(span, hits, by_weaver, locator):
            events_of = _hat_events(span, quote, ref, where, to_stage, flag_kind)
            # A hat found by its weaver ("el de Carmen en blanqueo") is an inference: never high.
            read.extend(replace(e, unsure=True) if ref.weaver_name else e for e in events_of)
    else:
        create = _create_event(span, quote, inherited_weaver, partners)
        if create is not None:
            read = [create]
        elif has_hat_tag:
            read = _hat_events(span, quote, HatRef(), (), to_stage, flag_kind)
    if not read:
        skip_part(skipped, parts, "unread", span)
        return
    if targets and hits and stage_as_a_field(span, hits, targets[-1].start):
        read = [replace(e, unsure=True, label=True) if e.kind == "advance" else e for e in read]
    if targets and targets[-1].word in STAGE_BY_INFERENCE:
        # "ya está listo" names no stage: Finished is inferred from "ready", so the move is never high.
        read = [replace(e, unsure=True) if e.kind == "advance" else e for e in read]
    if has_slip(span):
        # A word read through a slip ("lavdo" as lavado) is a guess: never high.
        read = [replace(event, unsure=True) for event in read]
    events.extend(read)
    parts.append(Part("read", span.said, span.start, span.end, read[-1].kind))
