"""`paperbase ingest` runs through the flows (imported by the top-floor CLI) when a Prefect server is there to record
the run (PREFECT_API_URL, or the local server of a running `paperbase serve`), in Prefect's ephemeral mode when
PAPERBASE_RUNNER=prefect asks for it, in-process otherwise (no temporary server for one run), and never starts Prefect
when the plan finds nothing new or changed."""
from __future__ import annotations

import shutil
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
    # no server, a flow run asked for: ephemeral mode (the console shows Prefect's INFO lines when told to)
    env = subprocess_env(None, PREFECT_HOME=str(tmp_path / "prefect-home"), PAPERBASE_RUNNER="prefect",
                         PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL="INFO")
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


def test_a_one_off_ingest_without_a_server_runs_in_process(tmp_path):
    """No PREFECT_API_URL, no profile, no `serve` of this data dir: the runner runs in-process, Prefect never loads
    (PAPERBASE_RUNNER=library forces the same path; the state tests run through it)."""
    folder = pdf_folder(tmp_path / "in", SMALL[:1])
    data = tmp_path / "data"
    env = subprocess_env(None, PREFECT_HOME=str(tmp_path / "unused-home"))
    done = subprocess.run([sys.executable, "-c", _PROBE, str(folder), str(data)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=400)  # a whole ingest: 276 s at load 22
    assert done.returncode == 0, done.stderr[-3000:]
    assert "NO_PREFECT" in done.stderr and '"status": "ok"' in done.stdout
    assert not (tmp_path / "unused-home").exists()


def test_a_one_off_ingest_is_recorded_by_the_server_of_a_running_serve(prefect_api, tmp_path):
    """`paperbase serve` leaves its local server's URL in the data dir while it serves: a one-off ingest of that data
    dir is a flow run on it (it shows in the UI with the scheduled runs); a URL left by a killed serve is ignored."""
    from flows.env import SERVED_API_FILE

    folder = pdf_folder(tmp_path / "in", SMALL[:1])
    data = tmp_path / "data"
    data.mkdir()
    (data / SERVED_API_FILE).write_text("http://127.0.0.1:9/api")  # stale: nothing listens there
    env = subprocess_env(None, PREFECT_HOME=str(tmp_path / "unused-home"), PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL="INFO")
    stale = subprocess.run([str(BIN / "paperbase"), "ingest", str(folder), "--data-dir", str(data), "--json"],
                           cwd=REPO, env=env, capture_output=True, text=True, timeout=400)
    assert stale.returncode == 0 and "Beginning flow run" not in stale.stderr, stale.stderr[-3000:]
    (data / SERVED_API_FILE).write_text(prefect_api)
    shutil.copy(folder / SMALL[0], folder / "again.pdf")  # something new to ingest (a duplicate of the paper)
    served = subprocess.run([str(BIN / "paperbase"), "ingest", str(folder), "--data-dir", str(data), "--json"],
                            cwd=REPO, env=env, capture_output=True, text=True, timeout=400)
    assert served.returncode == 0, served.stderr[-3000:]
    assert "Beginning flow run" in served.stderr and "ingest-folder" in served.stderr
