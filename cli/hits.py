"""Search hits for people (`paperbase search`): each hit with its paper's title, its page and the section it sits in,
its text printed literally, and a header that says what the score is.

Rules:
- Everything is read through `pipeline.read.Reader` (titles from metadata, sections from sections): one query for the
  titles, one per paper for its sections.
- The section of a hit: a section row is its own; a chunk's is the section of its paper whose text holds the chunk's
  opening words, else the last section starting on or before the hit's page; a metadata cell names its column
  (title, abstract, ...), not a section.
- Texts reach the terminal as plain text, never as Rich markup (`[k1; ...; kn]` prints as written). A long text is
  shown as the `SNIPPET`-character window where the query's words are densest (the whole text with `full`).
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

from rich.console import Console
from rich.text import Text

from pipeline.read import Hit, Reader

SNIPPET = 500  # characters of a hit's text shown (a window around the query's words)


@dataclass
class DescribedHit:
    hit: Hit
    title: str | None
    section: str | None

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self.hit), "title": self.title, "section": self.section}


def _squash(text: str | None) -> str:
    return " ".join((text or "").split())


def _pick_section(sections: list[dict[str, Any]], hit: Hit) -> str | None:
    if hit.table_name == "sections":
        own = next((s for s in sections if s["section_id"] == hit.primary_key), None)
        return own["section_title"] if own else None
    if hit.table_name == "metadata":
        return None
    opening = _squash(hit.text)[:60]
    if opening and hit.table_name == "chunks":
        holder = next((s for s in sections if opening in s["content"]), None)
        if holder:
            return holder["section_title"]
    page = hit.page_number or 0
    started = [s for s in sections if s["first_page"] is not None and s["first_page"] <= page]
    return started[-1]["section_title"] if started else None


def describe(reader: Reader, hits: list[Hit]) -> list[DescribedHit]:
    """The hits with their papers' titles and their sections (module rules)."""
    ids = sorted({h.pdf_id for h in hits})
    if not ids:
        return []
    marks = ", ".join("?" for _ in ids)
    titles = dict(reader.sql(f"SELECT CAST(paper_id AS VARCHAR), title FROM metadata WHERE CAST(paper_id AS VARCHAR) "
                             f"IN ({marks})", ids).rows)
    sections: dict[str, list[dict[str, Any]]] = {}
    for pid in ids:
        rows = reader.sql("SELECT CAST(section_id AS VARCHAR) AS section_id, section_title, section_content, "
                          "page_numbers FROM sections WHERE CAST(ref_paper_id AS VARCHAR) = ? ORDER BY ordinal",
                          [pid], max_rows=100_000).records()
        sections[pid] = [{"section_id": r["section_id"], "section_title": r["section_title"],
                          "content": _squash(r["section_content"]),
                          "first_page": min(r["page_numbers"]) if r["page_numbers"] else None} for r in rows]
    return [DescribedHit(h, titles.get(h.pdf_id), _pick_section(sections[h.pdf_id], h)) for h in hits]


def score_meaning(collection: str | None, method: str, weights: dict[str, float]) -> str:
    """One line saying what the scores of a search are."""
    if collection is None:
        legs = ", ".join(f"{n} ×{w:g}" for n, w in weights.items())
        if method == "rrf":
            return (f"score: reciprocal-rank fusion of {legs}: the sum of weight / (k + rank) over the lists; it "
                    "orders the hits, it is not a similarity")
        return (f"score: fusion of {legs}: the weighted sum of each list's min-max normalised score (top of a list "
                f"= 1), so at most {sum(weights.values()):g}; it orders the hits, it is not a similarity")
    from schemas.vectorstore import collection as schema_collection

    coll = schema_collection(collection)
    if coll.embed_type == "bm25":
        return f"score: BM25 relevance in {collection} (term frequency × inverse document frequency; no upper bound)"
    return f"score: cosine similarity of {coll.embed_model} embeddings in {collection} (1 = same direction)"


_LOCATION = {"metadata": "paper {column}"}


def snippet(text: str, query: str, width: int = SNIPPET) -> str:
    """The `width` characters of `text` where most of the query's words occur (its start when none does)."""
    if len(text) <= width:
        return text
    lower = text.lower()
    terms = {t for t in re.findall(r"\w+", query.lower()) if len(t) > 1}
    found = sorted((m.start(), t) for t in terms for m in re.finditer(re.escape(t), lower))
    start = 0
    if found:
        lead = width // 4  # some words before the first match, for context
        best = max(found, key=lambda pt: (len({t for p, t in found if pt[0] - lead <= p < pt[0] - lead + width}), -pt[0]))
        start = max(0, min(best[0] - lead, len(text) - width))
        if start:
            blank = text.find(" ", start)
            start = blank + 1 if 0 <= blank < start + 20 else start
    end = min(len(text), start + width)
    return ("…" if start else "") + text[start:end].strip() + ("…" if end < len(text) else "")


def print_hits(console: Console, query: str, described: list[DescribedHit], meaning: str, full: bool = False) -> None:
    console.print(Text(f"{len(described)} hit(s) for {query!r}; {meaning}", style="dim"))
    for n, d in enumerate(described, 1):
        h = d.hit
        head = Text(f"{n}. ", style="bold")
        head.append(d.title or h.pdf_id, style="bold")
        where = [f"p. {h.page_number}" if h.page_number else None,
                 f"§ {d.section}" if d.section else None,
                 _LOCATION.get(h.table_name, "{table}.{column}").format(table=h.table_name, column=h.column_name)]
        head.append("  " + " · ".join(w for w in where if w), style="cyan")
        head.append(f"  score {h.score:.4f}", style="dim")
        console.print(head)
        text = _squash(h.text) if h.text is not None else f"image region {h.bbox}"
        console.print(Text("   " + (text if full else snippet(text, query))))
        console.print(Text(f"   paper {h.pdf_id}", style="dim"))


def paper_filter(ids: list[str], expr: str | None) -> str:
    """A Milvus filter pinning `ids`, joined with the user's own filter."""
    pinned = "pdf_id in [" + ", ".join(f"'{i}'" for i in ids) + "]" if len(ids) > 1 else f"pdf_id == '{ids[0]}'"
    return f"{pinned} and ({expr})" if expr and expr.strip() else pinned

