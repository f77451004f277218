"""Superscripts/subscripts put back into table cells from the text layer (pipeline/parse/table_scripts.py), for
the default PyMuPDF tables, which are built from plain words."""
from __future__ import annotations

from collections import Counter

from pipeline.parse.table_scripts import _mark


def test_default_tables_keep_superscripts_and_subscripts(parsed) -> None:
    tables = parsed("neurips2017_attention.pdf").tables
    assert "<td>O(n<sup>2</sup> · d)</td>" in tables[0].html and "O(log<sub>k</sub>(n))" in tables[0].html
    assert "<td>1.0 · 10<sup>20</sup></td>" in tables[1].html
    assert "d<sub>model</sub>" in tables[2].html
    assert "<sup>" not in tables[3].html and "<sub>" not in tables[3].html  # Table 4 prints no scripts


def test_each_script_is_used_once_in_document_order() -> None:
    html = "<table><tr><td>10 &amp; 1020</td><td>1020</td></tr></table>"
    out = _mark(html, Counter({("10", "20", "sup"): 1, ("&", "x", "sub"): 0}))
    assert out == "<table><tr><td>10 &amp; 10<sup>20</sup></td><td>1020</td></tr></table>"
