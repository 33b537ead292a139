"""The answer of one investigation: its status, scope, sections, evidence, charts, trace and usage.

Every face shows this one value (docs/shifts-agent.md, "Flow"): the terminal, the page, the PDF and the JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Answer:
    """Everything one investigation returns."""

    status: str
    question: str
    scope: dict[str, Any]
    address: str | None
    sections: list[dict[str, Any]]
    # How the question was read ("Read as: …"): the first section of every answer, and what the page shows.
    read_as: str = ""
    evidence: list[dict[str, Any]] = field(default_factory=list)
    charts: list[dict[str, Any]] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)
    trace: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, Any] = field(default_factory=dict)
    plan: dict[str, Any] | None = None
    reason: str | None = None
    examples: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.read_as:
            self.read_as = "Read as: not a question the investigator answers offline"
        if not self.sections or self.sections[0].get("type") != "read_as":
            self.sections.insert(0, {"type": "read_as", "text": self.read_as})

    def as_dict(self) -> dict[str, Any]:
        """JSON form (the CLI's --json and the evals read this)."""
        return dict(self.__dict__)

    def text(self) -> str:
        """The sections as plain text lines, the "Read as" line first."""
        return "\n".join(s["text"] for s in self.sections)
