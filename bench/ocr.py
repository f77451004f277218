"""OCR: accuracy, the garbage-layer detector, speed, and the views of rasterized and scanned papers, in one run.

    .venv/bin/python bench/ocr.py [--dpis 150 200 300] [--pages 8] [--papers P.pdf ...] [--skip-detector]

1. detector on born-digital pages: every page of ../shared/corpus and corpus2 through `ocr.page_verdict` (must flag
   none), with the largest unmapped and unknown-word shares it saw (what the thresholds are set against);
2. detector on deliberately wrong layers built from corpus pages: the page image under an invisible layer of the
   page's words with their letters shuffled (`ocr_layer`), under an invisible layer that is the true text with one
   word in ten garbled (the "X3" case, `ocr_layer`), a visible layer whose glyphs map to the wrong letters (a letter
   substitution, `unknown_words`) and the bare image (`no_text`) (PyMuPDF's base-14 fonts cannot write a U+FFFD
   layer; the `unmapped` rule is tested on a text dict in tests/parse/test_ocr.py):
   recall per kind, precision over everything flagged;
3. character error rate: corpus pages rasterized at each dpi into image-only PDFs, OCR'd as the parser does
   (`ocr.ocr_pages`), each OCR line matched to the text-layer line under it (figure text and rules that the text
   layer does not hold are left out of the rate and counted apart as `spurious`); pages/s of the whole parse of the
   image-only PDF beside the bare engine (`tesseract` on the same page images) in the same run;
4. views of rasterized papers (corpus2 papers with hand-made truth, tests/data/parse_truth) against the same papers
   born-digital: title, section F1 (tests/zoo/scoring.py), reference count;
5. scanned papers of ../shared/corpus3 (scanned_*.pdf): title, section titles, references.

Records `uptime` beside the figures: the machine is shared, speeds move with the load.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import unicodedata
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
SHARED = REPO.parent / "shared"
CER_PAGES = [("acl2020_bleurt.pdf", 1), ("neurips2017_attention.pdf", 3), ("iclr2014_vae.pdf", 2),
             ("emnlp2020_dpr.pdf", 5), ("acl2023short_teaching_small_lms.pdf", 2), ("naacl2025_kg2rag.pdf", 4),
             ("icassp2024_privacy_masking_llm.pdf", 1), ("iclr2024_raptor.pdf", 15)]
VIEW_PAPERS = ["elsevier_elsarticle2023_heavy_quark_fpe.pdf", "acm_kdd2018_bing_visual_search.pdf"]


def load() -> str:
    return open("/proc/loadavg").read().split()[0] if os.path.exists("/proc/loadavg") else "?"


# ---- test material ----------------------------------------------------------------------------------------

def image_only(src_page, dpi: int, doc=None):
    """A new one-page PDF (or a page appended to `doc`) holding only the page's picture at `dpi`."""
    import pymupdf

    doc = doc if doc is not None else pymupdf.open()
    pix = src_page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
    page = doc.new_page(width=src_page.rect.width, height=src_page.rect.height)
    page.insert_image(page.rect, stream=pix.tobytes("png"))
    return doc, page


def lines_of(page) -> list[tuple[tuple, str]]:
    out = []
    for b in page.get_text("dict")["blocks"]:
        for ln in b.get("lines", ()):
            text = unicodedata.normalize("NFKC", "".join(s["text"] for s in ln["spans"])).strip()
            if text and abs(ln["dir"][0]) > 0.9:
                out.append((tuple(ln["bbox"]), " ".join(text.split())))
    return out


def _shuffle(word: str, rng: random.Random) -> str:
    letters = list(word)
    rng.shuffle(letters)
    return "".join(letters)


