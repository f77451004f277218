"""Scoring one prediction with one AirQA evaluator ({"eval_func": ..., "eval_kwargs": {...}}), including the
composing functions `eval_conjunction`, `eval_disjunction` and `eval_negation`.

Rules:
- `score_answer` never raises: it returns a `Score` whose status is "ok", "unsupported" (an eval function nobody
  defines, or a judged one when no judge is configured) or "error" (a malformed evaluator, a judge that failed);
  only "ok" scores count as right or wrong.
- The evaluator is checked whole before anything is scored: names, argument objects, required parameters.
  Parameters a function does not take are ignored, as upstream's `**kwargs` ignores them, and the detail says so;
  three misspellings found in the published AirQA file are read as the parameter they name (`ALIASES`).
- No answer (None) scores 0.0 under every function, negation included, and needs no judge.
- Composition follows upstream: conjunction and disjunction read the answer as a list (a non-list is a list of one),
  apply their i-th function to its i-th element, and score 0.0 when the lengths differ. The objective parts run
  first; the judge is asked only when they leave the result open.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any

from agent.evaluate.functions import OBJECTIVE, UNLISTED, SpecError, as_list
from agent.evaluate.judged import JUDGED, Judge, JudgeError

COMPOSING = ("eval_conjunction", "eval_disjunction", "eval_negation")
SUPPORTED = (*OBJECTIVE, *JUDGED, *COMPOSING)
SPEC_FUNCTIONS = tuple(n for n in SUPPORTED if n not in UNLISTED)  # the 19 of evaluations.json
ALIASES = {"fomulas": "formulas", "nidigits": "ndigits", "ignore_case": "lowercase"}
NEEDS_JUDGE = "needs a judge model (--judge-model)"


@dataclass(frozen=True)
class Score:
    score: float
    status: str = "ok"  # "ok" | "unsupported" | "error"
    detail: str = ""


class _Unsupported(Exception):
    pass


@dataclass
class _Node:
    """A checked evaluator: one function with its arguments, or a composition of parts."""

    func: str
    kwargs: dict[str, Any] = field(default_factory=dict)
    parts: list[_Node] = field(default_factory=list)

    @property
    def judged(self) -> bool:
        return self.func in JUDGED or any(p.judged for p in self.parts)


def _check(func: Any, kwargs: Any, notes: list[str]) -> _Node:
    if not isinstance(func, str):
        raise SpecError(f"eval_func must be a name, got {func!r}")
    if not isinstance(kwargs, dict):
        raise SpecError(f"eval_kwargs of {func} must be an object, got {type(kwargs).__name__}")
    if func in ("eval_conjunction", "eval_disjunction"):
        _require(func, kwargs, ("eval_func_list", "eval_kwargs_list"), notes)
        funcs, kws = kwargs["eval_func_list"], kwargs["eval_kwargs_list"]
        if not isinstance(funcs, list) or not isinstance(kws, list) or len(funcs) != len(kws) or not funcs:
            raise SpecError(f"{func}: eval_func_list and eval_kwargs_list must be non-empty lists of the same length")
        return _Node(func, parts=[_check(f, k, notes) for f, k in zip(funcs, kws)])
    if func == "eval_negation":
        _require(func, kwargs, ("eval_func", "eval_kwargs"), notes)
        return _Node(func, parts=[_check(kwargs["eval_func"], kwargs["eval_kwargs"], notes)])
    fn = OBJECTIVE.get(func) or JUDGED.get(func)
    if fn is None:
        raise _Unsupported(func)
    params = list(inspect.signature(fn).parameters.values())[1:]
    names = [p.name for p in params if p.kind is not inspect.Parameter.KEYWORD_ONLY]
    kwargs = dict(kwargs)
    for wrong, right in ALIASES.items():
        if wrong in kwargs and right in names and right not in kwargs:
            kwargs[right] = kwargs.pop(wrong)
            notes.append(f"{func}: read {wrong!r} as {right!r}")
    unknown = sorted(set(kwargs) - set(names))
    if unknown:
        notes.append(f"{func}: ignored parameter(s) {unknown}")
    missing = [p.name for p in params if p.name in names and p.default is inspect.Parameter.empty
               and p.name not in kwargs]
    if missing:
        raise SpecError(f"{func}: missing {missing} parameter(s)")
    return _Node(func, {k: v for k, v in kwargs.items() if k in names})


def _require(func: str, kwargs: dict, names: tuple[str, ...], notes: list[str]) -> None:
    missing = [n for n in names if n not in kwargs]
    if missing:
        raise SpecError(f"{func}: missing {missing} parameter(s)")
    extra = sorted(set(kwargs) - set(names))
    if extra:
        notes.append(f"{func}: ignored parameter(s) {extra}")


def _run(pred: Any, node: _Node, judge: Judge | None) -> float:
    if node.func == "eval_negation":
        return 1.0 - _run(pred, node.parts[0], judge)
    if node.func in ("eval_conjunction", "eval_disjunction"):
        preds = as_list(pred)
        if len(preds) != len(node.parts):
            return 0.0
        want = node.func == "eval_disjunction"  # the outcome of one part that decides the whole
        pairs = sorted(zip(preds, node.parts), key=lambda pair: pair[1].judged)  # objective parts first
        for p, part in pairs:
            if (_run(p, part, judge) >= 0.5) == want:
                return float(want)
        return float(not want)
    if node.func in JUDGED:
        if judge is None:
            raise JudgeError(f"{node.func} {NEEDS_JUDGE}")
        return JUDGED[node.func](pred, **node.kwargs, judge=judge)
    return OBJECTIVE[node.func](pred, **node.kwargs)


def check_evaluator(evaluator: Any) -> tuple[_Node | None, Score | None, list[str]]:
    """(checked evaluator, None, notes) or (None, the unsupported / error Score, notes)."""
    notes: list[str] = []
    if not isinstance(evaluator, dict):
        return None, Score(0.0, "error", f"the evaluator must be an object, got {type(evaluator).__name__}"), notes
    try:
        return _check(evaluator.get("eval_func"), evaluator.get("eval_kwargs", {}), notes), None, notes
    except _Unsupported as exc:
        return None, Score(0.0, "unsupported", f"unsupported eval function {exc}"), notes
    except SpecError as exc:
        return None, Score(0.0, "error", str(exc)), notes


def needs_judge(evaluator: Any) -> bool:
    """Whether scoring under `evaluator` asks an LLM judge (a judged function anywhere in it)."""
    node, _, _ = check_evaluator(evaluator)
    return node is not None and node.judged


def score_answer(pred: Any, evaluator: Any, judge: Judge | None = None) -> Score:
    """Score `pred` under `evaluator`; see the module rules for the statuses."""
    node, bad, notes = check_evaluator(evaluator)
    note = "; ".join(notes)
    if bad is not None:
        return Score(bad.score, bad.status, "; ".join([bad.detail, *notes]))
    if pred is None:
        return Score(0.0, "ok", "; ".join(["no answer", *notes]))
    if node.judged and judge is None:
        return Score(0.0, "unsupported", "; ".join([f"{node.func} {NEEDS_JUDGE}", *notes]))
    try:
        value = _run(pred, node, judge)
    except (SpecError, JudgeError) as exc:
        return Score(0.0, "error", "; ".join([str(exc), *notes]))
    except Exception as exc:  # a gold of an unexpected type, ...: the evaluator's problem, reported per example
        return Score(0.0, "error", f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}")
    return Score(value, "ok", note)


def gold_of(evaluator: Any) -> Any:
    """What the evaluator holds for right (the gold, reference answer, scoring points, ...), for people to read."""
    if not isinstance(evaluator, dict) or not isinstance(evaluator.get("eval_kwargs"), dict):
        return None
    kw = evaluator["eval_kwargs"]
    func = evaluator.get("eval_func")
    if func in ("eval_conjunction", "eval_disjunction") and isinstance(kw.get("eval_func_list"), list):
        return [gold_of({"eval_func": f, "eval_kwargs": k})
                for f, k in zip(kw["eval_func_list"], kw.get("eval_kwargs_list") or [])]
    if func == "eval_negation":
        return {"not": gold_of({"eval_func": kw.get("eval_func"), "eval_kwargs": kw.get("eval_kwargs")})}
    for key in ("gold", "reference_answer", "candidate_reference_answers", "formulas", "fomulas", "scoring_points"):
        if key in kw:
            return kw[key]
    if func == "eval_paper_relevance_with_llm":
        return {"a paper relevant to": kw.get("question")}
    return None
