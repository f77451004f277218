"""Tables for bench/retrieval.py: recall at 1 and 5 and MRR@10 per question set, folder and kind, and latency.

Question sets: `original` (tests/data/corpus_questions.jsonl, the 198 questions earlier fusion weights and window
sizes were chosen on), `tune` and `heldout` (tests/data/paraphrase_questions.jsonl: paraphrased questions; the
held-out third, a third of each folder's papers, was never used to choose anything). "Tuned" columns pool the
questions that choices were made on (original + tune); held-out columns are always apart.
"""
from __future__ import annotations

from collections import defaultdict

K = 10  # ranks looked at: recall@1, recall@5 and MRR@10
SETS = ("original", "tune", "heldout")


def rank_of(pages: list[int], evidence: int) -> int | None:
    for i, p in enumerate(pages[:K]):
        if p == evidence:
            return i + 1
    return None


def summarize(ranks: list[int | None]) -> dict[str, float]:
    n = max(1, len(ranks))
    return {"n": len(ranks), "r@1": round(sum(1 for r in ranks if r == 1) / n, 3),
            "r@5": round(sum(1 for r in ranks if r and r <= 5) / n, 3),
            "r@10": round(sum(1 for r in ranks if r) / n, 3),
            "mrr": round(sum(1 / r for r in ranks if r) / n, 3)}


def folder(q: dict) -> str:
    return q["pdf_file"].split("/")[0]


def side(q: dict) -> str:
    return "held-out" if q["set"] == "heldout" else "tuned"


def group(questions: list[dict], ranks: list[int | None], key) -> dict[str, dict[str, float]]:
    by: dict[str, list] = defaultdict(list)
    for q, r in zip(questions, ranks):
        for g in key(q):
            by[g].append(r)
    return {g: summarize(r) for g, r in sorted(by.items())}


def by_set(q: dict) -> list[str]:
    return [q["set"], "all"]


def by_folder(q: dict) -> list[str]:
    return [f"{folder(q)} {side(q)}", f"all {side(q)}"]


def by_kind(q: dict) -> list[str]:
    return [f"{q['kind']} {side(q)}"]


def cell(s: dict | None) -> str:
    return "-" if not s else f"{s['r@1']:.2f} / {s['r@5']:.2f} / {s['mrr']:.2f} ({s['n']})"


def table(title: str, rows: dict[str, dict[str, dict]], columns: list[str]) -> str:
    head = "| mode | " + " | ".join(f"{c}: r@1 / r@5 / MRR (n)" for c in columns) + " |"
    lines = [f"\n{title}", head, "|---|" + "---|" * len(columns)]
    for mode, r in rows.items():
        lines.append(f"| {mode} | " + " | ".join(cell(r.get(c)) for c in columns) + " |")
    return "\n".join(lines)


def kind_table(title: str, default: dict[str, dict], bm25: dict[str, dict] | None) -> str:
    kinds = sorted({g.rsplit(" ", 1)[0] for g in default})
    lines = [f"\n{title}", "| kind | tuned: r@1 / r@5 / MRR (n) | held-out: r@1 / r@5 / MRR (n) |"
             + (" BM25 r@1 tuned / held-out |" if bm25 else ""), "|---|---|---|" + ("---|" if bm25 else "")]
    for k in kinds:
        row = f"| {k} | {cell(default.get(f'{k} tuned'))} | {cell(default.get(f'{k} held-out'))} |"
        if bm25:
            t, h = bm25.get(f"{k} tuned"), bm25.get(f"{k} held-out")
            row += f" {t['r@1']:.2f} / {h['r@1']:.2f} |" if t and h else (f" {t['r@1']:.2f} / - |" if t else " - |")
        lines.append(row)
    return "\n".join(lines)


def latency_table(title: str, times: dict[str, list[float]]) -> str:
    lines = [f"\n{title}", "| mode | searches | p50 ms | p95 ms | mean ms |", "|---|---|---|---|---|"]
    for mode, ts in times.items():
        s = sorted(ts)
        if not s:
            continue
        p = lambda f: s[min(len(s) - 1, int(f * len(s)))]  # noqa: E731
        lines.append(f"| {mode} | {len(s)} | {p(0.5) * 1e3:.1f} | {p(0.95) * 1e3:.1f} | {sum(s) / len(s) * 1e3:.1f} |")
    return "\n".join(lines)
