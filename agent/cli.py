"""The logic of `paperbase ask`: one question, streamed turn by turn, ending with the answer (or why there is none).

Rules: the typer command lives elsewhere (the CLI package) and only calls `ask`. Human output goes to the rich
console; with `as_json` stdout carries only the trajectory, one JSON message per line in the seeds' format
({"role": ..., "content": ...}). Exit codes (those of every paperbase command): 0 answered; 1 no answer (turn limit,
model endpoint failure) or the store cannot be read; 2 usage (an unknown paper id).
"""
from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TextIO

from rich.console import Console
from rich.markup import escape

from agent import prompts
from agent.config import AgentSettings
from agent.env import Environment
from agent.llm import ChatModel, OpenAIChat
from agent.loop import RunResult, Turn, run
from pipeline.config import Settings
from pipeline.read import ReadError, Reader

SHOWN_CHARS = 1500  # observation text shown per turn on the console


def _known_papers(reader: Reader, pdf_ids: Sequence[str]) -> list[str]:
    known = {p["paper_id"] for p in reader.papers()}
    return [p for p in pdf_ids if p not in known]


def ask(settings: Settings, question: str, pdf_ids: Sequence[str] | None = None, model: str | None = None,
        base_url: str | None = None, agent_kind: str | None = None, as_json: bool = False,
        console: Console | None = None, *, answer_format: str = "", agent_settings: AgentSettings | None = None,
        chat: ChatModel | None = None, stdout: TextIO | None = None) -> int:
    """Answer `question` over the store of `settings`; returns the exit code. `chat` replaces the endpoint (tests)."""
    console = console or Console(stderr=as_json)
    out = stdout or sys.stdout
    overrides = {k: v for k, v in {"model": model, "base_url": base_url, "agent": agent_kind}.items() if v is not None}
    cfg = (agent_settings or AgentSettings()).model_copy(update=overrides)
    pdf_ids = list(pdf_ids or [])
    if not settings.duckdb_path.exists():
        console.print(f"[red]no database at {settings.duckdb_path}; run `paperbase ingest DIR` first[/red]")
        return 1
    with Reader(settings) as reader:
        try:
            unknown = _known_papers(reader, pdf_ids)
            if unknown:
                console.print(f"[red]unknown paper id(s): {', '.join(map(escape, unknown))}[/red] (`paperbase status` lists the stored papers)")
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
    return _finish(console, result)


def _show_turn(console: Console, turn: Turn) -> None:
    console.rule(f"turn {turn.number}")
    if turn.thought:
        console.print(f"[bold]Thought:[/bold] {escape(turn.thought)}")
    console.print(f"[bold cyan]Action:[/bold cyan] {escape(turn.action.call() if turn.action else '(unparsed)')}")
    if turn.action is None or turn.action.name != "GenerateAnswer":
        text = turn.observation.message_text()
        more = f" ... ({len(text) - SHOWN_CHARS} more characters)" if len(text) > SHOWN_CHARS else ""
        image = " [image attached]" if turn.observation.image_png else ""
        console.print(escape(text[:SHOWN_CHARS]) + more + image, style="dim")


def _finish(console: Console, result: RunResult) -> int:
    console.rule()
    if result.answered:
        console.print(f"[bold green]Answer:[/bold green] {escape(str(result.answer))}")
        console.print(f"[dim]{result.summary()}[/dim]")
        return 0
    console.print(f"[bold red]{escape(result.summary())}[/bold red]")
    return 1


def write_jsonl(result: RunResult, out: TextIO) -> None:
    """The trajectory as the seed files store it: one {"role", "content"} JSON object per line."""
    for message in result.messages:
        out.write(json.dumps(message, ensure_ascii=False) + "\n")
    out.flush()
