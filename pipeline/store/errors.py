"""Store errors."""
from pipeline.results import RetryableError


class StoreError(Exception):
    pass


class StoreBusy(StoreError, RetryableError):
    """Another process kept the DuckDB file (or a writer lock) for longer than the timeout: worth retrying."""


class StoreMissing(StoreError):
    """No database yet at the data dir (run `paperbase ingest` first)."""
