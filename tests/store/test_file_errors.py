"""Every file-system error stays with its file (issue 28): an unreadable PDF, a subfolder that cannot be listed, a FIFO
named .pdf, a dangling link and a file whose name is not valid UTF-8 sit beside good PDFs; the good ones are stored,
each other one gets its one-line reason (in the ledger and `status` where it is a file), a later no-op ingest reads
nothing again, and no traceback reaches the screen. Also a full disk while a paper is stored, and a read-only data
dir. Real files on real file systems: permissions are enforced on a root machine by running the command without the
capabilities that let root ignore them; the full and read-only disks are small tmpfs mounts (skipped where the test
cannot mount)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.smallfs import fill, small_fs

REPO = Path(__file__).resolve().parents[2]
BIN = REPO / ".venv" / "bin" / "paperbase"
CORPUS = REPO.parent / "shared" / "corpus"
GOOD = ["neurips2020_rag_excerpt.pdf", "icassp2024_privacy_masking_llm.pdf"]
LATIN1 = os.fsdecode(b"caf\xe9.pdf")  # a name in Latin-1: not valid UTF-8


def _paperbase(*args: str, cwd: Path, timeout: float = 600, **extra: str) -> subprocess.CompletedProcess:
    """The real command. As root, run without CAP_DAC_OVERRIDE / CAP_DAC_READ_SEARCH, so that file modes bind."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERBASE_", "PREFECT_"))
           or k == "PAPERBASE_VECTORS__MODEL_CACHE"}
    env.update(PAPERBASE_RUNNER="library", DO_NOT_TRACK="1", **extra)
    prefix = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: file modes cannot be enforced")
        caps = "-dac_override,-dac_read_search"
        prefix = [setpriv, f"--bounding-set={caps}", f"--inh-caps={caps}"]
    done = subprocess.run([*prefix, str(BIN), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done


def _one_pdf(tmp_path: Path) -> Path:
    """A folder holding the first GOOD paper."""
    if not all((CORPUS / n).exists() for n in GOOD):
        pytest.skip(f"corpus PDFs {GOOD} are absent from {CORPUS}")
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    shutil.copy(CORPUS / GOOD[0], pdfs / GOOD[0])
    return pdfs


def _status(data: Path, cwd: Path) -> dict[str, dict]:
    done = _paperbase("status", "--data-dir", str(data), "--json", cwd=cwd)
    return {Path(json.loads(line)["path"]).name: json.loads(line) for line in done.stdout.splitlines()}


def _results(done: subprocess.CompletedProcess) -> dict[str, dict]:
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return {Path(r["path"]).name: r for r in rows}


@pytest.fixture
def hostile_folder(tmp_path) -> Path:
    missing = [n for n in GOOD if not (CORPUS / n).exists()]
    if missing:
        pytest.skip(f"corpus PDFs {missing} are absent from {CORPUS}")
    folder = tmp_path / "pdfs"
    (folder / "locked").mkdir(parents=True)
    shutil.copy(CORPUS / GOOD[0], folder / GOOD[0])
    shutil.copy(CORPUS / GOOD[1], folder / os.fsencode(LATIN1).decode("utf-8", "surrogateescape"))
    shutil.copy(CORPUS / GOOD[0], folder / "locked" / "hidden.pdf")
    (folder / "noread.pdf").write_bytes((CORPUS / GOOD[1]).read_bytes())
    os.mkfifo(folder / "fifo.pdf")
    (folder / "dangling.pdf").symlink_to(tmp_path / "nowhere.pdf")
    os.chmod(folder / "noread.pdf", 0)
    os.chmod(folder / "locked", 0)
    os.chmod(tmp_path, 0o755)
    yield folder
    os.chmod(folder / "locked", 0o755)
    os.chmod(folder / "noread.pdf", 0o644)


def test_each_file_system_error_stays_with_its_file(hostile_folder, tmp_path):
    done = _paperbase("ingest", str(hostile_folder), "--data-dir", str(tmp_path / "data"), "--stages", "none", "--json",
                      "--workers", "1", cwd=tmp_path)
    assert done.returncode == 1, done.stderr[-3000:]  # not everything succeeded
    got = _results(done)
    assert got[GOOD[0]]["status"] == "ok" and got[LATIN1]["status"] == "ok"
    assert "unreadable: Permission denied" in got["noread.pdf"]["error"]
    assert "FIFO" in got["fifo.pdf"]["error"]
    assert "broken link" in got["dangling.pdf"]["error"]
    assert "folder skipped" in got["locked"]["error"] and "Permission denied" in got["locked"]["error"]
    assert "hidden.pdf" not in got

    listed = _status(tmp_path / "data", tmp_path)
    assert {"noread.pdf", "fifo.pdf", LATIN1, GOOD[0]} <= set(listed)
    assert listed["noread.pdf"]["status"] == "failed" and "Permission denied" in listed["noread.pdf"]["error"]
    assert listed[LATIN1]["status"] != "missing"  # stored losslessly: the ledger's path is the file's path
    human = _paperbase("status", "--data-dir", str(tmp_path / "data"), cwd=tmp_path, COLUMNS="400")
    assert "caf\\xe9.pdf" in human.stderr, human.stderr  # shown readably: the undecodable byte as \xe9

    t0 = time.perf_counter()
    again = _paperbase("ingest", str(hostile_folder), "--data-dir", str(tmp_path / "data"), "--stages", "none",
                       "--json", "--workers", "1", cwd=tmp_path)
    seconds = time.perf_counter() - t0
    states = {name: r["status"] for name, r in _results(again).items()}
    assert states[GOOD[0]] == states[LATIN1] == "skipped"  # nothing parsed again, the odd name included
    assert all(s in ("skipped", "failed") for s in states.values())
    print(f"no-op ingest of the hostile folder: {seconds:.1f}s")

    os.chmod(hostile_folder / "noread.pdf", 0o644)  # fixed: the next run reads it without --retry-failed
    fixed = _results(_paperbase("ingest", str(hostile_folder), "--data-dir", str(tmp_path / "data"), "--stages",
                                "none", "--json", "--workers", "1", cwd=tmp_path))
    # the same paper as the Latin-1 file: found, not stored twice
    assert fixed["noread.pdf"]["status"] == "duplicate", fixed["noread.pdf"]["error"]


def test_a_paper_that_does_not_fit_on_the_disk_is_listed_and_retried(tmp_path):
    pdfs = _one_pdf(tmp_path)
    data = tmp_path / "data"
    with small_fs(data, 24):
        first = _paperbase("ingest", str(pdfs), "--data-dir", str(data), "--stages", "none", cwd=tmp_path)
        assert first.returncode == 0, first.stderr[-2000:]
        filler = fill(data)
        shutil.copy(CORPUS / GOOD[1], pdfs / GOOD[1])
        full = _paperbase("ingest", str(pdfs), "--data-dir", str(data), "--stages", "none", "--json", cwd=tmp_path)
        assert full.returncode == 1
        assert "no space left on device" in _results(full)[GOOD[1]]["error"]
        listed = _status(data, tmp_path)
        assert listed[GOOD[1]]["status"] == "failed" and "no space left" in listed[GOOD[1]]["error"]
        filler.unlink()
        after = _paperbase("ingest", str(pdfs), "--data-dir", str(data), "--stages", "none", "--json", cwd=tmp_path)
        assert after.returncode == 0, after.stderr[-2000:]
        assert _results(after)[GOOD[1]]["status"] == "ok"  # retried without --retry-failed


def test_ingest_into_a_read_only_data_dir_says_so_in_one_line(tmp_path):
    pdfs = _one_pdf(tmp_path)
    mount = tmp_path / "ro"
    with small_fs(mount, 32):
        (mount / "data").mkdir()
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        for runner in ("library", "flow"):
            env_runner = {"PAPERBASE_RUNNER": "library" if runner == "library" else "prefect"}
            done = subprocess.run([str(BIN), "ingest", str(pdfs), "--data-dir", str(mount / "data"), "--stages", "none"],
                                  cwd=tmp_path, capture_output=True, text=True, timeout=300,
                                  env={**os.environ, "PREFECT_HOME": str(tmp_path / "prefect"), **env_runner})
            assert done.returncode == 1, (runner, done.stderr[-2000:])
            assert "Traceback" not in done.stderr, done.stderr[-3000:]
            errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
            assert len(errors) == 1 and "read-only file system" in errors[0], done.stderr[-2000:]


def test_a_database_file_that_is_not_one_is_said_in_one_line(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "paperbase.duckdb").write_bytes(os.urandom(8192))
    for command in (["status"], ["check"], ["prune"]):
        done = _paperbase(*command, "--data-dir", str(data), cwd=tmp_path)
        assert done.returncode == 1
        errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
        assert len(errors) == 1 and "not a valid DuckDB database file" in errors[0], done.stderr[-2000:]
        assert "internal error" not in errors[0]
