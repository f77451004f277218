"""OCR (pipeline/parse/ocr.py): which pages need it, and what a page read by it gives the views.

Test material with exact truth, built here from a corpus paper: its first two pages rasterized into an image-only
PDF at 150 dpi (the lowest resolution the issue asks for), so the born-digital text layer of the same pages is the
truth. One session fixture OCRs those two pages once; everything else is the detector, which costs no OCR.
"""
from __future__ import annotations

import random
import shutil

import pymupdf
import pytest
from rapidfuzz.distance import Levenshtein

from pipeline.parse import ParseOptions, parse_pdf
from pipeline.parse.errors import NoTextLayer
from pipeline.parse.ocr import OCRUnavailable, layer_stats, page_verdict, parse_hocr
from pipeline.parse.pymupdf.page import text_dict
from tests.conftest import CORPUS, CORPUS2, CORPUS3, corpus_pdf, needs_corpus, needs_corpus2, needs_corpus3

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None,
                                     reason="Tesseract is not installed (apt-get install -y tesseract-ocr; .ci/run does)")
PAPER = "emnlp2014_cnn_sentence.pdf"


def rasterize(src: pymupdf.Document, pages: range, dpi: int) -> pymupdf.Document:
    out = pymupdf.open()
    for n in pages:
        page = src[n]
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        new = out.new_page(width=page.rect.width, height=page.rect.height)
        new.insert_image(new.rect, stream=pix.tobytes("png"))
    return out


@pytest.fixture(scope="session")
def scanned_pair(tmp_path_factory):
    """(born-digital parse, OCR parse) of the first two pages of PAPER, the second from a 150-dpi image-only PDF."""
    if shutil.which("tesseract") is None:
        pytest.skip("Tesseract is not installed (apt-get install -y tesseract-ocr)")
    src = pymupdf.open(corpus_pdf(PAPER))
    folder = tmp_path_factory.mktemp("ocr")
    born, scan = folder / "born.pdf", folder / "scan.pdf"
    two = pymupdf.open()
    two.insert_pdf(src, from_page=0, to_page=1)
    two.save(born)
    rasterize(src, range(2), 150).save(scan)
    return parse_pdf(born), parse_pdf(scan)


def _flat(text: str) -> str:
    return " ".join(text.split())


@needs_corpus
def test_image_only_pdf_is_read_by_ocr_not_refused(scanned_pair):
    born, scan = scanned_pair
    assert [p.ocr for p in scan.pages] == ["no_text", "no_text"]
    assert [p.ocr for p in born.pages] == [None, None]
    # the whole page's text in reading order, paragraphs and figure text included: page 1 (prose) within the issue's
    # 150-dpi bound on character errors (5 %); page 2 holds five display equations and a figure whose vector labels
    # the picture loses at 150 dpi (bench/ocr.py measures the CER line by line, where the bound applies)
    for b, s, bound in zip(born.pages, scan.pages, (0.05, 0.10)):
        cer = Levenshtein.distance(_flat(b.text), _flat(s.text)) / len(_flat(b.text))
        assert cer <= bound, (b.number, cer)


@needs_corpus
def test_views_of_the_scan_match_the_born_digital_paper(scanned_pair):
    born, scan = scanned_pair
    assert scan.metadata.title == born.metadata.title == "Convolutional Neural Networks for Sentence Classification"
    # headings need bold, which OCR gives from stroke width (ocr.mark_bold)
    titles = [s.title for s in born.sections]
    assert [s.title for s in scan.sections] == titles, [s.title for s in scan.sections]
    assert len(scan.chunks) >= 0.8 * len(born.chunks)


@needs_corpus
@needs_tesseract
def test_ocr_off_refuses_with_the_way_to_turn_it_on(tmp_path):
    path = tmp_path / "scan.pdf"
    rasterize(pymupdf.open(corpus_pdf(PAPER)), range(1), 72).save(path)
    with pytest.raises(NoTextLayer, match="tesseract-ocr"):
        parse_pdf(path, ParseOptions(ocr={"enabled": False}))


