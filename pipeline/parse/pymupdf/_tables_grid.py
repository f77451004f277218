"""Cell-grid reconstruction for one table region, from word positions (no ruling lines needed).

Booktabs tables have horizontal rules only, so columns come from vertical whitespace: an x position is a column
gap when (almost) no row has text over it. A text run that crosses a gap is a spanning cell (colspan); a lone
cell vertically centred between two rows whose other cells are empty is a multirow cell (rowspan).
"""
from __future__ import annotations

import html
from dataclasses import dataclass

from pipeline.parse.pymupdf.page import PageAnalysis, Rect


@dataclass
class Seg:
    x0: float
    y0: float
    x1: float
    y1: float
    text: str

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


def _segments(p: PageAnalysis, region: Rect) -> list[Seg]:
    """Words of the region merged into runs: words of one text line closer than ~0.5 em belong to one cell."""
    words = p.page.get_text("words", clip=region)
    words.sort(key=lambda w: (w[5], w[6], w[0]))
    segs: list[Seg] = []
    prev_key = None
    for x0, y0, x1, y1, text, bno, lno, _ in words:
        h = max(y1 - y0, 1.0)
        last = segs[-1] if segs else None
        if last and prev_key == (bno, lno) and x0 - last.x1 < 0.4 * h:
            last.x1, last.y0, last.y1 = max(last.x1, x1), min(last.y0, y0), max(last.y1, y1)
            last.text += " " + text
        else:
            segs.append(Seg(x0, y0, x1, y1, text))
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


def _column_gaps(rows: list[list[Seg]], x0: float, x1: float) -> list[float]:
    """x positions separating columns: centres of runs (>= 3 pt wide) covered by at most `tol` rows."""
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
    gaps: list[float] = []
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
                gaps.append(x0 + (best[0] + best[1]) / 2 * step)
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


def _grid(rows: list[list[Seg]], gaps: list[float], ext: list[tuple[float, float]]) -> list[list[Cell]]:
    grid: list[list[Cell]] = []
    for row in rows:
        cells: list[Cell] = []
        for s in row:
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


def build_html(p: PageAnalysis, region: Rect, rule_ys: list[float]) -> str:
    """`rule_ys`: y of the full-width rules inside the region (they separate the header rows)."""
    segs = _segments(p, region)
    if not segs:
        return "<table></table>"
    rows = _rows(segs)
    # Header rows: above the first rule with text rows on both sides (booktabs \midrule); else the first row.
    # Columns come from the body rows only: group headers would bridge the gaps between their columns.
    centres = [sum(s.yc for s in r) / len(r) for r in rows]
    inner = [y for y in sorted(rule_ys) if centres[0] < y < centres[-1]]
    n_head = sum(1 for c in centres if c < inner[0]) if inner else 1
    body = rows[n_head:] if len(rows) - n_head >= 3 else rows
    gaps = _column_gaps(body, region[0], region[2])
    grid = _grid(rows, gaps, _extents(body, gaps))
    _align_spanning(grid)
    n_head -= _merge_multirow(rows, grid, n_head)
    ncols = len(gaps) + 1
    out = ["<table>"]
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
