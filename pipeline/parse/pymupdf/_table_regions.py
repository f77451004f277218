"""Table regions for the tables view (and for the images and equations views, which exclude them).

The caption anchors the search; see tables.py for the strategy. Called once per document by
DocumentFacts.table_regions (typing-only import of facts: facts.py builds on this module).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.parse.pymupdf._captions import Caption
from pipeline.parse.pymupdf._floats import graphics, region
from pipeline.parse.pymupdf._geometry import hrules, is_prose, union, x_overlap
from pipeline.parse.pymupdf.page import PageAnalysis, Rect

if TYPE_CHECKING:
    from pipeline.parse.pymupdf.facts import DocumentFacts

NEAR = 28.0  # max gap between a caption and its table's first rule / line (pt)


def _rules_in(p: PageAnalysis, xr: tuple[float, float]) -> list[Rect]:
    return [r for r in hrules(p, 20.0) if x_overlap(r, (xr[0], 0, xr[1], 0)) > 0.5 * (r[2] - r[0])]


def _nearest_rule_gap(facts: DocumentFacts, p: PageAnalysis, cap: Caption, below: bool) -> float:
    xr = facts.column_range(p, cap.bbox)
    gaps = [r[1] - cap.bbox[3] if below else cap.bbox[1] - r[3] for r in _rules_in(p, xr)]
    gaps = [g for g in gaps if g > -1]
    return min(gaps, default=1e9)


def tables_below_captions(facts: DocumentFacts) -> bool:
    """Vote: does this document put the table under its caption (NeurIPS/ICLR) or above it (ACL)?"""
    votes = 0
    for cap in facts.captions:
        if cap.kind != "table":
            continue
        p = facts.pages[cap.page - 1]
        up, down = _nearest_rule_gap(facts, p, cap, False), _nearest_rule_gap(facts, p, cap, True)
        if min(up, down) < NEAR:
            votes += 1 if down < up else -1
    return votes > 0


def _scan(facts: DocumentFacts, p: PageAnalysis, cap: Caption, below: bool, body: float, stops: list[Rect]) -> Rect | None:
    """Walk away from the caption. A ruled table is the chain of rules starting near the caption (text between
    two rules is never prose at body size); an unruled one is the run of non-prose lines next to the caption."""
    xr = facts.anchor_range(p, cap.bbox)
    colw = xr[1] - xr[0]
    band = (xr[0] - 2, 0, xr[1] + 2, 0)
    items: list[tuple[Rect, str]] = [(r, "rule") for r in _rules_in(p, xr)]
    for ln in p.lines:
        b = ln.bbox
        if any(x_overlap(b, s) > 0 and x_overlap(b, band) > 10 and s[1] - 1 <= b[1] and b[3] <= s[3] + 1 for s in stops):
            items.append((b, "stop"))
        elif x_overlap(b, band) >= 0.5 * (b[2] - b[0]):
            kind = "prose" if is_prose(ln, body, colw) else "line"
            if kind == "prose" and ln.size >= body - 0.3:
                kind = "body"
            items.append((b, kind))
    edge = cap.bbox[3] if below else cap.bbox[1]
    if below:
        items = sorted((it for it in items if it[0][1] >= edge - 1), key=lambda it: it[0][1])
    else:
        items = sorted((it for it in items if it[0][3] <= edge + 1), key=lambda it: -it[0][3])

    def gap(r: Rect, e: float) -> float:
        return r[1] - e if below else e - r[3]

    def far(r: Rect) -> float:
        return r[3] if below else r[1]

    got: list[Rect] = []
    if items and items[0][1] == "rule" or any(k == "rule" and gap(r, edge) < NEAR for r, k in items[:3]):
        pending: list[Rect] = []
        nbody = 0  # running-text-like lines since the last rule: one is a long table row, two are prose
        last, last_kind = edge, ""
        for r, kind in items:
            nbody += kind == "body"
            if kind == "stop" or nbody >= 2:
                break
            complete = sum(1 for g in got if g[3] - g[1] <= 2.5) >= 2 and sum(1 for g in got if g[3] - g[1] > 2.5) >= 2
            if complete and kind == last_kind == "rule" and gap(r, last) > 1.2 * body:
                break  # rule, empty band, rule after a whole table: the frame of another float
            last = max(last, far(r)) if below else min(last, far(r))
            last_kind = kind
            if kind == "rule":
                nbody = 0
                if not got and gap(r, edge) > NEAR:
                    break
                got += pending + [r]
                pending = []
            else:
                pending.append(r)
        nrules = sum(1 for r in got if r[3] - r[1] <= 2.5)
        if nrules >= 2 and len(got) - nrules >= 2:
            return union(got)
        got = []
    prose = [r for r, k in items if k in ("body", "prose")]
    for r, kind in items:
        if kind in ("stop", "body", "prose") or gap(r, edge) > (NEAR if not got else 2.0 * body):
            break
        if any(x_overlap(r, q) > 0 and 0 <= gap(q, far(r)) < 4 for q in prose):
            break  # the short last line of a paragraph, not a table row
        got.append(r)
        edge = far(r)
    lines = [r for r in got if r[3] - r[1] > 2]
    return union(got) if len(lines) >= 3 else None


def _image_table(facts: DocumentFacts, p: PageAnalysis, cap: Caption, taken: list[Rect], stops: list[Rect]) -> Rect | None:
    """A "table" that is a grid of pictures (no text cells): found like a figure, from the graphics next to it."""
    if not p.image_rects:
        return None
    drawn = graphics(p, taken)
    for above in (True, False):
        found = region(facts, p, cap, above, facts.body_size, drawn, stops)
        if found is not None:
            return found
    return None


def _text_block(facts: DocumentFacts, p: PageAnalysis, cap: Caption, below: bool, body: float, stops: list[Rect]) -> Rect | None:
    """Last resort for text-only tables (dialogue examples): the tight run of lines next to the caption."""
    xr = facts.anchor_range(p, cap.bbox)
    lines = [ln.bbox for ln in p.lines if x_overlap(ln.bbox, (xr[0], 0, xr[1], 0)) > 0.5 * (ln.bbox[2] - ln.bbox[0])]
    lines.sort(key=lambda r: r[1] if below else -r[3])
    edge = cap.bbox[3] if below else cap.bbox[1]
    got: list[Rect] = []
    for r in lines:
        if (r[1] < edge - 1) if below else (r[3] > edge + 1):
            continue
        if (r[1] - edge if below else edge - r[3]) > (NEAR if not got else 0.8 * body) or any(x_overlap(r, s) > 0 and min(r[3], s[3]) - max(r[1], s[1]) > 0 for s in stops):
            break
        got.append(r)
        edge = r[3] if below else r[1]
    return union(got) if len(got) >= 3 else None


def _layout_region(p: PageAnalysis, cap: Caption, taken: list[Rect]) -> Rect | None:
    best, best_d = None, 1e9
    for r, cls in p.layout:
        if cls not in ("table", "picture") or any(x_overlap(r, t) > 0 and min(r[3], t[3]) - max(r[1], t[1]) > 0 for t in taken):
            continue
        if x_overlap(r, cap.bbox) <= 0:
            continue
        d = min(abs(r[1] - cap.bbox[3]), abs(cap.bbox[1] - r[3]))
        if d < best_d:
            best, best_d = r, d
    return best if best_d < 60 else None


def find_table_regions(facts: DocumentFacts) -> list[tuple[Caption, Rect]]:
    """(caption, body rect) of every table found (DocumentFacts.table_regions: the images and equations views
    exclude these areas)."""
    body = facts.body_size
    below = tables_below_captions(facts)
    out: list[tuple[Caption, Rect]] = []
    for p in facts.pages:
        caps = facts.captions_on(p.number)
        taken: list[Rect] = []
        for cap in caps:
            if cap.kind != "table":
                continue
            stops = [c.bbox for c in caps if c is not cap] + taken
            box = _scan(facts, p, cap, below, body, stops) or _scan(facts, p, cap, not below, body, stops)
            if box is None:
                box = _image_table(facts, p, cap, taken, stops) \
                    or (_layout_region(p, cap, taken) if facts.use_layout else None) \
                    or _text_block(facts, p, cap, below, body, stops)
            if box is not None:
                taken.append(box)
                out.append((cap, box))
    return out
