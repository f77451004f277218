"""Settings: environment (prefix PAPERBASE_, nested with __) over a TOML file over defaults.

The TOML file is `paperbase.toml` in the working directory, or the path in PAPERBASE_CONFIG. Every stage keeps its
own settings model (pipeline/<stage>/config.py); this module only composes them.
"""
from __future__ import annotations

import os
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict, TomlConfigSettingsSource

from pipeline.index.config import VectorSettings
from pipeline.parse import ParseOptions
from pipeline.summarize.config import SummarizeSettings


def _toml_path() -> Path:
    return Path(os.environ.get("PAPERBASE_CONFIG", "paperbase.toml"))


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PAPERBASE_", env_nested_delimiter="__", extra="ignore")

    data_dir: Path = Field(Path("data"), description="Holds paperbase.duckdb and the Milvus Lite store.")
    workers: int = Field(2, description="Parser processes (the layout model is CPU-bound).")
    parse: ParseOptions = Field(default_factory=ParseOptions)
    vectors: VectorSettings = Field(default_factory=VectorSettings)
    summarize: SummarizeSettings = Field(default_factory=SummarizeSettings)

    @property
    def duckdb_path(self) -> Path:
        return self.data_dir / "paperbase.duckdb"

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, TomlConfigSettingsSource(settings_cls, toml_file=_toml_path()))


def load_settings(**overrides) -> Settings:
    """Settings with explicit overrides (e.g. CLI flags) on top; None values are ignored."""
    return Settings(**{k: v for k, v in overrides.items() if v is not None})
