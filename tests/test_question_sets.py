"""The question sets bench/retrieval.py asks (tests/data): the paraphrased set's fields, its held-out third (whole
papers, about a third of each folder), its evidence against the real PDFs (tests/data/check_questions.py), and the
bench's tables on known ranks."""
from __future__ import annotations

import json
import math
import subprocess
import sys
import uuid
from collections import defaultdict
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
SHARED = REPO.parent / "shared"
KINDS = {"table", "number", "name", "finding", "definition", "limitation", "caption", "section", "metadata"}


def _load(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


def test_paraphrased_questions_have_kind_split_and_their_own_uuids():
    para, original = _load("paraphrase_questions.jsonl"), _load("corpus_questions.jsonl")
    assert len(para) >= 250
    for q in para:
        assert q["uuid"] == str(uuid.uuid5(uuid.NAMESPACE_DNS, q["question"]))
        assert q["kind"] in KINDS and q["split"] in ("tune", "heldout")
        assert q["pdf_file"].split("/")[0] in ("corpus", "corpus2", "corpus3")
    uuids = [q["uuid"] for q in para + original]
    assert len(uuids) == len(set(uuids))
    assert {q["pdf_file"].split("/")[0] for q in para} == {"corpus", "corpus2", "corpus3"}
    assert len({q["kind"] for q in para}) >= 8


def test_the_held_out_third_is_whole_papers_a_third_of_each_folder():
    splits: dict[str, set[str]] = defaultdict(set)
    for q in _load("paraphrase_questions.jsonl"):
        splits[q["pdf_file"]].add(q["split"])
    assert all(len(s) == 1 for s in splits.values())  # no paper on both sides
    by_folder: dict[str, list[bool]] = defaultdict(list)
    for pdf, s in splits.items():
        by_folder[pdf.split("/")[0]].append("heldout" in s)
    for folder, held in by_folder.items():
        assert math.floor(len(held) / 3) <= sum(held) <= math.ceil(len(held) / 3), folder


@pytest.mark.skipif(not (SHARED / "corpus3").is_dir(), reason="../shared/corpus3 not present")
def test_paraphrased_evidence_is_on_its_page_and_answers_score():
    run = subprocess.run([sys.executable, str(DATA / "check_questions.py"), str(DATA / "paraphrase_questions.jsonl"),
                          "--shared", str(SHARED)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:]
    assert "OK: no problems found" in run.stdout


def test_bench_tables_count_ranks_by_set_folder_and_kind():
    sys.path.insert(0, str(REPO))
    from bench.retrieval_report import by_folder, by_kind, by_set, group, rank_of, summarize

    assert rank_of([3, 5, 5], 5) == 2 and rank_of([3, 4], 5) is None
    assert summarize([1, 2, None, 6]) == {"n": 4, "r@1": 0.25, "r@5": 0.5, "r@10": 0.75, "mrr": round((1 + 0.5 + 1 / 6) / 4, 3)}
    qs = [{"set": "original", "pdf_file": "corpus/a.pdf", "kind": "table"},
          {"set": "tune", "pdf_file": "corpus2/b.pdf", "kind": "table"},
          {"set": "heldout", "pdf_file": "corpus2/c.pdf", "kind": "name"}]
    ranks = [1, None, 3]
    assert group(qs, ranks, by_set)["heldout"]["r@5"] == 1.0 and group(qs, ranks, by_set)["all"]["n"] == 3
    folders = group(qs, ranks, by_folder)
    assert folders["corpus2 tuned"]["r@1"] == 0.0 and folders["corpus2 held-out"]["mrr"] == round(1 / 3, 3)
    assert folders["all tuned"]["n"] == 2 and folders["all held-out"]["n"] == 1
    assert set(group(qs, ranks, by_kind)) == {"table tuned", "name held-out"}
