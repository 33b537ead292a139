"""The owner's bands as the tools write them ("trim flags above 2.5 % per setup"), said from templates so a
page in another language says them again: the band's figure is read from the tool's own sentence and filled
into the template (its ``{band}``, the figure with its unit as the tool wrote it). A band text in another
shape is the tool's own words, kept as they are (:class:`~shopfloor.shifts.answers.sayings.Quoted`)."""

from __future__ import annotations

from shopfloor.shifts.answers.sayings import N_, Phrase, Quoted, phrase

# Every band text the tools write (tools/sums.py ``band``, tools/period.py), the longer of two alike first.
BAND_TEXTS: tuple[str, ...] = (
    N_("speed to target below {band} is highlighted"),
    N_("maintenance band {band} of scheduled minutes"),
    N_("operator band {band} of scheduled minutes"),
    N_("trim flags above {band} per setup (guidance for the total)"),
    N_("trim flags above {band} per setup"),
    N_("dry-end waste flags above {band} of gross"),
    N_("shear {band} is guidance, not an alarm"),
)


def band_of(text: str) -> tuple[str, str] | None:
    """The template a tool's band text is said from and its band's figure ("2.5 %"), or None."""
    for template in BAND_TEXTS:
        before, _, after = template.partition("{band}")
        if text.startswith(before) and text.endswith(after) and len(text) > len(before) + len(after):
            return template, text[len(before) : len(text) - len(after)]
    return None


def band_phrase(text: str) -> Phrase | Quoted:
    """A tool's band text as a phrase of its template, or the tool's own words when it has none."""
    found = band_of(text)
    if found is None:
        return Quoted(text)
    template, band = found
    return phrase(template, band=band)
