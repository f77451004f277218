"""`agent.cli.ask`: streams the trajectory, prints the answer, writes seed-format JSON lines, exit codes."""
from __future__ import annotations

import io
import json

from rich.console import Console

from agent.cli import ask
from pipeline.summarize.testing import FakeOpenAI, scripted

ANSWER = "[Thought]: enough\n[Action]:\nGenerateAnswer(answer=['x', 1])"


def _ask(settings, replies, pdf_ids=(), **kw):
    console, out = Console(file=io.StringIO(), width=200), io.StringIO()
    with FakeOpenAI(reply=scripted(replies)) as fake:
        code = ask(settings, "Which paper?", list(pdf_ids), "fake-model", fake.base_url, "hybrid", True, console,
                   stdout=out, **kw)
    return code, console.file.getvalue(), out.getvalue(), fake


def test_ask_answers_and_writes_the_trajectory(corpus_settings):
    from pipeline.read import Reader

    with Reader(corpus_settings) as reader:
        paper = reader.papers()[0]["paper_id"]
    sql = f"[Thought]: look\n[Action]:\nRetrieveFromDatabase(sql=\"SELECT title FROM metadata WHERE paper_id = '{paper}'\")"
    code, shown, out, fake = _ask(corpus_settings, [sql, ANSWER], [paper])
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert [m["role"] for m in lines] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert lines[1]["content"].startswith(f"[Question]: Which paper?\n[Answer Format]: \n[Anchor PDF]: '{paper}'\n")
    assert lines[-1]["content"] == "[Observation]: ['x', 1]"
    assert "turn 1" in shown and "RetrieveFromDatabase" in shown and "Answer:" in shown and "['x', 1]" in shown
    assert {b["model"] for b in fake.requests} == {"fake-model"}


def test_turn_limit_exit_code(corpus_settings):
    from agent.config import AgentSettings

    loop = "[Action]: CalculateExpr(expr='1 + 1')"
    code, shown, out, fake = _ask(corpus_settings, [loop] * 5, agent_settings=AgentSettings(max_turns=2))
    assert code == 1 and len(fake.requests) == 2 and "no answer" in shown
    assert json.loads(out.splitlines()[-1])["content"] == "[Observation]: The calculated result is: 2"


def test_unknown_paper_and_missing_store(corpus_settings, tmp_path):
    from pipeline.config import Settings

    code, shown, _, fake = _ask(corpus_settings, [ANSWER], ["../../x"])
    assert code == 2 and "unknown paper id" in shown and not fake.requests
    code, shown, _, _ = _ask(Settings(data_dir=tmp_path), [ANSWER])
    assert code == 1 and "no database" in shown  # the store cannot be read: 1 (2 is for usage errors)
