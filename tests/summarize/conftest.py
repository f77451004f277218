"""Fixtures for the summarizer tests (helpers live in sumdb.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.summarize.sumdb import make_db


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return make_db(tmp_path / "data")


@pytest.fixture
def no_network(monkeypatch):
    """Any outbound connection attempt fails the test."""
    import socket

    def refuse(*args, **kwargs):
        raise AssertionError(f"network access attempted: {args[1:] if len(args) > 1 else args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
