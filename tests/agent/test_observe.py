"""Every observation form of the seeds and the 254 reference trajectories is known (tests/agent/observation_forms.py)
and paperbase produces each one, plus its own forms (image observation, refusals)."""
from __future__ import annotations

import base64

import pytest

from agent.config import AgentSettings
from agent.env import Environment
from agent.observe import Observation, rows
from agent.parse import Action, parse_action
from agent.prompts import action_names
from pipeline.read import Reader
from tests.agent.observation_forms import FORMS, classify, recorded
from tests.conftest import SHARED, needs_shared

HYBRID = action_names("hybrid")
BM25 = {"collection_name": "text_bm25_en", "table_name": "chunks", "column_name": "text_content", "filter": "", "limit": 5}


@needs_shared
def test_every_recorded_observation_has_a_known_form():
    seen = recorded(SHARED)
    assert len(seen) > 1000
    unknown = [(name, msg[:120]) for name, action, msg in seen if classify(action, msg) == "UNKNOWN"]
    assert not unknown
    assert {classify(a, m) for _, a, m in seen} == {form for form, _, _ in FORMS}


def _mini(mini_settings, action: Action) -> str:
    with Reader(mini_settings) as reader:
        return Environment(reader, AgentSettings()).execute(action).message_text()


def _corpus(corpus_settings, action: Action) -> str:
    with Reader(corpus_settings) as reader:
        return Environment(reader, AgentSettings()).execute(action).message_text()


SQL = "RetrieveFromDatabase"
MINI_CASES = {
    "sql_rows_total": Action(SQL, {"sql": "SELECT page_number FROM pages"}),
    "sql_rows_cut_max_tokens": Action(SQL, {"sql": "SELECT text_content FROM chunks WHERE ordinal IN (0, 1) ORDER BY ordinal DESC"}),
    "sql_rows_cut_max_rows": Action(SQL, {"sql": "SELECT * FROM chunks WHERE ordinal > 0"}),
    "sql_empty_warning": Action(SQL, {"sql": "SELECT * FROM pages WHERE page_number > 100"}),
    "sql_runtime_error": Action(SQL, {"sql": "SELECT nope FROM pages"}),
    "calculated": Action("CalculateExpr", {"expr": "2 + 3 * 4"}),
    "calc_error": Action("CalculateExpr", {"expr": "extract_evaluations_and_scores()"}),
    "answer_echo": Action("GenerateAnswer", {"answer": {"JWP-MCQs": [0.75, 2.5]}}),
}
CORPUS_CASES = {
    "hits_total": Action("RetrieveFromVectorstore", {**BM25, "query": "privacy masking language models"}),
    "hits_cut_max_tokens": Action("RetrieveFromVectorstore", {**BM25, "table_name": "pages", "column_name": "page_content",
                                                              "query": "language models retrieval reasoning privacy", "limit": 10}),
    "no_hits_warning": Action("RetrieveFromVectorstore", {**BM25, "query": "zzqxv"}),
    "filter_invalid_error": Action("RetrieveFromVectorstore", {**BM25, "query": "x", "filter": "ref_paper_id == 'x'"}),
}


@pytest.mark.parametrize("form", list(MINI_CASES))
def test_sql_calc_answer_forms(form, mini_settings):
    action = MINI_CASES[form]
    assert classify(action.name, _mini(mini_settings, action)) == form


@pytest.mark.parametrize("form", list(CORPUS_CASES))
def test_vector_forms(form, corpus_settings):
    action = CORPUS_CASES[form]
    text = _corpus(corpus_settings, action)
    assert classify(action.name, text) == form, text[-300:]


@pytest.mark.parametrize("form, reply", [
    ("parse_action_error", "[Thought]: hm\n[Action]: I will search first."),
    ("parse_params_error", "[Action]: GenerateAnswer(answer=[\u2018a\u2019])"),
])
def test_parse_forms(form, reply):
    parsed = parse_action(reply, HYBRID)
    assert classify(None, Observation(parsed.observation).message_text()) == form


def test_hit_fields_and_escaping(corpus_settings):
    text = _corpus(corpus_settings, CORPUS_CASES["hits_total"])
    import json

    first = json.loads(text.split("\n")[1])
    assert list(first) == ["score", "pdf_id", "page_number", "table_name", "column_name", "primary_key", "text"]
    assert isinstance(first["score"], float) and round(first["score"], 4) == first["score"]


def test_milvus_rejection_is_a_filter_error(corpus_settings):
    text = _corpus(corpus_settings, Action("RetrieveFromVectorstore", {**BM25, "query": "x", "filter": "page_number == 'x'"}))
    assert text.startswith('[Observation]: [Error]: Filter condition "page_number == \'x\'" is not valid. ')


@pytest.mark.parametrize("args, reason", [
    ({"collection_name": "nope"}, "collection 'nope' is not in the vectorstore"),
    ({"table_name": "metadata", "column_name": "pdf_path"}, "is not an encodable (table_name, column_name) pair"),
    ({"limit": 0}, "limit must be a positive integer"),
    ({"filter": "pdf_id in (SELECT paper_id FROM metadata)"}, 'Filter condition "pdf_id in (SELECT paper_id FROM metadata)" is not valid. syntax error'),
])
def test_vector_refusals(args, reason, corpus_settings):
    text = _corpus(corpus_settings, Action("RetrieveFromVectorstore", {**BM25, "query": "x", **args}))
    assert text.startswith("[Observation]: [Error]: ") and reason in text


def test_classic_retrieve(corpus_settings):
    text = _corpus(corpus_settings, Action("ClassicRetrieve", {"query": "teaching small language models to reason", "limit": 3}))
    assert text.endswith("In total, 3 rows are displayed in JSON format.")
    assert '"table_name":"chunks","column_name":"text_content"' in text


def test_image_observation(corpus_settings):
    with Reader(corpus_settings) as reader:
        paper = reader.papers()[0]["paper_id"]
        obs = Environment(reader, AgentSettings()).execute(
            Action("ViewImage", {"paper_id": paper, "page_number": 1, "bounding_box": [50.0, 60.0, 200.0, 100.0]}))
    msg = obs.message()
    assert msg["role"] == "user" and [p["type"] for p in msg["content"]] == ["text", "image_url"]
    assert msg["content"][0]["text"] == f"[Observation]: The image of page 1 of paper {paper} (bounding box [50.0, 60.0, 200.0, 100.0]) is shown below."
    url = msg["content"][1]["image_url"]["url"]
    assert base64.b64decode(url.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"


def test_rows_suffix_counts():
    assert rows([{"a": 1}]).message_text() == '[Observation]:\n{"a":1}\n\nIn total, 1 rows are displayed in JSON format.'
    assert rows([{"a": 1}], more=True).message_text().endswith("based on max_rows (10)")
