"""`paperbase ask`: one question to the NeuSym-RAG agent over the index (the logic is `agent.cli.ask`)."""
from __future__ import annotations

from typing import Annotated

import typer

from cli.common import DataDir, JsonFlag, app, console, settings_for


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="The question, in plain words.")],
    pdf: Annotated[list[str] | None, typer.Option("--pdf", help="Anchor paper (repeatable): its id, part of its title, or its PDF path; the question is about it.")] = None,
    model: Annotated[str | None, typer.Option(help="Chat model at the endpoint. [default: $PAPERBASE_AGENT_MODEL or gpt-4o-mini]")] = None,
    base_url: Annotated[str | None, typer.Option("--base-url", help="OpenAI-compatible endpoint, e.g. http://localhost:8000/v1.")] = None,
    agent: Annotated[str | None, typer.Option("--agent", help="hybrid (SQL + vector search, the default) or classic (retrieve chunks).")] = None,
    answer_format: Annotated[str, typer.Option("--answer-format", help="How the answer should look (shown to the model).")] = "",
    data_dir: DataDir = None,
    as_json: JsonFlag = False,
) -> None:
    """Answer a question with the agent: each turn's thought, action and observation stream to the terminal, then
    the answer. --json writes the trajectory in the NeuSym-RAG seeds' message format (one message per line)."""
    from agent.cli import ask as run_ask

    if agent is not None and agent not in ("hybrid", "classic"):
        raise typer.BadParameter(f"--agent must be hybrid or classic, not {agent!r}")
    code = run_ask(settings_for(data_dir), question, pdf or [], model, base_url, agent, as_json, console,
                   answer_format=answer_format)
    raise typer.Exit(code)
