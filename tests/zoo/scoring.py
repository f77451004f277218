"""Score a `ParsedPaper` against a truth file, one function per view (zoo papers and hand-made corpus truth alike).

Truth format (`truth.json`, written by generate.py; hand-made files in tests/data/parse_truth/ use the same keys, any
of which may be absent — that view is then not scored): title, authors [names], abstract, sections [{level, title as
printed with its number}], tables / figures [{label, text, printed}], references (count), equation_pages [1-based],
running [header/footer/first-page furniture strings as printed].

Normalisation (why: the parser's job is the text, not PDF spacing, ligatures, hyphenation or small caps):
- `norm`: NFKD, accents dropped (ø→o, æ→ae, ß→ss, ł→l too), casefolded, dashes/quotes unified, whitespace collapsed.
- `key`: `norm` keeping letters and digits only. Titles, headings, captions and running strings compare as keys, so
  "II. METHOD", "II Method" and "ii. method" are equal, but a heading without its printed number is not.

Views:
- title: 1.0 when the keys are equal, else 0.0.
- authors: F1 over names; two names match when their surnames' keys are equal and their first initials agree
  ("L. Moreau" = "Léa Moreau" = "Moreau, Léa"); one-to-one, greedy in order.
- abstract: difflib ratio between the word-key sequences (1.0 identical); "found" means >= 0.9.
- sections: F1 of heading keys over truth levels 1-2 against parsed sections of level <= 2. Front-matter headings the
  truth never lists (Abstract, Keywords, Index Terms, CCS Concepts, ACM Reference Format) are ignored in the parse;
  parsed headings equal to a truth level-3 heading are scored only in `sections_l3` (so folding a third level into
  the second costs nothing here); `sections_l3` is the recall of level-3 headings among all parsed sections.
- tables / figures: F1 over captions. A parsed caption matches a truth caption when the labels agree (kind
  Table/Tab./TABLE or Figure/Fig./FIG., number arabic or roman) and the key of its text after the label starts with
  the first 60 characters of the truth text's key and is at most 25 % + 20 characters longer (a caption that ran into
  a footnote or the body fails). Captions live in the view of their kind: a figure caption stored on a table counts
  as a false table caption and a missed figure caption.
- references: relative error of the entry count, |parsed - truth| / truth.
- equations: recall of the truth's equation pages among the pages of parsed equations.
- header_leaks: how many view items (the abstract, section titles and contents, equation latex, table and figure
  captions, table cells, reference entries) contain a running string's key (only strings with keys of 10+ characters are used).
- invisible_leaks: the same count for the truth's `invisible` strings (text in render mode 3: the equations' LaTeX
  source in some arXiv PDFs) over every view but equations, where using that source is allowed.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from collections import Counter
from typing import Any

_FOLD = str.maketrans({"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "ß": "ss", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D",
                       "œ": "oe", "Œ": "OE", "ı": "i", "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "−": "-",
                       "‘": "'", "’": "'", "“": '"', "”": '"'})

# views, the direction of each score, and the acceptance threshold of issue 13 (also what bench/parse_quality.py marks)
THRESHOLDS: dict[str, tuple[str, float]] = {
    "title": (">=", 1.0),
    "authors": (">=", 0.95),
    "abstract": (">=", 0.9),
    "sections": (">=", 0.90),
    "tables": (">=", 0.95),
    "figures": (">=", 0.95),
    "references": ("<=", 0.02),
    "equations": (">=", 0.9),
    "header_leaks": ("<=", 0),
    "invisible_leaks": ("<=", 0),
}
REPORT_ONLY = ("sections_l3",)
# the truth key each view is scored from (a truth without it leaves the view unscored)
TRUTH_KEY = {"title": "title", "authors": "authors", "abstract": "abstract", "sections": "sections", "tables": "tables",
             "figures": "figures", "references": "references", "equations": "equation_pages",
             "header_leaks": "running", "invisible_leaks": "invisible"}
# headings of the front matter (the truth lists the body's headings only): APA's title page prints "Author Note"
FRONT_MATTER = ("abstract", "keywords", "keyword", "indexterms", "ccsconcepts", "acmreferenceformat",
                "keywordsandphrases", "authornote")


def norm(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.translate(_FOLD))
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    return " ".join(text.split())


# A T1-encoded font without a Type 1 version (no cm-super: pdfTeX makes a Type 3 bitmap font) has no ToUnicode map,
# and its ligatures come out of the text layer as their Cork codes 0x1B-0x1F (els_cas). The glyphs are printed: the
# generator's and the test's "is it printed" checks read them as the ligatures they draw.
T1_LIGATURE_CODES = str.maketrans({"\x1b": "ff", "\x1c": "fi", "\x1d": "fl", "\x1e": "ffi", "\x1f": "ffl"})


def _page_text(page) -> str:
    """A page's text layer without a margin column of line numbers (lineno: every line numbered left of the text)."""
    words = page.get_text("words")
    text_left = min((w[0] for w in words if not w[4].isdigit()), default=0)
    numbers = [w for w in words if w[4].isdigit() and w[2] < text_left - 2]
    if len(numbers) >= 10:
        import pymupdf

        return page.get_text(clip=pymupdf.Rect(text_left - 1, 0, page.rect.width, page.rect.height))
    return page.get_text()


