"""PyMuPDF imported without loading its layout model: import this before anything imports `pymupdf`.

`import pymupdf` imports pymupdf.layout when it is installed, and that import loads the ONNX layout model: about 1 s
of CPU in every parser process. The PyMuPDF backend asks the model for a page only as a fallback
(`PageAnalysis.layout`, which imports pymupdf.layout itself, and so loads and activates the model then), so most
parser processes never need it. Here pymupdf is imported with pymupdf.layout held back (pymupdf skips a layout
package it cannot import, as when it is not installed); the first page that needs the model pays for it. Nothing
else changes: pymupdf4llm still imports with its import-time settings, and text extraction is the same.
"""
from __future__ import annotations

import sys

if "pymupdf" not in sys.modules:
    _held = "pymupdf.layout" not in sys.modules
    if _held:
        sys.modules["pymupdf.layout"] = None  # type: ignore[assignment]  (makes `import pymupdf.layout` fail)
    try:
        import pymupdf  # noqa: F401
    finally:
        if _held and sys.modules.get("pymupdf.layout", 0) is None:
            del sys.modules["pymupdf.layout"]
