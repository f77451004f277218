"""Summarizer settings: which backend, which endpoint and models, and how hard to push it."""
from __future__ import annotations

import os
from typing import Literal

from urllib.parse import urlparse

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator


class SummarizeSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    enabled: bool = Field(True, description="Fill summaries during ingest. false: the stage is skipped and a paper is "
                          "finished without them (`paperbase summarize` still fills them on request).")
    backend: Literal["offline", "openai"] = Field(
        "offline", description="offline: extractive text from the element itself, no network. "
        "openai: any OpenAI-compatible /chat/completions endpoint (OpenAI, vLLM, Ollama).")
    base_url: str | None = Field(None, description="e.g. http://localhost:11434/v1; None with backend=openai means api.openai.com.")
    model: str = Field("gpt-4o-mini", description="Text model (pages, sections, tables, tldr, tags).")
    vision_model: str | None = Field(None, description="Model for figure crops; None = same as `model`.")
    vision: bool = Field(True, description="Send figure crops as PNG; False summarizes figures from caption + mentions only.")
    api_key: SecretStr | None = Field(None, description="Set via PAPERBASE_SUMMARIZE__API_KEY; wins over api_key_env.")
    api_key_env: str = Field("OPENAI_API_KEY", description="Environment variable holding the key (may be unset for Ollama/vLLM).")
    concurrency: int = Field(4, ge=1, le=256, description="Requests in flight at once.")
    retries: int = Field(4, ge=0, description="Extra attempts after a 429, 5xx, timeout or malformed response.")
    backoff_s: float = Field(1.0, ge=0, description="First retry delay; doubles per attempt (Retry-After wins if sent).")
    max_backoff_s: float = Field(30.0, ge=0)
    breaker: int = Field(8, ge=1, description="Stop the run after this many consecutive items failed despite retries "
                         "(endpoint down): the rest stay NULL for the next run instead of each waiting out its retries.")
    timeout_s: float = Field(60.0, gt=0, description="Per-request timeout.")
    budget: int | None = Field(None, ge=0, description="Max HTTP requests per run (retries count); None = unlimited.")
    summary_words: int = Field(50, ge=5, description="Target length of page/section/table/image summaries.")
    tldr_chars: int = Field(80, ge=20, description="Maximum tldr length.")
    num_tags: int = Field(5, ge=1)
    max_input_chars: int = Field(12000, ge=500, description="Element text is cut to this many characters before prompting.")
    image_dpi: int = Field(144, ge=36, description="Resolution of figure crops sent to the vision model.")
    temperature: float = Field(0.0, ge=0)
    batch_size: int = Field(200, ge=1, description="Results per DuckDB write transaction.")

    @field_validator("base_url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        if value is not None:
            url = urlparse(value)
            if url.scheme not in ("http", "https") or not url.netloc:
                raise ValueError(f"not an http(s) URL: {value!r}")
        return value

    def resolved_api_key(self) -> str | None:
        if self.api_key is not None and self.api_key.get_secret_value():
            return self.api_key.get_secret_value()
        return os.environ.get(self.api_key_env) or None

    def resolved_base_url(self) -> str:
        return (self.base_url or "https://api.openai.com/v1").rstrip("/")

    def resolved_vision_model(self) -> str:
        return self.vision_model or self.model
