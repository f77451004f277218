"""Reading MinerU's middle JSON (schema `docvortex.middle` 2.x): blocks per page, their text, bbox and kind.

A page is `{"page_idx", "blocks": [...]}`; a block has `type` (text, doc_title, paragraph_title, table, image,
equation, page_footnote, aside_text, page_number, header/footer kinds), a `bbox` as fractions of the page
`[x0, y0, x1, y1]` (top-left origin), and `content`: a string, or a list of spans (`{"type": "text", "content",
"styles": [...]}`, hyperlinks) and sub-blocks (table_caption, table_body, image_body, image_caption ...).
"""
from __future__ import annotations

from dataclasses import dataclass

from pipeline.document import BBox

# blocks that are page furniture: kept in the page text, never in sections or references
FURNITURE = {"page_number", "page_header", "page_footer", "header", "footer", "aside_text", "page_footnote"}
TITLES = {"doc_title", "paragraph_title", "title"}
SUB_BLOCKS = {"table_caption", "table_footnote", "table_body", "image_caption", "image_footnote", "image_body"}


@dataclass
class Block:
    page: int  # from 1
    kind: str
    bbox: BBox  # PDF points, [x0, y0, w, h], top-left
    raw: dict
    size: tuple[float, float]  # page width, height in points

    @property
    def text(self) -> str:
        return block_text(self.raw)

    def parts(self, kind: str) -> list[dict]:
        """Sub-blocks of one kind (e.g. the table_caption parts of a table block), in order."""
        content = self.raw.get("content")
        return [c for c in content if isinstance(c, dict) and c.get("type") == kind] if isinstance(content, list) else []

    def sub_bbox(self, part: dict) -> BBox:
        return _points(part.get("bbox") or self.raw["bbox"], self.size)


def span_text(span: dict, *, markup: bool = False) -> str:
    """Text of one span; with `markup`, superscript/subscript styles become <sup>/<sub> (for table HTML)."""
    content = span.get("content")
    if isinstance(content, list):
        return "".join(span_text(c, markup=markup) for c in content if isinstance(c, dict))
    text = str(content or "")
    if markup and text.strip():
        styles = span.get("styles") or []
        if "superscript" in styles:
            text = f"<sup>{text}</sup>"
        elif "subscript" in styles:
            text = f"<sub>{text}</sub>"
    return text


def block_text(raw: dict) -> str:
    """Plain text of a block: its spans joined; sub-blocks separated by a newline."""
    content = raw.get("content")
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    out: list[str] = []
    for item in content:
        if not isinstance(item, dict):
            continue
        if item.get("type") in SUB_BLOCKS or "bbox" in item:
            text = block_text(item)
            if text:
                out.append("\n" + text if out else text)
        else:
            out.append(span_text(item))
    return "".join(out).strip()


def _points(frac: list[float], size: tuple[float, float]) -> BBox:
    width, height = size
    x0, y0, x1, y1 = (float(v) for v in frac)
    return (round(x0 * width, 2), round(y0 * height, 2), round(max(x1 - x0, 0.0) * width, 2),
            round(max(y1 - y0, 0.0) * height, 2))


def page_blocks(middle: dict, sizes: list[tuple[float, float]]) -> list[list[Block]]:
    """Blocks of every page in MinerU's reading order; `sizes` are the page sizes in points (from the PDF)."""
    pages = middle.get("pages")
    if not isinstance(pages, list):
        raise ValueError("middle JSON has no 'pages' list")
    out: list[list[Block]] = [[] for _ in sizes]
    for page in pages:
        idx = int(page.get("page_idx", -1))
        if not 0 <= idx < len(sizes):
            raise ValueError(f"middle JSON page_idx {idx} outside the PDF's {len(sizes)} pages")
        for raw in page.get("blocks") or []:
            if not isinstance(raw, dict) or "bbox" not in raw:
                continue
            out[idx].append(Block(idx + 1, str(raw.get("type", "")), _points(raw["bbox"], sizes[idx]), raw, sizes[idx]))
    return out
