"""Replays: a local OpenAI-compatible server (FakeOpenAI) serves the recorded assistant turns of the seeds and of
reference trajectories in order; the real loop, parser, environment and formatter run against a store ingested from
corpus PDFs, and must stop where the recorded run stopped, with the same action types turn by turn."""
from __future__ import annotations

import json

import pytest

from agent import prompts
from agent.config import AgentSettings
from agent.env import Environment
from agent.llm import OpenAIChat
from agent.loop import run
from pipeline.read import Reader
from pipeline.summarize.testing import FakeOpenAI, scripted
from tests.agent.observation_forms import action_of
from tests.conftest import SHARED

SEEDS = sorted((SHARED / "seeds").glob("*.txt")) if (SHARED / "seeds").is_dir() else []
TRAJ_DIR = SHARED / "reference" / "trajectories"
# reference runs with malformed replies (both upstream parse errors), then the first others in name order
MALFORMED = ["14ae4304-6dbf-539e-8e9a-db0dde3b4959", "25fd4dd0-a865-541f-bcdd-246a56ba36ed",
             "4fe2e01e-83c6-5121-80fc-7c937e0d73ae", "08bd3ae0-1594-510d-b67b-bfbd9fb73b56",
             "383909ad-dc1d-5f60-ade6-46bea6e7c62b", "412f7530-b194-5aca-8508-22318575e1b2",
             "2166da5e-be09-5f2b-a8e9-7fed58ede51d"]
N_REFERENCE = 24


def _reference() -> list:
    if not TRAJ_DIR.is_dir():
        return []
    chosen = [TRAJ_DIR / f"{name}.jsonl" for name in MALFORMED]
    for path in sorted(TRAJ_DIR.glob("*.jsonl")):
        if len(chosen) >= N_REFERENCE:
            break
        if path not in chosen:
            chosen.append(path)
    return chosen


RUNS = SEEDS + _reference()


def _expected(messages) -> list[str | None]:
    """Recorded action per turn; None where upstream could not parse the reply."""
    out = []
    for reply, obs in zip(messages[2::2], messages[3::2]):
        assert reply["role"] == "assistant" and obs["role"] == "user"
        out.append(None if obs["content"].startswith("[Observation]: [Error]: Failed to parse") else action_of(reply["content"]))
    return out


@pytest.fixture(scope="module")
def reader(corpus_settings):
    with Reader(corpus_settings) as r:
        yield r


@pytest.mark.skipif(not RUNS, reason=f"{SHARED} is absent (seeds/reference live beside the repo)")
@pytest.mark.parametrize("path", RUNS, ids=lambda p: p.stem)
def test_replay_stops_where_the_recorded_run_stopped(path, reader):
    messages = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    replies = [m["content"] for m in messages if m["role"] == "assistant"]
    kind = "classic" if "'ClassicRetrieve'" in messages[0]["content"] else "hybrid"
    expected = _expected(messages)
    with FakeOpenAI(reply=scripted(replies)) as fake:
        cfg = AgentSettings(base_url=fake.base_url, model="replay", api_key="sk-test", timeout_s=30, retries=0)
        with OpenAIChat(cfg) as chat:
            result = run(prompts.system_prompt(kind), messages[1]["content"], chat, Environment(reader, cfg),
                         prompts.action_names(kind), max_turns=cfg.max_turns)
        bodies = fake.requests
    assert result.stop_reason == "answer" and result.answered
    assert [t.action.name if t.action else None for t in result.turns] == expected
    assert len(bodies) == len(replies)
    # the conversation the model saw: the seeds' system and task messages, then reply/observation pairs in order
    assert bodies[0]["messages"][:2] == messages[:2]
    last = bodies[-1]["messages"]
    assert [m["role"] for m in last] == ["system", "user"] + ["assistant", "user"] * (len(replies) - 1)
    assert [m["content"] for m in last if m["role"] == "assistant"] == replies[:-1]
    assert all(m["content"].startswith("[Observation]:") for m in last[3::2])
    assert result.messages[-1]["content"] == messages[-1]["content"]  # the GenerateAnswer echo, as recorded
