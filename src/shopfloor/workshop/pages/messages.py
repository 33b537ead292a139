"""The rules' and approvals' English messages in the page's language.

The rules (``domain.py``) and the approvals write their messages in English, and the API keeps them so. A page
shows them in its own language: each message we write has a catalogue entry here whose English form is the
message itself with ``%(name)s`` for its parts, so the entry doubles as the pattern that recognises it.
The parts are translated too where they are our vocabulary (stages, grades, flag kinds, field names, card
states); names and codes stay as they are. A message no entry recognises is shown as it came, in English
(docs/workshop-pages.md, "Cards"). Pure functions; ``tests/workshop/pages/test_messages.py`` builds every
message with the rules' own code and checks it is recognised.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from shopfloor.workshop.pages.labels import FLAG_LABELS, GRADE_LABELS, N_, STAGE_LABELS, STATUS_LABELS

Gettext = Callable[[str], str]

FIELD_LABELS = {
    "weaver_id": N_("weaver"),
    "quantity": N_("how many hats"),
    "rows_per_inch": N_("rows per inch"),
    "grade": N_("grade"),
    "straw": N_("straw"),
    "hat_code": N_("hat code"),
    "to_stage": N_("new stage"),
    "kind": N_("problem"),
    "message": N_("what is wrong"),
}

# How each named part is translated: by a vocabulary, as a nested message, or not at all (names, codes).
PART_KINDS = {
    "stage": "stage",
    "next": "stage",
    "to": "stage",
    "grade": "grade",
    "actual": "grade",
    "kind": "kind",
    "status": "status",
    "fields": "fields",
    "rest": "message",
    "span": "span",
}


@dataclass(frozen=True)
class Entry:
    """One message we write: its catalogue entry and the pattern built from it."""

    msgid: str
    pattern: re.Pattern[str]


# Each is the English message of the rules or approvals with its parts named (docs/workshop.md, "Rules",
# "Approving"). Longer, more specific entries come first: the first match wins.
MESSAGES = (
    N_("%(code)s is archived; archived hats do not change stage."),
    N_("Only the current owner can change the stage."),
    N_("%(code)s is already Finished; finished hats do not change stage."),
    N_("%(code)s is at %(stage)s; stages only move forward, so it cannot go back to %(to)s."),
    N_("%(code)s is at %(stage)s; the next stage is %(next)s, so it cannot skip to %(to)s."),
    N_("%(code)s is already at %(stage)s."),
    N_("The weaver is not (or no longer) in this workshop."),
    N_("quantity must be between 1 and 20."),
    N_("Rows per inch must be between 6 and 40."),
    N_("%(grade)s needs %(low)s to %(high)s rows per inch; %(rows)s rows is %(actual)s."),
    N_("%(grade)s needs %(low)s to %(high)s rows per inch; %(rows)s rows is outside 6 to 40."),
    N_("No hat %(code)s in this workshop."),
    N_("No weaver %(id)s in this workshop."),
    N_("%(code)s already has an open %(kind)s flag."),
    N_(
        "%(code)s changed since this proposal was made (now at %(stage)s, version %(version)s); "
        "review the card again."
    ),
    N_("Answer saved; the card can be approved."),
    N_("Approved and saved."),
    N_("Rejected; nothing was changed."),
    N_("Still missing: %(fields)s."),
    N_("Answer the question first (missing: %(fields)s)."),
    N_("Answer the question first."),
    N_(
        "%(name)s is not one of this card's choices (%(labels)s); pick one of them, or answer "
        '"someone else" to name another weaver.'
    ),
    N_(
        "%(name)s is not one of this card's choices (%(labels)s); pick one of them, or answer "
        '"another hat" to name another hat.'
    ),
    N_("This proposal was already %(status)s; nothing changed."),
    N_("This proposal was already %(status)s."),
    N_("This card is not an open question (it is %(status)s); nothing changed."),
    N_("This proposal was decided at the same time; nothing changed."),
    N_("No such proposal in this workshop."),
    N_(
        "%(code)s left Weaving %(span)s after it was created; %(grade)s hats take at least %(days)s days to weave."
    ),
    N_("%(code)s left Weaving %(span)s after it was created; %(grade)s hats take at least 1 day to weave."),
    N_("%(code)s: its weaver is missing or archived."),
    N_("%(code)s: %(rest)s"),
)
# Endings the approvals add to a message (a refused edit; an answer that named someone not offered).
SUFFIXES = (
    N_("%(rest)s The card was not changed."),
    N_("%(rest)s %(names)s was not one of the card's choices."),
)
SPANS = (N_("%(n)s hours"), N_("%(n)s hour"), N_("%(n)s days"), N_("before it was created"))

_PART = re.compile(r"%\((\w+)\)s")


def _pattern(msgid: str) -> re.Pattern[str]:
    out, at = [], 0
    for part in _PART.finditer(msgid):
        out.append(re.escape(msgid[at : part.start()]))
        name = part.group(1)
        # Codes, numbers and vocabulary words have no spaces; names, labels and nested messages may.
        if name == "names":  # names before a closing sentence hold no full stop
            out.append(f"(?P<{name}>[^.]+?)")
        elif name in ("name", "labels", "rest", "fields", "span", "id"):
            out.append(f"(?P<{name}>.+?)")
        else:
            out.append(f"(?P<{name}>[^\\s;,()]+?)")
        at = part.end()
    out.append(re.escape(msgid[at:]))
    return re.compile("^" + "".join(out) + "$", re.DOTALL)


@cache
def _entries(group: tuple[str, ...]) -> tuple[Entry, ...]:
    return tuple(Entry(msgid, _pattern(msgid)) for msgid in group)


def _part(kind: str | None, value: str, gettext: Gettext) -> str:
    if kind == "stage":
        return gettext(STAGE_LABELS[value]) if value in STAGE_LABELS else value
    if kind == "grade":
        return gettext(GRADE_LABELS[value]) if value in GRADE_LABELS else value
    if kind == "kind":
        return gettext(FLAG_LABELS[value]) if value in FLAG_LABELS else value
    if kind == "status":
        return gettext(STATUS_LABELS[value]) if value in STATUS_LABELS else value
    if kind == "fields":
        names = [n.strip() for n in value.split(",")]
        return ", ".join(gettext(FIELD_LABELS[n]) if n in FIELD_LABELS else n for n in names)
    if kind == "message":
        return localize(value, gettext)
    if kind == "span":
        return _match(value, SPANS, gettext) or value
    return value


def _match(message: str, group: tuple[str, ...], gettext: Gettext) -> str | None:
    for entry in _entries(group):
        found = entry.pattern.match(message)
        if found is None:
            continue
        parts = {k: _part(PART_KINDS.get(k), v, gettext) for k, v in found.groupdict().items()}
        return gettext(entry.msgid) % parts
    return None


def localize(message: str | None, gettext: Gettext) -> str:
    """``message`` (a rule's or an approval's English message) in the language of ``gettext``; unchanged when
    it is not one of ours."""
    if not message:
        return ""
    text = message.strip()
    for entry in _entries(SUFFIXES):
        found = entry.pattern.match(text)
        if found is not None:
            rest = localize(found.group("rest"), gettext)
            parts = {k: v for k, v in found.groupdict().items() if k != "rest"}
            return gettext(entry.msgid) % {"rest": rest, **parts}
    return _match(text, MESSAGES, gettext) or text
