"""reference view: one row per bibliography entry.

The bibliography runs from the References/Bibliography heading to the next heading (an appendix) or the end
of the document. Entries are split on their labels ("[12]", "12.") when the list is numbered, otherwise on
the hanging indent every common style uses (first line at the column's left edge, the rest indented), with
a wider-than-usual line gap as the fallback for styles without indent.
"""
from __future__ import annotations

import re
from statistics import median

from pipeline.document import Reference
from pipeline.parse.pymupdf._sections_rows import Row
from pipeline.parse.pymupdf.facts import DocumentFacts, as_facts
from pipeline.parse.pymupdf.page import DocumentAnalysis

HEADING = re.compile(r"((\d+|[IVX]+)\.?\s*)?(references?|bibliography|literature cited|works cited)", re.I)
LABEL = re.compile(r"(\[\d{1,3}\]|\d{1,3}\.)\s")
ALPHA_LABEL = re.compile(r"\[[A-Za-z][^\]\s]{1,12}\]\s")
URLISH = re.compile(r"(https?://|www\.|doi\.org|arxiv\.org)\S*$", re.I)


def _bibliography(rows: list[Row], heads: dict[int, int], body: float) -> list[Row]:
    starts = [i for i in heads if HEADING.fullmatch(rows[i].text)]
    if not starts:  # a References heading set in a style no other heading shares
        starts = [r.index for r in rows if HEADING.fullmatch(r.text) and (r.bold or r.size > body or r.text.isupper())]
    if not starts:
        return []
    start = max(starts)  # the last one: a paper may mention "References" in a table of contents
    end = min((i for i in heads if i > start), default=len(rows))
    bib = [r for r in rows[start + 1 : end] if r.text]
    if not bib:
        return bib
    # an unnumbered title (ICML's "Supplementary Material for ...") ends the list as well
    size = median(r.size for r in bib)
    for k, r in enumerate(bib):
        if r.size > size + 1.5 and len(r.text) > 3:
            bib = bib[:k]
            break
    # footnotes set at the bottom of a bibliography column are smaller than the entries
    return [r for r in bib if r.size >= size - 0.5]


def _numbered_starts(rows: list[Row]) -> list[bool | None] | None:
    """Entry starts for labelled lists ([1], 1., [BCV13]); None when the list is not labelled."""
    for pattern in (LABEL, ALPHA_LABEL):
        hits = [bool(pattern.match(r.text + " ")) for r in rows]
        if rows and hits[0] and sum(hits) >= 2 and sum(hits) >= 0.15 * len(rows):
            starts = _increasing(rows, hits) if pattern is LABEL else hits
            return _cut_trailer(rows, starts)
    return None


def _cut_trailer(rows: list[Row], starts: list[bool]) -> list[bool | None]:
    """After the last label, continuation lines stay indented past the label; anything back at (or left of)
    the label's x is a figure page or other matter after the list, marked None to be dropped."""
    last = max(i for i, s in enumerate(starts) if s)
    label_x = {rows[i].column: rows[i].x0 for i, s in enumerate(starts) if s}
    for k in range(last + 1, len(rows)):
        if rows[k].x0 < label_x.get(rows[k].column, rows[last].x0) + 2:
            return starts[:k] + [None] * (len(rows) - k)
    return starts


def _increasing(rows: list[Row], hits: list[bool]) -> list[bool]:
    """Only labels that continue the count start an entry: a continuation line may begin with '2019.'."""
    expected = None
    out = []
    for row, hit in zip(rows, hits):
        n = int(re.match(r"\[?(\d+)", row.text).group(1)) if hit else None
        ok = hit and (expected is None or n == expected)
        if ok:
            expected = n + 1
        out.append(ok)
    return out


def _indent_starts(rows: list[Row]) -> list[bool | None]:
    """Hanging indent per page and column; where a column shows no indent, a larger line gap starts an entry."""
    groups: dict[tuple[int, int], list[int]] = {}
    for i, r in enumerate(rows):
        groups.setdefault((r.page, r.column), []).append(i)
    starts: list[bool | None] = [False] * len(rows)
    for idx in groups.values():
        left = min(rows[i].x0 for i in idx)
        indented = [i for i in idx if rows[i].x0 > left + 4]
        if indented:
            for i in idx:
                starts[i] = rows[i].x0 <= left + 2.5
            continue
        gaps = [rows[b].y0 - rows[a].y1 for a, b in zip(idx, idx[1:]) if rows[b].y0 > rows[a].y0]
        usual = median(gaps) if gaps else 0.0
        starts[idx[0]] = True
        for a, b in zip(idx, idx[1:]):
            starts[b] = rows[b].y0 - rows[a].y1 > usual + 2.0
    if starts:
        starts[0] = True
    return starts


def _vocabulary(rows: list[Row]) -> set[str]:
    return {w.lower() for r in rows for w in re.findall(r"[\w-]+", r.text)}


def _join(lines: list[str], vocab: set[str]) -> str:
    """Join an entry's lines: keep URLs unbroken; a line-end hyphen is dropped ("Glob-" "ally") unless the
    paper itself spells the hyphenated form ("transformer-based") and not the closed one."""
    out = ""
    for line in lines:
        if not out:
            out = line
        elif URLISH.search(out) and (not out.endswith((".", ",")) or re.match(r"[\w%#?=&~-]+[/.]\w", line)):
            out += line
        elif out.endswith("-") and len(out) > 1 and out[-2].islower() and line[:1].islower():
            head = re.search(r"[\w-]*$", out[:-1]).group(0).lower()
            tail = re.match(r"[\w-]*", line).group(0).lower()
            keep = f"{head}-{tail}" in vocab and f"{head}{tail}" not in vocab
            out = out + line if keep else out[:-1] + line
        elif out.endswith("-") and len(out) > 1 and out[-2].isalpha():
            out += line  # "Lee-" + "Thorp": a real hyphen, no space
        else:
            out += " " + line
    return re.sub(r"\s+", " ", out).strip()


def extract_references(facts: DocumentFacts | DocumentAnalysis) -> list[Reference]:
    facts = as_facts(facts)
    rows, heads = facts.headings
    bib = _bibliography(rows, heads, facts.body_size)
    if not bib:
        return []
    starts = _numbered_starts(bib) or _indent_starts(bib)
    entries: list[list[Row]] = []
    for row, start in zip(bib, starts):
        if start is None:
            break
        if start or not entries:
            entries.append([row])
        else:
            entries[-1].append(row)
    # floats set after the list (an algorithm box before the appendix heading) are not entries: no year
    while entries and not re.search(r"\b(1[89]|20)\d\d", " ".join(r.text for r in entries[-1])):
        entries.pop()
    vocab = _vocabulary(rows)
    return [Reference(i, _join([r.text for r in e], vocab), e[0].page) for i, e in enumerate(entries)]