@needs_corpus
def test_without_tesseract_the_error_names_the_install_command(tmp_path, monkeypatch):
    path = tmp_path / "scan.pdf"
    rasterize(pymupdf.open(corpus_pdf(PAPER)), range(1), 72).save(path)
    monkeypatch.setenv("PATH", str(tmp_path))  # no tesseract on it
    with pytest.raises(OCRUnavailable, match="apt-get install -y tesseract-ocr"):
        parse_pdf(path)


# ---- the detector: no OCR run --------------------------------------------------------------------------------

@needs_corpus
@needs_corpus2
def test_detector_flags_no_born_digital_page():
    """Every page of five papers in different styles (bench/ocr.py runs all 964 pages of the three corpora)."""
    paths = [CORPUS / "iclr2024_raptor.pdf", CORPUS / "neurips2017_attention.pdf",
             CORPUS2 / "elife_elife2012_sulfonolipid.pdf", CORPUS2 / "mnras_mnras2025_carbon_dust.pdf",
             CORPUS2 / "amsart_arxiv2004_dominoes_hexagons.pdf"]
    flagged = []
    for path in paths:
        with pymupdf.open(path) as doc:
            flagged += [(path.name, p.number + 1, v) for p in doc if (v := page_verdict(p, text_dict(p)))]
    assert flagged == []


_CIPHER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "qwertyuiopasdfghjklzxcvbnm")


def _wrong_layer(src: pymupdf.Page, kind: str) -> pymupdf.Page:
    """`src` rebuilt with a deliberately wrong text layer: `invisible` = its picture under its words with their
    letters shuffled in render mode 3; `cipher` = its words drawn visibly through a letter substitution (a font
    whose ToUnicode map is wrong reads like that)."""
    rng = random.Random(7)
    doc = pymupdf.open() if kind == "cipher" else rasterize(src.parent, range(src.number, src.number + 1), 100)
    page = doc[0] if doc.page_count else doc.new_page(width=src.rect.width, height=src.rect.height)
    for b in src.get_text("dict")["blocks"]:
        for ln in b.get("lines", ()):
            text = "".join(s["text"] for s in ln["spans"]).strip()
            if not text or abs(ln["dir"][0]) < 0.9:
                continue
            if kind == "cipher":
                text = text.translate(_CIPHER)
            else:
                text = " ".join("".join(rng.sample(w, len(w))) for w in text.split())
            x0, y0, x1, y1 = ln["bbox"]
            page.insert_text((x0, y1 - 2), text, fontsize=max(4, min(12, (y1 - y0) * 0.8)),
                             render_mode=3 if kind == "invisible" else 0)
    return page


@needs_corpus
@pytest.mark.parametrize("kind, verdict", [("invisible", "ocr_layer"), ("cipher", "unknown_words")])
def test_detector_flags_a_deliberately_wrong_layer(kind, verdict):
    src = pymupdf.open(corpus_pdf(PAPER))[1]
    assert page_verdict(src, text_dict(src)) is None
    page = _wrong_layer(src, kind)
    assert page_verdict(page, text_dict(page)) == verdict


def test_unmapped_glyphs_make_a_layer_not_text():
    """A font without a usable ToUnicode map gives U+FFFD (PyMuPDF cannot write such a font, so the text dict is
    built here in the shape `get_text("dict")` returns)."""
    span = {"text": "\ufffd\ufffd\ufffd\ufffd \ufffd\ufffd\ufffd of the \ufffd\ufffd\ufffd\ufffd\ufffd", "char_flags": 16}
    raw = {"blocks": [{"lines": [{"spans": [span]}] * 4}]}
    stats = layer_stats(raw)
    assert stats.unmapped_share == 48 / 68  # "of", "the" and nothing else readable
    assert page_verdict(None, raw) == "unmapped"  # a page with visible text: no image check, so no page needed


