"""PyMuPDF imported without the packages it loads for other tools: import this before anything imports `pymupdf`.

`import pymupdf` also imports pymupdf.layout and pymupdf4llm when they are installed. pymupdf.layout loads its ONNX
layout model at import, and both bring numpy and onnxruntime: about 2 s of CPU in every parser process, where the
PyMuPDF backend asks the layout model for a page only as a fallback (`PageAnalysis.layout`, which imports
pymupdf.layout itself, and so loads and activates the model then) and never uses pymupdf4llm. Here pymupdf is
imported with both held back (pymupdf skips a package it cannot import, as when it is not installed); the first
page that needs the model pays for it.

One import-time setting of pymupdf4llm changes what text extraction returns: it turns MuPDF's quad corrections off
(character boxes from the font's ascender/descender rather than corrected ones). Every view was built and scored
with it off, so it is set here explicitly, whether or not pymupdf4llm is installed or imported.
"""
from __future__ import annotations

import sys

if "pymupdf" not in sys.modules:
    _held = [name for name in ("pymupdf.layout", "pymupdf4llm") if name not in sys.modules]
    for name in _held:
        sys.modules[name] = None  # type: ignore[assignment]  (`import name` raises ImportError)
    try:
        import pymupdf
    finally:
        for name in _held:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]
else:
    import pymupdf

pymupdf.TOOLS.unset_quad_corrections(True)
