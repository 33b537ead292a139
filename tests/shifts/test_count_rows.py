"""A counted list says its count in a supervisor's words and in the right number: "1 order run", "101 order
runs", never "1 rows" or "knife fragments" (issue 26, point 12)."""

from __future__ import annotations

from shopfloor.shifts.catalog import ENTRIES


def _counted(tool: str, rows: int) -> str:
    entry = next(e for e in ENTRIES if e.name == tool)
    assert entry.shape is not None
    headline, sections = entry.shape({"query": 1, "rows": [{"record_id": i} for i in range(rows)]})
    return " ".join(s["text"] for s in [headline, *sections] if s)


def test_the_order_matrix_counts_order_runs_in_their_number():
    assert "**1** order run in the order matrix" in _counted("get_order_matrix", 1)
    assert "**101** order runs in the order matrix" in _counted("get_order_matrix", 101)
    assert "fragment" not in _counted("get_order_matrix", 101)


def test_the_setup_matrix_counts_setups_in_their_number():
    assert "**1** setup in the matrix" in _counted("get_setup_matrix", 1)
    assert "**2** setups in the matrix" in _counted("get_setup_matrix", 2)


def test_runs_under_their_baseline_are_counted_in_their_number():
    from shopfloor.shifts.answers.day_shapes import wet_end

    def said(under: int) -> str:
        rows = [{"run_id": "W001", "grade": "200-C", "pct_of_target": 90.0}]
        _, sections = wet_end({"query": 2, "rows": rows, "runs_under_baseline": under})
        return " ".join(s["text"] for s in sections)

    assert "**1** run ran under its grade's trailing-year baseline" in said(1)
    assert "**2** runs ran under their grade's trailing-year baseline" in said(2)