def test_letters_read_as_dingbats_make_a_layer_not_text():
    """Ghostscript maps dvips's code-named bitmap glyphs (`/a101`, the `e` at code 101) through Adobe's Zapf
    Dingbats names, so a Sweave vignette's text layer reads `P❡♥❛❧✐③❡❞ ❧❡❛st sq✉❛r❡s`: such a page is OCR'd. A
    page of words with a few check marks and stars in it (a results table) is not."""
    dingbats = pymupdf.Font("zadb")
    garbled = ["P❡♥❛❧✐③❡❞ ❧❡❛st sq✉❛r❡s ✈❡rs✉s ❣❡♥❡r❛❧✐③❡❞ ❧❡❛st sq✉❛r❡s",
               "r❡♣r❡s❡♥t❛t✐♦♥s ♦❢ ❧✐♥❡❛r ♠✐①❡❞ ♠♦❞❡❧s ❉♦✉❣❧❛s ❇❛t❡s",
               "❚❤❡ ♠❡t❤♦❞s ✐♥ t❤❡ ❧♠❡✹ ♣❛❝❦❛❣❡ ❢♦r ❘ ❢♦r ✜tt✐♥❣ ❧✐♥❡❛r ♠✐①❡❞ ♠♦❞❡❧s"]
    doc = pymupdf.open()
    page = doc.new_page()
    writer = pymupdf.TextWriter(page.rect)
    for i, line in enumerate(garbled * 3):
        writer.append((72, 72 + 16 * i), line, font=dingbats, fontsize=11)
    writer.write_text(page)
    assert layer_stats(text_dict(page)).unmapped_share > 0.5
    assert page_verdict(page, text_dict(page)) == "unmapped"

    table = doc.new_page()
    writer = pymupdf.TextWriter(table.rect)
    for i in range(12):
        writer.append((72, 72 + 16 * i), f"Model {i} reaches an accuracy of {80 + i}.5 on the held-out split", fontsize=11)
        writer.append((430, 72 + 16 * i), "✓ ★" if i % 2 else "✗", font=dingbats, fontsize=11)
    writer.write_text(table)
    assert layer_stats(text_dict(table)).unmapped_share < 0.05  # marks standing alone are no garbled words
    assert page_verdict(table, text_dict(table)) is None

    # R's pdf device draws scatterplot points as the Dingbats circle: thousands of them, alone or run together
    plot = doc.new_page()
    writer = pymupdf.TextWriter(plot.rect)
    writer.append((72, 60), "Figure 3: Posterior draws of the spatial effect for each of the 544 districts.", fontsize=10)
    rng = random.Random(3)
    for _ in range(600):
        writer.append((rng.uniform(72, 520), rng.uniform(80, 760)), "●" * rng.choice((1, 1, 1, 4)), font=dingbats,
                      fontsize=6)
    writer.write_text(plot)
    assert page_verdict(plot, text_dict(plot)) is None


def test_a_layer_of_font_codes_is_not_text():
    """A Type 3 font whose codes are no letters (an R vignette built by dvips and an old Ghostscript reads
    `46587:9<;>=?7A@CBC7ADFEHG IFJHKMLMNPORQ?SMTVU`): almost no run of letters is a word, in any case, and the runs
    are poor in vowels; a page of German prose, whose words an English list does not know either, is kept."""
    rng = random.Random(7)
    codes = "".join(chr(c) for c in range(33, 127) if chr(c) not in "aeiouyAEIOUY")
    doc = pymupdf.open()
    page = doc.new_page()
    for i in range(40):
        line = " ".join("".join(rng.choice(codes) for _ in range(rng.randint(4, 14))) for _ in range(6))
        page.insert_text((72, 60 + 17 * i), line, fontsize=10)
    stats = layer_stats(text_dict(page))
    assert stats.runs >= 50 and stats.known_run_share < 0.2 and stats.words < 20  # too few lower-case words
    assert page_verdict(page, text_dict(page)) == "unknown_words"

    german = doc.new_page()
    text = ("Die Analyse der Daten zeigt, dass die Schätzung der räumlichen Effekte für jeden Landkreis stabil bleibt "
            "und die Unsicherheit mit wachsender Stichprobe deutlich kleiner wird.")
    for i in range(30):
        german.insert_text((72, 60 + 17 * i), text[(i * 7) % 40:][:95], fontsize=10)
    assert page_verdict(german, text_dict(german)) is None


