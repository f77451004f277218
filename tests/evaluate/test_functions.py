"""The 19 eval functions: every `use_cases` entry of ../shared/reference/evaluations.json (right and wrong
predictions), signatures equal to the spec, and edge cases (None, wrong types, unparsable answers, bad evaluators)."""
from __future__ import annotations

import inspect
import json

import pytest

from agent.evaluate.functions import OBJECTIVE
from agent.evaluate.judged import JUDGED, Judge
from agent.evaluate.scoring import SUPPORTED, score_answer
from pipeline.summarize.testing import FakeOpenAI
from tests.conftest import SHARED

SPEC = SHARED / "reference" / "evaluations.json"

# (eval_func, use-case index) -> (predictions scoring 1.0, predictions scoring 0.0)
OBJECTIVE_CASES = {
    ("eval_string_exact_match", 0): (["Italian", "italian", "ITALIAN", " ItAliAn "], ["Italy", "Ital ian", None, 7]),
    ("eval_string_fuzzy_match", 0): (["italy", "ITALY", "Italy "], ["Germany", "Itali an republic", None]),
    ("eval_bool_exact_match", 0): ([True, "true", "Yes", 1, "T"], [False, "no", 2, "maybe", None, [True]]),
    ("eval_int_exact_match", 0): ([42, "42", 42.0, " 42 "], [43, 42.5, "forty-two", True, None, [42]]),
    ("eval_float_exact_match", 0): ([3.14159, 3.1416, "3.142", 3.1419], [3.14, 3.143, "pi", None, float("nan")]),
    ("eval_structured_object_exact_match", 0): ([[1, 2, 3], [3, 1, 2], "[2, 3, 1]", (3, 2, 1)],
                                                [[1, 2], [1, 2, 2], [1, 2, 3, 4], "[1, 2", None, 123]),
    ("eval_structured_object_exact_match", 1): ([{"key1": 1.2, "key2": 2.33}, '{"key1": 1.204, "key2": 2.333}'],
                                                [{"key1": 1.205, "key2": 2.34}, {"key1": 1.2}, [1.2, 2.33], None]),
    ("eval_structured_object_exact_match", 2): ([["italy", "FRANCE", "Germany"], "['ITALY', 'france', 'germany']"],
                                                [["France", "Italy", "Germany"], ["Italy", "France"], "Italy"]),
    ("eval_element_included", 0): (["helloworld", "HI THERE", "greetings", " Hi  there"], ["hello", "hi", None, 3]),
    ("eval_element_included", 1): ([3.14, "3.141", 3.1415, 2.71, 2.709], [3.15, 2.72, "abc", None]),
    ("eval_element_included", 2): ([{"a": 1, "b": 2}, '{"x": 9, "y": 8}', {"b": 2, "a": 1}], [{"a": 1}, {"a": 2, "b": 2}]),
    ("eval_element_list_included", 0): ([["Apple", "banana"], ["DATE"], "['cherry', 'elderberry']"],
                                        [["apple", "fig"], [], "apple", None]),
    ("eval_element_list_included", 1): ([[3.14, 2.72], [3.141], "[2.718, 3.14]"], [[3.14, 1.0], [], 3.14]),
    ("eval_element_list_included", 2): ([[{"a": 1}, {"c": 3}], [{"b": 2}]], [[{"a": 2}], [{"a": 1, "b": 2}], [{"d": 4}]]),
    ("eval_element_list_overlap", 0): ([[3, 4], [5, 4, 9], "[3, 5]", [3.0, 4.0]], [[3], [3, 3], [6, 7], 3, None]),
    ("eval_element_list_overlap", 1): ([["Banana", "APPLE", "date"], ["apple", "cherry", "date", "fig"]],
                                       [["apple", "banana"], ["apple", "apple", "apple"], "banana", None]),
    ("eval_negation", 0): ([["TextVQA"], [], ["docvqa-2"]], [["docvqa"], ["ChartQA", "other"], None]),
}


@pytest.fixture(scope="module")
def spec() -> dict:
    if not SPEC.exists():
        pytest.skip(f"{SPEC} is absent (../shared/reference sits beside the repo, not in a fresh clone)")
    return json.loads(SPEC.read_text(encoding="utf-8"))


def test_nineteen_functions_with_the_spec_parameters_and_defaults(spec):
    assert sorted(SUPPORTED) == sorted(spec) and len(spec) == 19
    for name, fn in {**OBJECTIVE, **JUDGED}.items():
        params = [p for p in inspect.signature(fn).parameters.values() if p.name not in ("pred", "judge")]
        want = spec[name]["parameters"]
        assert [p.name for p in params] == list(want), name
        for p in params:
            if "default" in want[p.name]:
                assert p.default == want[p.name]["default"], (name, p.name)
            else:
                assert p.default is inspect.Parameter.empty, (name, p.name)


