"""Files that vanish are shown as `missing` and pruned on request (rows and vectors together); a moved file is the
same paper and is not parsed again; broken and looping links are reported per file."""
from __future__ import annotations

import json
import os

from tests.state.helpers import SMALL, pdf_folder, run, snapshot


def _status(tmp_path) -> dict[str, dict]:
    done = run("status", "--data-dir", "data", "--json", cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return {json.loads(l)["path"].rsplit("/", 1)[-1]: json.loads(l) for l in done.stdout.splitlines()}


def test_missing_files_are_shown_and_pruned_with_their_rows_and_vectors(tmp_path):
    folder = pdf_folder(tmp_path / "pdfs")
    assert run("ingest", "pdfs", "--data-dir", "data", cwd=tmp_path).returncode == 0
    before = snapshot(tmp_path / "data")
    (folder / SMALL[0]).unlink()
    states = _status(tmp_path)
    assert states[SMALL[0]]["status"] == "missing" and states[SMALL[1]]["status"] == "ok"  # used to stay ok

    dry = run("prune", "--data-dir", "data", "--dry-run", cwd=tmp_path)
    assert dry.returncode == 0 and "would remove" in dry.stderr and SMALL[0] in dry.stderr
    assert snapshot(tmp_path / "data") == before  # a dry run changes nothing

    pruned = run("prune", "--data-dir", "data", "--json", cwd=tmp_path)
    assert pruned.returncode == 0, pruned.stderr[-2000:]
    report = json.loads(pruned.stdout)
    assert len(report["papers"]) == 1 and report["vectors"] > 0
    after = snapshot(tmp_path / "data")
    assert len(after["rows"]["metadata"]) == 1 and [l[0] for l in after["ledger"]] == [SMALL[1]]
    gone = report["papers"][0]
    assert all(gone not in keys for keys in after["rows"].values())
    for name, n in after["vectors"].items():
        assert 0 < n < before["vectors"][name]
    assert run("check", "--data-dir", "data", cwd=tmp_path).returncode == 0  # rows and vectors agree
    hits = run("search", "masking privacy", "--data-dir", "data", "--json", "-n", "20", cwd=tmp_path)
    assert hits.returncode == 0 and gone not in hits.stdout  # the pruned paper is no longer searchable


def test_a_moved_file_is_the_same_paper_and_is_not_parsed_again(tmp_path):
    folder = pdf_folder(tmp_path / "pdfs")
    assert run("ingest", "pdfs", "--data-dir", "data", cwd=tmp_path).returncode == 0
    before = snapshot(tmp_path / "data")
    (folder / "moved").mkdir()
    os.replace(folder / SMALL[0], folder / "moved" / "renamed.pdf")
    again = run("ingest", "pdfs", "--data-dir", "data", "--json", cwd=tmp_path)
    assert again.returncode == 0, again.stderr[-2000:]
    rows = {json.loads(l)["path"].rsplit("/", 1)[-1]: json.loads(l) for l in again.stdout.splitlines()}
    assert rows["renamed.pdf"]["status"] == "skipped" and "moved from" in rows["renamed.pdf"]["error"]
    after = snapshot(tmp_path / "data")
    assert after["rows"] == before["rows"] and after["vectors"] == before["vectors"]
    assert sorted(l[0] for l in after["ledger"]) == sorted(["renamed.pdf", SMALL[1]])
    states = _status(tmp_path)
    assert states["renamed.pdf"]["status"] == "ok" and SMALL[0] not in states
    from pipeline.config import load_settings
    from pipeline.store import Store

    paths = [r["pdf_path"] for r in Store(load_settings(data_dir=tmp_path / "data").duckdb_path)
             .query("SELECT pdf_path FROM metadata")]
    assert str(folder / "moved" / "renamed.pdf") in paths  # page images are rendered from the new place


def test_broken_and_looping_links_are_reported_per_file(tmp_path):
    folder = pdf_folder(tmp_path / "pdfs", SMALL[:1])
    (folder / "dangling.pdf").symlink_to(tmp_path / "nowhere.pdf")
    (folder / "loop_a.pdf").symlink_to(folder / "loop_b.pdf")
    (folder / "loop_b.pdf").symlink_to(folder / "loop_a.pdf")
    done = run("ingest", "pdfs", "--data-dir", "data", "--json", "--stages", "none", cwd=tmp_path)
    assert done.returncode == 1, done.stderr[-2000:]  # used to skip them without a word (and exit 0)
    rows = {json.loads(l)["path"].rsplit("/", 1)[-1]: json.loads(l) for l in done.stdout.splitlines()}
    assert rows[SMALL[0]]["status"] == "ok"
    assert rows["dangling.pdf"]["status"] == "failed" and "nowhere.pdf, which does not exist" in rows["dangling.pdf"]["error"]
    for name in ("loop_a.pdf", "loop_b.pdf"):
        assert rows[name]["status"] == "failed" and "symlink loop" in rows[name]["error"]
