"""The core is generic over the app's run context: mypy refuses a handler written for another context."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from mypy import api as mypy_api

SNIPPET = textwrap.dedent(
    """
    from dataclasses import dataclass

    from pydantic import BaseModel

    from shopfloor.agent.dispatch import dispatch
    from shopfloor.agent.providers.base import ToolCall
    from shopfloor.agent.tools import Tool, ToolRegistry


    @dataclass
    class WorkshopCtx:
        workshop_id: str


    @dataclass
    class PlantCtx:
        plant: str


    class Args(BaseModel):
        code: str


    def handler(ctx: WorkshopCtx, args: Args) -> str:
        return ctx.workshop_id + args.code


    registry: ToolRegistry[WorkshopCtx] = ToolRegistry([Tool("t", "d", "read", Args, handler)])
    dispatch(registry, WorkshopCtx("w1"), ToolCall("c", "t", {"code": "x"}))
    dispatch(registry, PlantCtx("p1"), ToolCall("c", "t", {"code": "x"}))  # the wrong context
    """
)


@pytest.mark.slow
def test_mypy_refuses_a_registry_called_with_another_apps_context(tmp_path: Path) -> None:
    snippet = tmp_path / "snippet.py"
    snippet.write_text(SNIPPET)
    src = Path(__file__).resolve().parents[2] / "src"
    config = tmp_path / "mypy.ini"
    config.write_text(f"[mypy]\nstrict = True\nmypy_path = {src}\nplugins = pydantic.mypy\n")
    out, _err, status = mypy_api.run(
        ["--config-file", str(config), "--no-incremental", "--follow-imports=silent", str(snippet)]
    )
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 1, out
    assert len(errors) == 1, out
    wrong_line = next(i for i, line in enumerate(SNIPPET.splitlines(), 1) if "the wrong context" in line)
    assert f"snippet.py:{wrong_line}: error:" in errors[0], out
    assert "CtxT" in errors[0], out