def test_hocr_lines_keep_boxes_sizes_and_rotation():
    hocr = """<div class='ocr_page' title='bbox 0 0 1700 2200'>
     <div class='ocr_carea' title="bbox 100 200 900 300"><p class='ocr_par' title="bbox 100 200 900 300">
      <span class='ocr_header' title="bbox 100 200 900 240; baseline 0 -8; x_size 40; x_descenders 8">
       <span class='ocrx_word' title='bbox 100 200 300 240; x_wconf 95'>Sparse</span>
       <span class='ocrx_word' title='bbox 320 200 900 240; x_wconf 91'>Partitions</span></span>
      <span class='ocr_line' title="bbox 40 1000 80 1600; textangle 90; x_size 30">
       <span class='ocrx_word' title='bbox 40 1000 80 1600; x_wconf 50'>arXiv:1234</span></span>
     </p></div></div>"""
    (block,) = parse_hocr(hocr, 72 / 200)
    head, stamp = block.lines
    # x from the words' ink; y the font's box from the baseline (8 px above the bottom: 83.52 pt), 0.9 size above it
    # and 0.22 below, as a text layer's line box is
    assert head.text == "Sparse Partitions" and head.bbox == pytest.approx((36, 83.52 - 14.4, 324, 83.52 + 3.52))
    assert head.size == 16.0  # 40 px at 200 dpi = 14.4 pt of line height -> 15.84 pt, to the half point
    assert stamp.vertical and not head.vertical and head.confidence == 93


def test_a_reference_label_in_its_own_column_goes_back_to_its_entry():
    """Tesseract reads a hanging label column ([AKP90] ...) as a block of its own; the label rejoins its entry."""
    hocr = """<div class='ocr_page' title='bbox 0 0 2550 3300'>
     <div class='ocr_carea' title="bbox 100 100 250 140"><p class='ocr_par' title="bbox 100 100 250 140">
      <span class='ocr_line' title="bbox 100 100 250 140; x_size 40">
       <span class='ocrx_word' title='bbox 100 100 250 140; x_wconf 90'>[AKP90]</span></span></p></div>
     <div class='ocr_carea' title="bbox 300 100 1200 190"><p class='ocr_par' title="bbox 300 100 1200 190">
      <span class='ocr_line' title="bbox 300 102 1200 142; x_size 40">
       <span class='ocrx_word' title='bbox 300 102 500 142; x_wconf 95'>Baruch</span>
       <span class='ocrx_word' title='bbox 520 102 1200 142; x_wconf 95'>Awerbuch.</span></span>
      <span class='ocr_line' title="bbox 300 150 1200 190; x_size 40">
       <span class='ocrx_word' title='bbox 300 150 1200 190; x_wconf 95'>Unpublished.</span></span></p></div></div>"""
    from pipeline.parse.ocr import attach_labels

    blocks = parse_hocr(hocr, 72 / 300)
    attach_labels(blocks)
    assert [[ln.text for ln in b.lines] for b in blocks] == [["[AKP90] Baruch Awerbuch.", "Unpublished."]]
    assert blocks[0].lines[0].bbox[0] == pytest.approx(100 * 72 / 300)


@needs_corpus
def test_export_and_inspect_say_which_pages_ocr_read(scanned_pair, tmp_path):
    """The OCR'd paper stored as ingest stores it (rows + ledger in one transaction), then read back as `export`
    and `inspect` read it."""
    from pipeline.config import load_settings
    from pipeline.read import Reader
    from pipeline.store import Store
    from pipeline.store.ledger import FileRecord
    from report.export import to_json, to_markdown
    from report.load import load_paper

    _, scan = scanned_pair
    settings = load_settings(data_dir=tmp_path / "data")
    record = FileRecord(path=scan.pdf_path, paper_id=scan.paper_id, status="ok",
                        ocr_pages={p.number: p.ocr for p in scan.pages if p.ocr})
    Store(settings.duckdb_path).save_paper(scan, record)
    with Reader(settings) as reader:
        paper = load_paper(reader, scan.paper_id)
    assert paper.ocr_pages == {1: "no_text", 2: "no_text"}
    assert "*2 page(s) read by OCR (1-2: no text layer): its text may hold recognition errors.*" in to_markdown(paper)
    assert '"ocr_pages": {\n  "1": "no_text",\n  "2": "no_text"\n }' in to_json(paper)