def _use_cases(spec: dict):
    for name, entry in spec.items():
        for i, case in enumerate(entry["use_cases"]):
            yield name, i, case["example"]


def test_every_objective_use_case(spec):
    seen = set()
    for name, i, example in _use_cases(spec):
        if (name, i) not in OBJECTIVE_CASES:
            continue
        seen.add((name, i))
        right, wrong = OBJECTIVE_CASES[(name, i)]
        for pred in right:
            assert score_answer(pred, example).score == 1.0, (name, i, pred)
        for pred in wrong:
            result = score_answer(pred, example)
            assert result.status == "ok" and result.score == 0.0, (name, i, pred, result)
    assert seen == set(OBJECTIVE_CASES)


def _judge_replies(body: dict) -> str:
    """A judge that says yes exactly when the prediction contains 'GOOD' or 'routing' (points: all, or one with HALF)."""
    prompt = body["messages"][-1]["content"]
    if "Paper title" in prompt:
        return json.dumps({"relevant": "Paper title: Euler" in prompt})
    pred = prompt.split("Predicted answer: ", 1)[1].split("\n", 1)[0]
    good = "GOOD" in pred or "routing" in pred.lower()
    if "Scoring points:" in prompt:
        n = prompt.split("Scoring points:\n", 1)[1].split("\nPredicted answer:")[0].count("\n") + 1
        mentioned = [good] * n if "HALF" not in pred else [True] + [False] * (n - 1)
        return json.dumps({"mentioned": mentioned, "in_order": "SHUFFLED" not in pred, "correct": good})
    return f"Verdict follows. {json.dumps({'correct': good})}"


def test_every_judged_and_composed_use_case(spec):
    papers = {"p-euler": {"title": "Euler's method for ODEs", "abstract": "We apply Euler's method."},
              "p-other": {"title": "Graphs", "abstract": "Nothing numeric."}}
    with FakeOpenAI(reply=_judge_replies) as fake:
        judge = Judge("judge-model", fake.base_url, paper_info=papers.get)
        for name, i, example in _use_cases(spec):
            if name not in JUDGED and name not in ("eval_conjunction", "eval_disjunction"):
                continue
            if name == "eval_paper_relevance_with_llm":
                right, wrong = ["p-euler"], ["p-other", "unknown paper"]
            elif name == "eval_conjunction":  # exact string AND judge
                right, wrong = ["Role-Oriented Routing"], ["routing by role", "GOOD answer"]
            elif name == "eval_disjunction":  # exact string OR judge
                right, wrong = ["role-oriented routing", "GOOD answer", "routing by role"], ["bad answer"]
            elif name == "eval_partial_scoring_points_with_llm":
                right, wrong = ["GOOD all points"], ["HALF one point", "bad"]
            elif name in ("eval_scoring_points_with_llm", "eval_reference_answer_and_scoring_points_with_llm"):
                in_order = example["eval_kwargs"].get("ignore_order", True) is False
                right, wrong = ["GOOD"], ["HALF GOOD", "bad"] + (["GOOD SHUFFLED"] if in_order else [])
            else:
                right, wrong = ["GOOD answer"], ["bad answer"]
            for pred in right:
                assert score_answer(pred, example, judge).score == 1.0, (name, pred)
            for pred in wrong:
                result = score_answer(pred, example, judge)
                assert result == result.__class__(0.0), (name, pred, result)
        judge.close()
    assert fake.requests and {b["model"] for b in fake.requests} == {"judge-model"}


def test_conjunction_needs_every_part():
    ev = {"eval_func": "eval_conjunction", "eval_kwargs": {
        "eval_func_list": ["eval_string_exact_match", "eval_int_exact_match"],
        "eval_kwargs_list": [{"gold": "42", "lowercase": True}, {"gold": 42}]}}
    assert score_answer("42", ev).score == 1.0 and score_answer(42, ev).score == 1.0
    assert score_answer("42.5", ev).score == 0.0 and score_answer("x", ev).score == 0.0


def test_judge_failures_are_errors_not_zeros():
    ev = {"eval_func": "eval_reference_answer_with_llm", "eval_kwargs": {"reference_answer": "a", "question": "q"}}
    assert score_answer("a", ev).status == "error" and "judge model" in score_answer("a", ev).detail
    with FakeOpenAI(reply=lambda body: "I think so") as fake:
        result = score_answer("a", ev, Judge("m", fake.base_url))
    assert result.status == "error" and "no boolean 'correct'" in result.detail


