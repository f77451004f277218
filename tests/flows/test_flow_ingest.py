"""The ingest flow against a real Prefect test server: per-file results, final vs transient failures, retries."""
from __future__ import annotations

import shutil
from pathlib import Path


from tests.flows.flowhelpers import SMALL, ledger, paper_ids, pdf_folder


def test_ingest_flow_reports_each_file_and_is_idempotent(prefect_api, tmp_path):
    from flows.ingest import ingest_folder

    folder = pdf_folder(tmp_path / "in", SMALL[:3])
    shutil.copy(folder / SMALL[0], folder / "copy_of_first.pdf")  # same paper under a second path
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\nthis is not a pdf at all\n")
    data = tmp_path / "data"

    out = ingest_folder(str(folder), data_dir=str(data), workers=2, stages=[])
    status = {Path(r["path"]).name: r["status"] for r in out["files"]}
    # Files run concurrently: whichever copy of the same paper is stored first wins; the other is a duplicate.
    assert sorted([status.pop(SMALL[0]), status.pop("copy_of_first.pdf")]) == ["duplicate", "ok"]
    assert status == {SMALL[1]: "ok", SMALL[2]: "ok", "broken.pdf": "failed"}
    rows = ledger(data)
    assert rows[str(folder / "broken.pdf")]["status"] == "failed"  # a bad PDF is final: recorded, not retried
    assert sorted(paper_ids(data)) == sorted({r["paper_id"] for r in out["files"] if r["status"] == "ok"})

    again = ingest_folder(str(folder), data_dir=str(data), workers=1, stages=[])
    assert {r["status"] for r in again["files"]} == {"skipped"}
    assert len(paper_ids(data)) == 3


def test_transient_store_failure_is_retried_and_recovers(prefect_api, tmp_path, monkeypatch):
    import flows.ingest
    from flows.tasks import ingest_pdf
    from pipeline.store import Store, StoreBusy

    calls = {"n": 0}
    real = Store.save_paper

    def flaky(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 1:
            raise StoreBusy("simulated: the database stayed locked")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Store, "save_paper", flaky)
    monkeypatch.setattr(flows.ingest, "ingest_pdf", ingest_pdf.with_options(retry_delay_seconds=0))
    folder = pdf_folder(tmp_path / "in", SMALL[:1])
    out = flows.ingest.ingest_folder(str(folder), data_dir=str(tmp_path / "data"), workers=1, stages=[])
    assert [r["status"] for r in out["files"]] == ["ok"]
    assert calls["n"] == 2
    assert len(paper_ids(tmp_path / "data")) == 1


def test_transient_failure_after_retries_is_reported_but_not_recorded(prefect_api, tmp_path, monkeypatch):
    import flows.ingest
    from flows.tasks import ingest_pdf
    from pipeline.store import Store, StoreBusy

    def busy(self, *args, **kwargs):
        raise StoreBusy("simulated: the database stayed locked")

    monkeypatch.setattr(Store, "save_paper", busy)
    monkeypatch.setattr(flows.ingest, "ingest_pdf", ingest_pdf.with_options(retries=1, retry_delay_seconds=0))
    folder = pdf_folder(tmp_path / "in", SMALL[:1])
    data = tmp_path / "data"
    out = flows.ingest.ingest_folder(str(folder), data_dir=str(data), workers=1, stages=[])
    assert out["files"][0]["status"] == "failed" and "transient" in out["files"][0]["error"]
    assert ledger(data) == {}  # nothing recorded: the next run tries this file again
    monkeypatch.undo()
    out = flows.ingest.ingest_folder(str(folder), data_dir=str(data), workers=1, stages=[])
    assert out["files"][0]["status"] == "ok"


def test_transient_classification():
    import httpx

    from flows.tasks import is_transient
    from pipeline.results import RetryableError
    from pipeline.vectors import StoreLocked
    from pipeline.parse.errors import ParseError
    from pipeline.store import StoreBusy

    request = httpx.Request("POST", "http://summarizer/v1/chat/completions")
    # transient by type: every RetryableError (a busy DuckDB, a held Milvus Lite store); parser crashes are handled
    # inside the worker pool now (retried alone, then a final recorded failure), so they never reach Prefect
    assert is_transient(StoreBusy("x")) and is_transient(RetryableError("x")) and is_transient(StoreLocked("x"))
    assert is_transient(httpx.ConnectError("refused", request=request))
    assert is_transient(httpx.HTTPStatusError("busy", request=request, response=httpx.Response(503, request=request)))
    assert not is_transient(httpx.HTTPStatusError("no", request=request, response=httpx.Response(401, request=request)))
    assert not is_transient(ParseError("not a PDF")) and not is_transient(ValueError("bug"))


def test_crashed_run_leaves_papers_pending_and_the_next_run_finishes_them(prefect_api, tmp_path, monkeypatch):
    """Stored but never summarized/encoded (a crash between the stages): the next run, with nothing new to parse,
    still runs the stages for them, then clears the pending list."""
    import flows.ingest
    from pipeline import pending

    folder = pdf_folder(tmp_path / "in", SMALL[:1])
    data = tmp_path / "data"
    flows.ingest.ingest_folder(str(folder), data_dir=str(data), workers=1, stages=[])
    assert len(pending.load(data)) == 1  # stages skipped: still pending

    ran = []

    def fake_stage(name):
        def run(settings, paper_ids=None, return_state=False):  # records the call, then does the stage's real work
            ran.append((name, paper_ids))
            from prefect.states import Completed

            from pipeline import stages

            return Completed(data=stages.RUNNERS[name](settings, paper_ids))
        return run

    monkeypatch.setattr(flows.ingest, "summarize_stage", fake_stage("summarize"))
    monkeypatch.setattr(flows.ingest, "encode_stage", fake_stage("encode"))
    out = flows.ingest.ingest_folder(str(folder), data_dir=str(data), workers=1)
    assert [r["status"] for r in out["files"]] == ["skipped"]
    assert ran == [("summarize", None), ("encode", None)]
    assert pending.load(data) == set()


def test_parser_crash_is_retried_on_a_fresh_pool_then_recorded_failed(prefect_api, tmp_path, monkeypatch):
    """A file that kills its parser process: the pool is replaced, the task retried, then the file is recorded
    failed (final) while the other file of the run is stored normally."""
    import flows.ingest
    from flows.tasks import ParserPool, ingest_pdf
    from tests.flows.flowhelpers import crash_on_bad

    folder = pdf_folder(tmp_path / "in", SMALL[:1])
    shutil.copy(folder / SMALL[0], folder / "bad_crasher.pdf")
    monkeypatch.setattr(flows.ingest, "ParserPool", lambda options, workers: ParserPool(options, 2, crash_on_bad))
    monkeypatch.setattr(flows.ingest, "ingest_pdf", ingest_pdf.with_options(retries=1, retry_delay_seconds=0))
    data = tmp_path / "data"
    out = flows.ingest.ingest_folder(str(folder), data_dir=str(data), workers=2, stages=[])
    status = {Path(r["path"]).name: (r["status"], r["error"]) for r in out["files"]}
    assert status[SMALL[0]][0] == "ok"
    assert status["bad_crasher.pdf"][0] == "failed" and "crashed" in status["bad_crasher.pdf"][1]
    assert ledger(data)[str(folder / "bad_crasher.pdf")]["status"] == "failed"
