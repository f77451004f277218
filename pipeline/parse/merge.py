"""Per-view merge (core): one ParsedPaper from the papers several backends produced, each view taken from the
backend options.views names for it (default options.backend).

With one backend this is the identity. Metadata is taken whole from the metadata view's backend (ids hash its
title and venue). Errors and timings follow their view; a backend's other timings ("analyze") keep their name
for the default backend and are prefixed "<backend>." for the others. All backends must agree on the page count,
so every page reference stays valid whichever backend a view came from.
"""
from __future__ import annotations

from pipeline.document import ParsedPaper
from pipeline.parse.options import VIEWS, ParseOptions


def _view_of(key: str) -> str | None:
    """The view an error string ("tables: ValueError: ...") or a timing key belongs to, if any."""
    head = key.split(":", 1)[0]
    return head if head in VIEWS else None


def merge(papers: dict[str, ParsedPaper], options: ParseOptions) -> ParsedPaper:
    if len(papers) == 1:
        return next(iter(papers.values()))
    for view in VIEWS:
        if options.backend_for(view) not in papers:
            raise ValueError(f"view {view!r} wants backend {options.backend_for(view)!r}, which did not run")
    counts = {name: p.metadata.num_pages for name, p in papers.items()}
    if len(set(counts.values())) > 1:
        raise ValueError(f"backends disagree on the page count: {counts}")
    base = papers[options.backend_for("metadata")]
    out = ParsedPaper(pdf_path=base.pdf_path, metadata=base.metadata)
    for view, attr in VIEWS.items():
        setattr(out, attr, getattr(papers[options.backend_for(view)], attr))
    for name, paper in papers.items():
        out.errors += [e for e in paper.errors if _view_of(e) is None or options.backend_for(_view_of(e)) == name]
        for key, seconds in paper.timings.items():
            view = _view_of(key)
            if view is not None:
                if options.backend_for(view) == name:
                    out.timings[key] = seconds
            else:
                out.timings[key if name == options.backend else f"{name}.{key}"] = seconds
    return out
