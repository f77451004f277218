"""PyMuPDF imported without starting its layout model; the model starts when a page first asks for its layout.

Why: `import pymupdf` imports `pymupdf.layout` when that package is installed, and importing it creates the layout
model's ONNX Runtime sessions at once: 1.2-1.5 s of CPU in every process that imports PyMuPDF (measured with
`python -X importtime`), so in every parser worker of every ingest, while the parse asks for a layout on few pages
(a table or figure whose region nothing else finds: 2 of the 390 corpus pages). The page that does ask imports
`pymupdf.layout` then (pipeline/parse/pymupdf/page.py), which activates the model exactly as the eager import did.

How: while PyMuPDF's own `__init__` runs, `sys.modules["pymupdf.layout"]` is None, so its `import pymupdf.layout`
raises ImportError, which it expects (the layout package is optional); the entry is removed right after, so the
later import finds the package. Importing this module first is enough: a module imported once is not run again."""
from __future__ import annotations

import sys


def _import_without_layout():
    if "pymupdf" in sys.modules:  # imported before this module (with its layout model, as PyMuPDF does by default)
        return sys.modules["pymupdf"]
    blocked = "pymupdf.layout" not in sys.modules
    if blocked:
        sys.modules["pymupdf.layout"] = None  # type: ignore[assignment]
    try:
        import pymupdf
    finally:
        if blocked and sys.modules.get("pymupdf.layout", 0) is None:
            del sys.modules["pymupdf.layout"]
    pymupdf.no_recommend_layout()  # its "consider installing pymupdf_layout" hint: it is installed, only not started
    return pymupdf


pymupdf = _import_without_layout()

__all__ = ["pymupdf"]
