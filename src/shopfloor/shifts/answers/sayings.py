"""Sentences said from a template and named params, so a page in another language can say them again.

``say("headline", N_("Shift {shift} ran at {speed} of grade target speed against 100 % {cite}."), shift=2,
speed=Figure(...), cite=Citation(...))`` is the section ``findings.said`` would build from the template
filled in (the English ``text`` and ``parts``, unchanged), and it keeps ``"say": {"id": template, "params":
{...}}``, JSON-safe. A page (or PDF) in another language looks the template up in its catalogue and fills
in the same params (:func:`spoken`), so its figures and citations are the same data.

A param is a plain value (its text as it is: a code, a name, a number already written), a :class:`Figure`
or :class:`Citation` (a part), the question's own words (:class:`Asked`), a window by its label (:class:`Named`), a :class:`Term` (a word of the records' vocabulary, said through the
catalogue's glossary, context ``record``), a :class:`Worded` (a word of another fixed vocabulary, through its
own context), a :class:`Coded` (English words another language says by their code's sentence) or a
:class:`Phrase` (a piece of sentence with its own template, and a plural form when it shows
a count). A section without ``say`` (a live model's own words) is English
wherever it is shown.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from string import Formatter
from typing import Any, Protocol

from shopfloor.shifts.answers.findings import Citation, Figure, Section, markdown, reworded

# The catalogue's context of the records' own words (reasons, places, kinds, families).
RECORD = "record"


def N_(message: str) -> str:
    """Marks a template for extraction (``make messages``) where it is said; it is translated where shown."""
    return message


def NN_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a template with its plural form for extraction; a :class:`Phrase` chooses by its count."""
    return singular, plural


def NP_(context: str, message: str) -> str:
    """Marks a word of ``context`` (the records' glossary) for extraction."""
    return message


@dataclass(frozen=True)
class Term:
    """A word of the records' vocabulary (a downtime reason, a place, a kind, a reject family): said as it
    is in English, through the glossary (``pgettext("record", word)``) in another language."""

    word: str


@dataclass(frozen=True)
class Worded:
    """A word of a fixed vocabulary other than the records' (a knife's level, a check an excluded record
    failed): said as it is in English, through the catalogue with its ``context`` in another language."""

    context: str
    word: str


@dataclass(frozen=True)
class Coded:
    """Words written in English for a case a code names (an error that is not a tool's: the dispatcher's, a
    provider's, a finish or a plan the run refused): the words as written in English; in another language
    the code's sentence (``template``), as the error pages say an error by its code."""

    text: str
    template: str


@dataclass(frozen=True)
class Quoted:
    """A record's own free text (a note): the same words in every language; on a page in another language
    a ``{"quote": text}`` part, which the page marks as the records' language (English)."""

    text: str


@dataclass(frozen=True)
class Asked:
    """The question's own words (what the supervisor wrote, in whatever language): the same words on every
    page; on a page in another language an ``{"asked": text}`` part, which the page shows as the
    question's text, never marked as English."""

    text: str


@dataclass(frozen=True)
class Named:
    """A window named by its label ("Week of 2026-09-07 (Mon–Fri)", "March 2026"): its label in English; on
    a page in another language a ``{"window": {...}}`` part (its period, start, end and label), which the
    page names in its language (days and months through Babel)."""

    window: Mapping[str, Any]


@dataclass(frozen=True)
class Phrase:
    """A piece of a sentence with its own template and params; ``forms`` (singular, plural) and ``n`` when
    it shows a count (the plural chosen by ``n``, 1 is singular in English)."""

    template: str | tuple[str, str]
    n: int | float | None = None
    params: Mapping[str, Any] = field(default_factory=dict)


def phrase(template: str | tuple[str, str], n: int | float | None = None, **params: Any) -> Phrase:
    """A :class:`Phrase` of ``template`` with ``params`` (``{n}`` in a plural template is its count)."""
    return Phrase(template, n, params)


