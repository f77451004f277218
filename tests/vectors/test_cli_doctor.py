"""CLI wiring and the doctor check (no Milvus needed)."""
from __future__ import annotations

from typer.testing import CliRunner

from cli import app
from cli.vectors import _vector_checks
from pipeline.config import Settings


def test_doctor_reports_each_collection_and_why(tmp_path):
    checks = {c.name: c for c in _vector_checks(Settings(data_dir=tmp_path))}
    minilm = next(c for n, c in checks.items() if n.startswith("text_sentence_transformers_all_minilm"))
    bm25 = next(c for n, c in checks.items() if n.startswith("text_bm25_en"))
    assert minilm.ok and "bundled" in minilm.detail and bm25.ok
    assert "milvus" in checks and "cpu" in checks
    runtime = [c for n, c in checks.items() if n.startswith("dense runtime ")]  # the choice from the CPU's features
    assert len(runtime) == 1 and runtime[0].ok and runtime[0].detail
    assert len(checks) == 7  # milvus, cpu, the runtime and the four collections


def test_commands_are_registered():
    out = CliRunner().invoke(app, ["--help"]).output
    for cmd in ("encode", "rebuild", "check", "search"):
        assert cmd in out


def test_encode_without_a_database_fails_cleanly(tmp_path):
    res = CliRunner().invoke(app, ["encode", "--data-dir", str(tmp_path), "--json"])
    assert res.exit_code == 1 and "no database" in res.stdout
