"""Scoring helpers for the caption and reference truth in tests/data/parse_truth (hand-made from the printed PDFs).

A caption is matched by its kind and label ("Table 1", "TABLE I", "Fig. 3", "FIGURE 2 |" -> ("table", "1"),
("table", "I"), ("figure", "3"), ("figure", "2")) and must share most of the truth's first words, so a body
sentence that starts with the label ("Table 4 shows ...") does not count as the caption.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

TRUTH = Path(__file__).resolve().parents[1] / "data" / "parse_truth"
LABEL = re.compile(r"^\s*(?:Supplementary\s+|Extended\s+Data\s+)?(Table|TABLE|Tab\.|Figure|FIGURE|Fig\.?|FIG\.?)\s*([A-Z]?\d+|[IVXL]+)\b", re.I)


def caption_truth() -> dict[str, dict[str, list[str]]]:
    return json.loads((TRUTH / "captions.json").read_text())


def reference_truth() -> dict[str, int]:
    return json.loads((TRUTH / "references.json").read_text())


def _key(caption: str) -> tuple[str, str] | None:
    m = LABEL.match(caption)
    if not m:
        return None
    return ("table" if m.group(1).lower().startswith("tab") else "figure", m.group(2).upper())


def _words(text: str) -> list[str]:
    m = LABEL.match(text)
    rest = text[m.end():] if m else text
    return re.findall(r"[a-z0-9]+", rest.lower())


def matches(truth: str, found: str) -> bool:
    if _key(truth) != _key(found):
        return False
    want = _words(truth)[:6]
    got = set(_words(found)[:20])
    return not want or sum(w in got for w in want) >= 0.5 * len(want)


def f1(truth: list[str], found: list[str]) -> tuple[float, list[str], list[str]]:
    """(F1, missed truth captions, spurious found captions); each found caption matches at most one truth."""
    left = list(found)
    missed = []
    for t in truth:
        hit = next((f for f in left if matches(t, f)), None)
        if hit is None:
            missed.append(t)
        else:
            left.remove(hit)
    tp = len(truth) - len(missed)
    if not truth and not found:
        return 1.0, [], []
    return 2 * tp / (len(truth) + len(found)), missed, left
