"""The system prompt (hybrid or classic-RAG) and the task message, rendered from data.

Rules: nothing here is pasted prompt text. Templates live in agent/resources/prompts.json, the action space in
agent/resources/actions.json (via `agent.specs`), the schema blocks come from `schemas/` through `pipeline.read.Reader`.
Rendered with the upstream defaults, the messages equal the seeds byte for byte (tests/agent/test_prompts.py).
"""
from __future__ import annotations

from collections.abc import Sequence

from agent.specs import load_data, render_specs

AGENT_KINDS = ("hybrid", "classic")


def action_names(kind: str) -> list[str]:
    if kind not in AGENT_KINDS:
        raise ValueError(f"unknown agent kind {kind!r}; expected one of {AGENT_KINDS}")
    return list(load_data("prompts.json")["agents"][kind]["actions"])


def system_prompt(kind: str = "hybrid", max_turns: int = 20) -> str:
    t = load_data("prompts.json")
    names = action_names(kind)
    space = t["action_space"].format(action_names=repr(names), action_specs=render_specs(names))
    text = t["separator"].join([t["system_intro"], t["task_description"], space, t["interaction"],
                                t["hints"].format(max_turns=max_turns)])
    for old, new in t["agents"][kind]["replacements"]:
        text = text.replace(old, new)
    return text


def _listing(values: Sequence[str], quoted: bool) -> str:
    if len(values) == 1:
        return repr(values[0]) if quoted else values[0]
    return repr(list(values)) if quoted else "[" + ", ".join(values) + "]"


def task_message(question: str, database_prompt: str, vectorstore_prompt: str, *, answer_format: str = "",
                 anchor_pdfs: Sequence[str] = (), conferences: Sequence[str] = (), sql_path: str = "paperbase.duckdb") -> str:
    """The first user message: question, answer format, anchors/conferences, then both schema blocks."""
    t = load_data("prompts.json")["task"]
    lines = [line.format(question=question, answer_format=answer_format) for line in t["lines"]]
    if anchor_pdfs:
        key = "anchor_one" if len(anchor_pdfs) == 1 else "anchor_many"
        lines.append(t[key].format(value=_listing(anchor_pdfs, quoted=True)))
    if conferences:
        key = "conference_one" if len(conferences) == 1 else "conference_many"
        lines.append(t[key].format(value=_listing(conferences, quoted=False)))
    lines.append(t["database"].format(sql_path=sql_path, database_prompt=database_prompt))
    # the database block ends with its own newline; the vectorstore block starts with its `[Vectorstore Schema]:` label
    return "\n".join(lines) + vectorstore_prompt
