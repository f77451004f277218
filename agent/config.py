"""Agent settings: which model and endpoint, how many turns, and the bounds on every action.

Rules: a plain pydantic-settings model, read from the environment with prefix `PAPERBASE_AGENT_` (e.g.
PAPERBASE_AGENT_MODEL, PAPERBASE_AGENT_BASE_URL, PAPERBASE_AGENT_MAX_TURNS) over defaults; CLI flags override both.
Every limit here is finite: turns, request timeout, retries, SQL time and rows, observation size, search limit.
"""
from __future__ import annotations

import os
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class AgentSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PAPERBASE_AGENT_", extra="ignore")

    model: str = Field("gpt-4o-mini", description="Chat model name at the endpoint.")
    base_url: str | None = Field(None, description="OpenAI-compatible endpoint, e.g. http://localhost:8000/v1; None = api.openai.com.")
    api_key: SecretStr | None = Field(None, description="Wins over api_key_env.")
    api_key_env: str = Field("OPENAI_API_KEY", description="Environment variable holding the key (may be unset for vLLM/Ollama).")
    agent: Literal["hybrid", "classic"] = Field("hybrid", description="hybrid: NeuSym-RAG actions; classic: ClassicRetrieve + SQL.")
    max_turns: int = Field(20, ge=1, le=100, description="Model replies per question; the run ends unanswered after this many.")
    timeout_s: float = Field(120.0, gt=0, le=1800, description="Per-request timeout of a chat call.")
    retries: int = Field(2, ge=0, le=10, description="Retries of a failed chat call (429, 5xx, timeouts) inside the client.")
    temperature: float = Field(0.0, ge=0, le=2)
    top_p: float | None = Field(None, gt=0, le=1)
    max_completion_tokens: int = Field(1500, ge=16, description="Reply length cap per turn.")
    sql_timeout_s: float = Field(10.0, gt=0, le=600, description="RetrieveFromDatabase query time limit.")
    max_rows: int = Field(10, ge=1, le=1000, description="Rows shown per observation (upstream: 10).")
    max_tokens: int = Field(5000, ge=100, description="Estimated tokens shown per observation (upstream: 5000).")
    max_limit: int = Field(50, ge=1, le=1000, description="Largest search `limit` honoured (larger ones are cut).")
    vision: bool = Field(True, description="ViewImage sends the page PNG; False answers ViewImage with an error.")
    image_dpi: int = Field(144, ge=36, le=300)
    keep_images: int = Field(1, ge=0, description="Image observations re-sent in full in later requests (older: text only).")

    def resolved_api_key(self) -> str | None:
        if self.api_key is not None and self.api_key.get_secret_value():
            return self.api_key.get_secret_value()
        return os.environ.get(self.api_key_env) or None
