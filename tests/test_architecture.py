"""The layering as an import contract (import-linter, configured in pyproject.toml): it holds on the code as it is,
and it really fails when a forbidden import is added (checked on a copy of the packages)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LINT = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; lint_imports_command()"]
PACKAGES = ["cli", "flows", "agent", "report", "pipeline", "schemas"]


def _lint(root: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root)}  # the copy shadows the editable install
    return subprocess.run([*LINT, "--config", str(root / "pyproject.toml"), "--no-cache", "--no-logo"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)


def test_import_contracts_hold():
    done = _lint(REPO)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "BROKEN" not in done.stdout and "0 broken" in done.stdout


@pytest.fixture(scope="module")
def copy_of_packages(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("layers")
    for name in PACKAGES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    return root


@pytest.mark.parametrize("module,line,contract", [
    ("pipeline/results.py", "import flows.tasks", "cli > flows"),  # pipeline reaching up to flows
    ("flows/env.py", "import cli.common", "cli > flows"),  # something importing the CLI
    ("pipeline/parse/errors.py", "import pipeline.store", "parse backends import no store"),
    ("pipeline/ids.py", "import pipeline.document", "no import circles"),  # document imports ids
    ("pipeline/parse/merge.py", "import pipeline.parse.pymupdf.page", "parse core imports no backend"),
    ("agent/calc.py", "import pipeline.store", "agent reads DuckDB and Milvus only through pipeline.read"),
    ("pipeline/read.py", "import agent.env", "cli > flows | agent"),  # pipeline reaching up to the agent
    ("agent/calc.py", "import flows.env", "cli > flows | agent"),  # siblings on one floor stay independent
    ("report/load.py", "import pipeline.store", "the report reads DuckDB and Milvus only through pipeline.read"),
    ("report/export.py", "import agent.env", "cli > flows | agent | report"),
])
def test_a_forbidden_import_breaks_the_contract(copy_of_packages, module, line, contract):
    path = copy_of_packages / module
    original = path.read_text()
    path.write_text(original + f"\n{line}  # added by the test\n")
    try:
        done = _lint(copy_of_packages)
    finally:
        path.write_text(original)
    assert done.returncode != 0, done.stdout[-3000:]
    broken = done.stdout[done.stdout.index("Broken contracts"):]
    assert contract in broken, broken[-3000:]
