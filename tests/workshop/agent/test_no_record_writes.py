"""No code of the workshop agent writes hats, weavers, hat events or hat flags: only a person's
approval does (docs/workshop.md, "Approving").

A source scan: constructing, updating, inserting or deleting those rows, SQL against their tables, changing a
record attribute, or importing the approval path (the one module allowed to write them) fails the test.
"""

from __future__ import annotations

import re
from pathlib import Path

import shopfloor.workshop.agent as agent_package

RECORD_MODELS = r"(?:Hat|Weaver|HatEvent|HatFlag)"
RECORD_TABLES = r"(?:hats|weavers|hat_events|hat_flags)"
# Core table handles of the record models as the agent's persistence names them (read-only selects only).
RECORD_TABLE_HANDLES = r"(?:HATS|WEAVERS|EVENTS|FLAGS)"
FORBIDDEN = [
    re.compile(r"\bm\." + RECORD_MODELS + r"\("),
    re.compile(r"\b(?:insert|update|delete)\(\s*(?:m\.)?" + RECORD_MODELS + r"\b"),
    re.compile(r"(?i)\b(?:insert\s+into|update|delete\s+from|truncate)\s+" + RECORD_TABLES + r"\b"),
    re.compile(r"\b(?:insert|update|delete)\(\s*" + RECORD_TABLE_HANDLES + r"\b"),
    re.compile(r"\b" + RECORD_TABLE_HANDLES + r"\.(?:insert|update|delete)\("),
    re.compile(r"\bsession\.(?:delete|merge)\("),
    re.compile(
        r"\b(?!self\b)\w+\.(?:stage|archived|version|grade|rows_per_inch|weaver_id|owner_type|owner_name)\s*=(?!=)"
    ),
    re.compile(r"\bapprovals\b"),
    re.compile(r"\bapply_decisions\b"),
]


def violations(source: str) -> list[str]:
    """Lines of ``source`` that would write a record."""
    found = []
    for number, line in enumerate(source.splitlines(), 1):
        code = line.split("#", 1)[0]
        if any(p.search(code) for p in FORBIDDEN):
            found.append(f"{number}: {line.strip()}")
    return found


def agent_sources() -> list[Path]:
    root = Path(agent_package.__file__).parent
    return sorted(root.rglob("*.py"))


def test_the_scan_sees_every_agent_module():
    names = {p.name for p in agent_sources()}
    assert {
        "handlers.py",
        "run.py",
        "persistence.py",
        "provider.py",
        "reader.py",
        "api.py",
        "cli.py",
        "evals.py",
    } <= names


def test_no_agent_module_writes_records():
    problems = {str(p.name): violations(p.read_text(encoding="utf-8")) for p in agent_sources()}
    assert {name: lines for name, lines in problems.items() if lines} == {}


def test_the_scan_catches_writes():
    planted = [
        "session.add(m.Hat(code='TQ-AAAAA'))",
        "session.execute(update(m.Hat).values(stage='Washing'))",
        "session.execute(delete(HatFlag))",
        "conn.exec_driver_sql(\"UPDATE hats SET stage = 'Finished'\")",
        'conn.exec_driver_sql("insert into hat_events values (1)")',
        "row.stage = 'Finished'",
        "hat.archived = True",
        "from shopfloor.workshop.approvals import apply_decisions",
        "session.delete(row)",
        "session.execute(update(HATS).values(stage='Finished'))",
        "conn.execute(insert(EVENTS), rows)",
        "conn.execute(FLAGS.delete())",
    ]
    for line in planted:
        assert violations(line), line
    assert violations("if hat.stage == 'Weaving':") == []
    assert violations("self.stage = stage") == []
    assert violations("select(HATS).where(HATS.c.code == code)") == []
    assert violations("session.execute(insert(PROPOSALS), rows)") == []
