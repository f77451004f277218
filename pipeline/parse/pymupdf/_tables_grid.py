"""Cell-grid reconstruction for one table region, from word positions (no ruling lines needed).

Booktabs tables have horizontal rules only, so columns come from vertical whitespace: an x position is a column
gap when (almost) no row has text over it. Cells are assigned to columns by their x-extent against the columns'
content: a text run that crosses a gap is a spanning cell (colspan) unless its words fall apart at the gaps (a header
set tighter than its column gap: "Dataset Docs Classes" becomes three cells); a lone cell vertically centred between
two rows whose other cells are empty is a multirow cell (rowspan); a row of text-only cells under text cells of the
row above, with fewer cells or starting in lower case, is the next line of those cells (a multi-line cell), not a
row. Words count when their centre lies in the region (the descenders of a caption line above do not), rows outside
the table's top and bottom rules are left out, and so are running text and stray labels (a figure's axis title)
past a wide gap at the region's edges. A region with no words at all is a table printed as a picture: it is stored
as `schemas.content_marks.RASTER_TABLE`.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass

from pipeline.parse.pymupdf.page import PageAnalysis, Rect
from schemas.content_marks import RASTER_ATTR, RASTER_TABLE


@dataclass
class Seg:
    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    words: list[tuple[float, float, str]] | None = None  # (x0, x1, text) of each word

    @property
    def yc(self) -> float:
        return (self.y0 + self.y1) / 2

    @property
    def h(self) -> float:
        return self.y1 - self.y0


@dataclass
class Cell:
    text: str
    col: int
    colspan: int = 1
    rowspan: int = 1
    x0: float = 0.0
    x1: float = 0.0


def _segments(p: PageAnalysis, region: Rect, words: list[tuple] | None = None) -> list[Seg]:
    """Words of the region (its text layer's, or `words` OCR read there) merged into runs: words of one text line
    closer than ~0.5 em belong to one cell."""
    words = [w for w in (p.page.get_text("words", clip=region) if words is None else words)
             if region[0] <= (w[0] + w[2]) / 2 <= region[2] and region[1] <= (w[1] + w[3]) / 2 <= region[3]
             and not (len(w[4]) >= 3 and w[3] - w[1] > 1.5 * (w[2] - w[0]))]  # rotated: a figure's axis title
    words.sort(key=lambda w: (w[5], w[6], w[0]))
    segs: list[Seg] = []
    prev_key = None
    for x0, y0, x1, y1, text, bno, lno, _ in words:
        h = max(y1 - y0, 1.0)
        last = segs[-1] if segs else None
        if last and prev_key == (bno, lno) and x0 - last.x1 < 0.4 * h:
            last.x1, last.y0, last.y1 = max(last.x1, x1), min(last.y0, y0), max(last.y1, y1)
            last.text += " " + text
            last.words.append((x0, x1, text))
        else:
            segs.append(Seg(x0, y0, x1, y1, text, [(x0, x1, text)]))
        prev_key = (bno, lno)
    return segs


def _rows(segs: list[Seg]) -> list[list[Seg]]:
    rows: list[list[Seg]] = []
    for s in sorted(segs, key=lambda s: s.yc):
        if rows:
            row = rows[-1]
            yc = sum(t.yc for t in row) / len(row)
            h = min(min(t.h for t in row), s.h)
            if abs(s.yc - yc) < 0.45 * h:
                row.append(s)
                continue
        rows.append([s])
    return [sorted(r, key=lambda s: s.x0) for r in rows]


def _column_gaps(rows: list[list[Seg]], x0: float, x1: float, head: list[list[Seg]] | None = None) -> list[float]:
    """x positions separating columns: centres of runs (>= 3 pt wide) covered by at most `tol` rows, moved within
    their run off the header's words (so a header set tighter than its columns is cut between words), plus the
    splits of columns whose rows all hold the same number of aligned runs (`_aligned_splits`)."""
    runs = _gap_runs(rows, x0, x1)
    words = [(a, b) for row in head or [] for s in row for a, b, _ in (s.words or [(s.x0, s.x1, s.text)])]
    # a header word standing alone inside a gap heads a sparse column (a column of ✓ marks filled in few rows)
    split: list[tuple[float, float, float]] = []
    for pos, lo, hi in runs:
        inner = sorted((a, b) for a, b in words if lo + 2 < a and b < hi - 2 and any(
            lo < t.x0 and t.x1 < hi and min(t.x1, b) > max(t.x0, a) for row in rows for t in row))
        edges = [lo, *[e for a, b in inner for e in (a, b)], hi]
        if inner and all(edges[k + 1] - edges[k] >= 1.5 for k in range(0, len(edges), 2)):
            split += [((edges[k] + edges[k + 1]) / 2, edges[k], edges[k + 1]) for k in range(0, len(edges), 2)]
        else:
            split.append((pos, lo, hi))
    runs = split
    gaps = []
    for pos, lo, hi in runs:
        if any(a - 0.5 < pos < b + 0.5 for a, b in words):
            free = [x / 2 for x in range(int(2 * lo), int(2 * hi) + 1)
                    if not any(a - 0.5 < x / 2 < b + 0.5 for a, b in words)]
            if free:
                pos = min(free, key=lambda x: abs(x - pos))
        gaps.append(pos)
    return sorted(gaps + _aligned_splits(rows, gaps))


def _aligned_splits(rows: list[list[Seg]], gaps: list[float]) -> list[float]:
    """Columns closer together than a gap can show (llncs sets 1.4 pt between columns): a column in which every row
    holds the same number (2-3) of runs, each run lined up with the same run of the other rows (left, right or
    centre within 1.5 pt), is several columns; a split goes between the runs."""
    out: list[float] = []
    if len(rows) < 3:
        return out
    for c in range(len(gaps) + 1):
        per_row = [[s for s in row if _col_of((s.x0 + s.x1) / 2, gaps) == c] for row in rows]
        counts = {len(r) for r in per_row}
        if len(counts) != 1 or not 2 <= counts.pop() <= 3:
            continue
        for k in range(1, len(per_row[0])):
            left, right = [r[k - 1] for r in per_row], [r[k] for r in per_row]
            aligned = any(max(v) - min(v) <= 1.5 for v in ([s.x0 for s in right], [s.x1 for s in right],
                                                             [(s.x0 + s.x1) / 2 for s in right]))
            end, start = max(s.x1 for s in left), min(s.x0 for s in right)
            if aligned and end < start:
                out.append((end + start) / 2)
    return out


def _gap_runs(rows: list[list[Seg]], x0: float, x1: float) -> list[tuple[float, float, float]]:
    """(position, run start, run end) of each column gap of `_column_gaps`."""
    step = 1.0
    n = int((x1 - x0) / step) + 2
    cover = [0] * n
    for row in rows:
        seen = [False] * n
        for s in row:
            for i in range(max(0, int((s.x0 - x0) / step)), min(n, int((s.x1 - x0) / step) + 1)):
                seen[i] = True
        for i, v in enumerate(seen):
            cover[i] += v
    # centred or spanning cells may bridge a gap in a few rows
    tol = max(1 if len(rows) >= 5 else 0, int(0.2 * len(rows)))
    gaps: list[tuple[float, float, float]] = []
    i = 0
    first = next((k for k, c in enumerate(cover) if c > tol), n)
    last = max((k for k, c in enumerate(cover) if c > tol), default=0)
    i = first
    while i <= last:
        if cover[i] <= tol:
            j = i
            while j <= last and cover[j] <= tol:
                j += 1
            if (j - i) * step >= 3.0:
                # split at the emptiest part of the run, so a long cell that half-fills it stays in one column
                low = min(cover[i:j])
                best, k = (i, i), i
                while k < j:
                    if cover[k] == low:
                        m = k
                        while m < j and cover[m] == low:
                            m += 1
                        if m - k > best[1] - best[0]:
                            best = (k, m)
                        k = m
                    else:
                        k += 1
                gaps.append((x0 + (best[0] + best[1]) / 2 * step, x0 + i * step, x0 + (j - 1) * step))
            i = j
        else:
            i += 1
    return gaps


def _col_of(x: float, gaps: list[float]) -> int:
    return sum(1 for g in gaps if g < x)


def _extents(rows: list[list[Seg]], gaps: list[float]) -> list[tuple[float, float]]:
    """Horizontal extent of each column's single-column cells (where its content actually is)."""
    ext = [(1e9, -1e9)] * (len(gaps) + 1)
    for row in rows:
        for s in row:
            c = _col_of(s.x0, gaps)
            if c == _col_of(s.x1, gaps):
                ext[c] = (min(ext[c][0], s.x0), max(ext[c][1], s.x1))
    return ext


def _cols(s: Seg, gaps: list[float], ext: list[tuple[float, float]]) -> tuple[int, int]:
    """Columns a run covers: those whose content it overlaps (a header wider than its column may reach into
    the white space of the gap without spanning the neighbour); by position when it overlaps none."""
    hit = [c for c, (a, b) in enumerate(ext) if min(b, s.x1) - max(a, s.x0) > 0]
    if hit:
        return hit[0], hit[-1]
    c = _col_of((s.x0 + s.x1) / 2, gaps)
    return c, c


def _split_at_gaps(s: Seg, gaps: list[float], ext: list[tuple[float, float]]) -> list[Seg]:
    """A run whose words fall apart at the column gaps it crosses (each word inside one column, every covered column
    getting a word) is one cell per column: a header set tighter than the gaps of the body below it. A run centred
    over the content of the columns it covers is a spanning header ("SQA (SEQ)" over two columns) and stays whole."""
    inner = [g for g in gaps if s.x0 < g < s.x1]
    words = s.words or []
    if not inner or len(words) < 2:
        return [s]
    cols = [_col_of((a + b) / 2, gaps) for a, b, _ in words]
    if any(_col_of(a, gaps) != _col_of(b, gaps) for a, b, _ in words) or len(set(cols)) != len(inner) + 1:
        return [s]
    first, last = ext[min(cols)], ext[max(cols)]
    if first[0] < last[1] and abs((s.x0 + s.x1) / 2 - (first[0] + last[1]) / 2) <= 1.5:
        return [s]
    out: list[Seg] = []
    for (a, b, text), c in zip(words, cols):
        if out and _col_of(out[-1].x0, gaps) == c:
            out[-1].x1, out[-1].text = b, out[-1].text + " " + text
            out[-1].words.append((a, b, text))
        else:
            out.append(Seg(a, s.y0, b, s.y1, text, [(a, b, text)]))
    return out


def _grid(rows: list[list[Seg]], gaps: list[float], ext: list[tuple[float, float]]) -> list[list[Cell]]:
    grid: list[list[Cell]] = []
    for row in rows:
        cells: list[Cell] = []
        for s in (piece for seg in row for piece in _split_at_gaps(seg, gaps, ext)):
            c0, c1 = _cols(s, gaps, ext)
            if cells and cells[-1].col + cells[-1].colspan - 1 >= c0:  # same column: one cell
                last = cells[-1]
                last.text += " " + s.text
                last.colspan = max(last.colspan, c1 - last.col + 1)
                last.x1 = max(last.x1, s.x1)
            else:
                cells.append(Cell(s.text, c0, c1 - c0 + 1, x0=s.x0, x1=s.x1))
        grid.append(cells)
    return grid


def _align_spanning(grid: list[list[Cell]]) -> None:
    """A centred group header ("BLEU" over "EN-DE  EN-FR") spans exactly the columns of the cells under it
    that it overlaps; its own extent may stop short of the outer columns (bottom-up, so levels nest)."""
    for r in range(len(grid) - 2, -1, -1):
        for cell in grid[r]:
            w = cell.x1 - cell.x0
            under: list[Cell] = []
            for row in grid[r + 1: r + 4]:  # the first lower row with something under this cell
                under = [c for c in row if min(c.x1, cell.x1) - max(c.x0, cell.x0) > 0.3 * min(w, c.x1 - c.x0)]
                if under:
                    break
            if len(under) < 2:
                continue
            c0, c1 = min(c.col for c in under), max(c.col + c.colspan - 1 for c in under)
            if not any(o is not cell and o.col <= c1 and o.col + o.colspan - 1 >= c0 for o in grid[r]):
                cell.col, cell.colspan = c0, c1 - c0 + 1


def _merge_multirow(rows: list[list[Seg]], grid: list[list[Cell]], n_head: int) -> int:
    """A row squeezed between two neighbouring rows, whose columns are empty in both: a multirow cell.
    Returns how many header rows were folded away."""
    folded = 0
    r = 1
    while r < len(grid) - 1:
        above, mid, below = grid[r - 1], grid[r], grid[r + 1]
        cols = {c for cell in mid for c in range(cell.col, cell.col + cell.colspan)}
        used = {c for cell in above + below for c in range(cell.col, cell.col + cell.colspan)}
        h = min(s.h for s in rows[r])
        yc = [sum(s.yc for s in rows[k]) / len(rows[k]) for k in (r - 1, r, r + 1)]
        if not cols & used and yc[2] - yc[0] < 2.2 * h and yc[0] < yc[1] < yc[2]:
            for cell in mid:
                cell.rowspan = 2
            above.extend(mid)
            above.sort(key=lambda c: c.col)
            del grid[r], rows[r]
            folded += r < n_head
        r += 1
    return folded


_NUMERIC = re.compile(r"^[\s\d.,:;%±+\-−–()\[\]*/×x~<>=≤≥$€£]*$")


def _trim(rows: list[list[Seg]], rule_ys: list[float], width: float) -> list[list[Seg]]:
    """Rows that belong to the table: inside its top and bottom rules when it has them; without running text
    (a row that is one long run of words) and stray labels past a wide gap at its top or bottom."""
    if len(rule_ys) >= 2:
        top, bottom = min(rule_ys), max(rule_ys)
        inside_rules = [r for r in rows if top - 1 <= sum(s.yc for s in r) / len(r) <= bottom + 1]
        if len(inside_rules) >= 2:
            rows = inside_rules

    def prose(r: list[Seg]) -> bool:  # a line of running text: one long run of words across most of the region
        return any(len(s.text.split()) >= 6 and s.x1 - s.x0 >= 0.6 * width for s in r)

    def centre(r: list[Seg]) -> float:
        return sum(s.yc for s in r) / len(r)

    flags = [prose(r) for r in rows]
    if len(rows) >= 3 and not all(flags):  # a table of sentences keeps its rows; running text at its edges goes
        steps = sorted(centre(b) - centre(a) for a, b in zip(rows, rows[1:]))
        pitch = steps[len(steps) // 2]
        first = next((i for i in range(2, len(rows)) if flags[i] and not flags[i - 1]
                      and centre(rows[i]) - centre(rows[i - 1]) > 1.6 * pitch), len(rows))
        rows, flags = rows[:first], flags[:first]
        last = max((i for i in range(len(rows) - 2) if flags[i] and not flags[i + 1]
                    and centre(rows[i + 1]) - centre(rows[i]) > 1.6 * pitch), default=-1)
        rows = rows[last + 1:]
    if len(rows) >= 4:
        centres = [sum(s.yc for s in r) / len(r) for r in rows]
        pitches = sorted(b - a for a, b in zip(centres, centres[1:]))
        pitch = pitches[len(pitches) // 2]
        while len(rows) >= 4 and centres[-1] - centres[-2] > 2.5 * pitch and len(rows[-1]) == 1:
            rows, centres = rows[:-1], centres[:-1]
        while len(rows) >= 4 and centres[1] - centres[0] > 2.5 * pitch and len(rows[0]) == 1:
            rows, centres = rows[1:], centres[1:]
    return rows


def _row_groups(rows: list[list[Seg]]) -> list[list[Seg]]:
    """Body rows whose cells span several lines, one-line cells centred between them (MNRAS Table 1): when the
    white space between lines falls into narrow gaps inside a row and clearly wider ones between rows, the lines
    between two wide gaps are one row, and the runs of a column in it one cell. Not done when a group would put two
    numbers in one column (then the wide gaps only separate blocks of ordinary rows)."""
    if len(rows) < 4:
        return rows
    heights = sorted(s.h for r in rows for s in r)
    h = heights[len(heights) // 2]
    gaps = [min(s.y0 for s in b) - max(s.y1 for s in a) for a, b in zip(rows, rows[1:])]
    median = sorted(gaps)[len(gaps) // 2]
    wide = max(0.5 * h, median + 0.4 * h)
    cuts = [i + 1 for i, g in enumerate(gaps) if g >= wide]
    if len(cuts) < 2:
        return rows
    bounds = [0, *cuts, len(rows)]
    groups = [rows[a:b] for a, b in zip(bounds, bounds[1:])]
    if all(len(g) == 1 for g in groups):
        return rows
    out: list[list[Seg]] = []
    for group in groups:
        segs = sorted((s for r in group for s in r), key=lambda s: s.x0)
        clusters: list[list[Seg]] = []
        for s in segs:
            if clusters and s.x0 < max(t.x1 for t in clusters[-1]):
                clusters[-1].append(s)
            else:
                clusters.append([s])
        merged = []
        for c in clusters:
            if sum(1 for s in c if _NUMERIC.match(s.text)) > 1:
                return rows  # two numbers in one column: these are ordinary rows
            c.sort(key=lambda s: s.yc)
            merged.append(Seg(min(s.x0 for s in c), min(s.y0 for s in c), max(s.x1 for s in c), max(s.y1 for s in c),
                              " ".join(s.text for s in c), [w for s in c for w in (s.words or [])]))
        out.append(merged)
    return out


def _merge_continuations(grid: list[list[Cell]], rows: list[list[Seg]], n_head: int) -> int:
    """Lines of multi-line cells folded into the row they continue (see the module docstring); returns how many
    header rows were folded away."""
    if len(rows) < 2:
        return 0
    centres = [sum(s.yc for s in r) / len(r) for r in rows]
    pitches = sorted(b - a for a, b in zip(centres, centres[1:]))
    pitch = pitches[len(pitches) // 2]
    folded = 0
    r = 1
    while r < len(grid):
        above, here = grid[r - 1], grid[r]
        cols_above = {c.col: c for c in above}
        texty = all(not _NUMERIC.match(c.text) for c in here) and here
        under = texty and all(c.col in cols_above and not _NUMERIC.match(cols_above[c.col].text) for c in here)
        same_part = (r < n_head) == (r - 1 < n_head)
        starts_low = here and all(c.text[:1].islower() for c in here)
        if (under and same_part and centres[r] - centres[r - 1] <= 1.3 * pitch
                and (len(here) < len(above) or starts_low)):
            for c in here:
                cols_above[c.col].text += " " + c.text
            del grid[r], rows[r], centres[r]
            folded += r < n_head
            continue
        r += 1
    return folded


def build_html(p: PageAnalysis, region: Rect, rule_ys: list[float], words: list[tuple] | None = None) -> str:
    """`rule_ys`: y of the full-width rules inside the region (they separate the header rows). `words`: what OCR
    read in a region whose text layer holds none (a raster table); the table then keeps the raster flag."""
    segs = _segments(p, region, words)
    if not segs:
        return RASTER_TABLE
    rows = _trim(_rows(segs), rule_ys, region[2] - region[0]) or _rows(segs)
    # Header rows: above the first rule with text rows on both sides (booktabs \midrule); else the first row.
    # Columns come from the body rows only: group headers would bridge the gaps between their columns.
    centres = [sum(s.yc for s in r) / len(r) for r in rows]
    inner = [y for y in sorted(rule_ys) if centres[0] < y < centres[-1]]
    n_head = sum(1 for c in centres if c < inner[0]) if inner else 1
    rows = rows[:n_head] + _row_groups(rows[n_head:])
    body = rows[n_head:] if len(rows) - n_head >= 3 else rows
    gaps = _column_gaps(body, region[0], region[2], rows[:n_head] if body is not rows else None)
    grid = _grid(rows, gaps, _extents(body, gaps))
    _align_spanning(grid)
    n_head -= _merge_multirow(rows, grid, n_head)
    n_head -= _merge_continuations(grid, rows, n_head)
    ncols = len(gaps) + 1
    out = [f"<table {RASTER_ATTR}>" if words is not None else "<table>"]
    covered: set[tuple[int, int]] = set()
    for r, cells in enumerate(grid):
        tag = "th" if r < n_head else "td"
        by_col = {c.col: c for c in cells}
        tds = []
        col = 0
        while col < ncols:
            if (r, col) in covered:
                col += 1
                continue
            cell = by_col.get(col)
            if cell is None:
                tds.append(f"<{tag}></{tag}>")
                col += 1
                continue
            span = min(cell.colspan, ncols - col)
            attrs = (f' colspan="{span}"' if span > 1 else "") + (f' rowspan="{cell.rowspan}"' if cell.rowspan > 1 else "")
            for k in range(1, cell.rowspan):
                for c in range(col, col + span):
                    covered.add((r + k, c))
            tds.append(f"<{tag}{attrs}>{html.escape(cell.text)}</{tag}>")
            col += span
        out.append("<tr>" + "".join(tds) + "</tr>")
    out.append("</table>")
    return "".join(out)
