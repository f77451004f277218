"""MinerU blocks -> our views (pipeline.document), one function per view; ids, page numbers (from 1) and bboxes
(`[x0, y0, w, h]` points, top-left) follow the PyMuPDF backend's conventions so views can be merged.

Rules, and why:
- pages: every block's text in MinerU's reading order (furniture included, as the PyMuPDF pages view does), one
  paragraph per block; the prose chunks are cut from leaves furniture (the arXiv stamp is `aside_text`) out and puts
  a placeholder (`[Equation (3)]`) where an equation block stands, as sections do.
- sections: MinerU's title blocks. The flash tier gives every title the same level, so the level comes from the
  printed numbering (`3.2.1` -> 3, `A.1` -> 2) and otherwise from MinerU's level. Titles before the Abstract on
  page 1 (author names that rule-based layout takes for titles) and titles that are formulas (contain `=`) are
  dropped. Content = the text blocks up to the next title.
- tables: a table block's caption parts (a caption can be split around the body) joined, else the nearest
  "Table n" text block above or below it (captions MinerU did not attach), its body's HTML as
  MinerU gives it (rowspan/colspan and <sup>/<sub> kept). A body MinerU left as aligned plain text becomes a
  table with one row per line, cells cut at runs of 2+ spaces. bbox = the body, caption excluded.
- images: image blocks with a caption (as the PyMuPDF backend: figures without a caption are not reported), and
  figure captions left as plain text (vector figures flash does not see): box = the free space above the caption.
- equations: equation blocks; the flash tier gives no LaTeX, so the latex column then holds the text layer
  inside the equation's box (`fallback_text`), which is searchable if not LaTeX.
- reference: text blocks after the last References/Bibliography heading (a title, or a text block that is only
  that word) up to the next title; a block MinerU marks
  as continuing the previous one is joined to it; a block holding several `[n]` entries is split.
"""
from __future__ import annotations

import html
import re
from collections.abc import Callable

from pipeline.document import Equation, Figure, Page, Reference, Section, Table
from pipeline.parse.cleanup import spell_ligatures
from pipeline.parse.mineru.blocks import FURNITURE, TITLES, Block, span_text
from schemas.content_marks import equation_placeholder

NUMBER = re.compile(r"^(?P<num>\d{1,2}(?:\.\d{1,2}){0,3}|[A-Z](?:\.\d{1,2}){1,3}|[A-Z](?=\s)|[IVX]{1,5}(?=[.\s]))\.?\s+\S")
REF_HEADING = re.compile(r"^((\d+|[IVX]+)\.?\s*)?(references?|bibliography|literature cited|works cited)\s*$", re.I)
ABSTRACT = re.compile(r"^abstract\b", re.I)
REF_LABEL = re.compile(r"(?:(?<=\s)|^)\[\d{1,3}\]\s")
TEXTISH = {"text", "list", "ref_text", "reference", "code"}


def _title_text(block: Block) -> str:
    return " ".join(spell_ligatures(block.text).split())


def _is_title(block: Block) -> bool:
    return block.kind in TITLES and block.kind != "doc_title"


EQUATIONS = ("equation", "interline_equation")


def _equation_tag(text: str) -> str | None:
    m = re.search(r"\\tag\{([^{}]{1,12})\}|\((\d{1,3}[a-z]?)\)\s*$", text or "")
    return (m.group(1) or m.group(2)) if m else None


def extract_pages(blocks: list[list[Block]], sizes: list[tuple[float, float]]) -> list[Page]:
    """Each block one paragraph (blank lines between). The prose (what chunks are cut from) leaves out furniture
    blocks (headers, footers, page numbers, margin text such as the arXiv stamp) and has a placeholder paragraph for
    each equation block (schemas/content_marks.py)."""
    out = []
    for number, (page, (width, height)) in enumerate(zip(blocks, sizes), start=1):
        parts, prose = [], []
        for b in page:
            text = b.text
            if b.kind == "table":  # HTML body -> cell text, so search finds table words in the page text
                text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", text))).strip()
            if not text:
                continue
            parts.append(text)
            if b.kind in EQUATIONS:
                prose.append(equation_placeholder(_equation_tag(text)))
            elif b.kind not in FURNITURE:
                prose.append(text)
        out.append(Page(number, width, height, spell_ligatures("\n\n".join(parts)),
                        prose=spell_ligatures("\n\n".join(prose))))
    return out


