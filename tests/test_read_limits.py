"""The guarded SQL connection has a memory limit and a thread cap (issue 28: one 10-s model-written query reached
3.7 GB; DuckDB's default limit here is most of the machine's memory). Past the limit the query stops with a one-line
error (an `[Error]` observation for the agent), and no query can lift the limits."""
from __future__ import annotations

import duckdb
import pytest

from pipeline.config import load_settings
from pipeline.read import QueryRefused, QueryTooLarge, Reader

HUNGRY = ("SELECT count(*) FROM (SELECT a.range AS i, repeat('x', 200) || b.range AS s FROM range(3000) a, "
          "range(3000) b ORDER BY s DESC)")  # a sort that must hold ~9M rows of ~200 bytes


@pytest.fixture
def settings(tmp_path):
    con = duckdb.connect(str(tmp_path / "paperbase.duckdb"))
    con.execute("CREATE TABLE t AS SELECT range AS i FROM range(10)")
    con.close()
    return lambda **read: load_settings(data_dir=tmp_path, read=read or None)


def test_limits_are_set_and_cannot_be_lifted(settings):
    with Reader(settings(sql_memory_limit="300MB", sql_threads=1)) as reader:
        limit, threads, spill = reader.sql("SELECT current_setting('memory_limit'), current_setting('threads'), "
                                           "current_setting('temp_directory')").rows[0]
        assert limit.endswith("MiB") and float(limit.split()[0]) < 300 and threads == 1 and spill == ""
        for sql in ("SET memory_limit = '100GB'", "PRAGMA threads = 64", "RESET memory_limit"):
            with pytest.raises(QueryRefused):
                reader.sql(sql)


def test_a_query_past_the_memory_limit_is_one_clear_error(settings):
    with Reader(settings(sql_memory_limit="64MB")) as reader:
        with pytest.raises(QueryTooLarge, match="more memory than the 64MB a query may use"):
            reader.sql(HUNGRY, timeout_s=120)
        assert reader.sql("SELECT count(*) FROM t").rows == [(10,)]  # the connection is fine afterwards


def test_the_limit_is_configurable(settings, monkeypatch):
    monkeypatch.setenv("PAPERBASE_READ__SQL_MEMORY_LIMIT", "2GB")
    with Reader(settings()) as reader:
        assert reader.sql("SELECT current_setting('memory_limit')").rows[0][0].startswith("1.8")  # 2 GB in GiB
    monkeypatch.setenv("PAPERBASE_READ__SQL_MEMORY_LIMIT", "a lot")
    from pipeline.config import ConfigError

    with pytest.raises(ConfigError, match="sql_memory_limit"):
        settings()
