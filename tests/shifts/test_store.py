"""The record store: schema, atomic day replacement, bounded queries, Parquet export."""

from datetime import date

import duckdb
import pyarrow.parquet as pq
import pytest

from shopfloor.shifts.records import store

DAY = date(2026, 9, 14)


def note_day(day: date, texts: list[str]) -> store.DayRows:
    rows = store.DayRows(day)
    rows.tables["notes"] = [{"day": day, "shift": 1, "seq": i, "text": t} for i, t in enumerate(texts)]
    rows.tables["days"] = [{"day": day, "file": f"{day}.xml", "sha256": "0" * 64}]
    return rows


def test_every_table_is_created(tmp_path):
    conn = store.connect(tmp_path / "s.duckdb")
    names = {r[0] for r in conn.execute("SELECT table_name FROM information_schema.tables").fetchall()}
    assert set(store.TABLES) <= names
    assert set(store.SORT_KEYS) == set(store.DAY_TABLES)


def test_replace_day_replaces_whole_day_and_leaves_other_days():
    conn = store.connect(":memory:")
    store.replace_day(conn, note_day(DAY, ["a", "b"]))
    store.replace_day(conn, note_day(date(2026, 9, 15), ["other"]))
    store.replace_day(conn, note_day(DAY, ["c"]))
    rows = conn.execute("SELECT day, text FROM notes ORDER BY day, seq").fetchall()
    assert rows == [(DAY, "c"), (date(2026, 9, 15), "other")]


def test_failed_replacement_leaves_the_stored_day_as_it_was():
    conn = store.connect(":memory:")
    store.replace_day(conn, note_day(DAY, ["kept"]))
    bad = note_day(DAY, ["new"])
    bad.tables["shifts"] = [{"day": DAY, "shift": "not a number"}]
    with pytest.raises(Exception):  # noqa: B017 - any conversion error will do
        store.replace_day(conn, bad)
    assert conn.execute("SELECT text FROM notes").fetchall() == [("kept",)]


def test_bounded_query_limits_rows_and_flags_truncation():
    conn = store.connect(":memory:")
    result = store.bounded_query(conn, "SELECT * FROM range(5000)")
    assert len(result.rows) == 1000 and result.truncated
    small = store.bounded_query(conn, "SELECT ? AS x", [7])
    assert small.dicts() == [{"x": 7}] and not small.truncated


def test_bounded_query_interrupts_a_long_query():
    conn = store.connect(":memory:")
    slow = "SELECT count(*) FROM range(100000000) a, range(100000) b WHERE a.range + b.range = -1"
    with pytest.raises(store.QueryTimeout):
        store.bounded_query(conn, slow, timeout_s=0.2)
    assert store.bounded_query(conn, "SELECT 1").rows == [(1,)]


def test_read_only_connection_refuses_writes_and_file_access(tmp_path):
    path = tmp_path / "s.duckdb"
    conn = store.connect(path)
    store.set_meta(conn, {"generator": "g1"})
    conn.close()
    ro = store.open_read_only(path)
    assert store.get_meta(ro) == {"generator": "g1", "schema_version": store.SCHEMA_VERSION}
    with pytest.raises(duckdb.Error):
        ro.execute("DELETE FROM meta")
    with pytest.raises(duckdb.Error):
        ro.execute("SELECT * FROM read_csv('/etc/passwd')")


def test_export_writes_one_parquet_file_per_table(tmp_path):
    conn = store.connect(":memory:")
    store.replace_day(conn, note_day(DAY, ["a"]))
    seen = []
    paths = store.export_parquet(
        conn, tmp_path / "pq", progress=lambda done, total: seen.append((done, total))
    )
    assert {p.stem for p in paths} == set(store.TABLES)
    assert seen == [(i, 11) for i in range(1, 12)]  # meta + ten day tables, one step each
    assert pq.read_table(tmp_path / "pq" / "notes.parquet").to_pylist() == [
        {"day": DAY, "shift": 1, "seq": 0, "text": "a"}
    ]


def test_a_transaction_commits_whole_or_rolls_back_whole():
    conn = store.connect(":memory:")
    with pytest.raises(RuntimeError), store.transaction(conn):
        conn.execute("INSERT INTO meta VALUES ('a', '1')")
        raise RuntimeError("stop half way")
    assert conn.execute("SELECT count(*) FROM meta WHERE key = 'a'").fetchone() == (0,)
    with store.transaction(conn):
        conn.execute("INSERT INTO meta VALUES ('a', '1')")
    assert conn.execute("SELECT value FROM meta WHERE key = 'a'").fetchone() == ("1",)
    store.set_meta(conn, {"a": "2", "b": "3"})
    assert store.get_meta(conn)["a"] == "2" and store.get_meta(conn)["b"] == "3"
