"""The evaluation harness: run the agent (or take given predictions) on AirQA-format examples, score each answer
with its evaluator, write one JSON line per example and a summary.

Rules:
- `<out>/results.jsonl` is append-only, one line per scored example: uuid, outcome ("right" | "wrong" | "no answer" |
  "error" | "unsupported"), score (0.0-1.0), status ("ok" | "unsupported" | "error"), detail, prediction, gold (what
  the evaluator holds for right, for people to read), eval_func, tags, turns, tokens (estimated, ~4 characters
  each), seconds, error, trajectory. A rerun skips every uuid already there that was scored (right, wrong, or
  unsupported for a reason other than a missing judge); an agent's answer already there is scored again rather than
  asked again; the last line of a uuid wins.
- `<out>/summary.json` counts every example: right, wrong, no answer, error, unsupported (and how many of those only
  lack a judge); accuracy is right / scored (scored = right + wrong + no answer), overall, per tag and per eval
  function, and `accuracy_of_all` is right / total, so nothing is left out silently.
- Without a judge, an example whose evaluator needs one is reported unsupported and its agent is not run.
- Anchor papers: an example's `anchor_pdf` ids, else its `pdf_file` looked up in the store (metadata.pdf_path ending
  with that file name). The store is read only through `pipeline.read.Reader`, shared by the workers (env calls are
  serialised; model calls run `concurrency` at a time); scoring given predictions needs no store.
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
from agent.evaluate.scoring import NEEDS_JUDGE, Score, gold_of, needs_judge, score_answer
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


ANSWER_KEYS = ("answer", "prediction", "pred", "predicted_answer")


def load_predictions(path: Path) -> dict[str, Any]:
    """{uuid: answer} from JSON lines `{"uuid": ..., "answer": ...}` (or "prediction" / "pred"), a JSON list of
    such objects, or one JSON object mapping uuids to answers."""
    text = Path(path).read_text(encoding="utf-8")
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, dict) and "uuid" not in whole:
        return {str(k): v for k, v in whole.items()}
    rows = whole if isinstance(whole, list) else [whole] if isinstance(whole, dict) else read_jsonl(path)
    out = {}
    for n, row in enumerate(rows, 1):
        if not isinstance(row, dict) or "uuid" not in row:
            raise ValueError(f"{path}: prediction {n} is not an object with a uuid")
        out[str(row["uuid"])] = next((row[k] for k in ANSWER_KEYS if k in row), None)
    return out


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


def outcome(record: dict[str, Any]) -> str:
    """right | wrong | no answer | error | unsupported"""
    if record["status"] != "ok":
        return record["status"]
    if record.get("prediction") is None:
        return "no answer"
    return "right" if record["score"] >= 0.5 else "wrong"


def _record(example: dict[str, Any], prediction: Any, judge: Judge | None, scored: Score | None = None,
            **run_info: Any) -> dict[str, Any]:
    ev = example.get("evaluator") or {}
    scored = scored or score_answer(prediction, ev, judge)
    record = {"uuid": example["uuid"], "outcome": "", "score": scored.score, "status": scored.status,
              "detail": scored.detail, "prediction": prediction, "gold": gold_of(ev),
              "eval_func": ev.get("eval_func") if isinstance(ev, dict) else None, "tags": example.get("tags", []),
              **{"turns": 0, "tokens": 0, "seconds": 0.0, "error": None, "trajectory": [], **run_info}}
    record["outcome"] = outcome(record)
    return record


def _judge_missing(record: dict[str, Any]) -> bool:
    return record.get("status") == "unsupported" and NEEDS_JUDGE in (record.get("detail") or "")


def _rescorable(record: dict[str, Any] | None) -> bool:
    """An earlier agent run that answered, whose score failed for want of (or by) the judge: score it again."""
    return bool(record and record.get("prediction") is not None and record.get("trajectory")
                and (record.get("status") == "error" or _judge_missing(record)))


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


OUTCOMES = ("right", "wrong", "no answer", "error", "unsupported")


def _counts(records: list[dict[str, Any]]) -> dict[str, Any]:
    n = {o: sum(1 for r in records if (r.get("outcome") or outcome(r)) == o) for o in OUTCOMES}
    scored = n["right"] + n["wrong"] + n["no answer"]
    return {"n": len(records), "scored": scored, "right": n["right"], "wrong": n["wrong"],
            "no_answer": n["no answer"], "errors": n["error"], "unsupported": n["unsupported"],
            "correct": sum(r["score"] for r in records if r["status"] == "ok"),
            "accuracy": round(n["right"] / scored, 4) if scored else None,
            "accuracy_of_all": round(n["right"] / len(records), 4) if records else None}


def summarize(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Counts of every outcome and the accuracies, overall, per tag and per eval function (module rules)."""
    records = list(records)
    groups: dict[str, dict[str, list[dict[str, Any]]]] = {"tag": defaultdict(list), "eval_func": defaultdict(list)}
    for r in records:
        for tag in r.get("tags") or []:
            groups["tag"][str(tag)].append(r)
        groups["eval_func"][str(r.get("eval_func"))].append(r)
    return {"total": len(records), **_counts(records),
            "needs_judge": sum(1 for r in records if _judge_missing(r)),
            "per_tag": {k: _counts(v) for k, v in sorted(groups["tag"].items())},
            "per_eval_func": {k: _counts(v) for k, v in sorted(groups["eval_func"].items())}}


def evaluate(reader: Reader | None, examples: list[dict[str, Any]], out: Path, *, predictions: dict[str, Any] | None = None,
             agent_settings: AgentSettings | None = None, chat_factory: Callable[[], ChatModel] | None = None,
             judge: Judge | None = None, concurrency: int = 1,
             on_record: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Score every example not yet done in `out`, then write and return the summary over all of them."""
    out.mkdir(parents=True, exist_ok=True)
    earlier = done_uuids(out)
    done = {u: r for u, r in earlier.items()
            if not r.get("error") and r.get("status") != "error" and not _judge_missing(r)}
    todo = [e for e in examples if e["uuid"] not in done]
    cfg = agent_settings or AgentSettings()
    write_lock = threading.Lock()

    def one(example: dict[str, Any]) -> dict[str, Any]:
        before = earlier.get(example["uuid"])
        if predictions is not None:
            if example["uuid"] in predictions:
                record = _record(example, predictions[example["uuid"]], judge)
            else:
                record = _record(example, None, judge, error="no prediction for this uuid")
        elif judge is None and needs_judge(example.get("evaluator")):
            why = f"{example['evaluator'].get('eval_func')} {NEEDS_JUDGE}; the agent was not run"
            record = _record(example, None, None, Score(0.0, "unsupported", why))
        elif _rescorable(before):
            record = _record(example, before["prediction"], judge, **{k: before.get(k) for k in (
                "turns", "tokens", "seconds", "error", "trajectory")})
        else:
            record = _agent_record(example, env, cfg, task_parts, by_file, factory, judge)
        with write_lock, (out / RESULTS).open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
        if on_record:
            on_record(record)
        return record

    if predictions is None and todo:
        if reader is None:
            raise ValueError("running the agent needs a store (a Reader)")
        env = _SharedEnv(reader, cfg)
        by_file = paper_ids_by_file(reader)
        task_parts = (reader.database_prompt(), reader.vectorstore_prompt())
        factory = chat_factory or (lambda: OpenAIChat(cfg))
    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        list(pool.map(one, todo))
    wanted = {e["uuid"] for e in examples}
    final = [r for u, r in done_uuids(out).items() if u in wanted]
    summary = summarize(final)
    (out / SUMMARY).write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return summary
