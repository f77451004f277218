"""Table structure against the zoo's exact truth: TEDS (tree-edit-distance similarity, the PubTabNet metric, as
implemented by the `table-recognition-metric` package) between a parsed table's HTML and the cells the generator
typeset (tests/zoo/content.py's TABLES, matched to the truth's captions by their text).

Both sides are normalised before scoring: `th` is `td`, `thead`/`tbody` wrappers and `<sup>`/`<sub>` tags are
dropped (their text stays), whitespace is collapsed. A truth table with no parsed table of its caption scores 0.
"""
from __future__ import annotations

import html as html_lib
import re
from functools import lru_cache

from schemas.content_marks import is_raster_table
from tests.zoo.content import TABLES
from tests.zoo.scoring import key

is_raster_html = is_raster_table


def truth_html(rows: list[list[str]]) -> str:
    body = "".join("<tr>" + "".join(f"<td>{html_lib.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<html><body><table>{body}</table></body></html>"


def normalise(table_html: str) -> str:
    s = re.sub(r"</?(?:thead|tbody|tfoot|sup|sub)\b[^>]*>", "", table_html or "")
    s = re.sub(r"<th\b", "<td", s).replace("</th>", "</td>")
    s = re.sub(r"<table\b[^>]*>", "<table>", s)
    s = re.sub(r"\s+", " ", s)
    return f"<html><body>{s}</body></html>"


@lru_cache(maxsize=1)
def _teds():
    from table_recognition_metric import TEDS

    return TEDS()


def teds(pred_html: str, rows: list[list[str]]) -> float:
    """TEDS of one parsed table against its typeset rows (1.0 = same structure and cell text)."""
    if "<tr" not in (pred_html or ""):
        return 0.0
    return float(_teds()(normalise(pred_html), truth_html(rows)))


def _rows_for(text: str) -> list[list[str]] | None:
    return next((t.rows for t in TABLES.values() if key(t.caption) == key(text)), None)


def zoo_teds(paper, truth: dict) -> list[float]:
    """One TEDS per truth table of a zoo paper, in the truth's order."""
    scores = []
    for t in truth.get("tables", []):
        rows = _rows_for(t["text"])
        if rows is None:
            continue
        want = key(t["text"])[:60]
        match = next((p for p in paper.tables if want in key(p.caption)), None)
        scores.append(teds(match.html, rows) if match else 0.0)
    return scores
