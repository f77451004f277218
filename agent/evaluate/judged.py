"""The LLM-judged eval functions of AirQA: a judge model reads the question, the reference and the prediction and
replies with one JSON object, which decides 1.0 or 0.0.

Rules:
- The judge speaks through `pipeline.llm` (the project's one client) to any OpenAI-compatible endpoint; temperature 0.
- A judge reply without a readable verdict raises `JudgeError` (the example is marked "error", never a silent 0).
  Verdicts are read from the JSON object the prompts ask for, or from upstream's form (the last triple-backtick
  block holding True or False), or from a reply that is just true/false/yes/no: a judge prompted either way works.
- Signatures carry the parameters and defaults of `evaluations.json` exactly; `judge` is passed by keyword.
- `eval_paper_relevance_with_llm` shows the judge the predicted paper's title and abstract: the judge's `paper_info`
  callable looks them up in the store (by id, title, or a title within fuzz.ratio 90, upstream's lookup); a paper
  the store lacks is judged by the predicted title alone.
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


class JudgeUnreachable(JudgeError):
    """The judge call itself failed (endpoint, model name, key): a configuration problem."""


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
            raise JudgeUnreachable(f"the judge call failed: {exc}") from exc
        return read_verdict(reply)

    def check(self) -> str | None:
        """One tiny judged question, so a wrong model name, endpoint or key shows before any agent runs: raises
        JudgeUnreachable when the call fails; returns a warning when the reply carries no readable verdict."""
        try:
            reply = self.verdict('Question: Is 2 + 2 equal to 4?\nReference answer: yes\nPredicted answer: yes\n'
                                 'Does the predicted answer agree with the reference answer? Reply {"correct": true} '
                                 'or {"correct": false}.')
            _flag(reply, "correct")
        except JudgeUnreachable:
            raise
        except JudgeError as exc:
            return str(exc)
        return None

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None


_WORDS = {"true": True, "false": False, "yes": True, "no": False}


def read_verdict(reply: str) -> dict[str, Any]:
    """The judge's reply as an object: its JSON object, else {"verdict": bool} from upstream's ```txt True```
    block or a bare true/false/yes/no, else {} (the caller names what is missing)."""
    blocks = re.findall(r"```[a-zA-Z]*\s*(.*?)\s*```", reply, re.S)
    if blocks and blocks[-1].strip().lower() in _WORDS:
        return {"verdict": _WORDS[blocks[-1].strip().lower()]}
    match = re.search(r"\{.*\}", reply, re.S)
    if match:
        try:
            value = json.loads(match.group(0))
        except json.JSONDecodeError:
            raise JudgeError(f"the judge reply is not JSON: {reply[:120]!r}") from None
        return value if isinstance(value, dict) else {}
    word = reply.strip().strip(".!*`'\"").lower()
    return {"verdict": _WORDS[word]} if word in _WORDS else {}


def _flag(reply: dict[str, Any], key: str) -> bool:
    value = reply.get(key, reply.get("verdict"))
    if not isinstance(value, bool):
        raise JudgeError(f"the judge reply has no boolean {key!r}: {json.dumps(reply)[:120]}")
    return value


def _points(reply: dict[str, Any], n: int) -> list[bool] | bool:
    """Per-point flags, or the one overall verdict the judge gave instead (upstream's form: a single True/False)."""
    overall = reply.get("verdict", reply.get("correct"))
    if "mentioned" not in reply and isinstance(overall, bool):
        return overall
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


def _ask_points(judge: Judge, pred: Any, points: list, question: str, extra: str = "", count: int | None = None,
                ) -> dict[str, Any]:
    need = f"at least {count} of the points" if count is not None else "every point"
    return judge.verdict(f"Question: {question}\n{extra}Scoring points:\n{_numbered(points)}\nPredicted answer: {pred}\n"
                         f"(A right answer mentions {need}.) "
                         "For each scoring point, is it mentioned (in meaning) by the predicted answer? Also say "
                         "whether the mentioned points appear in the listed order. Reply "
                         '{"mentioned": [true or false per point], "in_order": true or false'
                         + (', "correct": true or false (agrees with the reference answer)' if extra else "") + "}.")


def eval_partial_scoring_points_with_llm(pred: Any, scoring_points: list, question: str, count: int = 1, *,
                                         judge: Judge | None = None) -> float:
    r = _ask_points(_need(judge), pred, scoring_points, question, count=count)
    points = _points(r, len(scoring_points))
    return float(points if isinstance(points, bool) else sum(points) >= count)


def eval_scoring_points_with_llm(pred: Any, scoring_points: list, question: str, ignore_order: bool = True, *,
                                 judge: Judge | None = None) -> float:
    r = _ask_points(_need(judge), pred, scoring_points, question)
    points = _points(r, len(scoring_points))
    if isinstance(points, bool):
        return float(points)
    return float(all(points) and (ignore_order or _flag(r, "in_order")))


def eval_reference_answer_and_scoring_points_with_llm(pred: Any, reference_answer: str, scoring_points: list,
                                                      question: str, ignore_order: bool = True, *,
                                                      judge: Judge | None = None) -> float:
    r = _ask_points(_need(judge), pred, scoring_points, question, f"Reference answer: {reference_answer}\n")
    points = _points(r, len(scoring_points))
    if isinstance(points, bool):
        return float(points)
    return float(_flag(r, "correct") and all(points) and (ignore_order or _flag(r, "in_order")))


def eval_paper_relevance_with_llm(pred: Any, question: str, *, judge: Judge | None = None) -> float:
    judge = _need(judge)
    if pred is None or not str(pred).strip():
        return 0.0
    info = judge.paper_info(pred) if judge.paper_info else None
    title, abstract = (info.get("title"), info.get("abstract")) if info else (str(pred).strip(), None)
    abstract = abstract or "(not in the store: judge by the title)"
    r = judge.verdict(f"Question (describes a paper): {question}\nPaper title: {title}\n"
                      f"Abstract: {abstract}\nIs this paper relevant to the question? Reply "
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