class Translator(Protocol):
    """What a catalogue says (``gettext.GNUTranslations``)."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...

    def pgettext(self, context: str, message: str, /) -> str: ...


class _English:
    """The templates as they are written: English."""

    def gettext(self, message: str, /) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str, /) -> str:
        return message


ENGLISH = _English()


def _data(value: Any) -> Any:
    """A param as JSON-safe data."""
    if isinstance(value, (Figure, Citation)):
        return value.as_part()
    if isinstance(value, Term):
        return {"term": value.word}
    if isinstance(value, Worded):
        return {"word": value.word, "context": value.context}
    if isinstance(value, Quoted):
        return {"quote": value.text}
    if isinstance(value, Coded):
        return {"coded": value.text, "say": _said_data(value.template, None, {})}
    if isinstance(value, Asked):
        return {"asked": value.text}
    if isinstance(value, Named):
        return {"window": dict(value.window)}
    if isinstance(value, Phrase):
        return {"say": _said_data(value.template, value.n, value.params)}
    return value


def _said_data(
    template: str | tuple[str, str], n: int | float | None, params: Mapping[str, Any]
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(template, tuple):
        out["id"], out["plural"] = template
        out["n"] = n
    else:
        out["id"] = template
    out["params"] = {key: _data(value) for key, value in params.items()}
    return out


def _count(n: Any) -> int:
    """The count a plural form is chosen by (a fraction is plural, as "1.5 stops")."""
    return 1 if n == 1 else (int(n) if isinstance(n, int) else 2)


def parts_from(data: Mapping[str, Any], tr: Translator = ENGLISH) -> list[Any]:
    """The parts of a said template (its ``say`` data) in ``tr``'s language: the template looked up, its
    params filled in (figures and citations as the same parts, terms through the glossary)."""
    if "plural" in data:
        template = tr.ngettext(str(data["id"]), str(data["plural"]), _count(data.get("n")))
    else:
        # An empty template is an empty piece (the catalogue's own entry for "" is its header).
        template = tr.gettext(str(data["id"])) if data["id"] else ""
    params = dict(data.get("params") or {})
    if "plural" in data:
        params.setdefault("n", data.get("n"))
    out: list[Any] = []
    for literal, name, spec, _conversion in Formatter().parse(template):
        out.append(literal)
        if name is None:
            continue
        value = params[name]
        if isinstance(value, Mapping) and ("figure" in value or "query" in value):
            out.append(dict(value))
        elif isinstance(value, Mapping) and "term" in value:
            out.append(tr.pgettext(RECORD, str(value["term"])))
        elif isinstance(value, Mapping) and "word" in value and "context" in value:
            out.append(tr.pgettext(str(value["context"]), str(value["word"])))
        elif isinstance(value, Mapping) and "coded" in value:
            out.extend([str(value["coded"])] if tr is ENGLISH else parts_from(value["say"], tr))
        elif isinstance(value, Mapping) and "quote" in value:
            out.append(str(value["quote"]) if tr is ENGLISH else {"quote": str(value["quote"])})
        elif isinstance(value, Mapping) and "window" in value:
            window = value["window"]
            out.append(str(window.get("label", "")) if tr is ENGLISH else {"window": dict(window)})
        elif isinstance(value, Mapping) and "asked" in value:
            out.append(str(value["asked"]) if tr is ENGLISH else {"asked": str(value["asked"])})
        elif isinstance(value, Mapping) and "say" in value:
            out.extend(parts_from(value["say"], tr))
        else:
            out.append(format(value, spec) if spec else str(value))
    return _joined(out)


def template_pattern(template: str) -> re.Pattern[str]:
    """A template's English as a pattern, each ``{name}`` a named group (a name written twice is the same
    words twice), so an English sentence written elsewhere is said from its template when it is word for
    word."""
    out, last, seen = [], 0, set()
    for m in re.finditer(r"\{(\w+)\}", template):
        out.append(re.escape(template[last : m.start()]))
        name = m.group(1)
        out.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
        seen.add(name)
        last = m.end()
    out.append(re.escape(template[last:]))
    return re.compile("".join(out))


def _joined(parts: list[Any]) -> list[Any]:
    """Adjacent strings joined; an empty string kept only first (as ``said`` keeps a leading ``""``)."""
    out: list[Any] = []
    for part in parts:
        if isinstance(part, str) and out and isinstance(out[-1], str):
            out[-1] += part
        elif isinstance(part, str) and not part and out:
            continue
        else:
            out.append(part)
    return out


def say(kind: str, template: str | tuple[str, str], n: int | float | None = None, **params: Any) -> Section:
    """A section of ``kind`` said from ``template`` and ``params``: its English text and parts, as ``said``
    builds them, and its ``say`` data for another language."""
    data = _said_data(template, n, params)
    parts = parts_from(data)
    return {"type": kind, "text": markdown(parts), "parts": parts, "say": data}


def say_text(
    kind: str, template: str | tuple[str, str], n: int | float | None = None, **params: Any
) -> Section:
    """A section of plain text (no figure, so no parts) said from ``template`` and ``params``."""
    data = _said_data(template, n, params)
    return {"type": kind, "text": markdown(parts_from(data)), "say": data}


def rewording(
    section: Section, kind: str, prefix: Phrase | None = None, bullet: bool | None = None
) -> Section:
    """``findings.reworded`` of a said section, which keeps how it was reworded in its ``say`` data (the
    prefix said from its own template) so another language rewords its own sentence the same way."""
    head = markdown(parts_from(_data(prefix)["say"])) if prefix is not None else ""
    out = reworded(section, kind, head, bullet)
    if "say" in section:
        out["say"] = {
            **section["say"],
            "reword": {"kind": kind, "bullet": bullet, **({"prefix": _data(prefix)} if prefix else {})},
        }
    return out


def spoken(section: Mapping[str, Any], tr: Translator) -> dict[str, Any]:
    """``section`` in ``tr``'s language: a said section's text and parts said again from its template,
    reworded as it was and with its prefix ("Yes: "); any other section as it is."""
    data = section.get("say")
    if not isinstance(data, Mapping):
        return dict(section)
    base = {k: v for k, v in section.items() if k not in ("text", "parts", "say")}
    parts = parts_from(data, tr)
    out: dict[str, Any] = {**base, "text": markdown(parts)}
    if "parts" in section or any(not isinstance(part, str) for part in parts):
        out["parts"] = parts
    how = data.get("reword")
    if isinstance(how, Mapping):
        head = markdown(parts_from(how["prefix"]["say"], tr)) if "prefix" in how else ""
        out = reworded({**out, "parts": parts}, str(how["kind"]), head, how.get("bullet"))
    before = data.get("before")
    if isinstance(before, Mapping):
        head = markdown(parts_from(before, tr))
        out["parts"] = [head, *out.get("parts", [out["text"]])]
        out["text"] = head + out["text"]
    return out


def prefixed(section: Section, template: str) -> Section:
    """``section`` with a said prefix first ("Yes: "), in its parts, text and ``say`` data."""
    out = dict(section)
    out["text"] = f"{template}{section['text']}"
    out["parts"] = [template, *section.get("parts", [])]
    if "say" in section:
        out["say"] = {**section["say"], "before": _said_data(template, None, {})}
    return out
