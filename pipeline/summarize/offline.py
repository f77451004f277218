"""The offline backend: extractive text taken from the element itself. No model, no network, deterministic.

What it stores (docs/summaries.md says the same to users):
- page / section: the first non-noise sentences of the text, up to about `summary_words` words (cut marked "…").
- table: the caption, the header cells and row count of the HTML, and up to two sentences citing "Table n" (a
  section heading above such a sentence is not part of it).
- image: the caption and up to two sentences citing "Figure n".
- tldr: the abstract sentence stating the contribution ("we propose ..."), else its first, cut to `tldr_chars`.
- tags: RAKE-style keyphrases from title + abstract.
An element with no text at all gets "" (nothing to summarize), which is not NULL, so it is not retried.
"""
from __future__ import annotations

from pipeline.summarize import text as T
from pipeline.summarize.config import SummarizeSettings
from pipeline.summarize.items import Item

NAME = "offline-extractive-v2"  # goes into the report; bump when the output changes


def summarize(item: Item, settings: SummarizeSettings) -> str | list[str]:
    words = settings.summary_words
    if item.column in ("page_summary", "section_summary"):
        return T.extract(item.text, words) if item.text.strip() else ""
    if item.column == "table_summary":
        header, rows = T.table_shape(item.html)
        parts = [T.truncate_words(T.clean(item.caption), words)] if item.caption.strip() else []
        if header:
            shown = ", ".join(header[:8]) + (", …" if len(header) > 8 else "")
            parts.append(f"Columns: {shown} ({rows} rows).")
        parts += [T.truncate_words(s, words) for s in item.mentions]
        return " ".join(parts)
    if item.column == "image_summary":
        parts = [T.truncate_words(T.clean(item.caption), words)] if item.caption.strip() else []
        parts += [T.truncate_words(s, words) for s in item.mentions]
        return " ".join(parts)
    if item.column == "tldr":
        return T.trim_chars(T.choose_tldr_sentence(item.text) or item.title, settings.tldr_chars)
    if item.column == "tags":
        return T.keyphrases(item.title, item.text, settings.num_tags)
    raise ValueError(f"unknown column {item.column}")
