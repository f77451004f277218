"""The objective eval functions of AirQA (`evaluations.json`): exact / fuzzy string, bool, int, float, structured
objects, element included / list included / list overlap.

Rules:
- Signatures carry the parameters and defaults of `evaluations.json` exactly (a test compares them); every function
  takes the prediction first and returns 1.0 or 0.0.
- Nothing raises on a bad prediction: None, a wrong type or an unparsable string scores 0.0. A prediction given as a
  string is parsed with `json.loads`, then `ast.literal_eval` (literals only, never `eval`).
- Fuzzy matching goes through `rapidfuzz.fuzz` (scores 0-100); `threshold` <= 0 means exact match.
- Floats compare with `math.isclose(rel_tol=tolerance)` after optional `round(x, ndigits)` (Python rounding).
"""
from __future__ import annotations

import ast
import json
import math
import re
from typing import Any

from rapidfuzz import fuzz

FUZZ_METHODS = ("ratio", "partial_ratio", "token_sort_ratio", "token_set_ratio")
ELEMENT_TYPES = ("str", "int", "float", "structured")
_TRUE, _FALSE = {"true", "yes", "y", "t", "1"}, {"false", "no", "n", "f", "0"}


class SpecError(ValueError):
    """The evaluator itself is malformed (an unknown option, a gold of the wrong type): not the prediction's fault."""


