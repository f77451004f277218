"""Render a Markdown export with a CommonMark library (markdown-it-py, tables on) and count what the reader sees, to
compare with the stored rows: the round trip of `paperbase export --format md` (tests/report/test_export.py) and the
export check of bench/text_quality.py.

An *escaped-syntax accident* is anything the renderer makes of the paper's own text that the export did not mean:
a heading, list, block quote, code, link, rule or emphasis that is not one of the export's own (title, section
headings, Abstract, References, the bold table captions, the italic figure captions and raster-table notes, the
reference list, `<sup>`/`<sub>` in cells).
"""
from __future__ import annotations

from collections import Counter

from markdown_it import MarkdownIt

from report.export import heading_level
from schemas.content_marks import is_raster_table

_RENDERER = MarkdownIt("commonmark").enable("table")


def rendered(markdown: str) -> dict:
    """What the rendered page holds: headings [(level, text)], tables, equations ($$ blocks), token counts."""
    tokens = _RENDERER.parse(markdown)
    headings, kinds = [], Counter()
    for i, tok in enumerate(tokens):
        kinds[tok.type] += 1
        if tok.type == "heading_open":
            headings.append((int(tok.tag[1]), "".join(c.content for c in tokens[i + 1].children or []
                                                       if c.type in ("text", "text_special", "softbreak"))))
        if tok.type == "inline" and not tok.content.startswith("$$"):  # LaTeX is for a maths renderer, not Markdown
            for child in tok.children or []:
                kinds["inline:" + child.type] += 1
                if child.type == "html_inline" and child.content not in ("<sup>", "</sup>", "<sub>", "</sub>"):
                    kinds["inline:html_other"] += 1
    equations = sum(1 for t in tokens if t.type == "inline" and t.content.startswith("$$") and t.content.endswith("$$"))
    return {"headings": headings, "tables": kinds["table_open"], "equations": equations, "kinds": kinds}


def accidents(markdown: str, rows: dict) -> list[str]:
    """What in the rendered export does not match the stored rows (empty: none). `rows` is {view: [row dicts]}."""
    seen = rendered(markdown)
    out = []
    h1 = [h for h in seen["headings"] if h[0] == 1]
    if len(h1) != 1:
        out.append(f"{len(h1)} level-1 headings")
    refs = [h for h in seen["headings"] if h[1] == "References"]
    if rows["reference"] and len(refs) != 1:
        out.append(f"{len(refs)} References headings")
    titles = {s["section_title"] for s in rows["sections"]} | {"Abstract", "References"}
    stray = [h for h in seen["headings"][1:] if h[1] not in titles]
    if stray:
        out.append(f"stray headings {stray[:3]}")
    want_tables = sum(1 for t in rows["tables"] if not is_raster_table(t["table_content"]) and "<tr" in t["table_content"])
    if seen["tables"] != want_tables:
        out.append(f"{seen['tables']} tables rendered, {want_tables} stored")
    want_eqs = sum(1 for e in rows["equations"] if e["equation_content"])
    if seen["equations"] != want_eqs:
        out.append(f"{seen['equations']} equations rendered, {want_eqs} stored")
    k = seen["kinds"]
    for kind in ("blockquote_open", "code_block", "fence", "hr", "inline:code_inline", "inline:link_open",
                 "inline:image", "inline:html_other"):
        if k[kind]:
            out.append(f"{k[kind]} {kind}")
    lists = k["ordered_list_open"] + k["bullet_list_open"]
    if lists > (1 if rows["reference"] else 0):
        out.append(f"{lists} lists")
    own_em = sum(1 for f in rows["images"] if f["image_caption"]) + sum(
        1 for t in rows["tables"] if is_raster_table(t["table_content"]))
    own_strong = sum(1 for t in rows["tables"] if t["table_caption"])
    if k["inline:em_open"] > own_em or k["inline:strong_open"] > own_strong:
        out.append(f"emphasis {k['inline:em_open']}/{own_em}, strong {k['inline:strong_open']}/{own_strong}")
    return out


def expected_headings(rows: dict) -> list[tuple[int, str]]:
    """Headings after the title as `to_markdown` writes them for these rows."""
    return [(heading_level(s["section_title"]), s["section_title"]) for s in rows["sections"]]
