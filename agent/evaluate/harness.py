"""The evaluation harness: run the agent (or take given predictions) on AirQA-format examples, score each answer
with its evaluator, write one JSON line per example and a summary.

Rules:
- `<out>/results.jsonl` is append-only, one line per scored example: uuid, score (0.0-1.0), status ("ok" |
  "unsupported" | "error"), detail, prediction, eval_func, tags, turns, tokens (estimated, ~4 characters each),
  seconds, error, trajectory. A rerun skips every uuid already there without an error; the last line of a uuid wins.
- `<out>/summary.json`: accuracy (mean score over "ok" examples) overall, per tag and per eval function, with counts
  of unsupported and error examples (never folded into a silent 0).
- Anchor papers: an example's `anchor_pdf` ids, else its `pdf_file` looked up in the store (metadata.pdf_path ending
  with that file name). The store is read only through `pipeline.read.Reader`, shared by the workers (env calls are
  serialised; model calls run `concurrency` at a time).
"""
from __future__ import annotations

import json
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path, PurePosixPath
from typing import Any

from agent import prompts
from agent.config import AgentSettings
from agent.env import Environment
from agent.evaluate.judged import Judge
from agent.evaluate.scoring import score_answer
from agent.llm import ChatModel, OpenAIChat
from agent.loop import run
from agent.observe import estimate_tokens
from pipeline.read import Reader

RESULTS, SUMMARY = "results.jsonl", "summary.json"


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    out = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            value = json.loads(line)
            if not isinstance(value, dict):
                raise ValueError(f"{path}:{n}: a JSON object is expected")
            out.append(value)
    return out


def load_predictions(path: Path) -> dict[str, Any]:
    """`{"uuid": ..., "answer": ...}` lines -> {uuid: answer}."""
    return {str(p["uuid"]): p.get("answer") for p in read_jsonl(path) if "uuid" in p}


def done_uuids(out: Path) -> dict[str, dict[str, Any]]:
    """The last line of each uuid in `<out>/results.jsonl`."""
    path = out / RESULTS
    return {r["uuid"]: r for r in read_jsonl(path)} if path.exists() else {}


class _SharedEnv(Environment):
    """One Environment over one Reader for all workers: actions run one at a time."""

    lock = threading.Lock()

    def execute(self, action):  # type: ignore[override]
        with self.lock:
            return super().execute(action)


def paper_ids_by_file(reader: Reader) -> dict[str, str]:
    rows = reader.sql("SELECT CAST(paper_id AS VARCHAR), pdf_path FROM metadata", max_rows=100_000).rows
    return {PurePosixPath(str(path).replace("\\", "/")).name: pid for pid, path in rows if path}


def anchors(example: dict[str, Any], by_file: dict[str, str]) -> list[str]:
    if example.get("anchor_pdf"):
        return list(example["anchor_pdf"])
    pdf = example.get("pdf_file")
    return [by_file[PurePosixPath(pdf).name]] if pdf and PurePosixPath(pdf).name in by_file else []


class _Counting:
    """A ChatModel wrapper that estimates the tokens sent and received."""

    def __init__(self, chat: ChatModel):
        self.chat, self.tokens = chat, 0

    def __call__(self, messages: list[dict[str, Any]]) -> str:
        self.tokens += sum(estimate_tokens(json.dumps(m.get("content"), ensure_ascii=False)) for m in messages)
        reply = self.chat(messages)
        self.tokens += estimate_tokens(reply)
        return reply


def _record(example: dict[str, Any], prediction: Any, judge: Judge | None, **run_info: Any) -> dict[str, Any]:
    ev = example.get("evaluator") or {}
    scored = score_answer(prediction, ev, judge)
    return {"uuid": example["uuid"], "score": scored.score, "status": scored.status, "detail": scored.detail,
            "prediction": prediction, "eval_func": ev.get("eval_func") if isinstance(ev, dict) else None,
            "tags": example.get("tags", []), **{"turns": 0, "tokens": 0, "seconds": 0.0, "error": None,
                                                "trajectory": [], **run_info}}


