"""The honest-state tests' shared store: the SMALL papers ingested once per session (once per xdist worker) by the
real command. Tests snapshot or copy it; none writes to it."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.state.helpers import ingested


@pytest.fixture(scope="session")
def small_ingested(tmp_path_factory) -> Path:
    """root with root/pdfs (the SMALL papers) and root/data (their store after a clean `paperbase ingest`)."""
    from tests.conftest import built_once

    return built_once(tmp_path_factory, "small-ingested", ingested)
