"""Fixtures for the flow tests: one Prefect test server for the whole session (its start is the slow part)."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def prefect_api(tmp_path_factory) -> str:
    """A real Prefect server (SQLite in a temp dir) for every flow test of the session; yields its API URL."""
    pytest.importorskip("prefect")
    import flows  # noqa: F401  (telemetry off before Prefect loads)
    from prefect.settings import PREFECT_API_URL
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=300):
        yield PREFECT_API_URL.value()
