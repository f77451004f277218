"""The logic of `paperbase ask`: one question, streamed turn by turn, ending with the answer (or why there is none).

Rules: the typer command lives elsewhere (the CLI package) and only calls `ask`. The turns go to the rich console
(stderr); stdout carries the answer alone (a string as it is, any other value as JSON, one line), so
`answer=$(paperbase ask ...)` gets exactly the answer; with `as_json` stdout carries only the trajectory instead, one
JSON message per line in the seeds' format ({"role": ..., "content": ...}). Anchor papers are named as everywhere
else (id, title fragment or PDF path: `Reader.resolve_papers`). A reply that did not parse is shown as the model wrote
it. Exit codes (those of every paperbase command): 0 answered; 1 no answer (turn limit, model endpoint failure) or the
store cannot be read; 2 usage (a paper name that matches no paper, or several).
"""
from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from rich.console import Console
from rich.markup import escape

from agent import prompts
from agent.config import AgentSettings
from agent.env import Environment
from agent.llm import ChatModel, OpenAIChat
from agent.loop import RunResult, Turn, run
from pipeline.config import Settings
from pipeline.read import NotFound, ReadError, Reader

SHOWN_CHARS = 1500  # observation text shown per turn on the console


def ask(settings: Settings, question: str, pdf_ids: Sequence[str] | None = None, model: str | None = None,
        base_url: str | None = None, agent_kind: str | None = None, as_json: bool = False,
        console: Console | None = None, *, answer_format: str = "", agent_settings: AgentSettings | None = None,
        chat: ChatModel | None = None, stdout: TextIO | None = None) -> int:
    """Answer `question` over the store of `settings` (`pdf_ids`: ids, title fragments or PDF paths of the anchor
    papers); returns the exit code. `chat` replaces the endpoint (tests)."""
    console = console or Console(stderr=True)
    out = stdout or sys.stdout
    overrides = {k: v for k, v in {"model": model, "base_url": base_url, "agent": agent_kind}.items() if v is not None}
    cfg = (agent_settings or AgentSettings()).model_copy(update=overrides)
    names = list(pdf_ids or [])
    if not settings.duckdb_path.exists():
        console.print(f"[red]no database at {settings.duckdb_path}; run `paperbase ingest DIR` first[/red]")
        return 1
    with Reader(settings) as reader:
        try:
            try:
                pdf_ids = reader.resolve_papers(names, one_each=True) if names else []
            except NotFound as exc:
                console.print(f"[red]--pdf: {escape(str(exc))}[/red]")
                return 2
            task = prompts.task_message(question, reader.database_prompt(), reader.vectorstore_prompt(),
                                        answer_format=answer_format, anchor_pdfs=pdf_ids, sql_path=str(settings.duckdb_path))
        except (ReadError, OSError) as exc:
            console.print(f"[red]{escape(str(exc))}[/red]")
            return 1
        except Exception as exc:  # the vector store could not be opened (locked, missing): say so, in one line
            console.print(f"[red]cannot read the store: {type(exc).__name__}: {escape(' '.join(str(exc).split()))}[/red]")
            return 1
        system = prompts.system_prompt(cfg.agent, cfg.max_turns)
        env = Environment(reader, cfg)
        own_chat = chat is None
        chat = chat or OpenAIChat(cfg)
        try:
            result = run(system, task, chat, env, prompts.action_names(cfg.agent), max_turns=cfg.max_turns,
                         keep_images=cfg.keep_images, on_turn=lambda t: _show_turn(console, t))
        finally:
            if own_chat:
                chat.close()  # type: ignore[union-attr]
    if as_json:
        write_jsonl(result, out)
    return _finish(console, result, None if as_json else out)


def _show_turn(console: Console, turn: Turn) -> None:
    console.rule(f"turn {turn.number}")
    if turn.thought:
        console.print(f"[bold]Thought:[/bold] {escape(turn.thought)}")
    if turn.action is None:  # what the model wrote, so a person sees why it did not parse
        reply = turn.reply.strip()
        more = f" ... ({len(reply) - SHOWN_CHARS} more characters)" if len(reply) > SHOWN_CHARS else ""
        console.print("[bold cyan]Action:[/bold cyan] [red](not parsed)[/red] the model replied:")
        console.print(escape(reply[:SHOWN_CHARS]) + more, style="yellow", highlight=False)
    else:
        console.print(f"[bold cyan]Action:[/bold cyan] {escape(turn.action.call())}", highlight=False)
    if turn.action is None or turn.action.name != "GenerateAnswer":
        text = turn.observation.message_text()
        more = f" ... ({len(text) - SHOWN_CHARS} more characters)" if len(text) > SHOWN_CHARS else ""
        image = " [image attached]" if turn.observation.image_png else ""
        console.print(escape(text[:SHOWN_CHARS]) + more + image, style="dim", highlight=False)


def answer_text(answer: Any) -> str:
    """The answer as one line for stdout: a string as it is, any other value as JSON."""
    if isinstance(answer, str):
        return answer
    return json.dumps(answer, ensure_ascii=False, default=str)


def _finish(console: Console, result: RunResult, out: TextIO | None) -> int:
    console.rule()
    if result.answered:
        if out is None:  # --json: the trajectory on stdout holds the answer
            console.print(f"[bold green]Answer:[/bold green] {escape(answer_text(result.answer))}", highlight=False)
        else:
            console.print("[bold green]Answer[/bold green] (on stdout):")
            out.write(answer_text(result.answer) + "\n")
            out.flush()
        console.print(f"[dim]{result.summary()}[/dim]")
        return 0
    console.print(f"[bold red]{escape(result.summary())}[/bold red]")
    return 1


def write_jsonl(result: RunResult, out: TextIO) -> None:
    """The trajectory as the seed files store it: one {"role", "content"} JSON object per line."""
    for message in result.messages:
        out.write(json.dumps(message, ensure_ascii=False) + "\n")
    out.flush()