def _agent_record(example: dict[str, Any], env: Environment, cfg: AgentSettings, task_parts: tuple[str, str],
                  by_file: dict[str, str], chat_factory: Callable[[], ChatModel], judge: Judge | None) -> dict[str, Any]:
    start = time.monotonic()
    task = prompts.task_message(example["question"], *task_parts, answer_format=example.get("answer_format", ""),
                                anchor_pdfs=anchors(example, by_file), sql_path=str(env.reader.settings.duckdb_path))
    chat = _Counting(chat_factory())
    try:
        result = run(prompts.system_prompt(cfg.agent, cfg.max_turns), task, chat, env, prompts.action_names(cfg.agent),
                     max_turns=cfg.max_turns, keep_images=cfg.keep_images)
    finally:
        close = getattr(chat.chat, "close", None)
        if close:
            close()
    error = None if result.answered else result.summary()
    trajectory = [m if isinstance(m["content"], str) else {"role": m["role"], "content": "[image]"} for m in result.messages]
    return _record(example, result.answer if result.answered else None, judge, turns=len(result.turns),
                   tokens=chat.tokens, seconds=round(time.monotonic() - start, 3), error=error, trajectory=trajectory)


def summarize(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    groups: dict[str, dict[str, list[float]]] = {"tag": defaultdict(list), "eval_func": defaultdict(list)}
    total, scores, counts = 0, [], defaultdict(int)
    for r in records:
        total += 1
        counts[r["status"]] += 1
        if r["status"] != "ok":
            continue
        scores.append(r["score"])
        for tag in r.get("tags") or []:
            groups["tag"][tag].append(r["score"])
        groups["eval_func"][str(r.get("eval_func"))].append(r["score"])

    def acc(values: list[float]) -> dict[str, Any]:
        return {"n": len(values), "correct": sum(values), "accuracy": round(sum(values) / len(values), 4) if values else None}

    return {"total": total, "scored": len(scores), "unsupported": counts["unsupported"], "errors": counts["error"],
            "no_answer": 0, **acc(scores),
            "per_tag": {k: acc(v) for k, v in sorted(groups["tag"].items())},
            "per_eval_func": {k: acc(v) for k, v in sorted(groups["eval_func"].items())}}


def evaluate(reader: Reader, examples: list[dict[str, Any]], out: Path, *, predictions: dict[str, Any] | None = None,
             agent_settings: AgentSettings | None = None, chat_factory: Callable[[], ChatModel] | None = None,
             judge: Judge | None = None, concurrency: int = 1,
             on_record: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Score every example not yet done in `out`, then write and return the summary over all of them."""
    out.mkdir(parents=True, exist_ok=True)
    done = {u: r for u, r in done_uuids(out).items() if not r.get("error") and r.get("status") != "error"}
    todo = [e for e in examples if e["uuid"] not in done]
    cfg = agent_settings or AgentSettings()
    write_lock = threading.Lock()

    def one(example: dict[str, Any]) -> dict[str, Any]:
        if predictions is not None:
            if example["uuid"] in predictions:
                record = _record(example, predictions[example["uuid"]], judge)
            else:
                record = _record(example, None, judge, error="no prediction for this uuid")
        else:
            record = _agent_record(example, env, cfg, task_parts, by_file, factory, judge)
        with write_lock, (out / RESULTS).open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
        if on_record:
            on_record(record)
        return record

    if predictions is None and todo:
        env = _SharedEnv(reader, cfg)
        by_file = paper_ids_by_file(reader)
        task_parts = (reader.database_prompt(), reader.vectorstore_prompt())
        factory = chat_factory or (lambda: OpenAIChat(cfg))
    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        list(pool.map(one, todo))
    wanted = {e["uuid"] for e in examples}
    final = [r for u, r in done_uuids(out).items() if u in wanted]
    summary = summarize(final)
    summary["no_answer"] = sum(1 for r in final if r.get("error"))
    (out / SUMMARY).write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return summary