def printed_text(doc) -> str:
    """Every page's text layer as printed (T1 ligature codes read as ligatures, a margin of line numbers left out),
    pages joined by newlines."""
    return "\n".join(_page_text(page).translate(T1_LIGATURE_CODES) for page in doc)


def key(text: str) -> str:
    return "".join(c for c in norm(text) if c.isalnum())


def line_starts(text: str, window: int = 6) -> list[str]:
    """Keys of every run of up to `window` lines starting at each line: a printed heading or caption is a prefix of
    one of them (numbers set on their own line, run-in headings, and a heading a narrow column breaks over five lines,
    as achemso sets one, included); a string printed mid-line is not."""
    lines = [key(line) for line in text.splitlines()]
    return ["".join(lines[i:i + window]) for i in range(len(lines))]


def printed_at_line_start(wanted: str, starts: list[str]) -> bool:
    k = key(wanted)
    return any(s.startswith(k) for s in starts)


def passes(view: str, value: float | None) -> bool | None:
    if value is None or view not in THRESHOLDS:
        return None
    op, limit = THRESHOLDS[view]
    return value >= limit if op == ">=" else value <= limit


def f1(matched: int, predicted: int, truth: int) -> float:
    if predicted + truth == 0:
        return 1.0
    return 2 * matched / (predicted + truth)


# ---------------------------------------------------------------- per view

def title_score(parsed: str, truth: str) -> float:
    return float(key(parsed) == key(truth) and bool(key(truth)))


def _name_parts(name: str) -> tuple[str, str]:
    """(surname key, first initial) of 'Léa Moreau', 'L. Moreau', 'Moreau, Léa', 'Anna Van Dijk'."""
    text = norm(re.sub(r"[*†‡§¶\d]+", " ", name))
    if "," in text:
        last, first = (p.strip() for p in text.split(",", 1))
    else:
        tokens = text.split()
        if not tokens:
            return "", ""
        cut = len(tokens) - 1
        while cut > 1 and tokens[cut - 1] in ("van", "von", "de", "der", "da", "di", "le", "la", "del"):
            cut -= 1
        first, last = " ".join(tokens[:cut]), " ".join(tokens[cut:])
    first_key = key(first)
    return key(last), first_key[:1]


def authors_score(parsed: list[str], truth: list[str]) -> float:
    remaining = [_name_parts(t) for t in truth]
    matched = 0
    for name in parsed:
        last, initial = _name_parts(name)
        for i, (t_last, t_initial) in enumerate(remaining):
            if last and last == t_last and (not initial or not t_initial or initial == t_initial):
                matched += 1
                del remaining[i]
                break
    return f1(matched, len(parsed), len(truth))


def abstract_score(parsed: str, truth: str) -> float:
    a = [key(w) for w in norm(truth).split() if key(w)]
    b = [key(w) for w in norm(parsed).split() if key(w)]
    if not a:
        return float(not b)
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def _is_front_matter(title_key: str) -> bool:
    bare = title_key.lstrip("0123456789")
    return bare in FRONT_MATTER or bare.startswith(("abstract", "indexterms", "keywords"))


def sections_score(parsed: list[tuple[int, str]], truth: list[dict]) -> tuple[float, float | None]:
    """(F1 over levels 1-2, recall of level-3 headings or None when the truth has none); parsed = [(level, title)]."""
    truth12 = Counter(key(s["title"]) for s in truth if s["level"] <= 2)
    truth3 = Counter(key(s["title"]) for s in truth if s["level"] >= 3)
    pred_keys = [(level, key(title)) for level, title in parsed]
    pred12 = Counter(k for level, k in pred_keys if level <= 2 and not _is_front_matter(k) and k not in truth3)
    score12 = f1(sum((pred12 & truth12).values()), sum(pred12.values()), sum(truth12.values()))
    if not truth3:
        return score12, None
    found3 = Counter(k for _, k in pred_keys) & truth3
    return score12, sum(found3.values()) / sum(truth3.values())


