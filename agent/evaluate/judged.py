"""The LLM-judged eval functions of AirQA: a judge model reads the question, the reference and the prediction and
replies with one JSON object, which decides 1.0 or 0.0.

Rules:
- The judge speaks through `pipeline.llm` (the project's one client) to any OpenAI-compatible endpoint; temperature 0.
- A judge reply without a readable verdict raises `JudgeError` (the example is marked "error", never a silent 0).
- Signatures carry the parameters and defaults of `evaluations.json` exactly; `judge` is passed by keyword.
- `eval_paper_relevance_with_llm` needs the predicted paper's title and abstract: the judge's `paper_info` callable
  looks them up (by id or title in the store); an unknown paper scores 0.0.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pipeline import llm

SYSTEM = ("You are a strict grader of answers to questions about scientific papers. Reply with one JSON object and "
          "nothing else.")


class JudgeError(RuntimeError):
    """The judge could not be asked, or its reply carried no verdict."""


@dataclass
class Judge:
    """An OpenAI-compatible judge model; `paper_info(pred) -> {"title", "abstract"} | None` serves paper relevance."""

    model: str
    base_url: str | None = None
    api_key: str | None = None
    timeout_s: float = 60.0
    paper_info: Callable[[Any], dict[str, Any] | None] | None = None
    _client: Any = field(default=None, repr=False)

    def verdict(self, prompt: str) -> dict[str, Any]:
        if self._client is None:
            self._client = llm.sync_client(self.base_url, self.api_key, timeout_s=self.timeout_s, max_retries=1)
        body = {"model": self.model, "temperature": 0.0, "max_tokens": 400,
                "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}]}
        try:
            reply = llm.chat(self._client, body)
        except llm.LLMError as exc:
            raise JudgeError(f"the judge call failed: {exc}") from exc
        match = re.search(r"\{.*\}", reply, re.S)
        try:
            return json.loads(match.group(0)) if match else {}
        except json.JSONDecodeError:
            raise JudgeError(f"the judge reply is not JSON: {reply[:120]!r}") from None

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None


def _flag(reply: dict[str, Any], key: str) -> bool:
    value = reply.get(key)
    if not isinstance(value, bool):
        raise JudgeError(f"the judge reply has no boolean {key!r}: {json.dumps(reply)[:120]}")
    return value


def _points(reply: dict[str, Any], n: int) -> list[bool]:
    value = reply.get("mentioned")
    if not isinstance(value, list) or len(value) != n or not all(isinstance(v, bool) for v in value):
        raise JudgeError(f"the judge reply needs 'mentioned': a list of {n} booleans: {json.dumps(reply)[:120]}")
    return value


def _need(judge: Judge | None) -> Judge:
    if judge is None:
        raise JudgeError("this eval function needs a judge model (--judge-model)")
    return judge


def _numbered(items: list[Any]) -> str:
    return "\n".join(f"{i}. {x}" for i, x in enumerate(items, 1))


def eval_reference_answer_with_llm(pred: Any, reference_answer: str, question: str, *, judge: Judge | None = None) -> float:
    r = _need(judge).verdict(f"Question: {question}\nReference answer: {reference_answer}\nPredicted answer: {pred}\n"
                             'Does the predicted answer agree with the reference answer? Reply {"correct": true} or '
                             '{"correct": false}.')
    return float(_flag(r, "correct"))


def eval_candidate_reference_answer_with_llm(pred: Any, candidate_reference_answers: list, question: str, *,
                                             judge: Judge | None = None) -> float:
    r = _need(judge).verdict(f"Question: {question}\nCandidate reference answers:\n"
                             f"{_numbered(candidate_reference_answers)}\nPredicted answer: {pred}\n"
                             "Does the predicted answer agree with at least one candidate reference answer? Reply "
                             '{"correct": true} or {"correct": false}.')
    return float(_flag(r, "correct"))


def _ask_points(judge: Judge, pred: Any, points: list, question: str, extra: str = "") -> dict[str, Any]:
    return judge.verdict(f"Question: {question}\n{extra}Scoring points:\n{_numbered(points)}\nPredicted answer: {pred}\n"
                         "For each scoring point, is it mentioned (in meaning) by the predicted answer? Also say "
                         "whether the mentioned points appear in the listed order. Reply "
                         '{"mentioned": [true or false per point], "in_order": true or false'
                         + (', "correct": true or false (agrees with the reference answer)' if extra else "") + "}.")


def eval_partial_scoring_points_with_llm(pred: Any, scoring_points: list, question: str, count: int = 1, *,
                                         judge: Judge | None = None) -> float:
    r = _ask_points(_need(judge), pred, scoring_points, question)
    return float(sum(_points(r, len(scoring_points))) >= count)


def eval_scoring_points_with_llm(pred: Any, scoring_points: list, question: str, ignore_order: bool = True, *,
                                 judge: Judge | None = None) -> float:
    r = _ask_points(_need(judge), pred, scoring_points, question)
    ok = all(_points(r, len(scoring_points)))
    return float(ok and (ignore_order or _flag(r, "in_order")))


def eval_reference_answer_and_scoring_points_with_llm(pred: Any, reference_answer: str, scoring_points: list,
                                                      question: str, ignore_order: bool = True, *,
                                                      judge: Judge | None = None) -> float:
    r = _ask_points(_need(judge), pred, scoring_points, question, f"Reference answer: {reference_answer}\n")
    ok = _flag(r, "correct") and all(_points(r, len(scoring_points)))
    return float(ok and (ignore_order or _flag(r, "in_order")))


def eval_paper_relevance_with_llm(pred: Any, question: str, *, judge: Judge | None = None) -> float:
    judge = _need(judge)
    info = judge.paper_info(pred) if judge.paper_info and pred is not None else None
    if not info:
        return 0.0
    r = judge.verdict(f"Question (describes a paper): {question}\nPaper title: {info.get('title')}\n"
                      f"Abstract: {info.get('abstract')}\nIs this paper relevant to the question? Reply "
                      '{"relevant": true} or {"relevant": false}.')
    return float(_flag(r, "relevant"))


def eval_complex_math_formula_with_llm(pred: Any, formulas: str | list, question: str, ignore_order: bool = True, *,
                                       judge: Judge | None = None) -> float:
    refs = formulas if isinstance(formulas, list) else [formulas]
    order = "in any order" if ignore_order else "in the same order"
    r = _need(judge).verdict(f"Question: {question}\nReference formula(s) (LaTeX):\n{_numbered(refs)}\n"
                             f"Predicted answer: {pred}\nIs every reference formula given, {order}, by a "
                             "mathematically equivalent formula in the prediction? Reply "
                             '{"correct": true} or {"correct": false}.')
    return float(_flag(r, "correct"))


JUDGED = {f.__name__: f for f in (
    eval_reference_answer_with_llm, eval_candidate_reference_answer_with_llm, eval_partial_scoring_points_with_llm,
    eval_scoring_points_with_llm, eval_reference_answer_and_scoring_points_with_llm, eval_paper_relevance_with_llm,
    eval_complex_math_formula_with_llm)}
