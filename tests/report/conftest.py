"""A real store of two corpus papers (parsed, stored, offline summaries; no vectors), built once for tests/report."""
from __future__ import annotations

import pytest

from tests.conftest import CORPUS

PAPERS = ("acl2020_tapas.pdf", "neurips2017_attention.pdf")  # tables with spans; display equations


def _paperbase(*args: str, ok_codes: tuple[int, ...] = (0,)) -> None:
    import subprocess

    from tests.conftest import REPO
    from tests.state.helpers import BIN, env  # the environment a user's shell gives: none of this process's settings

    done = subprocess.run([str(BIN), *args], cwd=REPO, env=env(),
                          capture_output=True, text=True, timeout=900)
    assert done.returncode in ok_codes, (args, done.stderr[-3000:])


@pytest.fixture(scope="session")
def report_store(tmp_path_factory):
    """(settings, {file name: paper id}) for a data dir holding PAPERS, stored by `paperbase ingest` in a process of
    its own (as a user runs it)."""
    missing = [p for p in PAPERS if not (CORPUS / p).exists()]
    if missing:
        pytest.skip(f"corpus PDFs {missing} are absent from {CORPUS}")
    import shutil

    import duckdb

    from pipeline.config import load_settings

    root = tmp_path_factory.mktemp("report-data")
    (root / "pdfs").mkdir()
    for p in PAPERS:
        shutil.copy(CORPUS / p, root / "pdfs" / p)
    # exit 1 only because no vectors were asked for ("not finished": encode missing); every file must be ok
    _paperbase("ingest", str(root / "pdfs"), "--data-dir", str(root / "data"), "--stages", "summarize", ok_codes=(0, 1))
    settings = load_settings(data_dir=root / "data", workers=1)
    with duckdb.connect(str(settings.duckdb_path), read_only=True) as con:
        rows = con.execute("SELECT pdf_path, CAST(paper_id AS VARCHAR) FROM metadata").fetchall()
    ids = {path.rsplit("/", 1)[-1]: pid for path, pid in rows}
    assert sorted(ids) == sorted(PAPERS), rows
    return settings, ids


@pytest.fixture(scope="session")
def built_report(report_store, tmp_path_factory):
    """The HTML report of the store (`paperbase inspect --out DIR`, a process of its own)."""
    settings, ids = report_store
    out = tmp_path_factory.mktemp("report")
    _paperbase("inspect", "--data-dir", str(settings.data_dir), "--out", str(out))
    return out, settings, ids