def test_text_in_another_language_is_not_taken_for_a_garbled_layer():
    """The test suite's typeset papers are set in Latin filler (lorem ipsum): most of their lower-case words are
    unknown to the English word list, yet they are spelled like a language (vowels about 0.42 of their letters, a
    letter substitution about 0.2), so the page keeps its text layer; the same page through the substitution is
    flagged."""
    from pathlib import Path

    src = pymupdf.open(Path(__file__).resolve().parents[1] / "data" / "headings" / "running.pdf")[0]
    stats = layer_stats(text_dict(src))
    assert stats.words >= 100 and stats.unknown_share >= 0.7 and stats.unknown_vowel_share > 0.35
    assert page_verdict(src, text_dict(src)) is None
    garbled = _wrong_layer(src, "cipher")
    assert layer_stats(text_dict(garbled)).unknown_vowel_share < 0.3
    assert page_verdict(garbled, text_dict(garbled)) == "unknown_words"


@needs_corpus
@needs_tesseract
def test_a_scanned_file_reports_each_page_read_from_its_parser_process(tmp_path):
    """Page progress (issue 30: "with progress"): the caller's callback hears every page OCR reads, from the parser
    process that reads it (ParserPool's queue), not only the file's end; and nothing at all when nobody listens."""
    from pathlib import Path

    from pipeline.parse.progress import reporting
    from pipeline.workers import ParserPool

    path = tmp_path / "scan.pdf"
    rasterize(pymupdf.open(corpus_pdf(PAPER)), range(2), 100).save(path)
    options = ParseOptions(ocr={"dpi": 100, "workers": 1})
    seen: list[tuple[str, int, int]] = []
    with reporting(lambda p, done, total: seen.append((Path(p).name, done, total))):
        with ParserPool(options, workers=2) as pool:
            paper, error, _ = pool.parse(str(path))
    assert error is None and [p.ocr for p in paper.pages] == ["no_text", "no_text"]
    assert seen == [("scan.pdf", 0, 2), ("scan.pdf", 1, 2), ("scan.pdf", 2, 2)]
    with ParserPool(options, workers=2) as pool:  # no callback installed: no queue, no listener thread
        assert pool._progress_queue() is None


def _raster_tables(style: str, dpi: int, tmp_path) -> str:
    """A zoo paper whose tables are replaced by pictures of themselves: each table body's text and rules are
    redacted and its rendering at `dpi` drawn in their place (captions stay text), as a table pasted in as an image."""
    from pathlib import Path

    src = Path(__file__).resolve().parents[1] / "zoo" / "papers" / style / "paper.pdf"
    doc = pymupdf.open(src)
    for t in parse_pdf(src).tables:
        x, y, w, h = t.bbox
        rect, page = pymupdf.Rect(x, y, x + w, y + h), doc[t.page_number - 1]
        png = page.get_pixmap(dpi=dpi, clip=rect, colorspace=pymupdf.csGRAY).tobytes("png")
        page.add_redact_annot(rect)
        page.apply_redactions(images=pymupdf.PDF_REDACT_IMAGE_NONE)
        page.insert_image(rect, stream=png)
    out = tmp_path / f"{style}_raster.pdf"
    doc.save(out)
    return str(out)


