"""The stand-in for all-MiniLM-L6-v2 in tests that run ingests to check what happens around the vectors (kills,
interrupts, flows, file errors, ledgers), not the vectors themselves: the real model's encode was most of each
such ingest (20 of 23 s for the two small test papers on 2 cores), and those tests ingest again and again.

`stand_in_env()` is the environment variable that points the MiniLM collection at the stand-in (child processes get
it through the test helpers' env()). The model is built once per test run, shared by the xdist workers (a lock, then
a folder beside the shared ONNX cache), and exported to ONNX once like any other model. The vector, retrieval, agent
and evaluation tests use the real model."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

VAR = "PAPERBASE_VECTORS__COLLECTIONS__TEXT_SENTENCE_TRANSFORMERS_ALL_MINILM_L6_V2__MODEL"
_built: dict[str, str] = {}


def stand_in_path() -> str:
    """The stand-in model's folder, built on first use."""
    cache = os.environ.get("PAPERBASE_VECTORS__MODEL_CACHE") or tempfile.gettempdir()
    root = Path(cache) / "stand-in"
    if str(root) in _built:
        return _built[str(root)]
    from filelock import FileLock

    from tests.vectors.tinymodels import build_stand_in_minilm

    root.mkdir(parents=True, exist_ok=True)
    with FileLock(str(root / ".lock")):
        model = root / "stand-in-minilm"
        if not model.exists():  # built aside and renamed: a killed build leaves no half model behind
            aside = Path(tempfile.mkdtemp(dir=root))
            os.replace(build_stand_in_minilm(aside), model)
            shutil.rmtree(aside, ignore_errors=True)
    _built[str(root)] = str(model)
    return str(model)


def stand_in_env() -> dict[str, str]:
    return {VAR: stand_in_path()}
