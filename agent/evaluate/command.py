"""The logic of `paperbase evaluate`: read the question set, run or take predictions, print the summary table.

Rules: the typer command lives in the CLI package and only calls `evaluate_command`. Exit codes: 0 every example
scored (right or wrong); 1 the store cannot be read or some example ended in an evaluator error; 2 usage (an
unreadable question or predictions file, a bad option).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from agent.config import AgentSettings
from agent.evaluate.harness import RESULTS, SUMMARY, evaluate, load_predictions, read_jsonl
from agent.evaluate.judged import Judge
from pipeline.config import Settings
from pipeline.read import Reader


def _table(summary: dict[str, Any]) -> Table:
    table = Table(title="evaluation summary")
    for col in ("group", "n", "correct", "accuracy"):
        table.add_column(col, justify="left" if col == "group" else "right")

    def row(name: str, s: dict[str, Any]) -> None:
        a = "-" if s["accuracy"] is None else f"{100 * s['accuracy']:.1f}%"
        table.add_row(escape(name), str(s["n"]), f"{s['correct']:g}", a)

    row("overall", summary)
    for k, v in summary["per_tag"].items():
        row(f"tag {k}", v)
    for k, v in summary["per_eval_func"].items():
        row(k, v)
    return table


def paper_info(reader: Reader):
    """For eval_paper_relevance_with_llm: a predicted paper (id or exact title) -> its title and abstract."""
    def lookup(pred: Any) -> dict[str, Any] | None:
        rows = reader.sql("SELECT title, abstract FROM metadata WHERE CAST(paper_id AS VARCHAR) = ? OR lower(title) = "
                          "lower(?) LIMIT 1", [str(pred).strip(), str(pred).strip()]).records()
        return rows[0] if rows else None
    return lookup


def evaluate_command(settings: Settings, file: Path, *, agent_kind: str | None = None, model: str | None = None,
                     base_url: str | None = None, judge_model: str | None = None, limit: int | None = None,
                     concurrency: int = 1, out: Path | None = None, predictions: Path | None = None,
                     console: Console | None = None, agent_settings: AgentSettings | None = None,
                     chat_factory: Any = None) -> int:
    console = console or Console(stderr=True)
    try:
        examples = read_jsonl(file)
        given = load_predictions(predictions) if predictions else None
    except (OSError, ValueError) as exc:
        console.print(f"[red]cannot read the input: {escape(str(exc))}[/red]")
        return 2
    bad = [n for n, e in enumerate(examples, 1) if not isinstance(e.get("uuid"), str) or "question" not in e]
    if bad:
        console.print(f"[red]{file}: example(s) {bad[:5]} lack a uuid or a question[/red]")
        return 2
    examples = examples[:limit] if limit else examples
    overrides = {k: v for k, v in {"model": model, "base_url": base_url, "agent": agent_kind}.items() if v is not None}
    cfg = (agent_settings or AgentSettings()).model_copy(update=overrides)
    out = out or Path("eval-out") / file.stem
    if not settings.duckdb_path.exists():
        console.print(f"[red]no database at {settings.duckdb_path}; run `paperbase ingest DIR` first[/red]")
        return 1
    with Reader(settings) as reader:
        judge = Judge(judge_model, cfg.base_url, cfg.resolved_api_key(), paper_info=paper_info(reader)) if judge_model else None
        try:
            summary = evaluate(reader, examples, out, predictions=given, agent_settings=cfg, chat_factory=chat_factory,
                               judge=judge, concurrency=concurrency,
                               on_record=lambda r: console.print(f"{r['uuid']}  score {r['score']:g}  {r['status']}"
                                                                 f"{'  ' + escape(r['detail']) if r['detail'] else ''}"))
        finally:
            if judge:
                judge.close()
    console.print(_table(summary))
    console.print(f"{summary['scored']} scored, {summary['unsupported']} unsupported, {summary['errors']} error(s), "
                  f"{summary['no_answer']} without an answer; lines in {out / RESULTS}, summary in {out / SUMMARY}")
    return 1 if summary["errors"] else 0