@needs_tesseract
def test_a_table_printed_as_a_picture_gets_its_cells_from_ocr(tmp_path):
    """Raster tables (issue 30): a table region with no text layer is read by OCR and built into cells by the same
    grid builder, flagged `data-raster="true"`; scored by TEDS against the cells the zoo typeset (exact truth). On
    llncs the OCR'd table beats the text layer's (its 1.4 pt column gap merges columns there)."""
    from tests.zoo.tables import _rows_for, teds

    from pipeline.parse.pymupdf import PyMuPDFBackend

    raster = _raster_tables("llncs", 200, tmp_path)
    paper = PyMuPDFBackend().parse(raster, ParseOptions(), views=["tables"])
    scores = {t.caption[:30]: teds(t.html, _rows_for(t.caption.split(" ", 2)[2]) or [[]]) for t in paper.tables}
    assert all('data-raster="true"' in t.html for t in paper.tables) and len(scores) == 3, scores
    assert min(scores.values()) >= 0.95, scores
    off = PyMuPDFBackend().parse(raster, ParseOptions(ocr={"enabled": False}), views=["tables"])
    assert [t.html for t in off.tables] == ['<table data-raster="true"></table>'] * 3  # OCR off: flagged, empty
    # `export` shows the cells OCR read, and says where they come from; a flagged empty table says it has none
    from report.export import _table_block

    read = _table_block({"table_caption": paper.tables[0].caption, "table_content": paper.tables[0].html})
    assert "| ClinNotes |" in read and "cells were read by OCR" in read
    empty = _table_block({"table_caption": "Table 1", "table_content": off.tables[0].html})
    assert "cells are not extracted" in empty and "|" not in empty


@needs_corpus2
@needs_tesseract
def test_ocr_headings_and_references_of_a_rasterized_acm_paper_match_its_text_layer(tmp_path):
    """The last two pages of an ACM paper as 200-dpi pictures: Tesseract reads the bold capitals "ACKNOWLEDGMENTS"
    and "REFERENCES" 4 points smaller than they are and one subsection heading larger than its siblings, and garbles
    a label or two of the numbered list; headings still come from weight and numbering, and every entry but at most
    one (a garbled label joins its neighbour) is found."""
    src = pymupdf.open(CORPUS2 / "acm_kdd2018_bing_visual_search.pdf")
    born_pdf, scan_pdf = tmp_path / "born.pdf", tmp_path / "scan.pdf"
    two = pymupdf.open()
    two.insert_pdf(src, from_page=src.page_count - 2, to_page=src.page_count - 1)
    two.save(born_pdf)
    rasterize(src, range(src.page_count - 2, src.page_count), 200).save(scan_pdf)
    born, scan = parse_pdf(born_pdf), parse_pdf(scan_pdf)
    assert {p.ocr for p in scan.pages} == {"no_text"}
    assert len(born.references) == 25
    assert len(born.references) - 1 <= len(scan.references) <= len(born.references)
    assert [s.title for s in scan.sections if s.title.isupper()] == \
        [s.title for s in born.sections if s.title.isupper()] == ["6 CONCLUSIONS", "ACKNOWLEDGMENTS", "REFERENCES"]


@needs_corpus3
@needs_tesseract
def test_a_scanned_journal_keeps_its_centred_headings_and_the_entries_under_a_ditto_rule(tmp_path):
    """The last two pages of a 1997 journal scan (image only): a centred REFERENCES in small capitals, and an author-year list whose
    entries repeat their author as a rule ("———, “Title,” ...") that OCR does not read. 42 entries as printed
    (counted on the page images: 35 under a name, 7 under a ditto rule)."""
    src = pymupdf.open(CORPUS3 / "scanned_restat1997_kazarosian.pdf")
    part = pymupdf.open()
    part.new_page()  # where the paper's title page would be: nothing on page 1 is taken for its title block
    part.insert_pdf(src, from_page=src.page_count - 2, to_page=src.page_count - 1)
    part.save(tmp_path / "scan.pdf")
    scan = parse_pdf(tmp_path / "scan.pdf", ParseOptions(ocr={"dpi": 200}))
    assert [p.ocr for p in scan.pages] == [None, "no_text", "no_text"]
    assert [s.title for s in scan.sections][-1] == "REFERENCES"  # centred, small capitals, not bold
    assert len(scan.references) == 42
    kimball = [r.text for r in scan.references if "Marginal Propensity" in r.text or "Holding Assets" in r.text]
    assert len(kimball) == 2 and all(t.startswith("“") for t in kimball), kimball