def section_titles(blocks: list[list[Block]]) -> list[Block]:
    """Title blocks that are real headings (see the module docstring)."""
    flat = [b for page in blocks for b in page]
    abstract_at = next((i for i, b in enumerate(flat) if b.page == 1 and _is_title(b) and ABSTRACT.match(_title_text(b))), None)
    out = []
    for i, b in enumerate(flat):
        if not _is_title(b) or not _title_text(b) or "=" in _title_text(b):
            continue
        if abstract_at is not None and b.page == 1 and i < abstract_at:
            continue
        out.append(b)
    return out


def _level(title: str, raw_level: int | None, base: int) -> int:
    m = NUMBER.match(title)
    if m:
        return m.group("num").count(".") + 1
    return max(1, (raw_level or base) - base + 1)


def extract_sections(blocks: list[list[Block]]) -> list[Section]:
    titles = section_titles(blocks)
    if not titles:
        return []
    ids = {id(b) for b in titles}
    base = min(int(b.raw.get("level") or 1) for b in titles)
    sections: list[Section] = []
    current: Section | None = None
    for b in (b for page in blocks for b in page):
        if id(b) in ids:
            title = _title_text(b)
            current = Section(len(sections), title, _level(title, b.raw.get("level"), base), "", [b.page])
            sections.append(current)
        elif current is not None and (b.kind in TEXTISH or b.kind in EQUATIONS) and b.text:
            text = equation_placeholder(_equation_tag(b.text)) if b.kind in EQUATIONS else spell_ligatures(b.text)
            current.content = (current.content + "\n\n" if current.content else "") + text
            if b.page not in current.page_numbers:
                current.page_numbers.append(b.page)
    return sections


def _grid_html(text: str) -> str:
    """Aligned plain text (a body MinerU did not structure) -> one row per line, cells at runs of 2+ spaces."""
    rows = [re.split(r"\s{2,}", line.strip()) for line in text.splitlines() if line.strip()]
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tbody>{body}</tbody></table>"


def _caption(block: Block, kinds: tuple[str, ...]) -> str:
    parts = [p for kind in kinds for p in block.parts(kind)]
    parts.sort(key=lambda p: p.get("index", 0))
    text = " ".join(span_text(p) for p in parts)
    return " ".join(spell_ligatures(text).split())


TABLE_CAPTION = re.compile(r"^(table|tab\.)\s*[A-Z]?\d+\s*[:.|]", re.I)


def _loose_caption(table: Block, page: list[Block], used: set[int]) -> str:
    """A caption MinerU left as a text block: the nearest unused "Table n" text block on the page that overlaps
    the table horizontally (above or below it)."""
    x0, y0, w, h = table.bbox
    best: tuple[float, Block] | None = None
    for b in page:
        if b.kind != "text" or id(b) in used or not TABLE_CAPTION.match(b.text.strip()):
            continue
        bx0, by0, bw, bh = b.bbox
        if bx0 >= x0 + w or bx0 + bw <= x0:
            continue
        gap = max(by0 - (y0 + h), y0 - (by0 + bh), 0.0)
        if best is None or gap < best[0]:
            best = (gap, b)
    if best is None:
        return ""
    used.add(id(best[1]))
    return " ".join(spell_ligatures(best[1].text).split())


