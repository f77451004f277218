"""The openai backend against a real local HTTP server (pipeline.summarize.testing.FakeOpenAI), with faults."""
from __future__ import annotations

import asyncio
import base64
import json

import pytest

from pipeline.store import Store
from pipeline.summarize import ConfigError, summarize_papers
from pipeline.summarize.testing import FakeOpenAI
from tests.summarize.sumdb import N_ITEMS, settings_for, values

FAST = {"backend": "openai", "backoff_s": 0.01, "max_backoff_s": 0.05, "timeout_s": 2.0, "retries": 3, "concurrency": 4,
        "vision_model": "fake-vision", "model": "fake-text"}


def _settings(db, fake, **extra):
    return settings_for(db, base_url=fake.base_url, **{**FAST, **extra})


def _null_all(db) -> None:
    with Store(db / "paperbase.duckdb").writing() as con:
        for table, col in (("pages", "page_summary"), ("sections", "section_summary"), ("tables", "table_summary"),
                           ("images", "image_summary"), ("metadata", "tldr"), ("metadata", "tags")):
            con.execute(f"UPDATE {table} SET {col} = NULL")


def _assert_all_from_fake(db) -> None:
    for column, vals in values(db).items():
        for v in vals:
            if column == "tags":
                assert v == ["fake tag one", "fake tag two", "fake tag three", "fake tag four", "fake tag five"]
            else:
                assert v is not None and v.startswith("Fake"), (column, v)


