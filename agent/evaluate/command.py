"""The logic of `paperbase evaluate`: read the question set, check the judge, run or take predictions, print each
item (outcome, prediction beside gold) and the summary table.

Rules: the typer command lives in the CLI package and only calls `evaluate_command`. Exit codes: 0 every example
scored (right, wrong, no answer or unsupported); 1 the store cannot be read or some example ended in an evaluator
error; 2 usage or configuration (an unreadable question or predictions file, a bad option, a judge that does not
answer). The judge is checked with one small call before any agent runs; scoring given predictions needs a store only
to look papers up for `eval_paper_relevance_with_llm`.
"""
from __future__ import annotations

import json
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from agent.config import AgentSettings
from agent.evaluate.harness import RESULTS, SUMMARY, evaluate, load_predictions, read_jsonl
from agent.evaluate.judged import Judge, JudgeUnreachable
from agent.evaluate.scoring import needs_judge
from pipeline.config import Settings
from pipeline.read import Reader

SHOWN = 70  # characters of a prediction or gold shown per console line
STYLE = {"right": "green", "wrong": "red", "no answer": "yellow", "error": "bold red", "unsupported": "magenta"}


def _table(summary: dict[str, Any]) -> Table:
    table = Table(title="evaluation summary", caption="accuracy = right / scored (scored = right + wrong + no answer); "
                  "errors and unsupported items are counted, not scored")
    cols = ("group", "n", "right", "wrong", "no answer", "error", "unsupported", "accuracy")
    for col in cols:
        table.add_column(col, justify="left" if col == "group" else "right")

    def row(name: str, s: dict[str, Any]) -> None:
        a = "-" if s["accuracy"] is None else f"{100 * s['accuracy']:.1f}%"
        table.add_row(escape(name), *(str(s[k]) for k in ("n", "right", "wrong", "no_answer", "errors", "unsupported")), a)

    row("overall", summary)
    for k, v in summary["per_tag"].items():
        row(f"tag {k}", v)
    for k, v in summary["per_eval_func"].items():
        row(k, v)
    return table


def short(value: Any, limit: int = SHOWN) -> str:
    """One line of at most `limit` characters: strings as they are, other values as JSON."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _line(record: dict[str, Any]) -> str:
    o = record["outcome"]
    pred = "-" if record["prediction"] is None else short(record["prediction"])
    text = (f"{record['uuid']}  [{STYLE[o]}]{o:<11}[/]  prediction {escape(pred)}  gold {escape(short(record['gold']))}")
    why = record.get("error") or record["detail"]
    if why and o not in ("right", "wrong"):
        text += f"  [dim]({escape(short(why, 160))})[/dim]"
    return text


def paper_info(reader: Reader | None):
    """For eval_paper_relevance_with_llm: a predicted paper (id, title, or a title within fuzz.ratio 90, as upstream
    looks papers up) -> its title and abstract, or None."""
    from rapidfuzz import fuzz, process, utils

    def lookup(pred: Any) -> dict[str, Any] | None:
        if reader is None:
            return None
        name = str(pred).strip()
        rows = reader.sql("SELECT title, abstract FROM metadata WHERE CAST(paper_id AS VARCHAR) = ? OR lower(title) = "
                          "lower(?) LIMIT 1", [name, name]).records()
        if rows:
            return rows[0]
        papers = reader.sql("SELECT title, abstract FROM metadata WHERE title IS NOT NULL", max_rows=1_000_000).records()
        best = process.extractOne(name, [p["title"] for p in papers], scorer=fuzz.ratio, processor=utils.default_process,
                                  score_cutoff=90)
        return papers[best[2]] if best else None
    return lookup


def evaluate_command(settings: Settings, file: Path, *, agent_kind: str | None = None, model: str | None = None,
                     base_url: str | None = None, judge_model: str | None = None, judge_base_url: str | None = None,
                     limit: int | None = None, concurrency: int = 1, out: Path | None = None,
                     predictions: Path | None = None, console: Console | None = None,
                     agent_settings: AgentSettings | None = None, chat_factory: Any = None) -> int:
    console = console or Console(stderr=True)
    try:
        examples = read_jsonl(file)
        given = load_predictions(predictions) if predictions else None
    except (OSError, ValueError) as exc:
        console.print(f"[red]cannot read the input: {escape(str(exc))}[/red]")
        return 2
    bad = [n for n, e in enumerate(examples, 1)  # given answers need no question; the agent does
           if not isinstance(e.get("uuid"), str) or ("question" not in e and given is None)]
    if bad:
        console.print(f"[red]{file}: example(s) {bad[:5]} lack a uuid{'' if given is not None else ' or a question'}[/red]")
        return 2
    examples = examples[:limit] if limit else examples
    overrides = {k: v for k, v in {"model": model, "base_url": base_url, "agent": agent_kind}.items() if v is not None}
    cfg = (agent_settings or AgentSettings()).model_copy(update=overrides)
    out = out or Path("eval-out") / file.stem
    has_store = settings.duckdb_path.exists()
    if not has_store and given is None:
        console.print(f"[red]no database at {settings.duckdb_path}; run `paperbase ingest DIR` first[/red]")
        return 1
    judged = sum(1 for e in examples if needs_judge(e.get("evaluator")))
    with Reader(settings) if has_store else nullcontext() as reader:
        judge = None
        if judge_model:
            judge = Judge(judge_model, judge_base_url or cfg.base_url, cfg.resolved_api_key(), paper_info=paper_info(reader))
            where = f"{judge_model} at {judge.base_url or 'api.openai.com'}"
            if judged:
                try:
                    warning = judge.check()
                except JudgeUnreachable as exc:
                    judge.close()
                    console.print(f"[red]the judge ({escape(where)}) cannot be asked: {escape(str(exc))}[/red]; "
                                  "nothing was run (check --judge-model, --judge-base-url and the API key)")
                    return 2
                if warning:
                    console.print(f"[yellow]the judge ({escape(where)}) answered a test question without a readable "
                                  f"verdict ({escape(short(warning, 160))}); its unreadable replies will be errors[/yellow]")
        elif judged:
            console.print(f"[yellow]{judged} of {len(examples)} example(s) need an LLM judge; without --judge-model they "
                          f"are reported unsupported{'' if given is not None else ' and their agents are not run'}[/yellow]")
        try:
            summary = evaluate(reader, examples, out, predictions=given, agent_settings=cfg, chat_factory=chat_factory,
                               judge=judge, concurrency=concurrency, on_record=lambda r: console.print(_line(r), highlight=False))
        finally:
            if judge:
                judge.close()
    console.print(_table(summary))
    need = f" ({summary['needs_judge']} for want of a judge)" if summary["needs_judge"] else ""
    acc = "-" if summary["accuracy"] is None else f"{100 * summary['accuracy']:.1f}%"
    acc_all = "-" if summary["accuracy_of_all"] is None else f"{100 * summary['accuracy_of_all']:.1f}%"
    console.print(f"{summary['total']} example(s): {summary['right']} right, {summary['wrong']} wrong, "
                  f"{summary['no_answer']} without an answer, {summary['errors']} error(s), "
                  f"{summary['unsupported']} unsupported{need}. Accuracy {acc} of the {summary['scored']} scored, "
                  f"{acc_all} of all. Lines in {out / RESULTS}, summary in {out / SUMMARY}", highlight=False)
    return 1 if summary["errors"] else 0
