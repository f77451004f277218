"""`paperbase search` for people: title, page and section per hit, a header saying what the score is, texts printed
literally (Rich markup never eats `[k1; ...; kn]`), `--paper` by id, title fragment or PDF path, and errors that name
the real cause. (Here, not under tests/vectors, to reuse the agent tests' session store of three corpus papers.)"""
from __future__ import annotations

import io
import json

from rich.console import Console
from typer.testing import CliRunner

from cli import app
from cli.errors import classify
from cli.hits import DescribedHit, print_hits, score_meaning, snippet
from pipeline.read import Hit
from tests.conftest import CORPUS

runner = CliRunner()
RAG = "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks"


def _search(settings, *args: str):
    return runner.invoke(app, ["search", *args, "--data-dir", str(settings.data_dir)])


def test_bracketed_text_prints_literally():
    hit = Hit(0.5, "p-1", 5, "chunks", "text_content", "c-1", text="for input keys K = [k1; . . . ; kn], [bold]x[/bold] "
              "and [red]")
    console = Console(file=io.StringIO(), width=300)
    print_hits(console, "landmarks [k1]", [DescribedHit(hit, "Nyströmformer [v2]", "3 Method [draft]")],
               score_meaning("text_bm25_en", "convex", {}))
    out = console.file.getvalue()
    assert "K = [k1; . . . ; kn], [bold]x[/bold] and [red]" in out and "'landmarks [k1]'" in out
    assert "Nyströmformer [v2]" in out and "p. 5 · § 3 Method [draft] · chunks.text_content" in out
    assert "score: BM25 relevance" in out and "score 0.5000" in out


def test_long_texts_show_the_part_around_the_query_words_and_full_shows_all():
    text = "lead " * 300 + "for input keys K = [k1; . . . ; kn], landmarks are computed " + "tail " * 300
    part = snippet(text, "landmarks of the keys", 200)
    assert "K = [k1; . . . ; kn], landmarks" in part and part.startswith("…") and part.endswith("…")
    assert len(part) <= 202 and snippet(text, "absent words", 50).startswith("lead lead")
    hit = Hit(0.5, "p-1", 5, "chunks", "text_content", "c-1", text=text)
    console = Console(file=io.StringIO(), width=5000)
    print_hits(console, "landmarks", [DescribedHit(hit, "T", None)], "score: x", full=True)
    assert " ".join(text.split()) in console.file.getvalue()


def test_score_meanings():
    assert "cosine similarity of all-MiniLM-L6-v2" in score_meaning("text_sentence_transformers_all_minilm_l6_v2",
                                                                    "convex", {})
    fused = score_meaning(None, "convex", {"text_bm25_en": 4.0, "text_sentence_transformers_all_minilm_l6_v2": 1.0})
    assert "at most 5" in fused and "text_bm25_en ×4" in fused and "not a similarity" in fused
    assert "reciprocal-rank fusion" in score_meaning(None, "rrf", {"text_bm25_en": 1.0})


def test_hits_show_title_page_and_section(corpus_settings):
    res = _search(corpus_settings, "retrieval augmented generation", "-n", "3")
    assert res.exit_code == 0, res.output
    assert "3 hit(s) for 'retrieval augmented generation'; score: fusion of text_bm25_en ×4" in res.output
    lines = res.output.splitlines()
    heads = [line for line in lines if line[:3] in ("1. ", "2. ", "3. ")]
    assert len(heads) == 3 and all(" p. " in h and "chunks.text_content" in h and "score " in h for h in heads)
    assert any(RAG in h for h in heads) and any("§ " in h for h in heads)
    listed = [json.loads(x) for x in _search(corpus_settings, "retrieval", "--json", "-n", "3").stdout.splitlines()]
    assert all({"title", "section", "score", "pdf_id", "page_number", "text"} <= set(h) for h in listed)


def test_paper_option_takes_an_id_a_title_fragment_or_a_path(corpus_settings):
    from pipeline.read import Reader

    with Reader(corpus_settings) as reader:
        papers = {p["title"]: p["paper_id"] for p in reader.papers()}
    rag = papers[RAG]
    for name in ("knowledge-INTENSIVE", str(CORPUS / "neurips2020_rag_excerpt.pdf"), rag, rag[:8]):
        res = _search(corpus_settings, "masking privacy", "--paper", name, "--json", "-n", "5")
        assert res.exit_code == 0, (name, res.output)
        assert {json.loads(x)["pdf_id"] for x in res.stdout.splitlines()} == {rag}, name
    other = next(pid for title, pid in papers.items() if title != RAG)
    res = _search(corpus_settings, "language model", "--paper", rag, "--paper", other, "--json", "-n", "20",
                  "-c", "text_bm25_en")
    assert {json.loads(x)["pdf_id"] for x in res.stdout.splitlines()} == {rag, other}
    res = _search(corpus_settings, "x", "--paper", rag, "--filter", "page_number == 1", "--json", "-n", "20")
    assert {(json.loads(x)["pdf_id"], json.loads(x)["page_number"]) for x in res.stdout.splitlines()} == {(rag, 1)}
    res = _search(corpus_settings, "x", "--paper", "no such paper at all")
    assert res.exit_code == 2 and "no stored paper matches 'no such paper at all'" in res.output


def test_errors_name_the_real_cause(corpus_settings):
    res = _search(corpus_settings, "x", "--filter", "pdfid == 'abc'")
    assert res.exit_code == 2 and "`pdfid` is not a valid field name" in res.output
    assert "running and reachable" not in res.output
    res = _search(corpus_settings, "x", "-c", "text_bm25")
    assert res.exit_code == 2 and "no collection 'text_bm25'" in res.output


def test_milvus_errors_blame_the_server_only_when_it_is_unreachable():
    from pymilvus.exceptions import ConnectError, MilvusException

    _, refused = classify(MilvusException(code=1100, message="failed to create query plan: field pdfid not exist"))
    assert refused == "Milvus refused the request: failed to create query plan: field pdfid not exist"
    _, down = classify(ConnectError(message="Fail connecting to server on 127.0.0.1:9"))
    assert "is the server at --milvus-uri running and reachable?" in down
