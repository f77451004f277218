"""Store errors."""


class StoreError(Exception):
    pass


class StoreBusy(StoreError):
    """Another process kept the DuckDB file locked for longer than the timeout."""


class StoreMissing(StoreError):
    """No database yet at the data dir (run `paperbase ingest` first)."""