_LABEL = re.compile(r"^\s*(fig(?:ure)?|tab(?:le)?)\s*\.?\s*([0-9]+|[ivxlc]+)(?![a-z0-9])\s*[.:|\-]?\s*", re.I)
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}


def _number(token: str) -> int:
    if token.isdigit():
        return int(token)
    total = 0
    for a, b in zip(token, token[1:] + " "):
        value = _ROMAN[a]
        total += -value if b != " " and _ROMAN.get(b, 0) > value else value
    return total


def split_caption(caption: str) -> tuple[tuple[str, int] | None, str]:
    """(('table'|'figure', number) or None, key of the text after the label)."""
    text = norm(caption)
    m = _LABEL.match(text)
    if not m:
        return None, key(text)
    kind = "figure" if m.group(1).startswith("fig") else "table"
    return (kind, _number(m.group(2))), key(text[m.end():])


def _caption_match(pred: tuple, truth: tuple) -> bool:
    (p_label, p_text), (t_label, t_text) = pred, truth
    return (p_label == t_label and p_text.startswith(t_text[:60])
            and len(p_text) <= len(t_text) * 1.25 + 20)


def captions_score(parsed: list[str], truth: list[dict]) -> float:
    preds = [split_caption(c) for c in parsed if c.strip()]
    remaining = [split_caption(t["printed"]) for t in truth]
    matched = 0
    for pred in preds:
        for i, t in enumerate(remaining):
            if _caption_match(pred, t):
                matched += 1
                del remaining[i]
                break
    return f1(matched, len(preds), len(truth))


def references_error(parsed_count: int, truth_count: int) -> float:
    return abs(parsed_count - truth_count) / max(truth_count, 1)


def equation_pages_recall(parsed_pages: list[int], truth_pages: list[int]) -> float | None:
    if not truth_pages:
        return None
    return len(set(truth_pages) & set(parsed_pages)) / len(set(truth_pages))


def view_items(paper: Any) -> dict[str, list[str]]:
    """The text of every item of every content view (pages and chunks are the raw text and are not content views)."""
    return {
        "abstract": [paper.metadata.abstract],
        "section titles": [s.title for s in paper.sections],
        "section content": [s.content for s in paper.sections],
        "equations": [e.latex for e in paper.equations],
        "table captions": [t.caption for t in paper.tables],
        "table cells": [re.sub(r"<[^>]+>", " ", t.html) for t in paper.tables],
        "figure captions": [f.caption for f in paper.figures],
        "references": [r.text for r in paper.references],
    }


def header_leaks(paper: Any, running: list[str], skip: tuple[str, ...] = ()) -> tuple[int, dict[str, int]]:
    """(items holding running text, count per view), views in `skip` left out."""
    keys = [k for k in (key(r) for r in running) if len(k) >= 10]
    per_view: dict[str, int] = {}
    for view, items in view_items(paper).items():
        if view in skip:
            continue
        hits = sum(1 for item in items if any(k in key(item) for k in keys))
        if hits:
            per_view[view] = hits
    return sum(per_view.values()), per_view


# ---------------------------------------------------------------- all views

def score(paper: Any, truth: dict) -> dict[str, Any]:
    """{view: score or None (not in the truth)}, plus 'header_leaks_by_view' for the report."""
    out: dict[str, Any] = {v: None for v in (*THRESHOLDS, *REPORT_ONLY)}
    md = paper.metadata
    if "title" in truth:
        out["title"] = title_score(md.title, truth["title"])
    if "authors" in truth:
        out["authors"] = authors_score(md.authors, truth["authors"])
    if "abstract" in truth:
        out["abstract"] = abstract_score(md.abstract, truth["abstract"])
    if "sections" in truth:
        out["sections"], out["sections_l3"] = sections_score([(s.level, s.title) for s in paper.sections],
                                                             truth["sections"])
    if "tables" in truth:
        out["tables"] = captions_score([t.caption for t in paper.tables], truth["tables"])
    if "figures" in truth:
        out["figures"] = captions_score([f.caption for f in paper.figures], truth["figures"])
    if "references" in truth:
        out["references"] = references_error(len(paper.references), truth["references"])
    if "equation_pages" in truth:
        out["equations"] = equation_pages_recall([e.page_number for e in paper.equations], truth["equation_pages"])
    if "running" in truth:
        out["header_leaks"], out["header_leaks_by_view"] = header_leaks(paper, truth["running"])
    if "invisible" in truth:
        out["invisible_leaks"], out["invisible_leaks_by_view"] = header_leaks(paper, truth["invisible"], ("equations",))
    return out


def failing(scores: dict[str, Any]) -> dict[str, Any]:
    """{view: score} for the views below their threshold."""
    return {v: scores[v] for v in THRESHOLDS if passes(v, scores.get(v)) is False}
