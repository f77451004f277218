"""The system prompts (hybrid, classic) and the task message equal the seeds byte for byte (the .sql path on the
first schema line aside, which names the local database)."""
from __future__ import annotations

import json
import re

import pytest

from agent import prompts
from agent.specs import render_call, specs
from pipeline.store.schema import render_schema_prompt
from schemas.vectorstore import render_prompt
from tests.conftest import SHARED

SEEDS = sorted((SHARED / "seeds").glob("*.txt")) if (SHARED / "seeds").is_dir() else []
needs_seeds = pytest.mark.skipif(not SEEDS, reason=f"{SHARED}/seeds is absent (seeds live beside the repo)")


def _messages(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _kind(messages) -> str:
    return "classic" if "'ClassicRetrieve'" in messages[0]["content"] else "hybrid"


@needs_seeds
@pytest.mark.parametrize("seed", SEEDS, ids=lambda p: p.name)
def test_system_prompt_equals_seed(seed):
    messages = _messages(seed)
    assert prompts.system_prompt(_kind(messages), max_turns=20) == messages[0]["content"]


@needs_seeds
@pytest.mark.parametrize("seed", SEEDS, ids=lambda p: p.name)
def test_task_message_equals_seed(seed):
    user = _messages(seed)[1]["content"]
    fields = dict(re.findall(r"^\[(Question|Answer Format)\]: (.*)$", user, re.M))
    anchor = re.search(r"^\[Anchor PDF\]: '(.*)'$", user, re.M).group(1)
    collections = re.findall(r'"collection_name": "(\w+)"', user)
    text = prompts.task_message(fields["Question"], render_schema_prompt(), render_prompt(collections),
                                answer_format=fields["Answer Format"], anchor_pdfs=[anchor], sql_path="LOCAL.duckdb")
    path = re.search(r"The database schema for (.*) is as follows", user).group(1)
    assert text == user.replace(f"The database schema for {path} ", "The database schema for LOCAL.duckdb ", 1)


def test_seed_002_is_the_classic_prompt_with_its_mojibake():
    text = prompts.system_prompt("classic")
    assert "['RetrieveFromDatabase', 'ClassicRetrieve', 'GenerateAnswer']" in text
    assert "user\u00e2\u20ac\u2122s query" in text and "### Action Type\nViewImage" not in text


def test_turn_limit_is_rendered_from_config():
    assert "you only have 7 interaction turns at most" in prompts.system_prompt("hybrid", max_turns=7)


def test_task_message_variants():
    two = prompts.task_message("Q?", "DB\n", "[Vectorstore Schema]: VS", anchor_pdfs=["a", "b"], conferences=["acl2023", "acl2024"])
    assert "[Anchor PDFs]: ['a', 'b']\n[Conferences]: [acl2023, acl2024]\n[Database Schema]" in two
    one = prompts.task_message("Q?", "DB\n", "[Vectorstore Schema]: VS", conferences=["acl2023"])
    assert one.startswith("[Question]: Q?\n[Answer Format]: \n[Conference]: acl2023\n[Database Schema]: ")
    assert one.endswith("DB\n[Vectorstore Schema]: VS")


def test_use_cases_render_as_parseable_calls():
    from agent.parse import Action, parse_action

    for spec in specs().values():
        for case in spec.use_cases:
            parsed = parse_action("[Action]: " + render_call(spec.name, case["example"]), [spec.name])
            assert isinstance(parsed, Action) and parsed.name == spec.name


def test_unknown_agent_kind():
    with pytest.raises(ValueError):
        prompts.system_prompt("other")
