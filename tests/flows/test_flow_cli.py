"""`paperbase ingest` runs through the flows (imported by the top-floor CLI), in Prefect's ephemeral mode when no server
is configured, and never starts Prefect when the plan finds nothing new or changed."""
from __future__ import annotations

import subprocess
import sys
import time
from importlib.metadata import entry_points

from tests.flows.flowhelpers import BIN, REPO, SMALL, ledger, pdf_folder, subprocess_env

_PROBE = """import sys, time
t0 = time.perf_counter()
from cli import app
sys.argv = ["paperbase", "ingest", sys.argv[1], "--data-dir", sys.argv[2], "--json"]
try:
    app()
except SystemExit:
    pass
print("PREFECT_LOADED" if "prefect" in sys.modules else "NO_PREFECT", f"{time.perf_counter() - t0:.2f}s", file=sys.stderr)
"""


def test_cli_reaches_the_flows_directly_not_through_entry_points():
    # the CLI sits above flows/ and imports it; the old `paperbase.runners` entry-point detour is gone
    assert not list(entry_points(group="paperbase.runners"))
    source = (REPO / "cli" / "ingest.py").read_text() + (REPO / "cli" / "serve.py").read_text()
    assert "from flows.runner import run_ingest" in source and "from flows.runner import serve" in source


def test_cli_ingest_is_an_ephemeral_flow_run_then_unchanged_runs_skip_prefect(tmp_path):
    folder = pdf_folder(tmp_path / "in", SMALL[:1])
    data = tmp_path / "data"
    env = subprocess_env(None, PREFECT_HOME=str(tmp_path / "prefect-home"))  # no server: ephemeral mode
    first = subprocess.run([str(BIN / "paperbase"), "ingest", str(folder), "--data-dir", str(data), "--json"],
                           cwd=REPO, env=env, capture_output=True, text=True, timeout=400)
    assert first.returncode == 0, first.stderr[-3000:]
    assert "Beginning flow run" in first.stderr and "ingest-folder" in first.stderr
    assert '"status": "ok"' in first.stdout
    assert [r["status"] for r in ledger(data).values()] == ["ok"]

    t0 = time.perf_counter()
    again = subprocess.run([sys.executable, "-c", _PROBE, str(folder), str(data)], cwd=REPO, env=env,
                           capture_output=True, text=True, timeout=120)
    seconds = time.perf_counter() - t0
    assert again.returncode == 0, again.stderr[-3000:]
    assert "NO_PREFECT" in again.stderr, again.stderr[-3000:]
    assert '"status": "skipped"' in again.stdout
    print(f"unchanged re-ingest: {seconds:.2f}s wall, {again.stderr.strip().splitlines()[-1]}")


def test_library_runner_can_be_forced(tmp_path):
    folder = pdf_folder(tmp_path / "in", SMALL[:1])
    data = tmp_path / "data"
    env = subprocess_env(None, PAPERBASE_RUNNER="library", PREFECT_HOME=str(tmp_path / "unused-home"))
    done = subprocess.run([sys.executable, "-c", _PROBE, str(folder), str(data)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "NO_PREFECT" in done.stderr and '"status": "ok"' in done.stdout
