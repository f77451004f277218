"""Answers built from an AirQA evaluator itself: `right(ev)` is what its gold says, `perturbed(ev)` is close to it in
shape but wrong in every part that is checked. Judged parts get marker strings that a fake judge recognises."""
from __future__ import annotations

from typing import Any

from agent.evaluate.judged import JUDGED

RIGHT_MARK, WRONG_MARK = "@@right-answer@@", "@@perturbed-answer@@"


def _rot(text: str) -> str:
    """Every letter rotated by 13 and every digit by 5: no character of the text survives where it was."""
    out = []
    for ch in text:
        if "a" <= ch.lower() <= "z":
            base = ord("a") if ch.islower() else ord("A")
            out.append(chr(base + (ord(ch) - base + 13) % 26))
        elif ch.isdigit() and ch.isascii():
            out.append(str((int(ch) + 5) % 10))
        else:
            out.append(ch)
    rotated = "".join(out)
    return rotated if rotated.strip() != text.strip() else text + " zq"


def wrong_value(value: Any) -> Any:
    """A value of the same shape that matches nothing of `value`."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + max(1.0, abs(value))
    if isinstance(value, str):
        return _rot(value)
    if isinstance(value, list):
        return [wrong_value(value[0]), *value[1:]] if value else ["zq"]
    if isinstance(value, dict):
        if not value:
            return {"zq": 1}
        first = next(iter(value))
        return {**value, first: wrong_value(value[first])}
    return "zq"


def _parts(kw: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"eval_func": f, "eval_kwargs": k} for f, k in zip(kw["eval_func_list"], kw["eval_kwargs_list"])]


def is_judged(ev: dict[str, Any]) -> bool:
    kw = ev["eval_kwargs"]
    if ev["eval_func"] in ("eval_conjunction", "eval_disjunction"):
        return any(is_judged(p) for p in _parts(kw))
    if ev["eval_func"] == "eval_negation":
        return is_judged({"eval_func": kw["eval_func"], "eval_kwargs": kw["eval_kwargs"]})
    return ev["eval_func"] in JUDGED


def right(ev: dict[str, Any]) -> Any:
    func, kw = ev["eval_func"], ev["eval_kwargs"]
    if func in JUDGED:
        return RIGHT_MARK
    if func in ("eval_conjunction", "eval_disjunction"):
        return [right(p) for p in _parts(kw)]
    if func == "eval_negation":
        return perturbed({"eval_func": kw["eval_func"], "eval_kwargs": kw["eval_kwargs"]})
    if func == "eval_paper_relevance_with_reference_answer":
        ref = kw["reference_answer"]
        return ref if isinstance(ref, str) else ref[0]
    if func == "eval_element_included":
        return kw["gold"][0]
    if func == "eval_element_list_overlap":
        return kw["gold"][: kw.get("count", 1)]
    return kw["gold"]


def perturbed(ev: dict[str, Any]) -> Any:
    func, kw = ev["eval_func"], ev["eval_kwargs"]
    if func in JUDGED:
        return WRONG_MARK
    if func == "eval_conjunction":  # one part wrong: an objective one where there is one
        parts = _parts(kw)
        answer = [right(p) for p in parts]
        i = next((i for i, p in enumerate(parts) if not is_judged(p)), 0)
        answer[i] = perturbed(parts[i])
        return answer
    if func == "eval_disjunction":
        return [perturbed(p) for p in _parts(kw)]
    if func == "eval_negation":
        return right({"eval_func": kw["eval_func"], "eval_kwargs": kw["eval_kwargs"]})
    if func == "eval_paper_relevance_with_reference_answer":
        return _rot(right(ev))
    if func == "eval_float_exact_match":  # far enough for a relative tolerance (0.6 in the file)
        tol = min(0.9, float(kw.get("tolerance", 1e-6)))
        return (abs(float(kw["gold"])) + 1.0) * (2.0 / (1.0 - tol) + 1.0)
    if func in ("eval_element_included",):
        return wrong_value(kw["gold"][0])
    if func in ("eval_element_list_included", "eval_element_list_overlap"):
        return [wrong_value(g) for g in kw["gold"]]
    return wrong_value(kw["gold"])


def fake_judge_reply(body: dict[str, Any]) -> str:
    """Upstream's verdict form: True exactly when the prompt carries the right-answer marker."""
    prompt = body["messages"][-1]["content"]
    return f"Reasoning...\n```txt\n{RIGHT_MARK in prompt and WRONG_MARK not in prompt}\n```"
