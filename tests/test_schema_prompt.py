"""schemas/ renders the agent's [Database Schema] text byte for byte as in the seed trajectories."""
import json

import duckdb
import pytest

from pipeline.store.schema import render_ddl, render_schema_prompt
from schemas import database_schema
from tests.conftest import SHARED

SEEDS = sorted((SHARED / "seeds").glob("*.txt")) if (SHARED / "seeds").is_dir() else []


def _seed_db_block(path) -> str:
    user = json.loads(path.read_text(encoding="utf-8").splitlines()[1])["content"]
    block = user[user.index("[Database Schema]") : user.index("[Vectorstore Schema]")]
    return block.split("\n", 1)[1]  # drop the first line, which names the upstream .sql path


@pytest.mark.skipif(not SEEDS, reason="../shared/seeds is absent")
@pytest.mark.parametrize("seed", SEEDS, ids=lambda p: p.name)
def test_schema_prompt_matches_seed(seed):
    assert render_schema_prompt() == _seed_db_block(seed)


def test_eight_tables_with_encodable_marks():
    schema = database_schema()
    assert schema.table_names == ["metadata", "pages", "images", "chunks", "tables", "sections", "equations", "reference"]
    assert ("images", "bounding_box", "image") in schema.encodable_columns()
    assert ("tables", "bounding_box", "image") in schema.encodable_columns()
    assert len(schema.encodable_columns("text")) == 17


def test_ddl_executes_and_types_match():
    con = duckdb.connect()
    for stmt in render_ddl():
        con.execute(stmt)
    cols = dict(con.execute("SELECT column_name, data_type FROM information_schema.columns WHERE table_name='images'").fetchall())
    assert cols["bounding_box"] == "INTEGER[4]"
    assert cols["image_id"] == "UUID"
    # the agent-facing text keeps the foreign keys even though DuckDB does not enforce them
    assert "FOREIGN KEY (ref_page_id) REFERENCES pages(page_id)" in render_schema_prompt()


def test_every_foreign_key_column_is_indexed_and_the_agent_text_does_not_show_it():
    """Per-paper and per-page lookups (the agent's `WHERE ref_paper_id = '…'`) find rows through an index; random
    UUID ids defeat zonemaps, so without one each such query scans its table. The agent's text stays upstream's."""
    con = duckdb.connect()
    for stmt in render_ddl():
        con.execute(stmt)
    indexed = {(t, s.split("(")[-1].rstrip(");").strip()) for t, s in
               con.execute("SELECT table_name, sql FROM duckdb_indexes()").fetchall()}
    wanted = {(t.name, fk.column) for t in database_schema().tables for fk in t.foreign_keys}
    assert wanted and indexed == wanted
    for stmt in render_ddl():  # idempotent: a writer re-runs the DDL on every open
        con.execute(stmt)
    assert "INDEX" not in render_schema_prompt()
