"""Text helpers and reply parsing: pure functions, no I/O."""
from __future__ import annotations

from pipeline.summarize import text as T
from pipeline.summarize.config import SummarizeSettings
from pipeline.summarize.prompts import parse_reply

from tests.summarize.sumdb import ABSTRACT


def test_clean_joins_hyphenated_line_breaks():
    assert T.clean("Answering questions over ta-\nbles is  usually\nseen") == "Answering questions over tables is usually seen"


def test_sentences_keep_abbreviations_together():
    s = T.sentences("As shown by Smith et al. in 2020, it works. See Fig. 2 for details. Done here now.")
    assert s == ["As shown by Smith et al. in 2020, it works.", "See Fig. 2 for details.", "Done here now."]


def test_extract_skips_carried_fragment_noise_and_caps_words():
    text = "continued from the previous page. arXiv:2004.02349v2 [cs.CL] 21 Apr 2020. " + " ".join(
        f"Sentence number {i} says something useful about tables." for i in range(20))
    out = T.extract(text, 20)
    assert out.startswith("Sentence number 0")
    assert "arXiv" not in out and "continued" not in out
    assert len(out.split()) <= 21


def test_extract_cuts_a_long_sentence_cleanly():
    out = T.extract("This sentence " + "goes on and on " * 30 + "forever.", 10)
    assert out.endswith(" …") and len(out.split()) <= 11
    assert out.split()[-2] not in ("and", "on")


def test_labels_and_mentions():
    assert T.element_label("Table 3: Results", "table") == "3"
    assert T.element_label("TABLE IV. Ablations", "table") == "4"
    assert T.element_label("Fig. 2: Overview", "figure") == "2"
    assert T.element_label("Results on SQA", "table") is None
    sents = ["Table 1: Accuracy on SQA.", "As Table 1 shows, TAPAS wins.", "Table 10 is unrelated here.",
             "Tables 2 and 1 are similar, we note."]
    assert T.mentions(sents, "table", "1") == ["As Table 1 shows, TAPAS wins.", "Tables 2 and 1 are similar, we note."]


def test_table_shape_reads_header_row():
    header, rows = T.table_shape("<table><tr><th>Model</th><th>Acc</th></tr><tr><td>a</td><td>1</td></tr></table>")
    assert header == ["Model", "Acc"] and rows == 2
    assert T.table_shape("<table><tr><td>unclosed") == ([], 1)


def test_tldr_is_short_and_ends_cleanly():
    for limit in (40, 60, 80):
        out = T.trim_chars(T.choose_tldr_sentence(ABSTRACT), limit)
        assert len(out) <= limit
        assert out.startswith("We present TAPAS")  # the contribution sentence, lead-in dropped
        last = out.rstrip(" .…").split()[-1].lower()
        assert last not in {"a", "an", "the", "of", "and", "to", "over", "in", "on"}


def test_keyphrases_five_distinct_and_deterministic():
    title = "TAPAS: Weakly Supervised Table Parsing via Pre-training"
    tags = T.keyphrases(title, ABSTRACT, 5)
    assert len(tags) == 5 and len({t.lower() for t in tags}) == 5
    assert tags == T.keyphrases(title, ABSTRACT, 5)
    assert "semantic parsing" in tags and "TAPAS" not in [t for t in tags if t.islower()]


def test_keyphrases_ignore_arxiv_stamp_title_and_urls():
    tags = T.keyphrases("arXiv:2004.04696v5 [cs.CL] 21 May 2020", ABSTRACT + " Code: https://github.com/x/tapas.", 5)
    assert not any("arxiv" in t.lower() or "github" in t.lower() for t in tags)


def test_parse_reply_tags_in_many_shapes():
    cfg = SummarizeSettings()
    assert parse_reply("tags", "a, b, c, d, e, f", cfg) == ["a", "b", "c", "d", "e"]
    assert parse_reply("tags", "1. Table parsing\n2. BERT\n- weak supervision", cfg) == ["Table parsing", "BERT", "weak supervision"]
    assert parse_reply("tags", '["QA", "tables", "qa"]', cfg) == ["QA", "tables"]
    assert parse_reply("tags", "  ", cfg) is None


def test_parse_reply_summary_strips_labels_and_rejects_empty():
    cfg = SummarizeSettings()
    assert parse_reply("tldr", 'TL;DR: "Tables without logical forms."', cfg) == "Tables without logical forms."
    assert parse_reply("page_summary", "Summary:\n  The page  describes TAPAS.", cfg) == "The page describes TAPAS."
    assert parse_reply("page_summary", "", cfg) is None


def test_a_heading_above_a_citing_sentence_is_not_part_of_it():
    page = "reward model.\nMethod\nF1\nTable 7: Selector Evaluation.\n5.4\nAblation study\nWe perform ablation studies in Table 8 to evaluate\nthe parts."
    pieces = T.split_at_headings(page, ["5.4 Ablation study", "Results"])
    sents = [s for piece in pieces for s in T.sentences(T.clean(piece))]
    assert T.mentions(sents, "table", "8") == ["We perform ablation studies in Table 8 to evaluate the parts."]
    assert T.split_at_headings("no headings here", []) == ["no headings here"]
