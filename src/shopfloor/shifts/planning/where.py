"""Where to look next: two or three places in the records, each with the question that opens it and that
question's address in the same scope (docs/shifts-agent.md, "Flow"). Planning writes them, because only
the router knows which plan a question reads; the answer's sections only show them."""

from __future__ import annotations

from dataclasses import replace

from shopfloor.shifts.planning.plans import Plan
from shopfloor.shifts.planning.router import route

# Where to look: (place in the records, question the router answers in the same scope).
WHERE_DAY = [
    ("The setup matrix, setup by setup", "Show the setup matrix"),
    ("Downtime by place", "Show the downtime by place"),
    ("The crew's notes", "What did the notes say"),
]
WHERE_WINDOW = [
    ("The downtime pareto by place", "Downtime pareto by place"),
    ("The waste breakdown", "Show the waste breakdown"),
    ("The speed by grade", "fpm by grade"),
    ("The downtime review against the bands", "Show the downtime review"),
]
MAX_PLACES = 3


def places(plan: Plan) -> list[tuple[str, str]]:
    """The places to look after ``plan``, each with the question that opens it (never an action)."""
    pairs = WHERE_DAY if plan.window == "day" else WHERE_WINDOW
    return [p for p in pairs if not _same_measure(plan, p[1])][:4]


def where_to_look(plan: Plan) -> list[tuple[str, str, str]]:
    """At most three (place, question, address) after ``plan``, never pointing back at the answer itself."""
    own = replace(plan, after=None, chart=False).address()
    out: list[tuple[str, str, str]] = []
    for place, question in places(plan):
        if len(out) == MAX_PLACES:
            break
        address = _address_for(plan, question)
        if address and address != own:
            out.append((place, question, address))
    return out


def _same_measure(plan: Plan, question: str) -> bool:
    q = question.lower()
    return (plan.measure == "setups" and "setup" in q) or (plan.measure == "notes" and "notes" in q)


def _address_for(plan: Plan, question: str) -> str:
    routed = route(question, plan.scope())
    if isinstance(routed, Plan):
        return replace(routed, after=None).address()
    return ""
