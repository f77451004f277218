"""Configuration is validated at start, and every failure a user can cause prints one line and a meaningful exit
code (2 for usage and configuration, 1 for work that could not be done) with no traceback on the screen."""
from __future__ import annotations

import pytest

from tests.state.helpers import one_line_error, run


@pytest.mark.parametrize("toml,expected", [
    ("[parse]\nchunk_tokens = 0\n", "parse.chunk_tokens = 0"),  # used to spin at 100 % CPU forever
    ("wokers = 3\n", "did you mean 'workers'"),
    ("[vector]\nmilvus_uri = 'http://milvus:19530'\n", "did you mean 'vectors'"),  # used to fall back to Lite silently
    ("[parse]\nchunk_tokens = 'many'\n", "parse.chunk_tokens"),
    ("workers = 0\n", "workers = 0"),
    ("[vectors]\nmilvus_uri = 'http://:port'\n", "vectors.milvus_uri"),
    ("[summarize]\nbase_url = 'localhost:8000'\n", "not an http(s) URL"),
    ("[vectors.collections.text_bm25]\nenabled = false\n", "did you mean 'text_bm25_en'"),
    ("workers = [\n", "not valid TOML"),
    ("[parse]\nbackend = 'mupdf'\n", "did you mean 'pymupdf'"),
    ("[parse.pymupdf]\nlayout_model = 'always'\n", "parse.pymupdf.layout_model"),
])
def test_bad_configuration_is_refused_in_one_line(tmp_path, toml, expected):
    (tmp_path / "paperbase.toml").write_text(toml)
    (tmp_path / "pdfs").mkdir()
    done = run("ingest", "pdfs", "--data-dir", "data", cwd=tmp_path, timeout=60)
    assert done.returncode == 2, done.stderr[-2000:]
    line = one_line_error(done)
    assert "configuration error: paperbase.toml:" in line and expected in line, line
    assert not (tmp_path / "data").exists()  # nothing was started


def test_a_missing_config_file_is_an_error(tmp_path):
    done = run("status", "--data-dir", "data", cwd=tmp_path, timeout=60, PAPERBASE_CONFIG=str(tmp_path / "nope.toml"))
    assert done.returncode == 2
    assert "PAPERBASE_CONFIG names" in one_line_error(done) and "does not exist" in one_line_error(done)


def test_usage_errors_exit_2(tmp_path):
    assert run("ingest", str(tmp_path / "absent"), cwd=tmp_path, timeout=60).returncode == 2
    assert run("no-such-command", cwd=tmp_path, timeout=60).returncode == 2
    assert run("ingest", str(tmp_path), "--stages", "parse,dance", cwd=tmp_path, timeout=60).returncode == 2


@pytest.mark.parametrize("args,expected", [
    (["status", "--data-dir", "nodb"], "no database at"),
    (["check", "--data-dir", "nodb"], "no database at"),
    (["search", "attention", "--data-dir", "nodb"], "no database at"),
])
def test_errors_a_user_meets_are_one_line(tmp_path, args, expected):
    (tmp_path / "afile").write_text("I am a file, not a directory")
    (tmp_path / "pdfs").mkdir()
    done = run(*args, cwd=tmp_path, timeout=120)
    assert done.returncode == 1, done.stderr[-2000:]
    assert expected in one_line_error(done)
    assert not (tmp_path / "nodb").exists()  # a read never creates a data dir


@pytest.mark.parametrize("command", [["search", "attention"], ["ingest", "pdfs"], ["status"]])
def test_a_data_dir_that_is_a_file_is_a_usage_error(tmp_path, command):
    (tmp_path / "afile").write_text("I am a file, not a directory")
    (tmp_path / "pdfs").mkdir()
    done = run(*command, "--data-dir", "afile", cwd=tmp_path, timeout=60)
    assert done.returncode == 2
    assert "afile is not a directory" in one_line_error(done)


def test_debug_shows_the_traceback_and_the_log_keeps_it(tmp_path):
    (tmp_path / "afile").write_text("x")
    (tmp_path / "pdfs").mkdir()
    quiet = run("search", "x", "--data-dir", "nodb", cwd=tmp_path, timeout=60)
    loud = run("search", "x", "--data-dir", "nodb", "--debug", cwd=tmp_path, timeout=60)
    assert "Traceback" not in quiet.stderr and "Traceback" in loud.stderr
    assert loud.returncode == quiet.returncode == 1
