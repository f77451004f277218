"""`agent.cli.ask`: streams the trajectory to stderr, the answer alone to stdout (or seed-format JSON lines with
--json), anchors named by id, title fragment or PDF path, unparsed replies shown, exit codes."""
from __future__ import annotations

import io
import json

from rich.console import Console

from agent.cli import ask
from pipeline.summarize.testing import FakeOpenAI, scripted

ANSWER = "[Thought]: enough\n[Action]:\nGenerateAnswer(answer=['x', 1])"


def _ask(settings, replies, pdf_ids=(), as_json=True, **kw):
    console, out = Console(file=io.StringIO(), width=200), io.StringIO()
    with FakeOpenAI(reply=scripted(replies)) as fake:
        code = ask(settings, "Which paper?", list(pdf_ids), "fake-model", fake.base_url, "hybrid", as_json, console,
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
    assert "turn 1" in shown and "RetrieveFromDatabase" in shown and "Answer:" in shown and '["x", 1]' in shown
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
    assert code == 2 and "no stored paper matches '../../x'" in shown and not fake.requests
    code, shown, _, _ = _ask(Settings(data_dir=tmp_path), [ANSWER])
    assert code == 1 and "no database" in shown  # the store cannot be read: 1 (2 is for usage errors)


def test_stdout_is_the_answer_alone(corpus_settings):
    code, shown, out, _ = _ask(corpus_settings, [ANSWER], as_json=False)
    assert (code, out) == (0, '["x", 1]\n') and "turn 1" in shown and "Answer" in shown
    code, shown, out, _ = _ask(corpus_settings, ["[Action]: GenerateAnswer(answer='4.3 [k1; k2]')"], as_json=False)
    assert (code, out) == (0, "4.3 [k1; k2]\n") and "[k1; k2]" in shown
    code, _, out, _ = _ask(corpus_settings, ["[Action]: CalculateExpr(expr='1')"] * 2, as_json=False,
                           agent_settings=__import__("agent.config").config.AgentSettings(max_turns=1))
    assert (code, out) == (1, "")  # no answer: nothing on stdout


def test_anchor_papers_by_title_fragment_or_pdf_path(corpus_settings):
    from pipeline.read import Reader
    from tests.conftest import CORPUS

    with Reader(corpus_settings) as reader:
        papers = {p["title"]: p["paper_id"] for p in reader.papers()}
    rag = papers["Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks"]
    for name in ("knowledge-intensive nlp", str(CORPUS / "neurips2020_rag_excerpt.pdf"), rag[:8], rag.upper()):
        code, shown, out, _ = _ask(corpus_settings, [ANSWER], [name])
        assert code == 0, (name, shown)
        assert f"[Anchor PDF]: '{rag}'" in json.loads(out.splitlines()[1])["content"], name
    code, shown, _, fake = _ask(corpus_settings, [ANSWER], ["a"])  # in every title
    assert code == 2 and "matches 3 papers" in shown and rag in shown and not fake.requests


def test_unparsed_replies_are_shown_and_unknown_actions_named(corpus_settings):
    replies = ["[Thought]: try\n[Action]:\nSearchPapers(query='rag')", "I would rather chat about [k1; k2].", ANSWER]
    code, shown, out, _ = _ask(corpus_settings, replies)
    assert code == 0
    assert "(not parsed) the model replied:" in shown and "SearchPapers(query='rag')" in shown
    assert "I would rather chat about [k1; k2]." in shown  # the raw reply, literally
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[3]["content"].startswith("[Observation]: [Error]: Failed to parse a valid action from the response. "
                                          "The action SearchPapers does not exist. Please check the specification")
    assert lines[5]["content"].startswith("[Observation]: [Error]: Failed to parse a valid action from the response. "
                                          "Please check the specification")
