"""Prompts for the openai backend and parsing of the replies.

Each template has an id with a version; the cache key hashes model + template id + the full rendered request,
so editing a template (bump its version) or the input re-summarizes, and nothing else does.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass

from pipeline.summarize import text as T
from pipeline.summarize.config import SummarizeSettings
from pipeline.summarize.items import Item

SYSTEM = ("You write short, factual summaries of parts of scientific papers for a search index. "
          "Use only the given content. Reply with the requested text only: no preamble, no markdown.")

TEMPLATES: dict[str, str] = {
    "page@1": "Summarize this page of a scientific paper in at most {words} words, focusing on its key information.\n\nPage text:\n{text}",
    "section@1": "Summarize the section \"{title}\" of a scientific paper in at most {words} words, focusing on its key points.\n\nSection text:\n{text}",
    "table@1": ("Summarize this table from a scientific paper in at most {words} words: what it reports or compares and its key "
                "findings.\n\nCaption: {caption}\n\nTable (HTML):\n{html}{mentions}"),
    "image@1": ("Summarize this figure from a scientific paper in at most {words} words: what it shows and its key information."
                "\n\nCaption: {caption}{mentions}"),
    "image-text@1": ("The figure itself is not available. From its caption and the sentences citing it, summarize what this "
                     "figure of a scientific paper shows in at most {words} words.\n\nCaption: {caption}{mentions}"),
    "tldr@1": ("Write a TL;DR of this paper: one sentence of at most {chars} characters stating its main idea or finding."
               "\n\nTitle: {title}\n\nAbstract:\n{text}"),
    "tags@1": ("List exactly {n} keywords or short keyphrases for this paper's topics, methods or applications, "
               "separated by commas, nothing else.\n\nTitle: {title}\n\nAbstract:\n{text}"),
}
TEMPLATE_FOR = {"page_summary": "page@1", "section_summary": "section@1", "table_summary": "table@1",
                "image_summary": "image@1", "tldr": "tldr@1", "tags": "tags@1"}


@dataclass
class Request:
    template: str
    model: str
    body: dict  # the JSON sent to /chat/completions

    @property
    def cache_key(self) -> str:
        blob = json.dumps([self.model, self.template, self.body["messages"]], sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(blob.encode()).hexdigest()


def has_input(item: Item, settings: SummarizeSettings) -> bool:
    """False when there is nothing to summarize (the stage stores "" without asking anyone)."""
    if item.column in ("page_summary", "section_summary", "tldr", "tags"):
        return bool(item.text.strip() or (item.column in ("tldr", "tags") and item.title.strip()))
    if item.column == "table_summary":
        return bool(item.caption.strip() or item.html.strip())
    return bool(item.caption.strip() or item.mentions or (settings.vision and wants_image(item)))


def wants_image(item: Item) -> bool:
    return item.column == "image_summary" and bool(item.pdf_path and item.bbox and item.page_number)


def build(item: Item, settings: SummarizeSettings, png: bytes | None = None) -> Request:
    """The chat request for an item; `png` is the figure crop (image items with vision on)."""
    cut = settings.max_input_chars
    mentions = ("\n\nSentences citing it:\n" + "\n".join(f"- {s}" for s in item.mentions)) if item.mentions else ""
    template = TEMPLATE_FOR[item.column]
    if item.column == "image_summary" and png is None:
        template = "image-text@1"
    prompt = TEMPLATES[template].format(
        words=settings.summary_words, chars=settings.tldr_chars, n=settings.num_tags, title=T.clean(item.title),
        text=T.clean(item.text)[:cut], caption=T.clean(item.caption) or "(none)", html=item.html[:cut], mentions=mentions)
    model = settings.model
    content: str | list = prompt
    if png is not None:
        model = settings.resolved_vision_model()
        url = "data:image/png;base64," + base64.b64encode(png).decode()
        content = [{"type": "text", "text": prompt}, {"type": "image_url", "image_url": {"url": url}}]
    max_tokens = 200 if item.column in ("tldr", "tags") else max(120, settings.summary_words * 4)
    body = {"model": model, "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": content}],
            "temperature": settings.temperature, "max_tokens": max_tokens}
    return Request(template, model, body)


_LABEL = re.compile(r"^\s*(?:\*\*)?(?:summary|tl;?dr|tldr|answer)(?:\*\*)?\s*:\s*", re.I)


def parse_reply(column: str, reply: str, settings: SummarizeSettings) -> str | list[str] | None:
    """The value to store, or None when the reply holds nothing usable (the cell stays NULL)."""
    text = _LABEL.sub("", (reply or "").strip()).strip()
    if column != "tags":
        text = text.strip().strip('"“”').strip()
        return re.sub(r"\s+", " ", text) or None
    if text.startswith("["):
        try:
            parsed = json.loads(text)
            parts = [str(p) for p in parsed] if isinstance(parsed, list) else []
        except ValueError:
            parts = re.split(r"[\n,;]", text.strip("[]"))
    else:
        parts = re.split(r"[\n,;]", text)
    tags: list[str] = []
    for p in parts:
        tag = re.sub(r"^\s*(?:[-*•#]+|\d+[.)])\s*", "", p).strip().strip('"\'“”`*').strip().rstrip(".")
        if tag and len(tag) <= 80 and tag.lower() not in (t.lower() for t in tags):
            tags.append(tag)
    return tags[: settings.num_tags] or None