def test_summaries_come_from_the_server_and_bodies_are_correct(db, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with FakeOpenAI() as fake:
        report = summarize_papers(_settings(db, fake))
    assert report.status == "ok", report.errors
    assert report.requests == len(fake.requests) == N_ITEMS  # the uncaptioned figure still has its crop
    _assert_all_from_fake(db)
    vision = [b for b in fake.requests if isinstance(b["messages"][-1]["content"], list)]
    assert len(vision) == 2
    for body in fake.requests:
        assert body["messages"][0]["role"] == "system" and body["messages"][-1]["role"] == "user"
        assert body["model"] == ("fake-vision" if body in vision else "fake-text")
        assert body["temperature"] == 0 and body["max_tokens"] > 0
    for body in vision:
        parts = body["messages"][-1]["content"]
        url = next(p["image_url"]["url"] for p in parts if p["type"] == "image_url")
        assert url.startswith("data:image/png;base64,")
        assert base64.b64decode(url.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
        assert any(p["type"] == "text" and "at most 50 words" in p["text"] for p in parts)
    texts = [b["messages"][-1]["content"] for b in fake.requests if b not in vision]
    assert any("Table (HTML):\n<table>" in t and "Caption: Table 1: Denotation accuracy" in t for t in texts)
    assert any("TL;DR" in t and "at most 80 characters" in t for t in texts)
    assert any("exactly 5 keywords" in t for t in texts)
    assert all(h.get("Authorization") == "Bearer sk-test" for h in fake.headers)


def test_rerun_sends_zero_requests(db):
    with FakeOpenAI() as fake:
        settings = _settings(db, fake)
        summarize_papers(settings)
        sent = len(fake.requests)
        again = summarize_papers(settings)  # nothing NULL: nothing to do
        assert again.requests == 0 and again.counts == {}
        _null_all(db)  # e.g. a re-ingest of unchanged content: the cache answers everything
        third = summarize_papers(settings)
        assert len(fake.requests) == sent and third.requests == 0
        assert third.total("cached") == N_ITEMS
    _assert_all_from_fake(db)


def test_transient_faults_are_retried_to_success(db):
    faults = {0: "429", 1: "500", 2: "slow", 3: "malformed", 4: "503"}
    with FakeOpenAI(faults=faults, slow_s=3.0) as fake:  # concurrency 1: the first item meets all five faults
        report = summarize_papers(_settings(db, fake, concurrency=1, retries=5))
    assert report.status == "ok", report.errors
    assert report.requests == N_ITEMS + len(faults)
    _assert_all_from_fake(db)


def test_persistent_failures_leave_null_and_next_run_fills(db):
    with FakeOpenAI(faults=lambda n, body: "500") as fake:
        report = summarize_papers(_settings(db, fake, retries=1, breaker=100))
        assert report.total("failed") == N_ITEMS and report.status == "failed"
        assert report.requests == len(fake.requests) == 2 * N_ITEMS
        assert len(report.errors) == N_ITEMS and "HTTP 500" in report.errors[0]
    assert all(v is None for vals in values(db).values() for v in vals)  # no placeholder stored
    with FakeOpenAI() as fake:
        report = summarize_papers(_settings(db, fake))
        assert report.status == "ok" and report.requests == N_ITEMS
    _assert_all_from_fake(db)


@pytest.mark.parametrize("seed", [1, 2])
def test_random_faults_every_item_summarized_or_cleanly_null(db, seed):
    import random

    rng = random.Random(seed)
    kinds = ["429", "500", "malformed", "empty", None, None, None]
    with FakeOpenAI(faults=lambda n, body: rng.choice(kinds)) as fake:
        report = summarize_papers(_settings(db, fake, retries=0, breaker=100))
    got = values(db)
    nulls = sum(v is None for vals in got.values() for v in vals)
    assert report.total("failed") == nulls
    assert report.total("filled") + nulls == N_ITEMS
    for column, vals in got.items():
        for v in vals:
            assert v is None or (v[0].startswith("fake") if column == "tags" else v.startswith("Fake")), (column, v)


def test_budget_caps_requests_and_leaves_the_rest_null(db):
    with FakeOpenAI() as fake:
        report = summarize_papers(_settings(db, fake, budget=3, concurrency=2))
        assert report.requests == len(fake.requests) == 3
    assert report.total("filled") == 3 and report.total("skipped_budget") == N_ITEMS - 3
    assert sum(v is None for vals in values(db).values() for v in vals) == N_ITEMS - 3


def test_auth_error_stops_the_run(db):
    with FakeOpenAI(faults=lambda n, body: "401") as fake:
        report = summarize_papers(_settings(db, fake, concurrency=1))
        assert len(fake.requests) == 1
    assert report.total("failed") == N_ITEMS and "HTTP 401" in report.errors[0]


def test_unreachable_endpoint_trips_the_breaker_fast(db):
    import socket
    import time

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    t0 = time.perf_counter()
    report = summarize_papers(settings_for(db, base_url=f"http://127.0.0.1:{port}/v1", **{**FAST, "breaker": 2, "concurrency": 1}))
    assert time.perf_counter() - t0 < 10
    assert report.total("failed") == N_ITEMS and report.requests == 2 * (FAST["retries"] + 1)
    assert "connection error" in report.errors[0] and "consecutive failed items" in report.errors[-1]
    assert all(v is None for vals in values(db).values() for v in vals)


def test_concurrency_is_bounded(db):
    with FakeOpenAI(latency=0.1) as fake:
        summarize_papers(_settings(db, fake, concurrency=3))
        assert 1 < fake.max_in_flight <= 3


def test_vision_off_summarizes_figures_from_text(db):
    with FakeOpenAI() as fake:
        report = summarize_papers(_settings(db, fake, vision=False), columns=["image_summary"])
        assert all(isinstance(b["messages"][-1]["content"], str) for b in fake.requests)
    assert report.total("filled") == 1 and report.total("empty") == 1  # the uncaptioned figure has no text


def test_openai_without_endpoint_or_key_is_a_config_error(db, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ConfigError):
        summarize_papers(settings_for(db, backend="openai"))


def test_works_when_called_inside_a_running_event_loop(db):
    with FakeOpenAI() as fake:
        settings = _settings(db, fake)

        async def inside():
            return summarize_papers(settings)

        report = asyncio.run(inside())
    assert report.status == "ok" and report.requests == N_ITEMS


def test_cli_summarize_json(db):
    from typer.testing import CliRunner

    from cli import app

    with FakeOpenAI() as fake:
        result = CliRunner().invoke(app, ["summarize", "--data-dir", str(db), "--base-url", fake.base_url,
                                          "--model", "m", "--concurrency", "2", "--json"])
        assert result.exit_code == 0, result.output
        out = json.loads(result.stdout.strip().splitlines()[-1])
        assert out["backend"] == "openai" and out["requests"] == len(fake.requests) == N_ITEMS
        assert {b["model"] for b in fake.requests} == {"m"}
    result = CliRunner().invoke(app, ["doctor", "--data-dir", str(db), "--json"])
    assert '"area": "summarize"' in result.stdout


def test_transport_can_be_swapped(db):
    import httpx

    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        reply = "a, b, c, d, e" if b"keyphrases" in request.content else "Mock summary."
        return httpx.Response(200, json={"choices": [{"message": {"content": reply}}]})

    report = summarize_papers(settings_for(db, **{**FAST, "base_url": "http://llm.invalid/v1"}),
                              transport=httpx.MockTransport(handler))
    assert report.status == "ok" and len(seen) == N_ITEMS
    assert set(seen) == {"http://llm.invalid/v1/chat/completions"}
    assert values(db)["tags"] == [["a", "b", "c", "d", "e"]]
