#!/usr/bin/env python
"""Validate tests/data/corpus_questions.jsonl (or paraphrase_questions.jsonl: same format plus `kind` and `split`).

Run with the project venv:

    /work/main/.venv/bin/python tests/data/check_questions.py [PATH.jsonl] [--shared /work/shared]

Checks every line for:
  * required fields and their JSON types;
  * uuid == uuid5(NAMESPACE_DNS, question);
  * no duplicate uuids;
  * pdf_file exists under the shared directory;
  * 1 <= evidence_page <= page count of the PDF;
  * evidence_text (<= 200 chars) occurs on that page of PyMuPDF's text after
    normalisation (ligatures expanded, hyphenation at line ends removed,
    whitespace collapsed, case folded);
  * eval_func is one of the allowed objective functions and its kwargs are
    the ones evaluations.json documents (gold required);
  * the `answer` field scores 1.0 under the evaluator (the project's own eval
    functions, agent.evaluate.scoring);
  * tags contain "single", "objective" and exactly one evidence type.

Exit status 0 when no problem is found, 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import unicodedata
import uuid
from collections import Counter

ALLOWED = {
    "eval_string_exact_match": {"gold", "lowercase", "ignore_blank"},
    "eval_string_fuzzy_match": {"gold", "fuzz_method", "threshold", "ignore_blank", "lowercase"},
    "eval_bool_exact_match": {"gold"},
    "eval_int_exact_match": {"gold"},
    "eval_float_exact_match": {"gold", "ndigits", "tolerance"},
    "eval_structured_object_exact_match": {"gold", "ignore_order", "tolerance", "ndigits", "lowercase",
                                           "ignore_blank", "threshold", "fuzz_method"},
    "eval_element_included": {"gold", "element_type", "ndigits", "tolerance", "fuzz_method", "threshold",
                              "lowercase", "ignore_blank"},
    "eval_element_list_included": {"gold", "element_type", "ndigits", "tolerance", "fuzz_method", "threshold",
                                   "lowercase", "ignore_blank"},
    "eval_element_list_overlap": {"gold", "count", "element_type", "ndigits", "tolerance", "fuzz_method",
                                  "threshold", "lowercase", "ignore_blank"},
}
KINDS = {"table", "number", "name", "finding", "definition", "limitation", "caption", "section", "metadata"}
EVIDENCE_TAGS = {"text", "table", "image", "formula", "metadata"}
REQUIRED = {
    "uuid": str, "question": str, "answer_format": str, "tags": list, "anchor_pdf": list,
    "reference_pdf": list, "conference": list, "pdf_file": str, "evidence_page": int,
    "evidence_text": str, "evaluator": dict,
}
LIGATURES = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
             "\ufb05": "st", "\ufb06": "st"}


def normalise(text: str) -> str:
    for k, v in LIGATURES.items():
        text = text.replace(k, v)
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("\u00ad", "")                     # soft hyphen
    text = re.sub(r"[\u2010\u2011\u2012\u2013\u2014\u2212]", "-", text)
    text = re.sub(r"[\u2018\u2019\u201b\u2032]", "'", text)
    text = re.sub(r"[\u201c\u201d\u201f\u2033]", '"', text)
    text = re.sub(r"-\s*\n\s*", "", text)                 # hyphenation at line end
    text = re.sub(r"\s+", " ", text)
    return text.strip().lower()


def squash(text: str) -> str:
    """Looser form: drop all whitespace and hyphens (line-end hyphen vs. real hyphen)."""
    return re.sub(r"[\s\-]", "", normalise(text))


# ---------------------------------------------------------------- evaluators
def score(answer, ev) -> bool:
    """The project's own eval functions (agent.evaluate); an unsupported or malformed evaluator raises."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    from agent.evaluate.scoring import score_answer

    result = score_answer(answer, ev)
    if result.status != "ok":
        raise ValueError(f"{result.status}: {result.detail}")
    return result.score == 1.0


