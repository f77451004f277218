"""The 19 eval functions of ../shared/reference/evaluations.json and eval_paper_relevance_with_reference_answer: every
`use_cases` entry (right and wrong predictions), signatures equal to the spec, upstream's composition (one answer
element per function), judge replies in either form, and edge cases (None, wrong types, unparsable answers, bad
evaluators, parameters a function does not take)."""
from __future__ import annotations

import inspect
import json

import pytest

from agent.evaluate.functions import OBJECTIVE
from agent.evaluate.judged import JUDGED, Judge
from agent.evaluate.functions import UNLISTED
from agent.evaluate.scoring import SPEC_FUNCTIONS, SUPPORTED, Score, score_answer
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
    # a prediction that is not a list is a list of one element, as upstream reads it ("apple", 3.14)
    ("eval_element_list_included", 0): ([["Apple", "banana"], ["DATE"], "['cherry', 'elderberry']", "apple"],
                                        [["apple", "fig"], [], "fig", None]),
    ("eval_element_list_included", 1): ([[3.14, 2.72], [3.141], "[2.718, 3.14]", 3.14], [[3.14, 1.0], [], 1.0]),
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
    assert sorted(SPEC_FUNCTIONS) == sorted(spec) and len(spec) == 19
    assert sorted(SUPPORTED) == sorted([*spec, *UNLISTED])
    for name, fn in {**OBJECTIVE, **JUDGED}.items():
        if name in UNLISTED:
            continue
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
            elif name == "eval_conjunction":  # [exact string, judged answer]: both must hold
                right = [["Role-Oriented Routing", "GOOD answer"], '["role-oriented routing", "GOOD"]']
                wrong = [["routing by role", "GOOD answer"], ["Role-Oriented Routing", "bad"], "Role-Oriented Routing",
                         ["role-oriented routing", "GOOD", "GOOD"]]
            elif name == "eval_disjunction":  # [exact string, judged answer]: one must hold
                right = [["role-oriented routing", "bad"], ["no", "GOOD answer"]]
                wrong = [["bad", "bad answer"], "role-oriented routing", ["role-oriented routing"]]
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
                assert result == Score(0.0), (name, pred, result)
        judge.close()
    assert fake.requests and {b["model"] for b in fake.requests} == {"judge-model"}


def test_composition_applies_the_ith_function_to_the_ith_element():
    """Upstream: the answer is a list with one element per function (`[6, "adam"]`); a length mismatch is 0.0."""
    ev = {"eval_func": "eval_conjunction", "eval_kwargs": {
        "eval_func_list": ["eval_int_exact_match", "eval_string_exact_match"],
        "eval_kwargs_list": [{"gold": 6}, {"gold": "Adam", "lowercase": True}]}}
    for right in ([6, "adam"], (6, "ADAM"), '[6, "adam"]', "(6, 'Adam')", ["6", " adam "]):
        assert score_answer(right, ev) == Score(1.0), right
    for wrong in ([6, "sgd"], [7, "adam"], ["adam", 6], [6], [6, "adam", 6], 6, "adam", "[6, 'adam'", {"a": 6}, []):
        assert score_answer(wrong, ev) == Score(0.0), wrong
    one = {"eval_func": "eval_conjunction", "eval_kwargs": {"eval_func_list": ["eval_int_exact_match"],
                                                            "eval_kwargs_list": [{"gold": 6}]}}
    assert score_answer(6, one).score == score_answer([6], one).score == 1.0  # a non-list is a list of one
    either = dict(ev, eval_func="eval_disjunction")
    for right in ([6, "sgd"], [7, "adam"], [6, "adam"]):
        assert score_answer(right, either) == Score(1.0), right
    for wrong in ([7, "sgd"], [6], 6, ["adam", 6]):
        assert score_answer(wrong, either) == Score(0.0), wrong
    nested = {"eval_func": "eval_conjunction", "eval_kwargs": {
        "eval_func_list": ["eval_negation", "eval_structured_object_exact_match"],
        "eval_kwargs_list": [{"eval_func": "eval_int_exact_match", "eval_kwargs": {"gold": 0}},
                             {"gold": ["a", "b"], "ignore_order": True}]}}
    assert score_answer([1, ["b", "a"]], nested).score == 1.0 and score_answer([0, ["b", "a"]], nested).score == 0.0


def test_paper_relevance_with_reference_answer_is_a_fuzzy_title_match():
    title = "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks"
    ev = {"eval_func": "eval_paper_relevance_with_reference_answer",
          "eval_kwargs": {"question": "Which paper ...?", "reference_answer": title}}
    for right in (title, title.upper(), f"  {title.lower()} ", "Retrieval-Augmented Generation for Knowledge Intensive NLP Tasks",
                  [title], f"['{title}']"):
        assert score_answer(right, ev) == Score(1.0), right
    for wrong in ("Retrieval-Augmented Generation", "Dense Passage Retrieval for Open-Domain Question Answering", "",
                  [title, "Other"], 42, None):
        assert score_answer(wrong, ev).score == 0.0, wrong
    several = {"eval_func": "eval_paper_relevance_with_reference_answer",
               "eval_kwargs": {"question": "q", "reference_answer": ["Attention Is All You Need", title], "threshold": 80}}
    assert score_answer("attention is all you need!", several).score == 1.0
    assert score_answer("Graph Attention Networks", several).score == 0.0


