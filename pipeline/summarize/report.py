"""The result of a summarize run: counts per column and status, requests sent, errors. A value, never raised."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from pipeline.results import StageResult, Status

# filled: new value stored; empty: "" stored (nothing to summarize); cached: value from the cache;
# unchanged: overwrite run produced the stored value again; failed / skipped_budget: cell left NULL.
STATUSES = ("filled", "empty", "cached", "unchanged", "failed", "skipped_budget")
MAX_ERRORS = 100


@dataclass(kw_only=True)
class SummarizeReport(StageResult):
    backend: str
    model: str | None = None
    counts: dict[str, Counter] = field(default_factory=dict)
    requests: int = 0
    changed_paper_ids: set[str] = field(default_factory=set)  # papers whose summary cells changed (vector stage)
    aborted: str | None = None  # why the run stopped early (store unwritable); counted values may be unwritten

    def add(self, column: str, status: str, error: str | None = None) -> None:
        self.counts.setdefault(column, Counter())[status] += 1
        if error:
            if len(self.errors) < MAX_ERRORS:
                self.errors.append(error)
            elif len(self.errors) == MAX_ERRORS:
                self.errors.append("(further errors not listed)")

    def total(self, status: str) -> int:
        return sum(c[status] for c in self.counts.values())

    @property
    def status(self) -> Status:
        """ok: every cell done; failed: nothing done (or the run could not start); partial: some cells left NULL."""
        total = sum(sum(c.values()) for c in self.counts.values())
        bad = self.total("failed") + self.total("skipped_budget")
        if self.aborted or (self.errors and not total):
            return Status.FAILED
        return Status.OK if not bad else Status.FAILED if bad == total else Status.PARTIAL
