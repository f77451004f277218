"""pipeline/parse/_mupdf.py: a parser process imports pymupdf without its layout model and pymupdf4llm (~2 s CPU
each process), still gets the model when a page asks for it (its ONNX sessions on one thread), and extracts with quad
corrections off as before."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

CHILD = """
import sys
from pipeline.parse.core import parse_pdf  # what a parser process imports first
import pymupdf
held = [m for m in ("pymupdf.layout", "pymupdf4llm", "onnxruntime") if m in sys.modules]
quads_off = pymupdf.TOOLS.unset_quad_corrections()
doc = pymupdf.open()
page = doc.new_page()
page.insert_text((72, 90), "Layout on demand", fontsize=12)
from pipeline.parse.pymupdf.page import analyze_page
regions = analyze_page(page).layout  # imports pymupdf.layout, which loads and activates the model
import gc
import onnxruntime
sessions = [o for o in gc.get_objects() if isinstance(o, onnxruntime.InferenceSession)]
threads = sorted({s.get_session_options().intra_op_num_threads for s in sessions})
print(held, quads_off, "pymupdf.layout" in sys.modules, callable(pymupdf._get_layout), isinstance(regions, list))
print(len(sessions) > 0, threads, onnxruntime.InferenceSession.__name__)
"""


def test_layout_model_and_pymupdf4llm_are_not_imported_until_asked_for():
    out = subprocess.run([sys.executable, "-c", CHILD], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    held_back, sessions = out.stdout.split("\n")[-3:-1]
    assert held_back == "[] True True True True"
    # the model's sessions run on one thread (a parser process shares the cores with the others), and the
    # swap that did it is over: a session made afterwards is ONNX Runtime's own class
    assert sessions == "True [1] InferenceSession"
