"""The project's one LLM client: any OpenAI-compatible chat endpoint through the official `openai` package.

Rules:
- Every chat call in paperbase (the summarize stage, the agent loop) goes through `chat` / `achat` here; nothing else
  speaks HTTP to a model.
- Failures surface as one exception type, `LLMError`, with `retryable` (429, 5xx, timeouts, connection errors,
  malformed bodies), `fatal` (401/403/404: every further call would fail the same way) and `retry_after`.
- Timeouts are always bounded; retries inside the `openai` client are `max_retries` (callers that run their own retry
  policy, like summarize, pass 0).
- `transport` is the fault-injection hook of tests: an httpx2 transport (what openai uses) or a plain `httpx`
  transport (e.g. `httpx.MockTransport`), adapted here.
"""
from __future__ import annotations

from typing import Any

import httpx
import httpx2
import openai

DEFAULT_BASE_URL = "https://api.openai.com/v1"


class LLMError(Exception):
    """One chat call failed; the message is one line."""

    def __init__(self, message: str, *, retryable: bool = False, fatal: bool = False, retry_after: float | None = None):
        super().__init__(message)
        self.retryable, self.fatal, self.retry_after = retryable, fatal, retry_after


class _AsyncHttpxAdapter(httpx2.AsyncBaseTransport):
    """Runs an `httpx` async transport under the httpx2 client that `openai` uses."""

    def __init__(self, inner: httpx.AsyncBaseTransport):
        self.inner = inner

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        body = await request.aread()
        req = httpx.Request(request.method, str(request.url), headers=list(request.headers.multi_items()), content=body)
        resp = await self.inner.handle_async_request(req)
        content = await resp.aread()
        return httpx2.Response(resp.status_code, headers=_plain_headers(resp.headers), content=content)

    async def aclose(self) -> None:
        await self.inner.aclose()


class _SyncHttpxAdapter(httpx2.BaseTransport):
    """Runs an `httpx` sync transport under the httpx2 client that `openai` uses."""

    def __init__(self, inner: httpx.BaseTransport):
        self.inner = inner

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        body = request.read()
        req = httpx.Request(request.method, str(request.url), headers=list(request.headers.multi_items()), content=body)
        resp = self.inner.handle_request(req)
        content = resp.read()
        return httpx2.Response(resp.status_code, headers=_plain_headers(resp.headers), content=content)

    def close(self) -> None:
        self.inner.close()


def _plain_headers(headers: httpx.Headers) -> list[tuple[str, str]]:
    # the body was already decoded by httpx: drop the headers that would make httpx2 decode it again
    return [(k, v) for k, v in headers.multi_items() if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")]


_NO_KEY = "no-key"  # openai insists on a key; without a real one the header is dropped before sending


def _hooks(api_key: str | None, is_async: bool) -> dict[str, list]:
    """Ollama and most vLLM setups take no key: send no Authorization header rather than a dummy one."""
    if api_key:
        return {}

    def drop(request: httpx2.Request) -> None:
        request.headers.pop("authorization", None)

    async def adrop(request: httpx2.Request) -> None:
        drop(request)

    return {"request": [adrop if is_async else drop]}


def _timeout(timeout_s: float) -> httpx2.Timeout:
    return httpx2.Timeout(timeout_s, connect=min(10.0, timeout_s))


def async_client(base_url: str | None, api_key: str | None, *, timeout_s: float = 60.0, max_retries: int = 0,
                 max_connections: int = 16, transport: Any = None) -> openai.AsyncOpenAI:
    """An `openai.AsyncOpenAI` for `base_url` (None: api.openai.com); use `async with` or `await .close()`."""
    if isinstance(transport, httpx.AsyncBaseTransport):
        transport = _AsyncHttpxAdapter(transport)
    http = httpx2.AsyncClient(transport=transport, timeout=_timeout(timeout_s), event_hooks=_hooks(api_key, True),
                              limits=httpx2.Limits(max_connections=max_connections, max_keepalive_connections=max_connections))
    return openai.AsyncOpenAI(base_url=(base_url or DEFAULT_BASE_URL).rstrip("/"), api_key=api_key or _NO_KEY,
                              timeout=_timeout(timeout_s), max_retries=max_retries, http_client=http)


def sync_client(base_url: str | None, api_key: str | None, *, timeout_s: float = 60.0, max_retries: int = 2,
                transport: Any = None) -> openai.OpenAI:
    """An `openai.OpenAI` for `base_url` (None: api.openai.com); close it with `.close()`."""
    if isinstance(transport, httpx.BaseTransport):
        transport = _SyncHttpxAdapter(transport)
    http = httpx2.Client(transport=transport, timeout=_timeout(timeout_s), event_hooks=_hooks(api_key, False))
    return openai.OpenAI(base_url=(base_url or DEFAULT_BASE_URL).rstrip("/"), api_key=api_key or _NO_KEY,
                         timeout=_timeout(timeout_s), max_retries=max_retries, http_client=http)


def _retry_after(response: Any) -> float | None:
    try:
        return max(0.0, float(response.headers.get("retry-after", "")))
    except (AttributeError, ValueError):
        return None


def _error(exc: Exception) -> LLMError:
    if isinstance(exc, openai.APITimeoutError):
        return LLMError(f"timeout ({type(exc).__name__})", retryable=True)
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc
        return LLMError(f"connection error: {type(cause).__name__}: {cause}", retryable=True)
    if isinstance(exc, openai.APIStatusError):
        status, text = exc.status_code, " ".join(str(exc.response.text)[:200].split())
        if status == 429 or status >= 500:
            return LLMError(f"HTTP {status}", retryable=True, retry_after=_retry_after(exc.response))
        if status in (401, 403, 404):
            return LLMError(f"HTTP {status}: {text}", fatal=True)
        return LLMError(f"HTTP {status}: {text}")
    return LLMError(f"malformed response: {type(exc).__name__}: {' '.join(str(exc).split())[:160]}", retryable=True)


def _text(completion: Any) -> str:
    try:
        content = completion.choices[0].message.content
    except (AttributeError, IndexError, TypeError) as exc:
        raise LLMError(f"malformed response: {str(completion)[:120]!r}", retryable=True) from exc
    if isinstance(content, list):  # some servers return content parts
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    if not isinstance(content, str):
        raise LLMError("malformed response: message content is not text", retryable=True)
    return content


async def achat(client: openai.AsyncOpenAI, body: dict[str, Any]) -> str:
    """The reply text of one chat completion (`body`: model, messages, temperature, ...); raises LLMError."""
    try:
        completion = await client.chat.completions.create(**body)
    except LLMError:
        raise
    except Exception as exc:  # openai errors, and JSON/validation errors of a broken body
        raise _error(exc) from exc
    return _text(completion)


def chat(client: openai.OpenAI, body: dict[str, Any]) -> str:
    """Synchronous `achat`."""
    try:
        completion = client.chat.completions.create(**body)
    except Exception as exc:
        raise _error(exc) from exc
    return _text(completion)


__all__ = ["LLMError", "async_client", "sync_client", "achat", "chat", "DEFAULT_BASE_URL"]
