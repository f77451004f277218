"""Every setting given on the command line reaches the code that uses it, whichever runner runs the ingest (issue 28:
`paperbase ingest --backend mineru` parsed with PyMuPDF because the flow run rebuilt its settings from env + TOML).

The flow run gets the command's explicit overrides (`Settings.overrides`) and loads its settings under them."""
from __future__ import annotations

import json
import subprocess

import pytest

from tests.flows.flowhelpers import BIN, REPO, pdf_folder, subprocess_env

PAPER = "emnlp2014_cnn_sentence.pdf"


def _ingest(folder, data, env: dict, *extra: str) -> list[dict]:
    done = subprocess.run([str(BIN / "paperbase"), "ingest", str(folder), "--data-dir", str(data), "--json",
                           "--stages", "none", *extra], cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def _stored(data) -> dict:
    from pipeline.store import Store

    store = Store(data / "paperbase.duckdb")
    return {"chunks": [r["text_content"] for r in store.query("SELECT text_content FROM chunks ORDER BY chunk_id")],
            "tables": [r["table_content"] for r in store.query("SELECT table_content FROM tables ORDER BY table_id")],
            "backend": [r.backend for r in store.ledger().values()]}


def test_backend_flag_reaches_the_flow_run(prefect_api, tmp_path):
    from pipeline.parse.mineru.tiers import installed

    if not installed():
        pytest.skip("mineru is not installed (scripts/install-mineru.sh)")
    folder = pdf_folder(tmp_path / "in", [PAPER])
    flow_env = subprocess_env(prefect_api)
    library_env = subprocess_env(None, PAPERBASE_RUNNER="library")

    rows = _ingest(folder, tmp_path / "flow", flow_env, "--backend", "mineru", "--workers", "1")
    assert [r["status"] for r in rows] == ["ok"]
    _ingest(folder, tmp_path / "lib", library_env, "--backend", "mineru", "--workers", "1")
    _ingest(folder, tmp_path / "default", library_env, "--workers", "1")

    through_flow, in_process, default = (_stored(tmp_path / d) for d in ("flow", "lib", "default"))
    assert through_flow["backend"] == ["mineru"]
    assert through_flow == in_process  # the flow run parsed what the library runner parses with mineru
    assert through_flow["chunks"] != default["chunks"] or through_flow["tables"] != default["tables"]


def test_flow_runs_load_the_commands_effective_settings(tmp_path, monkeypatch):
    """For every `ingest` and `serve` option that is a setting, the flow's settings equal the command's."""
    monkeypatch.chdir(tmp_path)  # no paperbase.toml from the repo
    from flows.ingest import _settings
    from pipeline.config import load_settings

    data = tmp_path / "data"
    for given in ({"workers": 1}, {"workers": 3}, {"parse": {"backend": "mineru"}},
                  {"workers": 1, "parse": {"backend": "mineru"}}):
        command = load_settings(data_dir=data, **given)
        json.dumps(command.overrides)  # travels as a flow parameter: JSON only
        in_flow = _settings(str(data), None, command.overrides)
        assert in_flow.model_dump() == command.model_dump(), given
    secret = load_settings(data_dir=data, summarize={"api_key": "sk-secret"})
    assert "sk-secret" not in json.dumps(secret.overrides)  # secrets never go to Prefect's database