# ---------------------------------------------------------------- main check
def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("path", nargs="?", default=os.path.join(here, "corpus_questions.jsonl"))
    ap.add_argument("--shared", default=os.environ.get("PAPERBASE_SHARED", "/work/shared"))
    args = ap.parse_args()

    import pymupdf  # noqa: E402  (only needed here)

    problems: list[str] = []
    page_cache: dict[str, list[str]] = {}
    seen: Counter = Counter()
    per_pdf: Counter = Counter()
    per_func: Counter = Counter()
    per_tag: Counter = Counter()
    per_kind: Counter = Counter()
    per_split: Counter = Counter()
    n = 0
    with open(args.path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            n += 1
            where = f"line {lineno}"
            try:
                q = json.loads(line)
            except json.JSONDecodeError as e:
                problems.append(f"{where}: invalid JSON ({e})")
                continue
            for k, t in REQUIRED.items():
                if k not in q:
                    problems.append(f"{where}: missing field {k}")
                elif not isinstance(q[k], t) or (t is int and isinstance(q[k], bool)):
                    problems.append(f"{where}: field {k} should be {t.__name__}")
            if "answer" not in q:
                problems.append(f"{where}: missing field answer")
            if any(k not in q for k in REQUIRED):
                continue
            want = str(uuid.uuid5(uuid.NAMESPACE_DNS, q["question"]))
            if q["uuid"] != want:
                problems.append(f"{where}: uuid {q['uuid']} != uuid5(question) {want}")
            seen[q["uuid"]] += 1
            if not q["answer_format"].strip():
                problems.append(f"{where}: empty answer_format")
            if q["anchor_pdf"] != [] or q["reference_pdf"] != []:
                problems.append(f"{where}: anchor_pdf/reference_pdf must be []")
            tags = q["tags"]
            ev_tags = [t for t in tags if t in EVIDENCE_TAGS]
            if "single" not in tags or "objective" not in tags or len(ev_tags) != 1:
                problems.append(f"{where}: tags {tags} need 'single', 'objective' and one of {sorted(EVIDENCE_TAGS)}")
            per_tag.update(ev_tags)
            if "kind" in q or "split" in q:
                if q.get("kind") not in KINDS or q.get("split") not in ("tune", "heldout"):
                    problems.append(f"{where}: kind {q.get('kind')!r} / split {q.get('split')!r} not recognised")
                per_kind[q.get("kind")] += 1
                per_split[q.get("split")] += 1
            # evaluator
            ev = q["evaluator"]
            func, kw = ev.get("eval_func"), ev.get("eval_kwargs")
            if func not in ALLOWED:
                problems.append(f"{where}: eval_func {func!r} not allowed")
            elif not isinstance(kw, dict) or "gold" not in kw:
                problems.append(f"{where}: eval_kwargs must be a dict with gold")
            else:
                extra = set(kw) - ALLOWED[func]
                if extra:
                    problems.append(f"{where}: unknown kwargs {sorted(extra)} for {func}")
                per_func[func] += 1
                if "answer" in q:
                    try:
                        if not score(q["answer"], ev):
                            problems.append(f"{where}: answer {q['answer']!r} does not score 1.0 under {func}")
                    except Exception as e:  # noqa: BLE001
                        problems.append(f"{where}: evaluator error {e!r}")
            # pdf + page + evidence
            pdf = os.path.join(args.shared, q["pdf_file"])
            per_pdf[q["pdf_file"]] += 1
            if not os.path.isfile(pdf):
                problems.append(f"{where}: pdf {q['pdf_file']} not found under {args.shared}")
                continue
            if pdf not in page_cache:
                with pymupdf.open(pdf) as doc:
                    page_cache[pdf] = [p.get_text() for p in doc]
            pages = page_cache[pdf]
            pg = q["evidence_page"]
            if not 1 <= pg <= len(pages):
                problems.append(f"{where}: evidence_page {pg} outside 1..{len(pages)}")
                continue
            et = q["evidence_text"]
            if not et.strip() or len(et) > 200:
                problems.append(f"{where}: evidence_text empty or longer than 200 chars")
            elif normalise(et) not in normalise(pages[pg - 1]) and squash(et) not in squash(pages[pg - 1]):
                other = [i + 1 for i, t in enumerate(pages) if squash(et) in squash(t)]
                hint = f" (found on page(s) {other})" if other else ""
                problems.append(f"{where}: evidence_text not on page {pg} of {q['pdf_file']}{hint}: {et[:60]!r}")
    for u, c in seen.items():
        if c > 1:
            problems.append(f"duplicate uuid {u} ({c} times)")

    print(f"{n} questions, {len(per_pdf)} papers")
    if per_kind:
        print("per kind:", dict(per_kind), "per split:", dict(per_split))
    print("per evidence type:", dict(per_tag))
    print("per eval_func:", dict(per_func))
    for corpus in ("corpus/", "corpus2/", "corpus3/"):
        sub = {k: v for k, v in per_pdf.items() if k.startswith(corpus)}
        print(f"{corpus}: {sum(sub.values())} questions over {len(sub)} papers")
    if problems:
        print(f"\n{len(problems)} problem(s):")
        for p in problems:
            print("  " + p)
        return 1
    print("OK: no problems found")
    return 0


if __name__ == "__main__":
    sys.exit(main())