def extract_tables(blocks: list[list[Block]]) -> list[Table]:
    out: list[Table] = []
    ordinals: dict[int, int] = {}
    used: set[int] = set()
    for b in (b for page in blocks for b in page if b.kind == "table"):
        bodies = b.parts("table_body")
        body = bodies[0] if bodies else b.raw
        content = body.get("content")
        markup = content if isinstance(content, str) else "".join(span_text(s, markup=True) for s in content or []
                                                                 if isinstance(s, dict))
        table_html = markup.strip() if markup.lstrip().startswith("<table") else _grid_html(markup)
        ordinal = ordinals.get(b.page, 0)
        ordinals[b.page] = ordinal + 1
        caption = _caption(b, ("table_caption",)) or _loose_caption(b, blocks[b.page - 1], used)
        out.append(Table(b.page, ordinal, caption, table_html, b.sub_bbox(body)))
    return out


FIGURE_CAPTION = re.compile(r"^(fig\.?|figure)\s*\d+\s*[:.|]", re.I)


def _orphan_box(caption: Block, page: list[Block]) -> tuple[float, float, float, float]:
    """A figure MinerU saw only as its caption (vector drawings the flash tier does not detect): the space between
    the nearest block above that overlaps the caption horizontally and the caption itself."""
    x0, y0, w, _ = caption.bbox
    above = [b.bbox[1] + b.bbox[3] for b in page if b is not caption and b.bbox[1] + b.bbox[3] <= y0 + 1
             and b.bbox[0] < x0 + w and b.bbox[0] + b.bbox[2] > x0]
    top = max(above, default=0.0)
    return (x0, top, w, max(y0 - top, 1.0))


def extract_figures(blocks: list[list[Block]]) -> list[Figure]:
    """Image blocks with a caption, plus figure captions MinerU left as text with no image block (their box is
    the space above the caption, see _orphan_box)."""
    out: list[Figure] = []
    for page in blocks:
        ordinal = 0
        for b in page:
            if b.kind == "image":
                caption = _caption(b, ("image_caption",))
                bodies = b.parts("image_body")
                bbox = b.sub_bbox(bodies[0]) if bodies else b.bbox
            elif b.kind == "text" and FIGURE_CAPTION.match(b.text):
                caption, bbox = " ".join(spell_ligatures(b.text).split()), _orphan_box(b, page)
            else:
                continue
            if caption:
                out.append(Figure(b.page, ordinal, caption, bbox))
                ordinal += 1
    return out


def extract_equations(blocks: list[list[Block]], fallback_text: Callable[[Block], str]) -> list[Equation]:
    out: list[Equation] = []
    ordinals: dict[int, int] = {}
    for b in (b for page in blocks for b in page if b.kind in EQUATIONS):
        latex = b.text.strip() or fallback_text(b).strip()
        if not latex:
            continue
        ordinal = ordinals.get(b.page, 0)
        ordinals[b.page] = ordinal + 1
        out.append(Equation(b.page, ordinal, latex, b.bbox))
    return out


def extract_references(blocks: list[list[Block]]) -> list[Reference]:
    flat = [b for page in blocks for b in page]
    # the heading may come as a title or as a short text block of its own ("REFERENCES" in some styles)
    starts = [i for i, b in enumerate(flat) if (_is_title(b) or b.kind == "text") and REF_HEADING.match(_title_text(b))]
    if not starts:
        return []
    entries: list[tuple[str, int]] = []
    for b in flat[starts[-1] + 1:]:
        if _is_title(b) or b.kind == "doc_title":
            break
        if b.kind in FURNITURE or b.kind not in TEXTISH:
            continue
        text = " ".join(spell_ligatures(b.text).split())
        if not text:
            continue
        if b.raw.get("continues_prev") and entries:
            entries[-1] = (entries[-1][0] + " " + text, entries[-1][1])
            continue
        cuts = [m.start() for m in REF_LABEL.finditer(text)]
        if len(cuts) > 1 and cuts[0] == 0:
            bounds = [*cuts, len(text)]
            entries += [(text[a:z].strip(), b.page) for a, z in zip(bounds, bounds[1:])]
        else:
            entries.append((text, b.page))
    return [Reference(i, text, page) for i, (text, page) in enumerate(entries)]
