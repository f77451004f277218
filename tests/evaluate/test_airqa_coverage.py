"""Every evaluator of the AirQA-Real question file (../shared/reference/airqa/test_data_553.jsonl) scores its own
gold 1.0 and a perturbed answer 0.0: the objective ones directly, the judged ones through a local fake judge that
answers in upstream's form. Without a judge, exactly the judged ones are unsupported and `evaluate --predictions`
(no store needed) says how many."""
from __future__ import annotations

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from agent.evaluate.judged import Judge
from agent.evaluate.scoring import Score, score_answer
from cli import app
from pipeline.summarize.testing import FakeOpenAI
from tests.conftest import SHARED
from tests.evaluate.airqa_answers import fake_judge_reply, is_judged, perturbed, right
from tests.evaluate.conftest import write_jsonl

AIRQA = SHARED / "reference" / "airqa" / "test_data_553.jsonl"


@pytest.fixture(scope="module")
def airqa() -> list[dict]:
    if not AIRQA.exists():
        pytest.skip(f"{AIRQA} is absent (../shared/reference sits beside the repo, not in a fresh clone)")
    return [json.loads(line) for line in AIRQA.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_every_objective_evaluator_scores_its_gold_1_and_a_perturbed_answer_0(airqa):
    objective = [q for q in airqa if not is_judged(q["evaluator"])]
    judged = [q for q in airqa if is_judged(q["evaluator"])]
    failures = []
    for q in objective:
        ev = q["evaluator"]
        good, bad = score_answer(right(ev), ev), score_answer(perturbed(ev), ev)
        if (good.score, good.status, bad.score, bad.status) != (1.0, "ok", 0.0, "ok"):
            failures.append((q["uuid"], ev["eval_func"], right(ev), good, perturbed(ev), bad))
    funcs = Counter(q["evaluator"]["eval_func"] for q in objective)
    print(f"\n{len(objective)} objective evaluators: {dict(funcs)}")
    print(f"{len(judged)} judged: {dict(Counter(q['evaluator']['eval_func'] for q in judged))}")
    for q in judged:
        print(f"  judged {q['uuid']} {q['evaluator']['eval_func']}")
    assert not failures, failures[:5]
    assert len(airqa) == 553 and len(objective) + len(judged) == 553
    assert funcs["eval_paper_relevance_with_reference_answer"] == 240 and funcs["eval_conjunction"] > 0
    # without a judge the judged ones, and only they, are unsupported, each saying why
    for q in judged:
        r = score_answer(right(q["evaluator"]), q["evaluator"])
        assert r.status == "unsupported" and "needs a judge model" in r.detail, (q["uuid"], r)


def test_judged_evaluators_reach_the_judge_and_take_its_verdict(airqa):
    judged = [q for q in airqa if is_judged(q["evaluator"])]
    with FakeOpenAI(reply=fake_judge_reply) as fake:
        judge = Judge("judge", fake.base_url)
        results = [(q["uuid"], score_answer(right(q["evaluator"]), q["evaluator"], judge),
                    score_answer(perturbed(q["evaluator"]), q["evaluator"], judge)) for q in judged]
        judge.close()
    bad = [(u, good, wrong) for u, good, wrong in results if good != Score(1.0, "ok", good.detail)
           or wrong != Score(0.0, "ok", wrong.detail)]
    assert not bad, bad[:5]
    assert len(fake.requests) >= len(judged)


def test_evaluate_predictions_over_the_whole_file_without_a_store(airqa, tmp_path):
    qfile = write_jsonl(tmp_path / "q.jsonl", airqa)
    preds = write_jsonl(tmp_path / "p.jsonl", [{"uuid": q["uuid"], "answer": right(q["evaluator"])} for q in airqa])
    res = CliRunner().invoke(app, ["evaluate", str(qfile), "--predictions", str(preds), "--out", str(tmp_path / "o"),
                                   "--data-dir", str(tmp_path / "no-store")])
    assert res.exit_code == 0, res.output
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    n_judged = sum(1 for q in airqa if is_judged(q["evaluator"]))
    assert (summary["total"], summary["right"], summary["wrong"], summary["errors"]) == (553, 553 - n_judged, 0, 0)
    assert summary["unsupported"] == summary["needs_judge"] == n_judged
    assert f"{n_judged} of 553 example(s) need an LLM judge" in res.output
    assert f"{n_judged} unsupported ({n_judged} for want of a judge)" in res.output
    line = next(json.loads(x) for x in (tmp_path / "o" / "results.jsonl").read_text().splitlines()
                if json.loads(x)["eval_func"] == "eval_conjunction" and json.loads(x)["outcome"] == "right")
    assert isinstance(line["prediction"], list) and line["gold"] == line["prediction"]


def test_evaluate_predictions_with_a_judge_scores_every_question(airqa, tmp_path):
    qfile = write_jsonl(tmp_path / "q.jsonl", airqa)
    for kind, build, outcome in (("right", right, "right"), ("perturbed", perturbed, "wrong")):
        preds = write_jsonl(tmp_path / f"{kind}.jsonl", [{"uuid": q["uuid"], "answer": build(q["evaluator"])} for q in airqa])
        with FakeOpenAI(reply=fake_judge_reply) as fake:
            res = CliRunner().invoke(app, ["evaluate", str(qfile), "--predictions", str(preds), "--out",
                                           str(tmp_path / kind), "--judge-model", "judge", "--base-url", fake.base_url,
                                           "--data-dir", str(tmp_path / "no-store")])
        assert res.exit_code == 0, res.output[-3000:]
        summary = json.loads((tmp_path / kind / "summary.json").read_text())
        assert summary[outcome.replace(" ", "_")] == summary["total"] == 553, summary
