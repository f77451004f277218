"""Settings: flags over environment (prefix PAPERBASE_, nested with __) over a TOML file over defaults.

The TOML file is `paperbase.toml` in the working directory, or the path in PAPERBASE_CONFIG (which must exist). Every
stage keeps its own settings model (pipeline/<stage>/config.py); this module only composes them and validates the
whole at start: unknown keys and sections are refused with the nearest valid name, values are range-checked, and
every problem becomes one `ConfigError` line that names where it came from.
"""
from __future__ import annotations

import difflib
import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, PrivateAttr, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict, TomlConfigSettingsSource

from pipeline.parse import ParseOptions
from pipeline.summarize.config import SummarizeSettings
from pipeline.vectors.config import VectorSettings

CONFIG_ENV = "PAPERBASE_CONFIG"


class ConfigError(ValueError):
    """The configuration (file, environment or flags) is invalid; the message is one line saying what and where."""


def _toml_path() -> Path:
    return Path(os.environ.get(CONFIG_ENV, "paperbase.toml"))


class ReadSettings(BaseModel):
    """Limits of the guarded SQL connection (`pipeline.read.Reader`: SQL written by a model or a user)."""

    model_config = {"extra": "forbid"}

    sql_memory_limit: str = Field("1GB", pattern=r"^\s*\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)\s*$",
                                  description="Memory one query may use (DuckDB units, e.g. 512MB, 2GB); nothing spills "
                                  "to disk, so past it the query stops with an [Error].")
    sql_threads: int = Field(2, ge=1, le=64, description="Threads one query may use.")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PAPERBASE_", env_nested_delimiter="__", extra="forbid")

    data_dir: Path = Field(Path("data"), description="Holds paperbase.duckdb and the Milvus Lite store.")
    workers: int = Field(2, ge=1, le=64, description="Parser processes (the layout model is CPU-bound).")
    parse: ParseOptions = Field(default_factory=ParseOptions)
    vectors: VectorSettings = Field(default_factory=VectorSettings)
    summarize: SummarizeSettings = Field(default_factory=SummarizeSettings)
    read: ReadSettings = Field(default_factory=ReadSettings)
    _overrides: dict = PrivateAttr(default_factory=dict)

    @property
    def overrides(self) -> dict[str, Any]:
        """The explicit overrides these settings were loaded with (CLI flags), as JSON-ready data without the data
        dir: what a runner in another context (a Prefect flow run, a served deployment) passes on so that it loads
        the same effective settings there (`load_settings(data_dir=..., **settings.overrides)`). Secret values are
        left out: they come from the environment where the run executes, never through Prefect's database."""
        return _plain({k: v for k, v in self._overrides.items() if k != "data_dir"}, type(self))

    @field_validator("data_dir")
    @classmethod
    def _a_directory(cls, value: Path) -> Path:
        if value.exists() and not value.is_dir():
            raise ValueError(f"{value} is not a directory (the data dir holds paperbase.duckdb and the vector store)")
        return value

    @model_validator(mode="after")
    def _known_backends(self) -> Settings:
        """Backend names (parse.backend, parse.views) must be registered ones; checked here, where the whole
        configuration is known, so that ParseOptions stays plain data."""
        from pipeline.parse import available_backends

        known = available_backends()
        for key, name in [("parse.backend", self.parse.backend), *((f"parse.views.{v}", b) for v, b in self.parse.views.items())]:
            if name not in known:
                near = difflib.get_close_matches(name, known, n=1)
                raise ValueError(f"{key}: unknown parse backend {name!r}" + (f"; did you mean {near[0]!r}?" if near else
                                 f" (available: {', '.join(known)})"))
        return self

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


def load_settings(**overrides: Any) -> Settings:
    """Settings with explicit overrides (e.g. CLI flags) on top; None values are ignored. Raises ConfigError."""
    path = _toml_path()
    if CONFIG_ENV in os.environ and not path.is_file():
        raise ConfigError(f"{CONFIG_ENV} names {path}, which does not exist (or is not a file)")
    given = {k: v for k, v in overrides.items() if v is not None}
    try:
        settings = Settings(**given)
        settings._overrides = given
        return settings
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except ValidationError as exc:
        raise ConfigError(describe(exc, path if path.is_file() else None)) from None


def _plain(value: Any, model: type[BaseModel] | None = None) -> Any:
    """JSON-ready copy of override values: models as their set fields, paths as text, secret fields (typed
    SecretStr in the settings models, however the value was given) dropped."""
    if isinstance(value, BaseModel):
        model, value = type(value), value.model_dump(exclude_unset=True)
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            field = model.model_fields.get(k) if model else None
            annotation = field.annotation if field else None
            if isinstance(v, SecretStr) or "SecretStr" in str(annotation):
                continue
            sub = annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None
            out[k] = _plain(v, sub)
        return out
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    return value


def describe(exc: ValidationError, path: Path | None) -> str:
    """One line for the first problem: the dotted key, what is wrong, and the nearest valid name for a misspelling."""
    err = exc.errors()[0]
    loc = [str(part) for part in err["loc"]]
    where = f"{path}: " if path else "configuration: "
    key = ".".join(loc)
    if err["type"] == "extra_forbidden":
        valid = _valid_names(loc[:-1])
        near = difflib.get_close_matches(loc[-1], valid, n=1, cutoff=0.6)
        hint = f"; did you mean {_dotted(loc[:-1], near[0])!r}?" if near else f"; valid here: {', '.join(valid)}"
        kind = "section" if isinstance(err.get("input"), dict) else "key"
        return f"{where}unknown {kind} {key!r}{hint}"
    value = err.get("input")
    shown = f" = {value!r}" if not isinstance(value, (dict, list)) else ""
    head = f"{key}{shown}: " if key else ""
    return f"{where}{head}{err['msg'].removeprefix('Value error, ')}"


def _dotted(parent: list[str], name: str) -> str:
    return ".".join([*parent, name])


def _valid_names(parent: list[str]) -> list[str]:
    """Field names of the settings model at `parent` (a dotted location inside Settings)."""
    model: type[BaseModel] | None = Settings
    for part in parent:
        field = model.model_fields.get(part) if model else None
        if field is None:
            return []
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            model = annotation
        else:  # a dict of models (vectors.collections): the key is a name, the next part a field
            args = getattr(annotation, "__args__", ())
            model = args[-1] if args and isinstance(args[-1], type) and issubclass(args[-1], BaseModel) else None
            if model is None:
                return []
    return sorted(model.model_fields) if model else []


__all__ = ["Settings", "ConfigError", "load_settings", "describe", "CONFIG_ENV"]
