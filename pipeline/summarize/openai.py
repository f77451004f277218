"""The openai backend: one chat completion per item against any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama,
LiteLLM...) through the project's one LLM client (`pipeline.llm`). One attempt per call here (the client's own retries
are off); retries, budget and cache live in the runner."""
from __future__ import annotations

from typing import Any

import openai as _openai

from pipeline import llm
from pipeline.summarize.config import SummarizeSettings
from pipeline.summarize.errors import RequestFailed


def make_client(settings: SummarizeSettings, transport: Any = None) -> _openai.AsyncOpenAI:
    """`transport`: an httpx or httpx2 async transport (tests inject faults through it)."""
    return llm.async_client(settings.resolved_base_url(), settings.resolved_api_key(), timeout_s=settings.timeout_s,
                            max_retries=0, max_connections=settings.concurrency, transport=transport)


async def complete(client: _openai.AsyncOpenAI, body: dict) -> str:
    """The reply text of one chat completion; raises RequestFailed (retryable or not, fatal or not)."""
    try:
        return await llm.achat(client, body)
    except llm.LLMError as exc:
        raise RequestFailed(str(exc), retryable=exc.retryable, fatal=exc.fatal, retry_after=exc.retry_after) from exc
