"""The result of a summarize run: counts per column and status, requests sent, errors. A value, never raised."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

# filled: new value stored; empty: "" stored (nothing to summarize); cached: value from the cache;
# unchanged: overwrite run produced the stored value again; failed / skipped_budget: cell left NULL.
STATUSES = ("filled", "empty", "cached", "unchanged", "failed", "skipped_budget")
MAX_ERRORS = 100


@dataclass
class SummarizeReport:
    backend: str
    model: str | None = None
    counts: dict[str, Counter] = field(default_factory=dict)
    requests: int = 0
    errors: list[str] = field(default_factory=list)
    changed_paper_ids: set[str] = field(default_factory=set)  # papers whose summary cells changed (vector stage)
    aborted: str | None = None  # why the run stopped early (store unwritable); counted values may be unwritten
    seconds: float = 0.0

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
    def status(self) -> str:
        """ok: every cell done; failed: nothing done (or the run could not start); partial: some cells left NULL."""
        total = sum(sum(c.values()) for c in self.counts.values())
        bad = self.total("failed") + self.total("skipped_budget")
        if self.aborted or (self.errors and not total):
            return "failed"
        return "ok" if not bad else "failed" if bad == total else "partial"

    def to_json(self) -> dict:
        return {"status": self.status, "backend": self.backend, "model": self.model, "requests": self.requests,
                "seconds": round(self.seconds, 3),
                "counts": {col: {s: c[s] for s in STATUSES if c[s]} for col, c in self.counts.items()},
                "changed_papers": len(self.changed_paper_ids), "errors": self.errors}
