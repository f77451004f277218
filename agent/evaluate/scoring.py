"""Scoring one prediction with one AirQA evaluator ({"eval_func": ..., "eval_kwargs": {...}}), including the
composing functions `eval_conjunction`, `eval_disjunction` and `eval_negation`.

Rules:
- `score_answer` never raises: it returns a `Score` whose status is "ok", "unsupported" (an eval function
  `evaluations.json` does not define, e.g. eval_paper_relevance_with_reference_answer) or "error" (a malformed
  evaluator, a missing or unreadable judge); only "ok" scores count as right or wrong.
- Keyword arguments are checked against the function's signature (the spec's parameter names); unknown ones are errors.
- No answer (None) scores 0.0 under every function, negation included.
- Composition: an "unsupported" or "error" part makes the whole result that status.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

from agent.evaluate.functions import OBJECTIVE, SpecError
from agent.evaluate.judged import JUDGED, Judge, JudgeError

COMPOSING = ("eval_conjunction", "eval_disjunction", "eval_negation")
SUPPORTED = (*OBJECTIVE, *JUDGED, *COMPOSING)


@dataclass(frozen=True)
class Score:
    score: float
    status: str = "ok"  # "ok" | "unsupported" | "error"
    detail: str = ""


class _Unsupported(Exception):
    pass


def _call(pred: Any, func: Any, kwargs: Any, judge: Judge | None) -> float:
    if not isinstance(func, str):
        raise SpecError(f"eval_func must be a name, got {func!r}")
    if not isinstance(kwargs, dict):
        raise SpecError(f"eval_kwargs of {func} must be an object, got {type(kwargs).__name__}")
    if func in ("eval_conjunction", "eval_disjunction"):
        return _compose(pred, func, kwargs, judge)
    if func == "eval_negation":
        _check(kwargs, {"eval_func", "eval_kwargs"}, func)
        return 1.0 - _call(pred, kwargs["eval_func"], kwargs["eval_kwargs"], judge)
    fn = OBJECTIVE.get(func) or JUDGED.get(func)
    if fn is None:
        raise _Unsupported(func)
    params = inspect.signature(fn).parameters
    required = {n for n, p in list(params.items())[1:] if p.default is inspect.Parameter.empty and n != "judge"}
    _check(kwargs, required, func, allowed=set(params) - {"pred", "judge"})
    extra = {"judge": judge} if func in JUDGED else {}
    return fn(pred, **kwargs, **extra)


def _check(kwargs: dict, required: set[str], func: str, allowed: set[str] | None = None) -> None:
    missing, unknown = required - set(kwargs), set(kwargs) - (allowed if allowed is not None else required)
    if missing or unknown:
        raise SpecError(f"{func}: missing {sorted(missing)} / unknown {sorted(unknown)} parameter(s)")


def _compose(pred: Any, func: str, kwargs: dict, judge: Judge | None) -> float:
    _check(kwargs, {"eval_func_list", "eval_kwargs_list"}, func)
    funcs, kws = kwargs["eval_func_list"], kwargs["eval_kwargs_list"]
    if not isinstance(funcs, list) or not isinstance(kws, list) or len(funcs) != len(kws) or not funcs:
        raise SpecError(f"{func}: eval_func_list and eval_kwargs_list must be non-empty lists of the same length")
    scores = [_call(pred, f, k, judge) for f, k in zip(funcs, kws)]  # all parts run: an unsupported one always shows
    return float(all(s >= 0.5 for s in scores) if func == "eval_conjunction" else any(s >= 0.5 for s in scores))


def score_answer(pred: Any, evaluator: Any, judge: Judge | None = None) -> Score:
    """Score `pred` under `evaluator`; see the module rules for the statuses."""
    if not isinstance(evaluator, dict):
        return Score(0.0, "error", f"the evaluator must be an object, got {type(evaluator).__name__}")
    try:
        value = _call(pred, evaluator.get("eval_func"), evaluator.get("eval_kwargs", {}), judge)
    except _Unsupported as exc:
        return Score(0.0, "unsupported", f"unsupported eval function {exc}")
    except (SpecError, JudgeError) as exc:
        return Score(0.0, "error", str(exc))
    except Exception as exc:  # a gold of an unexpected type, ...: the evaluator's problem, reported per example
        return Score(0.0, "error", f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}")
    if pred is None:
        return Score(0.0, "ok", "no answer")
    return Score(value)