PROSE = ("The results of this study suggest that households save more when their income is uncertain, and the "
         "effect is larger for those with fewer assets. We describe the data and the model in turn, then discuss "
         "what the estimates imply for policy and for the theory of consumption over the life cycle. ")


@needs_tesseract
def test_centred_headings_of_a_scan_are_found_without_bold_or_size(tmp_path):
    """A journal page typeset here (exact truth) and scanned at 200 dpi: numbered headings in capitals, centred, in
    the body's own size and weight (what an old journal sets in small capitals), between justified paragraphs.
    Tesseract gives such a line no bold and a size below the body's, so only its placement and its number mark it;
    a centred formula with a number in front ("34 x4 (Cc)") must not pass for a heading."""
    doc = pymupdf.open()
    page = doc.new_page(width=440, height=660)
    y = 50.0
    for heading in ("1. INTRODUCTION", "34 x4 (Cc) |", "2. THE MODEL AND THE DATA", "3. RESULTS", "REFERENCES"):
        page.insert_textbox(pymupdf.Rect(40, y, 400, y + 16), heading, fontname="tiro", fontsize=9, align=1)
        y += 22
        if heading != "REFERENCES":
            assert page.insert_textbox(pymupdf.Rect(40, y, 400, y + 72), PROSE, fontname="tiro", fontsize=10,
                                       align=3) >= 0  # the paragraph fits (else nothing is drawn)
            y += 80
    page.insert_textbox(pymupdf.Rect(40, y, 400, y + 30), "Carroll, C. D., “Buffer Stock Saving,” Working Paper "
                        "114 (1991).", fontname="tiro", fontsize=9, align=0)
    scan_pdf = tmp_path / "scan.pdf"
    rasterize(doc, range(1), 200).save(scan_pdf)
    scan = parse_pdf(scan_pdf, ParseOptions(ocr={"dpi": 200}))
    assert [p.ocr for p in scan.pages] == ["no_text"]
    assert [s.title for s in scan.sections] == ["1. INTRODUCTION", "2. THE MODEL AND THE DATA", "3. RESULTS",
                                                "REFERENCES"], [s.title for s in scan.sections]


@needs_corpus3
@needs_tesseract
@pytest.mark.parametrize("scan, pages, title, surnames", [
    # two authors side by side, their daggers read as "*" and "t", sizes 9.0 and 12.5 pt from Tesseract;
    # "(Extended Abstract)" under the title, its footnote mark read as "!"
    ("scanned_focs1990_sparse_partitions.pdf", 1, "Sparse Partitions", ["Awerbuch", "Peleg"]),
    # a JSTOR cover page, then the article: a capitals title, "BY DAVID M. KREPS AND EVAN L. PORTEUS" in small
    # capitals (OCR: "By Davip M. KREPS", "EVAN L. Porteus?")
    ("scanned_econometrica1978_kreps_porteus.pdf", 2,
     "Temporal Resolution of Uncertainty and Dynamic Choice Theory", ["Kreps", "Porteus"]),
])
def test_title_and_authors_of_a_scanned_first_page(tmp_path, scan, pages, title, surnames):
    src = pymupdf.open(CORPUS3 / scan)
    part = pymupdf.open()
    part.insert_pdf(src, from_page=0, to_page=pages - 1)
    part.save(tmp_path / "scan.pdf")
    meta = parse_pdf(tmp_path / "scan.pdf", ParseOptions(ocr={"dpi": 200})).metadata
    assert meta.title == title
    assert [a.split()[-1] for a in meta.authors] == surnames, meta.authors


