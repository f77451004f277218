"""Start-up loads only what a command needs (issue 32): `--help` imports no library of the pipeline, a search that
the search copies answer neither imports pymilvus nor opens the Milvus Lite store, and a re-ingest of a folder where
nothing changed imports no model runtime and no Milvus client. Checked on the real command in a subprocess with
`python -X importtime`, whose stderr names every module the process imported."""
from __future__ import annotations

import re
import shutil
import subprocess

from tests.state.helpers import BIN, REPO, env

PYTHON = REPO / ".venv" / "bin" / "python"
# a self (or cumulative) time can be negative: when two threads import at once (the hybrid search's legs) CPython
# charges one import's time to the other's parent; such a line still names an imported module. Not anchored to a line
# start: two threads' lines may meet on one line of stderr.
_IMPORTED = re.compile(r"import time:\s+-?\d+\s+\|\s+-?\d+\s+\|\s+([A-Za-z_][\w.]*)")
MODEL_RUNTIMES = {"torch", "onnxruntime", "openvino", "transformers", "sentence_transformers", "tokenizers"}
MILVUS = {"pymilvus", "milvus_lite", "grpc"}


def _traced(*args: str, cwd) -> tuple[subprocess.CompletedProcess, set[str]]:
    """Run `paperbase ARGS` with import tracing: (the process, the top-level packages it imported)."""
    done = subprocess.run([str(PYTHON), "-X", "importtime", str(BIN), *args], cwd=cwd, env=env(),
                          capture_output=True, text=True, timeout=300)
    modules = {m.split(".")[0] for m in _IMPORTED.findall(done.stderr)}
    assert modules, done.stderr[-2000:]  # the trace is there: an empty set would pass every check below
    return done, modules


def _why(stderr: str, module: str) -> str:
    """What the process said besides its import trace, and the trace lines just after `module`'s (importtime prints
    a module's parents after it: they say which import pulled it in)."""
    lines = stderr.splitlines()
    said = [line for line in lines if "import time:" not in line][-30:]
    first = next((i for i, line in enumerate(lines) if f"| {module}" in line or f" {module}." in line), 0)
    return "\n".join(said + ["-- import trace after it --"] + lines[first:first + 40])


def _copy(small_ingested, tmp_path):
    shutil.copytree(small_ingested / "data", tmp_path / "data")
    return tmp_path / "data"


def test_help_imports_no_pipeline_library(tmp_path):
    done, modules = _traced("--help", cwd=tmp_path)
    assert done.returncode == 0 and "search" in done.stdout
    heavy = modules & (MODEL_RUNTIMES | MILVUS | {"numpy", "duckdb", "pyarrow", "pandas", "pymupdf", "prefect",
                                                  "pydantic_settings"})
    assert not heavy, heavy


def test_a_search_answered_by_the_copies_leaves_milvus_closed(small_ingested, tmp_path):
    data = _copy(small_ingested, tmp_path)
    done, modules = _traced("search", "token masking", "--data-dir", str(data), "--json", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.strip(), done.stderr[-2000:]
    assert not modules & MILVUS, modules & MILVUS
    assert not (data / "milvus.db.port").exists()  # nothing was published: this process never held the store
    # a filter the copies' own evaluator does not take (a range) goes to Milvus Lite's filter engine: same command
    done, modules = _traced("search", "token masking", "--data-dir", str(data), "--filter", "page_number <= 3",
                            "--json", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.strip(), done.stderr[-2000:]
    assert "pymilvus" not in modules, _why(done.stderr, "pymilvus")  # no Milvus client: the copies answered
    assert "milvus_lite" in modules, [line for line in done.stderr.splitlines() if "milvus" in line][:20]


def test_a_noop_reingest_loads_no_model_and_no_milvus_client(small_ingested, tmp_path):
    data = _copy(small_ingested, tmp_path)
    done, modules = _traced("ingest", str(small_ingested / "pdfs"), "--data-dir", str(data), cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "skipped: 2" in done.stderr
    assert not modules & (MODEL_RUNTIMES | MILVUS | {"prefect"}), modules & (MODEL_RUNTIMES | MILVUS | {"prefect"})


def test_the_cells_fingerprints_are_kept_until_the_database_changes(small_ingested, tmp_path, monkeypatch):
    """Every ingest asks whether its papers' vectors are current, which hashes every cell of the library; the digests
    are kept in the data dir beside the database file's identity (pipeline/state.py) and computed again after any
    write to it."""
    import json

    from pipeline.config import load_settings
    from pipeline.state import PRINTS_FILE, paper_states
    from pipeline.store import Store
    from pipeline.vectors import cells

    data = _copy(small_ingested, tmp_path)
    (data / PRINTS_FILE).unlink(missing_ok=True)
    settings = load_settings(data_dir=data)
    store = Store(settings.duckdb_path)
    calls: list[str] = []
    real = cells.fingerprints
    monkeypatch.setattr(cells, "fingerprints", lambda con, m, ids=None: (calls.append(m), real(con, m, ids))[1])

    first = paper_states(settings)
    with store.reading() as con:
        truth = {m: real(con, m) for m in ("text", "image")}
    assert json.loads((data / PRINTS_FILE).read_text())["prints"] == truth and len(truth["text"]) == 2
    assert calls == ["text", "image"]
    assert paper_states(settings) == first and calls == ["text", "image"]  # kept: not hashed again

    pid, other = sorted(truth["text"])
    with store.writing() as con:  # one cell of one paper changes
        con.execute("UPDATE chunks SET text_content = text_content || ' (revised)' WHERE chunk_id = "
                    "(SELECT min(chunk_id) FROM chunks WHERE CAST(ref_paper_id AS VARCHAR) = ?)", [pid])
    paper_states(settings)
    assert calls == ["text", "image"] * 2  # the database changed: hashed again
    now = json.loads((data / PRINTS_FILE).read_text())["prints"]
    assert now["text"][pid] != truth["text"][pid] and now["text"][other] == truth["text"][other]
    (data / PRINTS_FILE).write_text("{not json")  # a damaged file is a miss, never an error
    assert paper_states(settings) == paper_states(settings) and calls == ["text", "image"] * 3
