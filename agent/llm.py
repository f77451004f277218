"""The agent's chat model: one call per turn through the project's LLM client (`pipeline.llm`).

Rules: any OpenAI-compatible endpoint; timeouts and retries are bounded by `AgentSettings` (the `openai` client
retries 429/5xx/timeouts `retries` times with backoff); failures surface as `pipeline.llm.LLMError`.
"""
from __future__ import annotations

from typing import Any, Protocol

from agent.config import AgentSettings
from pipeline import llm


class ChatModel(Protocol):
    def __call__(self, messages: list[dict[str, Any]]) -> str: ...


class OpenAIChat:
    """`ChatModel` over an OpenAI-compatible endpoint. Close it (or use `with`) to release the connection pool."""

    def __init__(self, settings: AgentSettings, transport: Any = None):
        self.settings = settings
        self.client = llm.sync_client(settings.base_url, settings.resolved_api_key(), timeout_s=settings.timeout_s,
                                      max_retries=settings.retries, transport=transport)

    def __call__(self, messages: list[dict[str, Any]]) -> str:
        s = self.settings
        body: dict[str, Any] = {"model": s.model, "messages": messages, "temperature": s.temperature,
                                "max_tokens": s.max_completion_tokens}
        if s.top_p is not None:
            body["top_p"] = s.top_p
        return llm.chat(self.client, body)

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> OpenAIChat:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