class _Watched:
    """The real Tesseract engine, watched: the ink of each image in the order the calls start, and how many calls
    run at once."""

    def __init__(self):
        import threading

        from pipeline.parse.ocr import TesseractEngine

        self.engine, self.lock = TesseractEngine(), threading.Lock()
        self.started: list[int] = []
        self.running = self.most = 0

    def check(self):
        self.engine.check()

    def read_image(self, image: bytes, dpi: int):
        with self.lock:
            self.started.append(sum(1 for byte in image[image.index(b"255\n") + 4:] if byte < 128))  # PGM: dark pixels
            self.running += 1
            self.most = max(self.most, self.running)
        try:
            blocks = self.engine.read_image(image, dpi)
        finally:
            with self.lock:
                self.running -= 1
        return blocks


@needs_tesseract
def test_pages_are_read_in_parallel_heaviest_first_and_come_back_in_page_order():
    """ocr_pages streams: the page with the most ink goes first (the longest job first leaves no core idle at the
    end), at most `workers` pages are read at once, and the result is page by page what one worker reads."""
    from pipeline.parse.ocr import ocr_pages

    doc = pymupdf.open()
    for first, lines in (("Short", 2), ("Long", 30), ("Middle", 12)):
        page = doc.new_page(width=400, height=600)
        text = "\n".join(f"{first if i == 0 else 'Then'} line {i} of plain words to read here" for i in range(lines))
        page.insert_text((40, 40), text, fontsize=10)
    watched = _Watched()
    seen: list[tuple[int, int]] = []
    two = ocr_pages(list(doc), dpi=150, workers=2, engine=watched, on_page=lambda d, t: seen.append((d, t)))
    one = ocr_pages(list(doc), dpi=150, workers=1)
    assert [[ln.text for b in p for ln in b.lines] for p in two] == [[ln.text for b in p for ln in b.lines] for p in one]
    assert [p[0].lines[0].text.split()[0] for p in two] == ["Short", "Long", "Middle"]  # back in page order
    assert watched.most == 2 and seen == [(0, 3), (1, 3), (2, 3), (3, 3)]
    assert len(watched.started) == 3 and watched.started == sorted(watched.started, reverse=True)


@needs_corpus
@needs_tesseract
def test_the_layout_model_is_not_loaded_for_pages_ocr_read(tmp_path):
    """The layout model reads a page's own text boxes, so it finds nothing on an image-only page; its load (about
    1 s) and 0.5 s a page were spent there for each captioned figure OCR'd. Page 2 of PAPER holds Figure 1."""
    import subprocess
    import sys

    path = tmp_path / "scan.pdf"
    rasterize(pymupdf.open(corpus_pdf(PAPER)), range(2), 100).save(path)
    code = ("import sys; from pipeline.parse import ParseOptions, parse_pdf; "
            f"p = parse_pdf({str(path)!r}, ParseOptions(ocr={{'dpi': 100}})); "
            "print([pg.ocr for pg in p.pages], len(p.figures), 'pymupdf.layout' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[-2] == "['no_text', 'no_text'] 1 False", out


def test_a_code_listing_is_no_garbled_text():
    """A vignette page of R output (`"hgu95av2CHRLOC" "hgu95av2ENSEMBL"`): its identifiers are unknown words poor in
    vowels, like a garbled layer's, but set in a typewriter face they are code, and the page keeps its layer."""
    rng = random.Random(5)
    names = ["ACCNUM", "ALIAS2PROBE", "CHR", "CHRLENGTHS", "CHRLOC", "CHRLOCEND", "ENSEMBL", "ENTREZID", "ENZYME",
             "GENENAME", "GO", "PATH", "PMID", "REFSEQ", "SYMBOL", "UNIGENE", "UNIPROT"]
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "AnnotationDbi: Introduction To Bioconductor Annotation Packages", fontsize=11)
    for i in range(40):
        row = " ".join(f'"hgu95av2{rng.choice(names)}"' for _ in range(3))
        page.insert_text((72, 90 + 17 * i), f"## [{3 * i + 1}] {row} ghz vbn qrt", fontname="cour", fontsize=9)
    assert page_verdict(page, text_dict(page)) is None
