"""The objective eval functions of AirQA (`evaluations.json`): exact / fuzzy string, bool, int, float, structured
objects, element included / list included / list overlap; and `eval_paper_relevance_with_reference_answer`, which
the AirQA question file uses (240 of its 553 questions) but `evaluations.json` does not list.

Rules:
- Signatures carry the parameters and defaults of `evaluations.json` exactly (a test compares them); every function
  takes the prediction first and returns 1.0 or 0.0.
- Nothing raises on a bad prediction: None, a wrong type or an unparsable string scores 0.0. A prediction given as a
  string is parsed with `json.loads`, then `ast.literal_eval` (literals only, never `eval`).
- Where a list is expected (the list functions; the composing ones in scoring.py), a prediction that is not a list is
  read as a list of one element, as upstream does; an empty list answers nothing and scores 0.0.
- Fuzzy matching goes through `rapidfuzz.fuzz`; the score is rounded to an integer and the token methods clean both
  strings first (lowercase, punctuation to blanks), as the fuzzywuzzy functions upstream scored with do; a threshold
  <= 0 means exact match.
- Floats compare with `math.isclose(rel_tol=tolerance)` after optional `round(x, ndigits)` (Python rounding).
- Where upstream is looser than the parameter descriptions, the descriptions win (each deviation makes a wrong
  answer score 0.0, never a right one): an int match refuses 42.5 for 42 (upstream truncates), and the overlap
  count is of distinct gold elements found (upstream counts distinct predicted strings, so "Apple" and "apple"
  count twice under `lowercase`). Structured lists with `ignore_order` pair each gold element with its own predicted
  element (upstream sorts both by `str` and compares in order, which refuses a right answer whose case or blanks
  sort differently). A fuzzy threshold written as a fraction (0.9) is read as a percentage (90).
"""
from __future__ import annotations

import ast
import json
import math
import re
from typing import Any

from rapidfuzz import fuzz, utils

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


def _fuzzy(pred: str, gold: str, fuzz_method: str) -> int:
    """0-100 like fuzzywuzzy: rounded, and the token methods compare cleaned strings (its `full_process`)."""
    if fuzz_method not in FUZZ_METHODS:
        raise SpecError(f"fuzz_method must be one of {FUZZ_METHODS}, got {fuzz_method!r}")
    processor = utils.default_process if fuzz_method.startswith("token_") else None
    return round(getattr(fuzz, fuzz_method)(pred, gold, processor=processor))


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
    return float(_fuzzy(a, b, fuzz_method) >= _percent(threshold))


def _percent(threshold: float) -> float:
    """A threshold on the 0-100 scale; one written as a fraction (0.9, found in the AirQA file) means 90, not "any
    string at all", which is what comparing a 0-100 score with 0.9 would accept."""
    return threshold * 100 if 0 < threshold <= 1 else threshold


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
        return pred is None or str(pred).strip().lower() in ("none", "null")
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


def as_list(pred: Any) -> list[Any]:
    """The prediction as a list: a list, tuple or set (or a string holding one) as is, anything else as one element."""
    value = parse_literal(pred)
    return list(value) if isinstance(value, (list, tuple, set)) else [pred]


def eval_element_included(pred: Any, gold: list, element_type: str = "str", ndigits: int = 2,
                          tolerance: float = 1e-6, fuzz_method: str = "ratio", threshold: int = -1,
                          lowercase: bool = False, ignore_blank: bool = False) -> float:
    match = _element_matcher(element_type, ndigits, tolerance, fuzz_method, threshold, lowercase, ignore_blank)
    return float(any(match(pred, g) for g in _gold_list(gold)))


def eval_element_list_included(pred: Any, gold: list, element_type: str = "str", ndigits: int = 2,
                               tolerance: float = 1e-6, fuzz_method: str = "ratio", threshold: int = -1,
                               lowercase: bool = False, ignore_blank: bool = False) -> float:
    match = _element_matcher(element_type, ndigits, tolerance, fuzz_method, threshold, lowercase, ignore_blank)
    gold = _gold_list(gold)
    preds = as_list(pred) if pred is not None else []
    if not preds:  # an empty list answers nothing (upstream's `all([])` would call it right)
        return 0.0
    return float(all(any(match(p, g) for g in gold) for p in preds))


def eval_element_list_overlap(pred: Any, gold: list, count: int = 1, element_type: str = "str", ndigits: int = 2,
                              tolerance: float = 1e-6, fuzz_method: str = "ratio", threshold: int = -1,
                              lowercase: bool = False, ignore_blank: bool = False) -> float:
    match = _element_matcher(element_type, ndigits, tolerance, fuzz_method, threshold, lowercase, ignore_blank)
    gold = _gold_list(gold)
    if pred is None:
        return 0.0
    preds = as_list(pred)
    hits = sum(1 for g in gold if any(match(p, g) for p in preds))  # distinct gold elements found
    return float(hits >= count)


def eval_paper_relevance_with_reference_answer(pred: Any, reference_answer: str | list, question: str = "",
                                                threshold: int = 95) -> float:
    """The predicted paper title against the reference title (or any of a list of acceptable titles): a
    case-insensitive `fuzz.ratio` at or above `threshold`. `question` is carried by the question files, not used."""
    refs = reference_answer if isinstance(reference_answer, list) else [reference_answer]
    if not refs or not all(isinstance(r, str) for r in refs):
        raise SpecError(f"reference_answer must be a title or a list of titles, got {reference_answer!r}")
    if pred is None:
        return 0.0
    value = parse_literal(pred) if isinstance(pred, str) and pred.strip()[:1] in "[(" else pred
    if isinstance(value, (list, tuple)) and len(value) == 1:  # ["Title"]: one title in a list
        value = value[0]
    title = str(value).strip().lower()
    return float(any(_fuzzy(title, r.strip().lower(), "ratio") >= _percent(threshold) for r in refs))


OBJECTIVE = {f.__name__: f for f in (
    eval_string_exact_match, eval_string_fuzzy_match, eval_bool_exact_match, eval_int_exact_match,
    eval_float_exact_match, eval_structured_object_exact_match, eval_element_included, eval_element_list_included,
    eval_element_list_overlap, eval_paper_relevance_with_reference_answer)}
# in the question files, not in evaluations.json (its signature is upstream's, not the spec's)
UNLISTED = ("eval_paper_relevance_with_reference_answer",)