def parse_literal(value: Any) -> Any:
    """A string holding a JSON or Python literal becomes that value; anything else is returned as is."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    for parse in (json.loads, ast.literal_eval):
        try:
            return parse(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return value


def _text(value: Any, lowercase: bool, ignore_blank: bool, keep_single_spaces: bool = False) -> str:
    text = str(value).strip()
    if ignore_blank:
        text = re.sub(r"\s+", " " if keep_single_spaces else "", text)
    return text.lower() if lowercase else text


def _fuzzy(pred: str, gold: str, fuzz_method: str) -> float:
    if fuzz_method not in FUZZ_METHODS:
        raise SpecError(f"fuzz_method must be one of {FUZZ_METHODS}, got {fuzz_method!r}")
    return float(getattr(fuzz, fuzz_method)(pred, gold))


def eval_string_exact_match(pred: Any, gold: str, lowercase: bool = False, ignore_blank: bool = False) -> float:
    if pred is None:
        return 0.0
    return float(_text(pred, lowercase, ignore_blank) == _text(gold, lowercase, ignore_blank))


def eval_string_fuzzy_match(pred: Any, gold: str, fuzz_method: str = "ratio", threshold: int = 95,
                            ignore_blank: bool = False, lowercase: bool = False) -> float:
    if pred is None:
        return 0.0
    tokens = fuzz_method in ("token_sort_ratio", "token_set_ratio")  # token methods need the blanks between tokens
    a, b = (_text(x, lowercase, ignore_blank, tokens) for x in (pred, gold))
    return float(_fuzzy(a, b, fuzz_method) >= threshold)


def _as_bool(pred: Any) -> bool | None:
    if isinstance(pred, bool):
        return pred
    if isinstance(pred, (int, float)):
        return bool(pred) if pred in (0, 1) else None
    if isinstance(pred, str):
        word = pred.strip().strip(".").lower()
        return True if word in _TRUE else False if word in _FALSE else None
    return None


def eval_bool_exact_match(pred: Any, gold: bool) -> float:
    value = _as_bool(pred)
    return 0.0 if value is None else float(value == bool(gold))


def _as_number(pred: Any) -> float | None:
    pred = parse_literal(pred) if isinstance(pred, str) else pred
    if isinstance(pred, bool) or not isinstance(pred, (int, float)):
        return None
    return float(pred) if math.isfinite(pred) else None


def _as_int(pred: Any) -> int | None:
    if isinstance(pred, str):
        pred = pred.strip().replace(",", "") if re.fullmatch(r"\s*-?\d{1,3}(,\d{3})+\s*", pred) else pred
    number = _as_number(pred)
    return int(number) if number is not None and number == int(number) else None


def eval_int_exact_match(pred: Any, gold: int) -> float:
    value = _as_int(pred)
    return 0.0 if value is None else float(value == int(gold))


def eval_float_exact_match(pred: Any, gold: float, ndigits: int | None = None, tolerance: float = 1e-6) -> float:
    value = _as_number(pred)
    if value is None:
        return 0.0
    gold = float(gold)
    if ndigits is not None:
        value, gold = round(value, ndigits), round(gold, ndigits)
    return float(math.isclose(value, gold, rel_tol=tolerance))


def _same(pred: Any, gold: Any, kw: dict[str, Any]) -> bool:
    """Recursive comparison of `eval_structured_object_exact_match` (kw: its optional arguments)."""
    if isinstance(gold, list):
        pred = parse_literal(pred)
        pred = list(pred) if isinstance(pred, (tuple, set)) else pred
        if not isinstance(pred, list) or len(pred) != len(gold):
            return False
        if not kw["ignore_order"]:
            return all(_same(p, g, kw) for p, g in zip(pred, gold))
        rest = list(pred)
        for g in gold:  # each gold element takes one distinct predicted element
            hit = next((i for i, p in enumerate(rest) if _same(p, g, kw)), None)
            if hit is None:
                return False
            rest.pop(hit)
        return True
    if isinstance(gold, dict):
        pred = parse_literal(pred)
        if not isinstance(pred, dict) or len(pred) != len(gold):
            return False
        key = (lambda k: str(k).lower()) if kw["lowercase"] else str
        pred = {key(k): v for k, v in pred.items()}
        return all(key(k) in pred and _same(pred[key(k)], v, kw) for k, v in gold.items())
    if isinstance(gold, bool):
        return eval_bool_exact_match(pred, gold) == 1.0
    if isinstance(gold, int):
        return eval_int_exact_match(pred, gold) == 1.0
    if isinstance(gold, float):
        return eval_float_exact_match(pred, gold, kw["ndigits"], kw["tolerance"]) == 1.0
    if gold is None:
        return pred is None
    if kw["threshold"] > 0:
        return eval_string_fuzzy_match(pred, gold, kw["fuzz_method"], kw["threshold"], kw["ignore_blank"],
                                       kw["lowercase"]) == 1.0
    return eval_string_exact_match(pred, gold, kw["lowercase"], kw["ignore_blank"]) == 1.0


def eval_structured_object_exact_match(pred: Any, gold: Any, ignore_order: bool = False, tolerance: float = 1e-6,
                                       ndigits: int | None = None, lowercase: bool = False,
                                       ignore_blank: bool = False, threshold: int = -1,
                                       fuzz_method: str = "ratio") -> float:
    if pred is None:
        return 0.0
    kw = dict(ignore_order=ignore_order, tolerance=tolerance, ndigits=ndigits, lowercase=lowercase,
              ignore_blank=ignore_blank, threshold=threshold, fuzz_method=fuzz_method)
    return float(_same(pred, gold, kw))


def _element_matcher(element_type: str, ndigits: int, tolerance: float, fuzz_method: str, threshold: int,
                     lowercase: bool, ignore_blank: bool):
    if element_type not in ELEMENT_TYPES:
        raise SpecError(f"element_type must be one of {ELEMENT_TYPES}, got {element_type!r}")
    if fuzz_method not in FUZZ_METHODS:
        raise SpecError(f"fuzz_method must be one of {FUZZ_METHODS}, got {fuzz_method!r}")

    def match(pred: Any, gold: Any) -> bool:
        if pred is None:
            return False
        if element_type == "int":
            return eval_int_exact_match(pred, gold) == 1.0
        if element_type == "float":
            return eval_float_exact_match(pred, gold, ndigits, tolerance) == 1.0
        if element_type == "structured":
            return eval_structured_object_exact_match(pred, gold, False, tolerance, ndigits, lowercase, ignore_blank,
                                                      threshold, fuzz_method) == 1.0
        if threshold > 0:
            return eval_string_fuzzy_match(pred, gold, fuzz_method, threshold, ignore_blank, lowercase) == 1.0
        return eval_string_exact_match(pred, gold, lowercase, ignore_blank) == 1.0

    return match


def _gold_list(gold: Any) -> list[Any]:
    if not isinstance(gold, list):
        raise SpecError(f"gold must be a list, got {type(gold).__name__}")
    return gold


def _pred_list(pred: Any) -> list[Any] | None:
    pred = parse_literal(pred)
    return list(pred) if isinstance(pred, (list, tuple, set)) else None


def eval_element_included(pred: Any, gold: list, element_type: str = "str", ndigits: int = 2,
                          tolerance: float = 1e-6, fuzz_method: str = "ratio", threshold: int = -1,
                          lowercase: bool = False, ignore_blank: bool = False) -> float:
    match = _element_matcher(element_type, ndigits, tolerance, fuzz_method, threshold, lowercase, ignore_blank)
    return float(any(match(pred, g) for g in _gold_list(gold)))


def eval_element_list_included(pred: Any, gold: list, element_type: str = "str", ndigits: int = 2,
                               tolerance: float = 1e-6, fuzz_method: str = "ratio", threshold: int = -1,
                               lowercase: bool = False, ignore_blank: bool = False) -> float:
    match = _element_matcher(element_type, ndigits, tolerance, fuzz_method, threshold, lowercase, ignore_blank)
    gold, preds = _gold_list(gold), _pred_list(pred)
    if not preds:  # no list, or an empty one: nothing was answered
        return 0.0
    return float(all(any(match(p, g) for g in gold) for p in preds))


def eval_element_list_overlap(pred: Any, gold: list, count: int = 1, element_type: str = "str", ndigits: int = 2,
                              tolerance: float = 1e-6, fuzz_method: str = "ratio", threshold: int = -1,
                              lowercase: bool = False, ignore_blank: bool = False) -> float:
    match = _element_matcher(element_type, ndigits, tolerance, fuzz_method, threshold, lowercase, ignore_blank)
    gold, preds = _gold_list(gold), _pred_list(pred)
    if preds is None:
        return 0.0
    hits = sum(1 for g in gold if any(match(p, g) for p in preds))  # distinct gold elements found
    return float(hits >= count)


OBJECTIVE = {f.__name__: f for f in (
    eval_string_exact_match, eval_string_fuzzy_match, eval_bool_exact_match, eval_int_exact_match,
    eval_float_exact_match, eval_structured_object_exact_match, eval_element_included, eval_element_list_included,
    eval_element_list_overlap)}
