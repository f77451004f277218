"""The honest-state tests' shared store: the SMALL papers ingested once per session (once per xdist worker) by the
real command. Tests snapshot or copy it; none writes to it."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.state.helpers import ingested


@pytest.fixture(scope="session")
def small_ingested(tmp_path_factory) -> Path:
    """root with root/pdfs (the SMALL papers) and root/data (their store after a clean `paperbase ingest`)."""
    # built by each worker, not copied from one build (tests.conftest.built_once): the ledger holds the PDFs' paths,
    # and a no-op re-ingest of root/pdfs (test_startup) must find the very paths it recorded
    return ingested(tmp_path_factory.mktemp("small-ingested"))
