"""The one stage-result contract: every stage (parse + store per file, summarize, encode per collection) reports a
value with a `Status` from one enum, a list of errors and its seconds, serialised by one function.

Results are values, never raised through a batch: one bad paper never aborts a folder. Only trouble worth retrying
(a busy store, a crashed parser process, an unreachable endpoint) is an exception, of type `RetryableError`, so the
Prefect wrapping decides retries by type, never by matching messages.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from datetime import datetime
from enum import Enum, StrEnum
from pathlib import Path
from typing import Any, ClassVar


class Status(StrEnum):
    OK = "ok"  # everything asked for was done
    PARTIAL = "partial"  # done, but some part failed (see errors)
    FAILED = "failed"  # nothing done (see errors)
    SKIPPED = "skipped"  # not attempted: unchanged input, unavailable model, nothing to do
    DUPLICATE = "duplicate"  # a second copy of a paper that is already stored
    UNCHANGED = "unchanged"  # looked at, found up to date

    @property
    def settled(self) -> bool:
        """The work needs no rerun (a downstream stage may clear its pending papers)."""
        return self in SETTLED


SETTLED = frozenset({Status.OK, Status.PARTIAL, Status.SKIPPED, Status.UNCHANGED})


def combine(statuses: Iterable[Status | str]) -> Status:
    """The status of a whole made of parts: failed when nothing worked, partial when something failed."""
    parts = [Status(s) for s in statuses]
    if not parts:
        return Status.UNCHANGED
    failed = sum(1 for s in parts if s is Status.FAILED)
    if failed == len(parts):
        return Status.FAILED
    if failed or Status.PARTIAL in parts:
        return Status.PARTIAL
    if all(s is Status.UNCHANGED for s in parts):
        return Status.UNCHANGED
    return Status.OK


class RetryableError(Exception):
    """Transient trouble: the same input may well succeed on a later attempt (busy store, crashed worker, network)."""


@dataclasses.dataclass(kw_only=True)
class StageResult:
    """Base of every stage report. Subclasses add their own fields; `status` is a field or a computed property."""

    errors: list[str] = dataclasses.field(default_factory=list)
    seconds: float = 0.0

    # computed properties included in the JSON form (besides the dataclass fields)
    json_extra: ClassVar[tuple[str, ...]] = ("status",)

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


def to_json(value: Any) -> Any:
    """The one serialiser: dataclasses (with their `json_extra` properties), enums, sets, paths and datetimes become
    JSON-ready values; seconds are rounded to milliseconds."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value) if not f.name.startswith("_")}
        for name in getattr(value, "json_extra", ()):
            out[name] = to_json(getattr(value, name))
        if isinstance(out.get("seconds"), float):
            out["seconds"] = round(out["seconds"], 3)
        return out
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted(to_json(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    return value


__all__ = ["Status", "SETTLED", "combine", "RetryableError", "StageResult", "to_json"]
