"""`shopfloor serve` refuses bad options before it starts a server."""

from typer.testing import CliRunner

from shopfloor.cli import app as root_app


def test_serve_refuses_a_port_out_of_range_before_starting():
    result = CliRunner().invoke(root_app, ["serve", "--port", "99999"])
    assert result.exit_code == 2 and "shopfloor on" not in result.output
    assert "--port" in result.output and "65535" in result.output
