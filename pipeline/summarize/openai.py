"""The openai backend: one POST /chat/completions per item against any OpenAI-compatible endpoint
(OpenAI, vLLM, Ollama, LiteLLM...). One attempt per call here; retries, budget and cache live in the runner."""
from __future__ import annotations

import httpx

from pipeline.summarize.config import SummarizeSettings
from pipeline.summarize.errors import RequestFailed


def make_client(settings: SummarizeSettings, transport: httpx.AsyncBaseTransport | None = None) -> httpx.AsyncClient:
    headers = {"Content-Type": "application/json"}
    key = settings.resolved_api_key()
    if key:  # Ollama and most vLLM setups take no key: send no header rather than an empty one
        headers["Authorization"] = f"Bearer {key}"
    return httpx.AsyncClient(
        base_url=settings.resolved_base_url() + "/", headers=headers, transport=transport,
        timeout=httpx.Timeout(settings.timeout_s, connect=min(10.0, settings.timeout_s)),
        limits=httpx.Limits(max_connections=settings.concurrency, max_keepalive_connections=settings.concurrency),
    )


def _retry_after(response: httpx.Response) -> float | None:
    try:
        return max(0.0, float(response.headers.get("retry-after", "")))
    except ValueError:
        return None


async def complete(client: httpx.AsyncClient, body: dict) -> str:
    """The reply text of one chat completion; raises RequestFailed (retryable or not, fatal or not)."""
    try:
        response = await client.post("chat/completions", json=body)
    except httpx.TimeoutException as exc:
        raise RequestFailed(f"timeout ({type(exc).__name__})", retryable=True) from exc
    except httpx.TransportError as exc:
        raise RequestFailed(f"connection error: {type(exc).__name__}: {exc}", retryable=True) from exc
    status = response.status_code
    if status == 429 or status >= 500:
        raise RequestFailed(f"HTTP {status}", retryable=True, retry_after=_retry_after(response))
    if status in (401, 403, 404):  # wrong key, endpoint or model: every further request would fail the same way
        raise RequestFailed(f"HTTP {status}: {response.text[:200]}", fatal=True)
    if status >= 400:
        raise RequestFailed(f"HTTP {status}: {response.text[:200]}")
    try:
        content = response.json()["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise RequestFailed(f"malformed response: {response.text[:120]!r}", retryable=True) from exc
    if isinstance(content, list):  # some servers return content parts
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    if not isinstance(content, str):
        raise RequestFailed("malformed response: message content is not text", retryable=True)
    return content
