"""Scheduled ingestion: the watch-folders deployment run by a Prefect runner, and `paperbase serve` end to end."""
from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

from tests.flows.flowhelpers import BIN, CORPUS, REPO, SMALL, ledger, pdf_folder, subprocess_env


def test_scheduled_deployment_triggered_once_picks_up_new_pdfs(prefect_api, tmp_path, monkeypatch):
    from prefect.client.orchestration import get_client
    from prefect.deployments import run_deployment
    from prefect.deployments.runner import EntrypointType
    from prefect.runner import Runner

    from flows.ingest import watch_folders

    watched = pdf_folder(tmp_path / "inbox", SMALL[:1])
    data = tmp_path / "data"
    monkeypatch.setenv("PAPERBASE_STAGES", "")
    deployment = watch_folders.to_deployment(
        name="test-watch", interval=3600, entrypoint_type=EntrypointType.MODULE_PATH,
        parameters={"folders": [str(watched), str(tmp_path / "not-yet")], "data_dir": str(data), "workers": 1, "stages": []},
    )
    runner = Runner(name="test-runner", limit=1)
    runner.add_deployment(deployment)
    flow_run = run_deployment("watch-folders/test-watch", timeout=0)  # scheduled now, executed by the runner
    asyncio.run(runner.start(run_once=True))
    with get_client(sync_client=True) as client:
        state = client.read_flow_run(flow_run.id).state
    assert state.is_completed(), state
    assert [r["status"] for r in ledger(data).values()] == ["ok"]


def _wait_for(predicate, timeout: float, proc: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        assert proc.poll() is None, f"serve exited early with {proc.returncode} while waiting for {what}"
        time.sleep(1)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")


def test_serve_picks_up_a_pdf_copied_in_after_start(tmp_path):
    """The clean-clone path: no PREFECT_API_URL, so `paperbase serve` starts its own local Prefect server
    (a real `prefect server start`, with the scheduler) and serves the scheduled deployment against it."""
    pdf = CORPUS / SMALL[1]
    if not pdf.exists():
        import pytest

        pytest.skip(f"{pdf} is absent")
    inbox, data = tmp_path / "inbox", tmp_path / "data"
    inbox.mkdir()
    env = subprocess_env(None, PREFECT_HOME=str(tmp_path / "prefect-home"), PREFECT_RUNNER_POLL_FREQUENCY="2")
    log = open(tmp_path / "serve.log", "wb")
    proc = subprocess.Popen([str(BIN / "paperbase"), "serve", str(inbox), "--interval", "3", "--data-dir", str(data),
                             "--workers", "1"], cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait_for(lambda: "being served" in (tmp_path / "serve.log").read_text(), 300, proc, "the deployment to be served")
        _wait_for(lambda: (data / "paperbase.duckdb").exists(), 120, proc, "a first (empty) scheduled run")
        shutil.copy(pdf, inbox / pdf.name)
        _wait_for(lambda: any(r["status"] == "ok" for r in _ledger_or_empty(data).values()), 180, proc,
                  "the copied PDF to be ingested")
        assert list(ledger(data)) == [str(inbox / pdf.name)]
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()
    out = (tmp_path / "serve.log").read_text()
    assert "Prefect API http://127.0.0.1:" in out, out[-3000:]


def _ledger_or_empty(data: Path) -> dict:
    try:
        return ledger(data)
    except Exception:  # the store may be busy or half-created at the moment we look
        return {}