@pytest.mark.parametrize("evaluator, status, detail", [
    ({"eval_func": "eval_paper_relevance_with_reference_answer", "eval_kwargs": {"reference_answer": "x"}},
     "unsupported", "unsupported eval function eval_paper_relevance_with_reference_answer"),
    ({"eval_func": "eval_negation", "eval_kwargs": {"eval_func": "eval_made_up", "eval_kwargs": {}}},
     "unsupported", "unsupported eval function eval_made_up"),
    ({"eval_func": "eval_disjunction", "eval_kwargs": {"eval_func_list": ["eval_int_exact_match", "eval_nope"],
                                                        "eval_kwargs_list": [{"gold": 1}, {}]}},
     "unsupported", "unsupported eval function eval_nope"),
    ({"eval_func": "eval_int_exact_match", "eval_kwargs": {"gold": 1, "ndigits": 2}}, "error", "unknown ['ndigits']"),
    ({"eval_func": "eval_int_exact_match", "eval_kwargs": {}}, "error", "missing ['gold']"),
    ({"eval_func": "eval_string_fuzzy_match", "eval_kwargs": {"gold": "a", "fuzz_method": "wratio"}}, "error", "fuzz_method"),
    ({"eval_func": "eval_element_included", "eval_kwargs": {"gold": "not a list"}}, "error", "gold must be a list"),
    ({"eval_func": "eval_element_included", "eval_kwargs": {"gold": [1], "element_type": "date"}}, "error", "element_type"),
    ({"eval_func": "eval_conjunction", "eval_kwargs": {"eval_func_list": [], "eval_kwargs_list": []}}, "error", "non-empty"),
    ({"eval_func": None}, "error", "must be a name"),
    ("eval_int_exact_match", "error", "must be an object"),
    ({"eval_func": "eval_int_exact_match", "eval_kwargs": [1]}, "error", "must be an object"),
    ({"eval_func": "eval_int_exact_match", "eval_kwargs": {"gold": "x"}}, "error", "ValueError"),
])
def test_bad_evaluators_give_a_status_never_a_crash(evaluator, status, detail):
    result = score_answer(1, evaluator)
    assert result.status == status and result.score == 0.0 and detail in result.detail


@pytest.mark.parametrize("func, kwargs", [
    ("eval_string_exact_match", {"gold": "None"}),
    ("eval_string_fuzzy_match", {"gold": "None"}),
    ("eval_bool_exact_match", {"gold": False}),
    ("eval_int_exact_match", {"gold": 0}),
    ("eval_float_exact_match", {"gold": 0.0}),
    ("eval_structured_object_exact_match", {"gold": None}),
    ("eval_element_included", {"gold": ["None"]}),
    ("eval_element_list_overlap", {"gold": ["None"], "count": 0}),
    ("eval_negation", {"eval_func": "eval_int_exact_match", "eval_kwargs": {"gold": 1}}),
])
def test_no_answer_scores_zero_everywhere(func, kwargs):
    assert score_answer(None, {"eval_func": func, "eval_kwargs": kwargs}) == score_answer(None, {
        "eval_func": func, "eval_kwargs": kwargs}).__class__(0.0, "ok", "no answer")


@pytest.mark.parametrize("pred", ["[1, 2", "{'a': ", "__import__('os').system('true')", "1e999", object(), b"42"])
def test_unparsable_and_hostile_answers_score_zero(pred):
    for ev in ({"eval_func": "eval_structured_object_exact_match", "eval_kwargs": {"gold": [1, 2]}},
               {"eval_func": "eval_int_exact_match", "eval_kwargs": {"gold": 42}},
               {"eval_func": "eval_float_exact_match", "eval_kwargs": {"gold": 1.0}},
               {"eval_func": "eval_element_list_included", "eval_kwargs": {"gold": ["a"]}}):
        assert score_answer(pred, ev) == score_answer(pred, ev).__class__(0.0), (pred, ev)


def test_fuzzy_methods_come_from_rapidfuzz():
    ev = lambda m, t: {"eval_func": "eval_string_fuzzy_match", "eval_kwargs": {"gold": "new york city", "fuzz_method": m, "threshold": t}}  # noqa: E731
    assert score_answer("city new york", ev("token_sort_ratio", 100)).score == 1.0
    assert score_answer("city new york", ev("ratio", 90)).score == 0.0
    assert score_answer("york", ev("partial_ratio", 100)).score == 1.0
    assert score_answer("new york city city", ev("token_set_ratio", 100)).score == 1.0
    assert score_answer("New York City", {"eval_func": "eval_string_fuzzy_match",
                                          "eval_kwargs": {"gold": "new  york city", "lowercase": True, "ignore_blank": True}}).score == 1.0