_CIPHER = str.maketrans("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                        "qwertyuiopasdfghjklzxcvbnmQWERTYUIOPASDFGHJKLZXCVBNM")


def wrong_layers(src_page, rng: random.Random) -> dict[str, object]:
    """kind -> a one-page document built from `src_page` with a deliberately wrong text layer."""
    import pymupdf

    truth = lines_of(src_page)
    out = {}
    for kind in ("invisible_shuffled", "invisible_x3", "visible_cipher", "image_only"):
        if kind.startswith("visible"):
            doc = pymupdf.open()
            page = doc.new_page(width=src_page.rect.width, height=src_page.rect.height)
        else:
            doc, page = image_only(src_page, 150)
        for bbox, text in truth:
            if kind == "image_only":
                break
            words = text.split()
            if kind == "invisible_shuffled":
                words = [_shuffle(w, rng) for w in words]
            elif kind == "invisible_x3":
                words = [_shuffle(w, rng) + "3" if rng.random() < 0.1 else w for w in words]
            elif kind == "visible_cipher":
                words = [w.translate(_CIPHER) for w in words]
            size = max(4.0, min(14.0, (bbox[3] - bbox[1]) * 0.85))
            page.insert_text((bbox[0], bbox[3] - 0.2 * size), " ".join(words), fontsize=size,
                             render_mode=3 if kind.startswith("invisible") else 0)
        out[kind] = doc
    return out


# ---- 1 + 2: detector ----------------------------------------------------------------------------------------

def detector(rng: random.Random, n_wrong: int) -> None:
    import pymupdf

    from pipeline.parse.ocr import layer_stats, page_verdict
    from pipeline.parse.pymupdf.page import text_dict

    flagged, pages, worst_unmapped, worst_unknown = [], 0, (0.0, ""), (0.0, "")
    t0 = time.perf_counter()
    for folder in ("corpus", "corpus2", "corpus3"):
        for path in sorted((SHARED / folder).glob("*.pdf")):
            if path.name.startswith("scanned_"):
                continue
            with pymupdf.open(path) as doc:
                for page in doc:
                    raw = text_dict(page)
                    verdict = page_verdict(page, raw)
                    stats = layer_stats(raw)
                    where = f"{folder}/{path.name} p{page.number + 1}"
                    pages += 1
                    if verdict:
                        flagged.append((where, verdict))
                    if stats.unmapped_share > worst_unmapped[0]:
                        worst_unmapped = (stats.unmapped_share, where)
                    if stats.words >= 20 and stats.unknown_share > worst_unknown[0]:
                        worst_unknown = (stats.unknown_share, where)
    print(f"## detector on born-digital pages (corpus, corpus2, corpus3 without its scans): {pages} pages, {len(flagged)} flagged "
          f"({time.perf_counter() - t0:.1f} s, load {load()})")
    for where, verdict in flagged:
        print(f"   flagged: {where}: {verdict}")
    print(f"   largest unmapped share {worst_unmapped[0]:.3f} ({worst_unmapped[1]}); largest unknown-word share "
          f"{worst_unknown[0]:.3f} ({worst_unknown[1]})")

    sources = []
    for folder in ("corpus", "corpus2"):
        paths = sorted((SHARED / folder).glob("*.pdf"))
        for path in rng.sample(paths, min(len(paths), max(1, n_wrong // 2))):
            doc = pymupdf.open(path)
            sources.append((f"{folder}/{path.name}", doc[rng.randrange(doc.page_count)]))
    by_kind: dict[str, list[int]] = {}
    lowest: dict[str, float] = {}
    for name, src in sources:
        for kind, doc in wrong_layers(src, rng).items():
            page = doc[0]
            raw = text_dict(page)
            verdict = page_verdict(page, raw)
            by_kind.setdefault(kind, []).append(int(verdict is not None))
            stats = layer_stats(raw)
            if kind == "visible_cipher" and stats.words >= 20:
                lowest[kind] = min(lowest.get(kind, 1.0), stats.unknown_share)
            if verdict is None:
                print(f"   missed: {kind} of {name} p{src.number + 1} (unknown {stats.unknown_share:.2f}, "
                      f"{stats.words} words)")
    caught = sum(sum(v) for v in by_kind.values())
    total = sum(len(v) for v in by_kind.values())
    print(f"## detector on deliberately wrong layers: recall {caught}/{total} = {caught / total:.3f}; precision "
          f"{caught}/{caught + len(flagged)} = {caught / max(caught + len(flagged), 1):.3f} (born-digital flags count "
          "against it)")
    for kind, hits in by_kind.items():
        print(f"   {kind}: {sum(hits)}/{len(hits)}")
    if lowest:
        print(f"   lowest unknown-word share of a substituted visible layer: {lowest['visible_cipher']:.3f}")


# ---- 3: character error rate and speed ------------------------------------------------------------------------

def cer_of(truth: list[tuple[tuple, str]], lines: list[tuple[tuple, str]]) -> tuple[int, int, int]:
    """(edit distance, truth characters, spurious characters): each OCR word goes to the truth line its centre lies
    in, words in no truth line are spurious (figure text, rules read as dashes)."""
    from rapidfuzz.distance import Levenshtein

    got: dict[int, list[tuple[float, str]]] = {i: [] for i in range(len(truth))}
    spurious = 0
    for (x0, y0, x1, y1), text in lines:
        words = text.split()
        n = max(len(text), 1)
        pos = 0
        for w in words:  # word boxes in proportion to their characters
            i = text.index(w, pos)
            pos = i + len(w)
            cx, cy = x0 + (x1 - x0) * (i + pos) / 2 / n, (y0 + y1) / 2
            hit = next((k for k, (b, _) in enumerate(truth)
                        if b[0] - 2 <= cx <= b[2] + 2 and b[1] - 1.5 <= cy <= b[3] + 1.5), None)
            if hit is None:
                spurious += len(w)
            else:
                got[hit].append((cx, w))
    dist = sum(Levenshtein.distance(t, " ".join(w for _, w in sorted(got[k]))) for k, (_, t) in enumerate(truth))
    return dist, sum(len(t) for _, t in truth), spurious


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the tesseract processes)."""
    import resource

    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def cer_and_speed(dpis: list[int], n_pages: int) -> None:
    import pymupdf

    from pipeline.parse import ParseOptions, parse_pdf
    from pipeline.parse.ocr import TesseractEngine, ocr_pages, render

    engine = TesseractEngine()
    chosen = CER_PAGES[:n_pages]
    print(f"## character error rate, {len(chosen)} corpus pages (load {load()})")
    print("| dpi | CER | worst page | spurious chars / truth chars | parse pages/s (image-only PDF, 2 OCR workers) | "
          "bare tesseract pages/s (1 process) | 1-worker parse pages/s | parse pages per CPU-second (x2: on 2 idle "
          "cores) |")
    print("|---|---|---|---|---|---|---|---|")
    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / "paperbase_bench_ocr"
    tmp.mkdir(exist_ok=True)
    for dpi in dpis:
        doc = pymupdf.open()
        truths = []
        for name, pno in chosen:
            src = pymupdf.open(SHARED / "corpus" / name)[pno - 1]
            image_only(src, dpi, doc)
            truths.append(lines_of(src))
        pdf = tmp / f"pages_{dpi}.pdf"
        doc.save(pdf)
        pages = list(doc)
        read = ocr_pages(pages, dpi=dpi, workers=1)
        dist = chars = spur = 0
        worst = (0.0, "")
        for (name, pno), truth, blocks in zip(chosen, truths, read):
            d, c, s = cer_of(truth, [(ln.bbox, ln.text) for b in blocks for ln in b.lines])
            dist, chars, spur = dist + d, chars + c, spur + s
            worst = max(worst, (d / c, f"{name} p{pno}"))
        images = [render(p, dpi).tobytes("pnm") for p in pages]
        t0 = time.perf_counter()
        for image in images:
            engine.read_image(image, dpi)
        bare = len(images) / (time.perf_counter() - t0)
        t0, cpu0 = time.perf_counter(), _cpu()
        parse_pdf(pdf, ParseOptions(ocr={"dpi": dpi, "workers": 2}))
        full2 = len(pages) / (time.perf_counter() - t0)
        per_cpu = len(pages) / (_cpu() - cpu0)
        t0 = time.perf_counter()
        parse_pdf(pdf, ParseOptions(ocr={"dpi": dpi, "workers": 1}))
        full1 = len(pages) / (time.perf_counter() - t0)
        print(f"| {dpi} | {dist / chars:.4f} | {worst[0]:.4f} ({worst[1]}) | {spur / chars:.4f} | {full2:.3f} | "
              f"{bare:.3f} | {full1:.3f} | {per_cpu:.3f} ({2 * per_cpu:.2f}) |", flush=True)
    print(f"(load after: {load()})")


# ---- 4 + 5: views ------------------------------------------------------------------------------------------

def _scores(paper, truth_meta, truth_sections, truth_refs):
    sys.path.insert(0, str(REPO / "tests" / "zoo"))
    from scoring import sections_score, title_score

    title = title_score(paper.metadata.title, truth_meta["title"]) if truth_meta else None
    sec = sections_score([(s.level, s.title) for s in paper.sections],
                         [{"level": lvl, "title": t} for lvl, t in truth_sections])[0] if truth_sections else None
    return title, sec, len(paper.references), truth_refs


def views(dpi: int, papers: list[str]) -> None:
    import pymupdf

    from pipeline.parse import ParseOptions, parse_pdf

    truth = {k: json.loads((REPO / "tests/data/parse_truth" / f"{k}.json").read_text())
             for k in ("metadata", "sections", "references")}
    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / "paperbase_bench_ocr"
    tmp.mkdir(exist_ok=True)
    print(f"## views of rasterized papers at {dpi} dpi vs born-digital (load {load()})")
    print("| paper | pages | title bd / ocr | section F1 bd / ocr | references bd / ocr (truth) | OCR parse s |")
    print("|---|---|---|---|---|---|")
    for name in papers:
        src = pymupdf.open(SHARED / "corpus2" / name)
        doc = pymupdf.open()
        for page in src:
            image_only(page, dpi, doc)
        pdf = tmp / f"raster_{dpi}_{name}"
        doc.save(pdf)
        born = parse_pdf(SHARED / "corpus2" / name)
        t0 = time.perf_counter()
        ocr = parse_pdf(pdf)  # OCR at the default dpi: what a user gets
        secs = time.perf_counter() - t0
        t_meta, t_sec, t_ref = (truth[k].get(name) for k in ("metadata", "sections", "references"))
        b = _scores(born, t_meta, t_sec, t_ref)
        o = _scores(ocr, t_meta, t_sec, t_ref)
        fmt = lambda v: "-" if v is None else f"{v:.2f}"  # noqa: E731
        print(f"| {name} | {src.page_count} | {fmt(b[0])} / {fmt(o[0])} | {fmt(b[1])} / {fmt(o[1])} | "
              f"{b[2]} / {o[2]} ({t_ref}) | {secs:.1f} |", flush=True)


def scanned(dpi: int) -> None:
    from pipeline.parse import ParseOptions, parse_pdf

    print(f"## scanned papers of corpus3 at {dpi} dpi (load {load()})")
    for path in sorted((SHARED / "corpus3").glob("scanned_*.pdf")):
        t0 = time.perf_counter()
        paper = parse_pdf(path, ParseOptions(ocr={"dpi": dpi}))
        secs = time.perf_counter() - t0
        ocrd = sum(1 for p in paper.pages if p.ocr)
        print(f"- {path.name}: {len(paper.pages)} pages, {ocrd} OCR'd ({', '.join(sorted({p.ocr for p in paper.pages if p.ocr}))}),"
              f" {secs:.1f} s ({len(paper.pages) / secs:.2f} pages/s)")
        print(f"  title: {paper.metadata.title!r}; authors: {paper.metadata.authors}")
        print(f"  sections ({len(paper.sections)}): {[s.title for s in paper.sections]}")
        print(f"  references: {len(paper.references)}; errors: {paper.errors}")


def main() -> None:
    from pipeline.parse import ParseOptions

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dpis", type=int, nargs="+", default=[150, 200, 300])
    ap.add_argument("--pages", type=int, default=8, help="corpus pages for the CER (at most 8)")
    ap.add_argument("--wrong", type=int, default=12, help="source pages for the deliberately wrong layers")
    ap.add_argument("--papers", nargs="*", default=VIEW_PAPERS, help="corpus2 papers rasterized for the views")
    ap.add_argument("--view-dpi", type=int, default=200)
    ap.add_argument("--only", nargs="*", default=["detector", "cer", "views", "scanned"])
    args = ap.parse_args()
    print(f"uptime: {open('/proc/loadavg').read().strip() if os.path.exists('/proc/loadavg') else '?'}")
    rng = random.Random(30)
    if "detector" in args.only:
        detector(rng, args.wrong)
    if "cer" in args.only:
        cer_and_speed(args.dpis, args.pages)
    if "views" in args.only:
        views(args.view_dpi, args.papers)
    if "scanned" in args.only:
        scanned(ParseOptions().ocr.dpi)


if __name__ == "__main__":
    main()
