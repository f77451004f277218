"""`paperbase evaluate`: given predictions (gold 100%, wrong 0%, unsupported evaluator), and the agent end to end
against a local fake OpenAI-compatible server (right, wrong, a timeout), with exact scores, summary and resume."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from agent.config import AgentSettings
from agent.evaluate.harness import evaluate
from agent.evaluate.judged import Judge
from cli import app
from pipeline.read import Reader
from pipeline.summarize.testing import FakeOpenAI
from tests.evaluate.conftest import QUESTIONS, paper_id, write_jsonl

runner = CliRunner()


def _cli(*args: str):
    return runner.invoke(app, ["evaluate", *map(str, args)])


def _lines(out) -> list[dict]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def test_gold_answers_score_100_and_wrong_ones_0(store, questions, tmp_path):
    qfile = write_jsonl(tmp_path / "q.jsonl", questions)
    gold = write_jsonl(tmp_path / "gold.jsonl", [{"uuid": q["uuid"], "answer": q["answer"]} for q in questions])
    wrong = write_jsonl(tmp_path / "wrong.jsonl", [{"uuid": q["uuid"], "answer": "zz wrong"} for q in questions])
    res = _cli(qfile, "--predictions", gold, "--out", tmp_path / "gold", "--data-dir", store.data_dir)
    assert res.exit_code == 0, res.output
    summary = json.loads((tmp_path / "gold" / "summary.json").read_text())
    assert summary["accuracy"] == 1.0 and summary["scored"] == len(questions) == 9
    assert "overall" in res.output and "100.0%" in res.output
    res = _cli(qfile, "--predictions", wrong, "--out", tmp_path / "wrong", "--data-dir", store.data_dir)
    assert res.exit_code == 0, res.output
    summary = json.loads((tmp_path / "wrong" / "summary.json").read_text())
    assert summary["accuracy"] == 0.0 and summary["scored"] == 9 and summary["errors"] == 0
    assert {r["uuid"] for r in _lines(tmp_path / "wrong")} == {q["uuid"] for q in questions}


def test_the_whole_question_set_scores_100_on_its_gold(store, tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", [{"uuid": q["uuid"], "answer": q["answer"]} for q in
                                                 map(json.loads, QUESTIONS.read_text().splitlines())])
    res = _cli(QUESTIONS, "--predictions", gold, "--out", tmp_path / "o", "--data-dir", store.data_dir, "--limit", 198)
    assert res.exit_code == 0, res.output
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert (summary["scored"], summary["accuracy"], summary["per_tag"]["objective"]["n"]) == (198, 1.0, 198)


def test_unsupported_function_is_a_per_example_status_and_resume_skips(store, questions, tmp_path):
    odd = dict(questions[0], uuid="odd-1", evaluator={"eval_func": "eval_paper_relevance_with_made_up",
                                                     "eval_kwargs": {"reference_answer": "x"}})
    qfile = write_jsonl(tmp_path / "q.jsonl", [odd, *questions[:2]])
    preds = write_jsonl(tmp_path / "p.jsonl", [{"uuid": "odd-1", "answer": "x"},
                                               {"uuid": questions[0]["uuid"], "answer": questions[0]["answer"]}])
    res = _cli(qfile, "--predictions", preds, "--out", tmp_path / "o", "--data-dir", store.data_dir)
    assert res.exit_code == 0, res.output
    lines = {r["uuid"]: r for r in _lines(tmp_path / "o")}
    assert lines["odd-1"]["status"] == "unsupported" and "unsupported eval function" in lines["odd-1"]["detail"]
    assert lines[questions[1]["uuid"]]["error"] == "no prediction for this uuid"
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert (summary["total"], summary["scored"], summary["unsupported"], summary["accuracy"]) == (3, 2, 1, 0.5)
    assert (summary["right"], summary["no_answer"], summary["accuracy_of_all"]) == (1, 1, 0.3333)
    assert {r["uuid"]: r["outcome"] for r in _lines(tmp_path / "o")} == {
        "odd-1": "unsupported", questions[0]["uuid"]: "right", questions[1]["uuid"]: "no answer"}
    assert "no prediction for this uuid" in res.output and "1 unsupported" in res.output
    res = _cli(qfile, "--predictions", preds, "--out", tmp_path / "o", "--data-dir", store.data_dir)
    assert len(_lines(tmp_path / "o")) == 4  # only the example without a prediction ran again


def test_usage_errors_exit_2(store, tmp_path):
    assert _cli(tmp_path / "missing.jsonl", "--data-dir", store.data_dir).exit_code == 2
    assert _cli(write_jsonl(tmp_path / "q.jsonl", [{"question": "no uuid"}]), "--data-dir", store.data_dir).exit_code == 2
    assert _cli(tmp_path / "q.jsonl", "--agent", "other", "--data-dir", store.data_dir).exit_code == 2


def _agent(body: dict) -> str:
    """Scripted agent turns, chosen by the question in the task message (workers run concurrently)."""
    task, turn = body["messages"][1]["content"], (len(body["messages"]) - 2) // 2
    if "[Question]: RIGHT" in task:
        if turn == 0:
            return "[Thought]: look it up\n[Action]:\nRetrieveFromDatabase(sql=\"SELECT title FROM metadata LIMIT 1\")"
        return "[Thought]: done\n[Action]:\nGenerateAnswer(answer=4.3)"
    if "[Question]: WRONG" in task:
        return "[Thought]: guess\n[Action]:\nGenerateAnswer(answer='GPT-2')"
    return "[Thought]: direct\n[Action]:\nGenerateAnswer(answer='bart')"


def test_agent_end_to_end_with_a_fake_model(store, questions, tmp_path):
    by_uuid = {q["uuid"][:8]: q for q in questions}
    examples = [dict(by_uuid["c2a1dd93"], question="RIGHT: " + by_uuid["c2a1dd93"]["question"]),  # 4.3, float
                dict(by_uuid["9a025afa"], question="WRONG: " + by_uuid["9a025afa"]["question"]),  # BART, exact
                dict(by_uuid["9ffa97e9"], question="SLOW: which search?"),  # times out
                dict(by_uuid["9a025afa"], uuid="lower-1", question="LOWER: the generator?",
                     evaluator={"eval_func": "eval_string_exact_match", "eval_kwargs": {"gold": "BART", "lowercase": True}})]
    slow = lambda n, body: "slow" if "[Question]: SLOW" in body["messages"][1]["content"] else None  # noqa: E731
    cfg = AgentSettings(model="fake-agent", timeout_s=0.5, retries=0, max_turns=4)
    with FakeOpenAI(reply=_agent, faults=slow, slow_s=2.0) as fake, Reader(store) as reader:
        cfg = cfg.model_copy(update={"base_url": fake.base_url})
        summary = evaluate(reader, examples, tmp_path / "o", agent_settings=cfg, concurrency=2)
        requests = len(fake.requests)
    lines = {r["uuid"]: r for r in _lines(tmp_path / "o")}
    right, wrong, slow_r, lower = (lines[e["uuid"]] for e in examples)
    assert (right["score"], right["prediction"], right["turns"], right["error"]) == (1.0, 4.3, 2, None)
    assert right["trajectory"][1]["content"].count(paper_id("corpus/neurips2020_rag_excerpt.pdf")) == 1  # anchor filled
    assert "[Observation]:" in right["trajectory"][3]["content"] and right["tokens"] > 0 and right["seconds"] > 0
    assert (wrong["score"], wrong["prediction"], wrong["turns"]) == (0.0, "GPT-2", 1)
    assert (slow_r["score"], slow_r["prediction"], slow_r["turns"]) == (0.0, None, 0)
    assert "timeout" in slow_r["error"] and slow_r["status"] == "ok"
    assert (lower["score"], lower["prediction"]) == (1.0, "bart")
    group = lambda n, right, wrong, none=0: {  # noqa: E731
        "n": n, "scored": n, "right": right, "wrong": wrong, "no_answer": none, "errors": 0, "unsupported": 0,
        "correct": float(right), "accuracy": round(right / n, 4), "accuracy_of_all": round(right / n, 4)}
    assert summary == {
        "total": 4, **group(4, 2, 1, 1), "needs_judge": 0,
        "per_tag": {"image": group(1, 0, 0, 1), "objective": group(4, 2, 1, 1), "single": group(4, 2, 1, 1),
                    "text": group(3, 2, 1)},
        "per_eval_func": {"eval_element_included": group(1, 0, 0, 1), "eval_float_exact_match": group(1, 1, 0),
                          "eval_string_exact_match": group(2, 1, 1)}}
    assert json.loads((tmp_path / "o" / "summary.json").read_text()) == summary
    assert requests == 5  # 2 + 1 + 1 (the slow one, no retry) + 1
    with FakeOpenAI(reply=_agent) as fake, Reader(store) as reader:  # resume: only the timed-out example runs again
        summary = evaluate(reader, examples, tmp_path / "o", agent_settings=cfg.model_copy(update={"base_url": fake.base_url}))
        assert len(fake.requests) == 1
    assert (summary["correct"], summary["no_answer"], summary["wrong"]) == (2.0, 0, 2) and len(_lines(tmp_path / "o")) == 5


def _judged(q: dict, uuid: str) -> dict:
    return dict(q, uuid=uuid, question="JUDGED: " + q["question"], evaluator={
        "eval_func": "eval_reference_answer_with_llm", "eval_kwargs": {"reference_answer": "bart", "question": "q"}})


def test_the_judge_is_checked_before_any_agent_runs(store, questions, tmp_path):
    qfile = write_jsonl(tmp_path / "q.jsonl", [questions[0], _judged(questions[0], "j-1")])
    with FakeOpenAI(faults=lambda n, body: "401") as fake:  # a wrong key: nothing runs
        res = _cli(qfile, "--base-url", fake.base_url, "--model", "agent", "--judge-model", "judge", "--out",
                   tmp_path / "o", "--data-dir", store.data_dir)
        bodies = list(fake.requests)
    assert res.exit_code == 2 and "cannot be asked" in res.output and "401" in res.output, res.output
    assert "nothing was run" in res.output and not (tmp_path / "o" / "results.jsonl").exists()
    assert [b["model"] for b in bodies] == ["judge"]
    with FakeOpenAI(reply=lambda body: "I cannot say" if body["model"] == "judge" else
                    "[Thought]: x\n[Action]:\nGenerateAnswer(answer='bart')") as fake:  # answers, never a verdict
        res = _cli(qfile, "--base-url", fake.base_url, "--model", "agent", "--judge-model", "judge", "--out",
                   tmp_path / "o", "--data-dir", store.data_dir)
    assert res.exit_code == 1 and "without a readable verdict" in res.output  # warned, then one error line
    assert {r["uuid"]: r["outcome"] for r in _lines(tmp_path / "o")}["j-1"] == "error"


def test_without_a_judge_judged_examples_are_unsupported_and_not_run(store, questions, tmp_path):
    examples = [dict(questions[0], question="RIGHT-ish: " + questions[0]["question"]), _judged(questions[0], "j-1")]
    cfg = AgentSettings(model="fake-agent", retries=0, max_turns=2)
    with FakeOpenAI(reply=lambda body: "[Thought]: x\n[Action]:\nGenerateAnswer(answer='bart')") as fake, Reader(store) as reader:
        summary = evaluate(reader, examples, tmp_path / "o", agent_settings=cfg.model_copy(update={"base_url": fake.base_url}))
        assert len(fake.requests) == 1  # only the objective example ran its agent
    lines = {r["uuid"]: r for r in _lines(tmp_path / "o")}
    assert lines["j-1"]["outcome"] == "unsupported" and "needs a judge model" in lines["j-1"]["detail"]
    assert lines["j-1"]["gold"] == "bart" and lines["j-1"]["trajectory"] == []
    assert (summary["unsupported"], summary["needs_judge"]) == (1, 1)
    # with a judge the rerun runs that agent and asks the judge (upstream's verdict form); the other stays done
    def reply(body: dict) -> str:
        if body["model"] == "judge":
            return "```txt\nTrue\n```"
        return "[Thought]: x\n[Action]:\nGenerateAnswer(answer='bart')"
    with FakeOpenAI(reply=reply) as fake, Reader(store) as reader:
        judge = Judge("judge", fake.base_url)
        summary = evaluate(reader, examples, tmp_path / "o", judge=judge,
                           agent_settings=cfg.model_copy(update={"base_url": fake.base_url}))
        judge.close()
        assert [b["model"] for b in fake.requests] == ["fake-agent", "judge"]
    assert (summary["unsupported"], summary["needs_judge"], lines["j-1"]["uuid"]) == (0, 0, "j-1")
    assert {r["uuid"]: r["outcome"] for r in _lines(tmp_path / "o")}["j-1"] == "right"


def test_an_answer_the_judge_failed_on_is_judged_again_not_asked_again(store, questions, tmp_path):
    examples = [_judged(questions[0], "j-2")]
    cfg = AgentSettings(model="fake-agent", retries=0, max_turns=2)
    verdicts = iter(["no verdict here", '{"correct": true}'])

    def reply(body: dict) -> str:
        if body["model"] == "judge":
            return next(verdicts)
        return "[Thought]: x\n[Action]:\nGenerateAnswer(answer='bart')"
    for _ in range(2):
        with FakeOpenAI(reply=reply) as fake, Reader(store) as reader:
            judge = Judge("judge", fake.base_url)
            evaluate(reader, examples, tmp_path / "o", judge=judge,
                     agent_settings=cfg.model_copy(update={"base_url": fake.base_url}))
            judge.close()
            models = [b["model"] for b in fake.requests]
        if _ == 0:
            assert models == ["fake-agent", "judge"] and _lines(tmp_path / "o")[-1]["outcome"] == "error"
    assert models == ["judge"]  # the stored answer was scored again; the agent was not asked again
    last = _lines(tmp_path / "o")[-1]
    assert (last["outcome"], last["prediction"], last["turns"]) == ("right", "bart", 1)
