"""The turn loop: system + task message, then (model reply -> action -> observation) until GenerateAnswer.

Rules:
- History as in the seeds: every assistant reply and every `[Observation]: ...` user message is kept, in order, and
  the whole conversation is sent each turn (older image observations are re-sent as their text only, beyond
  `keep_images`).
- At most `max_turns` model replies. GenerateAnswer ends the run with its answer (its echo is recorded as the last
  observation, as the seeds do). Reaching the limit ends the run with NO answer and `stop_reason="max_turns"`; the
  last observation is never taken for an answer. A failed chat call ends the run with `stop_reason="llm_error"`.
- Malformed replies and failed actions are observations, never exceptions.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agent.env import Environment
from agent.llm import ChatModel
from agent.observe import Observation
from agent.parse import Action, ParseError, parse_action, thought_of
from pipeline.llm import LLMError


@dataclass
class Turn:
    number: int
    reply: str
    thought: str
    action: Action | None  # None when the reply did not parse
    observation: Observation


@dataclass
class RunResult:
    messages: list[dict[str, Any]]
    turns: list[Turn] = field(default_factory=list)
    answer: Any = None
    answered: bool = False
    stop_reason: str = ""  # "answer" | "max_turns" | "llm_error"
    error: str | None = None

    def summary(self) -> str:
        if self.answered:
            return f"answered after {len(self.turns)} turn(s)"
        if self.stop_reason == "max_turns":
            return f"no answer: the turn limit ({len(self.turns)}) was reached without GenerateAnswer"
        return f"no answer: {self.error}"


def _request_messages(messages: list[dict[str, Any]], keep_images: int) -> list[dict[str, Any]]:
    image_idx = [i for i, m in enumerate(messages) if isinstance(m.get("content"), list)]
    drop = set(image_idx[: max(0, len(image_idx) - keep_images)])
    out = []
    for i, m in enumerate(messages):
        if i in drop:
            text = " ".join(p["text"] for p in m["content"] if p.get("type") == "text")
            m = {"role": m["role"], "content": text}
        out.append(m)
    return out


def run(system: str, task: str, model: ChatModel, env: Environment, allowed: list[str], *, max_turns: int = 20,
        keep_images: int = 1, on_turn: Callable[[Turn], None] | None = None) -> RunResult:
    """Run one question to its end; `on_turn` sees every turn as it completes (for streaming)."""
    result = RunResult(messages=[{"role": "system", "content": system}, {"role": "user", "content": task}])
    for number in range(1, max_turns + 1):
        try:
            reply = model(_request_messages(result.messages, keep_images))
        except LLMError as exc:
            result.stop_reason, result.error = "llm_error", f"the model call failed: {exc}"
            return result
        result.messages.append({"role": "assistant", "content": reply})
        parsed = parse_action(reply, allowed)
        if isinstance(parsed, ParseError):
            action, observation = None, Observation(parsed.observation)
        else:
            action, observation = parsed, env.execute(parsed)
        result.messages.append(observation.message())
        turn = Turn(number, reply, thought_of(reply), action, observation)
        result.turns.append(turn)
        if on_turn:
            on_turn(turn)
        if action is not None and action.name == "GenerateAnswer":
            result.answer, result.answered, result.stop_reason = action.args["answer"], True, "answer"
            return result
    result.stop_reason = "max_turns"
    return result
