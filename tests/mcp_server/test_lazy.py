"""The server's app and the ``shopfloor`` command load without the MCP SDK (it takes seconds to import):
only ``shopfloor mcp`` and the ``/mcp`` route's start import it."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # a fresh interpreter


def test_building_the_server_app_does_not_import_the_sdk(tmp_path):
    code = (
        "import sys\n"
        "from shopfloor.settings import Settings\n"
        "from shopfloor.server.app import create_app\n"
        "import shopfloor.cli\n"
        f"create_app(Settings(var_dir={str(tmp_path)!r}))\n"
        "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'mcp_types'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
