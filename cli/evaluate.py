"""`paperbase evaluate`: run the agent on an AirQA-format question set and score it (the logic is
`agent.evaluate.command`)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cli.common import DataDir, app, console, settings_for


@app.command()
def evaluate(
    file: Annotated[Path, typer.Argument(help="AirQA-format JSON lines (uuid, question, answer_format, tags, evaluator, ...).")],
    agent: Annotated[str | None, typer.Option("--agent", help="hybrid (the default) or classic.")] = None,
    model: Annotated[str | None, typer.Option(help="Agent chat model. [default: $PAPERBASE_AGENT_MODEL or gpt-4o-mini]")] = None,
    base_url: Annotated[str | None, typer.Option("--base-url", help="OpenAI-compatible endpoint of the agent and the judge.")] = None,
    judge_model: Annotated[str | None, typer.Option("--judge-model", help="Model for the LLM-judged eval functions (checked with one call before any agent runs; without it those examples are reported unsupported and not run).")] = None,
    judge_base_url: Annotated[str | None, typer.Option("--judge-base-url", help="OpenAI-compatible endpoint of the judge. [default: --base-url]")] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first N examples.")] = None,
    concurrency: Annotated[int, typer.Option(min=1, max=64, help="Examples run at a time.")] = 1,
    out: Annotated[Path | None, typer.Option("--out", help="Folder for results.jsonl and summary.json (a rerun resumes). [default: eval-out/<FILE stem>]")] = None,
    predictions: Annotated[Path | None, typer.Option("--predictions", help='Score these answers (JSON lines {"uuid": ..., "answer": ...}) instead of running the agent.')] = None,
    data_dir: DataDir = None,
) -> None:
    """Score the agent (or given predictions) on a question set: one line per example (right / wrong / no answer /
    error / unsupported, the prediction beside the gold), a summary table (overall, per tag, per eval function), and
    results.jsonl + summary.json. Exit 0 when no example ended in an evaluator error."""
    from agent.evaluate.command import evaluate_command

    if agent is not None and agent not in ("hybrid", "classic"):
        raise typer.BadParameter(f"--agent must be hybrid or classic, not {agent!r}")
    code = evaluate_command(settings_for(data_dir), file, agent_kind=agent, model=model, base_url=base_url,
                            judge_model=judge_model, judge_base_url=judge_base_url, limit=limit, concurrency=concurrency, out=out,
                            predictions=predictions, console=console)
    raise typer.Exit(code)