def test_fuzzy_scores_are_rounded_and_token_methods_clean_their_strings():
    """As the fuzzywuzzy functions upstream scored with: 94.7 counts as 95; token methods ignore case and punctuation."""
    ev = lambda gold, m="ratio": {"eval_func": "eval_string_fuzzy_match", "eval_kwargs": {"gold": gold, "fuzz_method": m}}  # noqa: E731
    gold = "abcdefghijklmnopqrstuvwxyz0123456789"  # 36 characters: one dropped scores 98.6, two 97.1, three 95.5
    assert score_answer(gold[:-2], ev(gold)).score == 1.0 and score_answer(gold[:-4], ev(gold)).score == 0.0
    assert score_answer("abcdefghij" * 3 + "abcdefg", ev("abcdefghij" * 3 + "abcdefghijk")).score == 1.0  # 94.7 -> 95
    assert score_answer("York, NEW", ev("new york", "token_sort_ratio")).score == 1.0
    assert score_answer("York, NEW", ev("new york", "ratio")).score == 0.0


def test_parameters_a_function_does_not_take_are_ignored_and_said():
    """Upstream's functions take **kwargs; the published file carries `ignore_order` on string matches and three
    misspellings, read as the parameter they name."""
    r = score_answer("LongBench", {"eval_func": "eval_string_exact_match",
                                   "eval_kwargs": {"gold": "LongBench", "ignore_order": True}})
    assert r.score == 1.0 and r.status == "ok" and "ignored parameter(s) ['ignore_order']" in r.detail
    r = score_answer("longbench", {"eval_func": "eval_string_exact_match", "eval_kwargs": {"gold": "LongBench", "ignore_case": True}})
    assert r.score == 1.0 and "read 'ignore_case' as 'lowercase'" in r.detail
    r = score_answer(0.0351, {"eval_func": "eval_float_exact_match",
                              "eval_kwargs": {"gold": 0.035, "nidigits": 3, "tolerance": 0.0001}})
    assert r.score == 1.0 and "'nidigits' as 'ndigits'" in r.detail


def test_judge_replies_in_the_json_or_the_upstream_form():
    ev = {"eval_func": "eval_reference_answer_with_llm", "eval_kwargs": {"reference_answer": "a", "question": "q"}}
    points = {"eval_func": "eval_partial_scoring_points_with_llm",
              "eval_kwargs": {"scoring_points": ["x", "y", "z"], "question": "q", "count": 2}}
    for reply, score in (("Step by step... ```txt\nTrue\n```", 1.0), ("```\nFalse\n```", 0.0), ("True", 1.0),
                         ("no.", 0.0), ('{"correct": true}', 1.0), ('Sure: {"correct": false}', 0.0)):
        with FakeOpenAI(reply=lambda body, r=reply: r) as fake:
            judge = Judge("m", fake.base_url)
            assert score_answer("a", ev, judge) == Score(score), reply
            assert score_answer("a", points, judge).score == score, reply
            judge.close()
    with FakeOpenAI(reply=lambda body: '{"mentioned": [true, false, true], "in_order": true}') as fake:
        assert score_answer("a", points, Judge("m", fake.base_url)).score == 1.0


def test_judge_failures_are_errors_not_zeros_and_no_judge_is_unsupported():
    ev = {"eval_func": "eval_reference_answer_with_llm", "eval_kwargs": {"reference_answer": "a", "question": "q"}}
    r = score_answer("a", ev)
    assert r.status == "unsupported" and "needs a judge model (--judge-model)" in r.detail
    assert score_answer(None, ev) == Score(0.0, "ok", "no answer")  # no answer needs no judge
    with FakeOpenAI(reply=lambda body: "I think so") as fake:
        result = score_answer("a", ev, Judge("m", fake.base_url))
    assert result.status == "error" and "no boolean 'correct'" in result.detail


@pytest.mark.parametrize("evaluator, status, detail", [
    ({"eval_func": "eval_paper_relevance_with_made_up", "eval_kwargs": {"reference_answer": "x"}},
     "unsupported", "unsupported eval function eval_paper_relevance_with_made_up"),
    ({"eval_func": "eval_paper_relevance_with_reference_answer", "eval_kwargs": {"reference_answer": {"t": 1}}},
     "error", "reference_answer must be a title"),
    ({"eval_func": "eval_negation", "eval_kwargs": {"eval_func": "eval_made_up", "eval_kwargs": {}}},
     "unsupported", "unsupported eval function eval_made_up"),
    ({"eval_func": "eval_disjunction", "eval_kwargs": {"eval_func_list": ["eval_int_exact_match", "eval_nope"],
                                                        "eval_kwargs_list": [{"gold": 1}, {}]}},
     "unsupported", "unsupported eval function eval_nope"),
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
    assert result.status == status and result.score == 0.0 and detail in result.detail, result


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
