"""Layer 1 of the intake: the raw bytes and the XML parse (docs/record-format.md, section 3).

Untrusted bytes are checked for size and encoding before any parser sees them, then parsed once with
defusedxml under the depth and element-count limits.
"""

from __future__ import annotations

from typing import Any
from xml.etree.ElementTree import Element, ParseError, TreeBuilder

from defusedxml.common import DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden
from defusedxml.ElementTree import DefusedXMLParser

from shopfloor.shifts.records.fields import (
    MAX_DAY_BYTES,
    MAX_DEPTH,
    MAX_ELEMENTS,
    XML_DECL_ENCODING,
    DayRejected,
)


def preflight(raw: bytes) -> None:
    """Size and encoding checks on the raw bytes, before any XML parser sees them."""
    if len(raw) > MAX_DAY_BYTES:
        raise DayRejected(f"file is {len(raw):,} bytes; the limit is {MAX_DAY_BYTES:,} bytes per day")
    if raw.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        raise DayRejected("file starts with a byte-order mark; only UTF-8 without a BOM is accepted")
    if b"\x00" in raw:
        raise DayRejected("file contains NUL bytes; only UTF-8 text is accepted")
    try:
        raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        raise DayRejected(f"file is not valid UTF-8 (byte {exc.start})") from None
    declared = XML_DECL_ENCODING.match(raw)
    if declared and declared.group(1).lower() not in {b"utf-8", b"utf8"}:
        raise DayRejected(
            f"XML declaration names encoding {declared.group(1).decode()!r}; only UTF-8 is accepted"
        )


class _LimitedTreeBuilder(TreeBuilder):
    """Builds the tree while enforcing the depth and element-count limits and refusing processing
    instructions, so the limits cost no second pass over the bytes."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.elements = 0

    def start(self, tag: Any, attrs: Any) -> Element:
        self.depth += 1
        self.elements += 1
        if self.depth > MAX_DEPTH:
            raise DayRejected(f"elements nest deeper than {MAX_DEPTH} levels")
        if self.elements > MAX_ELEMENTS:
            raise DayRejected(f"more than {MAX_ELEMENTS:,} elements")
        return super().start(tag, attrs)

    def end(self, tag: Any) -> Element:
        self.depth -= 1
        return super().end(tag)

    def pi(self, target: Any, text: Any = None) -> Element:
        raise DayRejected("a processing instruction is not allowed")


def parse_tree(raw: bytes) -> Element:
    """Preflight the bytes, then parse once with defusedxml (no DTD, no entities, no external
    references) under the depth and element-count limits."""
    preflight(raw)
    parser = DefusedXMLParser(
        target=_LimitedTreeBuilder(), forbid_dtd=True, forbid_entities=True, forbid_external=True
    )
    try:
        parser.feed(raw)
        root: Element = parser.close()
    except DTDForbidden:
        raise DayRejected("a DOCTYPE is not allowed") from None
    except EntitiesForbidden:
        raise DayRejected("an entity declaration is not allowed") from None
    except ExternalReferenceForbidden:
        raise DayRejected("an external entity is not allowed") from None
    except ParseError as exc:
        raise DayRejected(f"malformed XML: {exc}") from None
    return root
