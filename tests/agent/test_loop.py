"""The loop over a real local OpenAI-compatible server: turn limit, bounded retries and timeouts, history."""
from __future__ import annotations


from agent import prompts
from agent.config import AgentSettings
from agent.env import Environment
from agent.llm import OpenAIChat
from agent.loop import _request_messages, run
from pipeline.read import Reader
from pipeline.summarize.testing import FakeOpenAI, scripted

SQL_TURN = '[Thought]: look\n[Action]:\nRetrieveFromDatabase(sql="SELECT title FROM metadata")'
ANSWER_TURN = "[Thought]: done\n[Action]:\nGenerateAnswer(answer='A Mini Paper')"


def _run(mini_settings, replies, *, faults=None, slow_s=2.0, **cfg_kw):
    with FakeOpenAI(reply=scripted(replies), faults=faults, slow_s=slow_s) as fake, Reader(mini_settings) as reader:
        cfg = AgentSettings(base_url=fake.base_url, model="fake", api_key="sk-test", **cfg_kw)
        with OpenAIChat(cfg) as chat:
            result = run(prompts.system_prompt("hybrid", cfg.max_turns), "[Question]: q", chat, Environment(reader, cfg),
                         prompts.action_names("hybrid"), max_turns=cfg.max_turns)
        return result, fake


def test_answer_ends_the_run(mini_settings):
    result, fake = _run(mini_settings, [SQL_TURN, ANSWER_TURN])
    assert result.answered and result.answer == "A Mini Paper" and result.stop_reason == "answer"
    assert result.messages[-1] == {"role": "user", "content": "[Observation]: A Mini Paper"}
    assert result.messages[3]["content"].startswith('[Observation]:\n{"title":"A Mini Paper"}')
    assert fake.requests[1]["messages"][2:] == result.messages[2:4]  # the whole history is sent again
    assert fake.headers[0].get("Authorization") == "Bearer sk-test"


def test_turn_limit_ends_without_an_answer(mini_settings):
    result, fake = _run(mini_settings, [SQL_TURN] * 10, max_turns=3)
    assert len(fake.requests) == 3 and len(result.turns) == 3
    assert not result.answered and result.answer is None and result.stop_reason == "max_turns"
    assert "no answer" in result.summary() and "turn limit" in result.summary()
    assert "you only have 3 interaction turns at most" in fake.requests[0]["messages"][0]["content"]


def test_rate_limit_is_retried_within_bounds(mini_settings):
    result, fake = _run(mini_settings, [ANSWER_TURN], faults={0: "429", 1: "503"}, retries=2)
    assert result.answered and len(fake.requests) == 3


def test_retries_are_bounded(mini_settings):
    result, fake = _run(mini_settings, [ANSWER_TURN], faults=lambda n, body: "500", retries=1)
    assert result.stop_reason == "llm_error" and not result.answered and len(fake.requests) == 2
    assert "HTTP 500" in result.error


def test_wrong_key_is_not_retried(mini_settings):
    result, fake = _run(mini_settings, [ANSWER_TURN], faults={0: "401"}, retries=3)
    assert result.stop_reason == "llm_error" and len(fake.requests) == 1 and "HTTP 401" in result.error


def test_timeout_is_bounded(mini_settings):
    result, fake = _run(mini_settings, [ANSWER_TURN], faults={0: "slow"}, slow_s=3.0, timeout_s=0.5, retries=0)
    assert result.stop_reason == "llm_error" and "timeout" in result.error


def test_malformed_reply_is_an_observation_not_a_crash(mini_settings):
    result, _ = _run(mini_settings, ["[Action]: nothing to do", "", ANSWER_TURN])
    assert result.answered and [t.action for t in result.turns][:2] == [None, None]
    assert result.messages[3]["content"].startswith("[Observation]: [Error]: Failed to parse a valid action")


def test_old_images_are_resent_as_text():
    img = {"role": "user", "content": [{"type": "text", "text": "[Observation]: page"},
                                       {"type": "image_url", "image_url": {"url": "data:image/png;base64,AA=="}}]}
    msgs = [{"role": "system", "content": "s"}, {"role": "user", "content": "t"}, img, img]
    out = _request_messages(msgs, keep_images=1)
    assert out[2] == {"role": "user", "content": "[Observation]: page"} and out[3] == img
    assert _request_messages(msgs, keep_images=0)[3]["content"] == "[Observation]: page"
