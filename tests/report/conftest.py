"""A real store of two corpus papers (parsed, stored, offline summaries; no vectors), built once for tests/report."""
from __future__ import annotations

import pytest

from tests.conftest import CORPUS

PAPERS = ("acl2020_tapas.pdf", "neurips2017_attention.pdf")  # tables with spans; display equations


@pytest.fixture(scope="session")
def report_store(tmp_path_factory):
    """(settings, {file name: paper id}) for a data dir holding PAPERS."""
    missing = [p for p in PAPERS if not (CORPUS / p).exists()]
    if missing:
        pytest.skip(f"corpus PDFs {missing} are absent from {CORPUS}")
    from pipeline.config import load_settings
    from pipeline.ingest import ingest

    settings = load_settings(data_dir=tmp_path_factory.mktemp("report-data"), workers=1)
    report = ingest([CORPUS / p for p in PAPERS], settings, stages=["summarize"])
    ids = {r.path.rsplit("/", 1)[-1]: r.paper_id for r in report.results}
    assert all(r.status == "ok" for r in report.results), [(r.path, r.error) for r in report.results]
    return settings, ids


@pytest.fixture(scope="session")
def built_report(report_store, tmp_path_factory):
    """The HTML report of the store (the CLI's `paperbase inspect --out DIR`)."""
    from typer.testing import CliRunner

    from cli import app

    settings, ids = report_store
    out = tmp_path_factory.mktemp("report")
    result = CliRunner().invoke(app, ["inspect", "--data-dir", str(settings.data_dir), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out, settings, ids
