"""PyMuPDF imported without the packages it loads for other tools: import this before anything imports `pymupdf`.

`import pymupdf` also imports pymupdf.layout and pymupdf4llm when they are installed. pymupdf.layout loads its ONNX
layout model at import, and both bring numpy and onnxruntime: about 2 s of CPU in every parser process, where the
PyMuPDF backend asks the layout model for a page only as a fallback (`PageAnalysis.layout`, which imports
pymupdf.layout itself, and so loads and activates the model then) and never uses pymupdf4llm. Here pymupdf is
imported with both held back (pymupdf skips a package it cannot import, as when it is not installed); the first
page that needs the model pays for it.

`load_layout_model` is that import, with the model's ONNX Runtime sessions on one thread that does not spin (see
there).

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


def load_layout_model() -> None:
    """Import pymupdf.layout, which loads its ONNX models and activates them for `Page.get_layout`.

    The model runs inside a parser process, one of as many as the machine has cores, so ONNX Runtime's default
    (a thread per core, spinning between operators) only competes with the other parsers: measured on a 2-core
    machine, 0.55 CPU-s per page against 0.40 on one thread, with the same regions. pymupdf.layout builds its
    sessions at import and takes no options for them, so `onnxruntime.InferenceSession` is swapped for the length
    of that import only. Nothing else in a parser process creates sessions."""
    if "pymupdf.layout" in sys.modules:
        return
    import onnxruntime as ort

    original = ort.InferenceSession

    class OneThread(original):  # type: ignore[misc, valid-type]
        def __init__(self, path_or_bytes, sess_options=None, providers=None, provider_options=None, **kwargs):
            options = sess_options or ort.SessionOptions()
            options.intra_op_num_threads = options.inter_op_num_threads = 1
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            super().__init__(path_or_bytes, sess_options=options, providers=providers,
                             provider_options=provider_options, **kwargs)

    ort.InferenceSession = OneThread
    try:
        import pymupdf.layout  # noqa: F401  (activates the model)
    finally:
        ort.InferenceSession = original
