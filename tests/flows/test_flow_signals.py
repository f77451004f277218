"""SIGTERM during `paperbase ingest` run as a Prefect flow: handled like Ctrl-C (issue 28: the flow's task threads
kept parsing the rest of the folder, so a terminated ingest ran on for a minute). Files not yet parsed are not
started, the exit code is 143, and no traceback reaches the screen."""
from __future__ import annotations

import shutil
import signal
import subprocess
import time

from tests.flows.flowhelpers import BIN, REPO, ledger, pdf_folder, subprocess_env


def test_sigterm_stops_a_flow_run_ingest_promptly(prefect_api, tmp_path):
    folder = pdf_folder(tmp_path / "in", ["icassp2024_privacy_masking_llm.pdf"])
    for i in range(10):
        shutil.copy(folder / "icassp2024_privacy_masking_llm.pdf", folder / f"copy{i}.pdf")
    proc = subprocess.Popen([str(BIN / "paperbase"), "ingest", str(folder), "--data-dir", str(tmp_path / "data"),
                             "--workers", "1"], cwd=REPO, env=subprocess_env(prefect_api), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGTERM, signal.SIG_DFL))
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if ledger(tmp_path / "data"):
                break  # the first file is stored: the run is well under way
        except Exception:  # noqa: BLE001 - the database is not there yet, or busy
            pass
        time.sleep(0.2)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    seconds = time.monotonic() - t0
    assert proc.returncode == 143, err[-3000:]
    assert "Traceback" not in err and "terminated (SIGTERM)" in err
    assert seconds < 30, (seconds, err[-2000:])
    assert len(ledger(tmp_path / "data")) < 11  # the rest of the folder was not parsed first
