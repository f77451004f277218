"""The exit code and `status` say whether the work is done, and an unfinished paper is finished by the next ingest:
failed summaries are retried (then their vectors encoded), a store whose vectors were never built says so, and an
unreachable Milvus is a failed stage with its reason."""
from __future__ import annotations

import json
import re

from pipeline.summarize.testing import FakeOpenAI
from tests.state.helpers import one_line_error, pdf_folder, run, snapshot

DEAD = "http://127.0.0.1:9/v1"  # the discard port: nothing listens, connections are refused at once
OPENAI = {"PAPERBASE_SUMMARIZE__BACKEND": "openai", "PAPERBASE_SUMMARIZE__RETRIES": "0",
          "PAPERBASE_SUMMARIZE__BREAKER": "2", "PAPERBASE_SUMMARIZE__VISION": "false"}


def _status(tmp_path) -> dict[str, dict]:
    done = run("status", "--data-dir", "data", "--json", cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return {json.loads(l)["path"].rsplit("/", 1)[-1]: json.loads(l) for l in done.stdout.splitlines()}


def test_failed_summaries_are_not_finished_and_the_next_ingest_finishes_them(tmp_path):
    pdf_folder(tmp_path / "pdfs")
    failed = run("ingest", "pdfs", "--data-dir", "data", cwd=tmp_path, PAPERBASE_SUMMARIZE__BASE_URL=DEAD, **OPENAI)
    assert failed.returncode == 1, failed.stderr[-3000:]  # used to exit 0
    assert re.search(r"summarize: (partial|failed) — \d+ error\(s\), first: .*connection error", failed.stderr)
    assert "not finished" in failed.stderr and "the next ingest resumes it" in failed.stderr
    states = _status(tmp_path)
    assert {s["status"] for s in states.values()} == {"partial"}  # used to say ok
    assert all("summaries:" in s["error"] and "missing" in s["error"] for s in states.values())

    with FakeOpenAI() as fake:  # the endpoint works now: the unchanged folder's papers are finished
        again = run("ingest", "pdfs", "--data-dir", "data", cwd=tmp_path, PAPERBASE_SUMMARIZE__BASE_URL=fake.base_url,
                    **OPENAI)
        assert again.returncode == 0, again.stderr[-3000:]
        assert len(fake.requests) > 10  # used to send nothing
    assert {s["status"] for s in _status(tmp_path).values()} == {"ok"}
    assert run("check", "--data-dir", "data", cwd=tmp_path).returncode == 0
    third = run("ingest", "pdfs", "--data-dir", "data", cwd=tmp_path, PAPERBASE_SUMMARIZE__BASE_URL=DEAD, **OPENAI)
    assert third.returncode == 0 and "summarize" not in third.stderr  # nothing pending: no stage runs


def test_vectors_never_built_are_reported_by_check_and_search(tmp_path):
    pdf_folder(tmp_path / "pdfs")
    stored = run("ingest", "pdfs", "--data-dir", "data", "--stages", "summarize", cwd=tmp_path)
    assert stored.returncode == 1  # stored and summarized, but not encoded: not finished
    check = run("check", "--data-dir", "data", cwd=tmp_path)
    assert check.returncode == 1 and "collection missing from Milvus" in check.stderr  # used to say 0 mismatch(es)
    search = run("search", "masking", "--data-dir", "data", cwd=tmp_path)
    assert search.returncode == 1 and "run `paperbase encode`" in one_line_error(search)  # used to print nothing
    assert {s["status"] for s in _status(tmp_path).values()} == {"partial"}


def test_an_unreachable_milvus_is_a_failed_stage_with_its_reason(tmp_path):
    pdf_folder(tmp_path / "pdfs", ["neurips2020_rag_excerpt.pdf"])
    done = run("ingest", "pdfs", "--data-dir", "data", "--stages", "encode", cwd=tmp_path,
               PAPERBASE_VECTORS__MILVUS_URI="http://127.0.0.1:9")
    assert done.returncode == 1, done.stderr[-3000:]
    assert "encode: failed" in done.stderr and "127.0.0.1:9" in done.stderr  # used to exit 0 with no reason
    check = run("check", "--data-dir", "data", cwd=tmp_path, PAPERBASE_VECTORS__MILVUS_URI="http://127.0.0.1:9")
    assert check.returncode == 1 and "Milvus" in one_line_error(check)


def test_a_clean_ingest_exits_0_and_json_carries_each_files_stages(tmp_path):
    pdf_folder(tmp_path / "pdfs")
    done = run("ingest", "pdfs", "--data-dir", "data", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    files = [json.loads(l) for l in done.stdout.splitlines()]
    assert [f["status"] for f in files] == ["ok", "ok"]
    for f in files:
        assert f["stages"]["summarize"] == "ok"
        assert f["stages"]["encode:text_bm25_en"] == "ok"
        assert f["stages"]["encode:text_sentence_transformers_all_minilm_l6_v2"] == "ok"
    state = snapshot(tmp_path / "data")
    assert state["vectors"]["text_bm25_en"] > 0 and len(state["rows"]["metadata"]) == 2
