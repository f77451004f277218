"""A fake OpenAI-compatible server for tests and the bench: a real HTTP server on 127.0.0.1 in a thread.

It records every request body, answers /v1/chat/completions deterministically, and injects faults on demand:
    with FakeOpenAI(latency=0.2, faults={0: "429", 1: "500", 2: "slow", 3: "malformed"}) as fake:
        settings.summarize.base_url = fake.base_url
`faults` maps request number (0-based, in arrival order) to a fault, or is a callable (n, body) -> fault | None.
Faults: "429" (with Retry-After: 0), "500", "503", "slow" (sleeps `slow_s` before answering), "malformed" (200 with a
broken JSON body), "empty" (200 with empty content), "401".
"""
from __future__ import annotations

import hashlib
import json
import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx

Fault = str | None


def default_reply(body: dict) -> str:
    """Tags for tag prompts, otherwise a 'summary' naming a hash of the prompt (so tests can tell items apart)."""
    user = body["messages"][-1]["content"]
    text = user if isinstance(user, str) else " ".join(p.get("text", "") for p in user if p.get("type") == "text")
    digest = hashlib.sha256(json.dumps(body["messages"], sort_keys=True).encode()).hexdigest()[:10]
    if "keywords or short keyphrases" in text:
        return "fake tag one, fake tag two, fake tag three, fake tag four, fake tag five"
    if "TL;DR" in text:
        return f"Fake tldr {digest}."
    kind = "figure" if not isinstance(user, str) else "text"
    return f"Fake {kind} summary {digest}."


class FakeOpenAI:
    def __init__(self, *, latency: float = 0.0, faults: dict[int, str] | Callable[[int, dict], Fault] | None = None,
                 slow_s: float = 2.0, reply: Callable[[dict], str] = default_reply):
        self.latency, self.slow_s, self.reply = latency, slow_s, reply
        self.faults = faults or {}
        self.requests: list[dict] = []  # parsed bodies, in arrival order
        self.headers: list[httpx.Headers] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None, "server not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def _fault(self, n: int, body: dict) -> Fault:
        return self.faults(n, body) if callable(self.faults) else self.faults.get(n)

    def start(self) -> FakeOpenAI:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as real servers do

            def setup(self) -> None:
                super().setup()
                # headers and body go out as two writes: without TCP_NODELAY, Nagle + delayed ACK add ~40 ms each
                self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _send(self, status: int, payload: bytes, extra: dict | None = None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for k, v in (extra or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(payload)

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with fake._lock:
                    n = len(fake.requests)
                    try:
                        body = json.loads(raw)
                    except ValueError:
                        body = {"_unparsable": raw.decode(errors="replace")}
                    fake.requests.append(body)
                    fake.headers.append(httpx.Headers(list(self.headers.items())))  # case-insensitive lookups
                    fake.in_flight += 1
                    fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
                try:
                    self._answer(n, body)
                except (BrokenPipeError, ConnectionResetError):  # the client timed out and hung up
                    pass
                finally:
                    with fake._lock:
                        fake.in_flight -= 1

            def _answer(self, n: int, body: dict) -> None:
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    return self._send(404, b'{"error": {"message": "not found"}}')
                fault = fake._fault(n, body)
                time.sleep(fake.slow_s if fault == "slow" else fake.latency)
                if fault in ("429", "500", "503", "401"):
                    return self._send(int(fault), b'{"error": {"message": "injected"}}', {"Retry-After": "0"})
                if fault == "malformed":
                    return self._send(200, b'{"id": "x", "choices": [{"message": {"content": "trunc')
                content = "" if fault == "empty" else fake.reply(body)
                payload = {"id": f"chatcmpl-{n}", "object": "chat.completion", "model": body.get("model"),
                           "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
                           "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
                self._send(200, json.dumps(payload).encode())

        class Server(ThreadingHTTPServer):
            request_queue_size = 128  # the default backlog of 5 drops connects at concurrency 16 (1 s SYN retry)
            daemon_threads = True  # a handler sleeping on "slow" must not block shutdown

        self._server = Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-openai", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def scripted(replies: list[str]) -> Callable[[dict], str]:
    """A `reply` for FakeOpenAI that answers the n-th request with `replies[n]` (a recorded conversation, replayed);
    past the end it answers with an empty string, which a replaying test sees as a run that did not stop in time."""
    lock = threading.Lock()
    state = {"n": 0}

    def reply(body: dict) -> str:
        with lock:
            n = state["n"]
            state["n"] += 1
        return replies[n] if n < len(replies) else ""

    return reply
