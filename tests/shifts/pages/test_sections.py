"""The answer's sections as the page orders them: the "Read as" line is drawn once, above the answer."""

from __future__ import annotations

from shopfloor.shifts.pages.answer_view import split_sections

READ_AS = {"type": "read_as", "text": "Read as: shift diagnosis, shift 2, production day Mon 2026-09-14"}


def test_the_read_as_section_is_not_repeated_among_the_other_sentences():
    sections = [
        READ_AS,
        {"type": "headline", "text": "Shift 2 ran at **75.00 %**"},
        {"type": "text", "text": "Crew B."},
    ]
    parts = split_sections(sections, "complete")
    drawn = [s for group in (parts.preface, parts.lead, parts.rest, parts.where) for s in group]
    assert READ_AS not in drawn
    assert [s["type"] for s in parts.lead] == ["headline"]


def test_a_notice_right_after_the_read_as_line_is_the_preface():
    notice = {"type": "text", "text": "The plant's monthly model budget is spent; no answer was written."}
    parts = split_sections([READ_AS, notice], "budget_exhausted")
    assert parts.preface == [notice]
