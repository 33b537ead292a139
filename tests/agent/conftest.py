"""A tiny tool set for exercising the core without any app."""

from dataclasses import dataclass, field

import pytest
from pydantic import BaseModel

from shopfloor.agent.tools import Tool, ToolError, ToolRegistry

# The shared provider checks in wire.py assert; rewriting gives their failures the usual detail.
pytest.register_assert_rewrite("tests.agent.wire")


class LookupArgs(BaseModel):
    name: str


class ProposeArgs(BaseModel):
    item: str


@dataclass
class Ctx:
    seen: set[str] = field(default_factory=set)
    proposals: list[str] = field(default_factory=list)


def lookup(ctx: Ctx, args: LookupArgs):
    if args.name == "boom":
        raise RuntimeError("secret internal detail")
    if not args.name:
        raise ToolError("name must be 1 to 60 characters.")
    ctx.seen.add(args.name)
    return {"matches": [args.name]}


def propose(ctx: Ctx, args: ProposeArgs):
    if args.item not in ctx.seen:
        raise ToolError("Look it up first.")
    ctx.proposals.append(args.item)
    return {"proposal_id": f"p{len(ctx.proposals)}", "status": "pending"}


@pytest.fixture
def registry() -> ToolRegistry:
    return ToolRegistry(
        [
            Tool("lookup", "Find things.", "read", LookupArgs, lookup),
            Tool("propose", "Propose a thing.", "propose", ProposeArgs, propose),
        ]
    )


@pytest.fixture
def ctx() -> Ctx:
    return Ctx()


@pytest.fixture(autouse=True)
def _fresh_provider_clients():
    """Each test builds its own shared SDK clients (they are per process, keyed on the provider's settings)."""
    from shopfloor.agent.providers.factory import close_providers

    close_providers()
    yield
    close_providers()
