"""Actions against a store: hostile inputs are refused with an `[Error]` observation, never run, never raised."""
from __future__ import annotations

import json

import pytest

from agent.config import AgentSettings
from agent.env import Environment
from agent.parse import Action
from pipeline.read import Reader
from tests.agent.conftest import PAPER


@pytest.fixture
def env(mini_settings):
    with Reader(mini_settings) as reader:
        yield Environment(reader, AgentSettings())


def _sql(env, sql: str) -> str:
    return env.execute(Action("RetrieveFromDatabase", {"sql": sql})).message_text()


@pytest.mark.parametrize("sql", [
    "DROP TABLE metadata",
    "DELETE FROM metadata",
    "COPY metadata TO '/tmp/paperbase-leak.csv'",
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELECT * FROM read_text('/etc/passwd')",
    "ATTACH '/tmp/other.duckdb' AS other",
    "INSTALL httpfs",
    "SET enable_external_access = true",
    "PRAGMA version",
    "SELECT 1; DROP TABLE metadata",
    "CREATE TABLE x AS SELECT 1",
])
def test_hostile_sql_is_refused(env, sql):
    text = _sql(env, sql)
    assert text.startswith("[Observation]: [Error]: ") or text.startswith("[Observation]:\n[Error]: "), text
    assert _sql(env, "SELECT count(*) AS n FROM metadata").startswith('[Observation]:\n{"n":1}')


def test_rows_total(env):
    text = _sql(env, "SELECT page_number, page_content FROM pages ORDER BY page_number")
    lines = text.split("\n")
    assert lines[0] == "[Observation]:" and lines[-1] == "In total, 3 rows are displayed in JSON format."
    assert json.loads(lines[1]) == {"page_number": 1, "page_content": "Content of page 1 — with a slash / and ünïcode."}
    assert "\\u2014" in lines[1] and "\\/" in lines[1]  # escaped as upstream (pandas to_json style)


def test_rows_cut_by_max_rows(env):
    text = _sql(env, "SELECT ordinal FROM chunks ORDER BY ordinal")
    assert text.count("\n{") == 10
    assert text.endswith("\n\n... # only display 10 rows in JSON format, more are truncated due to length constraint based on max_rows (10)")


def test_rows_cut_by_max_tokens(env):
    text = _sql(env, "SELECT text_content FROM chunks WHERE ordinal IN (0, 1, 2) ORDER BY ordinal DESC")
    assert text.count("\n{") == 2
    assert text.endswith("... # only display 2 rows in JSON format, more are truncated due to length constraint based on max_tokens (5000)")
    single = _sql(env, "SELECT text_content FROM chunks WHERE ordinal = 0")
    assert single.count("\n{") == 1 and len(single) < 5000 * 4 + 300 and "max_tokens (5000)" in single


def test_empty_and_runtime_errors(env):
    assert _sql(env, "SELECT * FROM metadata WHERE 1 = 0") == \
        "[Observation]: [Warning]: The SQL execution result is empty, please check the SQL first."
    assert _sql(env, "SELECT pdf_id FROM chunks").startswith(
        "[Observation]:\n[Error]: Runtime error during SQL execution and output formatting: Binder Error: ")
    assert _sql(env, "SELECT {x} FROM chunks").startswith(
        "[Observation]: [Error]: Runtime error during SQL execution and output formatting: Parser Error: ")


def test_sql_timeout_is_an_error(mini_settings):
    with Reader(mini_settings) as reader:
        env = Environment(reader, AgentSettings(sql_timeout_s=0.2))
        text = _sql(env, "SELECT count(*) FROM range(10000000000) a, range(1000) b")
    assert text.startswith("[Observation]: [Error]: the SQL timed out")


@pytest.mark.parametrize("paper_id, page, reason", [
    ("../../x", 1, "is not a paper id"),
    ("/etc/passwd", 1, "is not a paper id"),
    ("00000000-0000-5000-8000-000000000000", 1, "no paper with id"),
    (PAPER, 9, "there is no page 9"),
    (PAPER, 1, "is no longer at"),
])
def test_view_image_refusals(env, paper_id, page, reason):
    obs = env.execute(Action("ViewImage", {"paper_id": paper_id, "page_number": page, "bounding_box": []}))
    assert obs.image_png is None and obs.text.startswith("[Error]: ") and reason in obs.text


def test_view_image_bad_box_and_vision_off(env, mini_settings):
    obs = env.execute(Action("ViewImage", {"paper_id": PAPER, "page_number": 1, "bounding_box": [1.0, 2.0, -3.0]}))
    assert obs.text.startswith("[Error]: bounding_box")
    with Reader(mini_settings) as reader:
        off = Environment(reader, AgentSettings(vision=False)).execute(Action("ViewImage", {"paper_id": PAPER, "page_number": 1, "bounding_box": []}))
    assert off.text.startswith("[Error]: ViewImage is unavailable")


@pytest.mark.parametrize("expr, text", [
    ("36.29 - 19.48", "[Observation]: The calculated result is: 16.81"),
    ("__import__('os')", "[Observation]: [Error]: name '__import__' is not defined"),
    ("9**9**9", "[Observation]: [Error]: the power is too large to compute (more than 4096 bits)"),
])
def test_calculate(env, expr, text):
    assert env.execute(Action("CalculateExpr", {"expr": expr})).message_text() == text


def test_answer_echo(env):
    obs = env.execute(Action("GenerateAnswer", {"answer": ["Yi-34B", "73.2%"]}))
    assert obs.final and obs.message_text() == "[Observation]: ['Yi-34B', '73.2%']"
