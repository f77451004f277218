"""Helpers: a small synthetic database (one paper, every summarized column present) with a real PDF for crops."""
from __future__ import annotations

import uuid
from pathlib import Path

PAPER = str(uuid.UUID(int=1))
PAGES = [str(uuid.UUID(int=10 + i)) for i in range(2)]
SECTIONS = [str(uuid.UUID(int=20 + i)) for i in range(2)]
TABLE = str(uuid.UUID(int=30))
IMAGES = [str(uuid.UUID(int=40 + i)) for i in range(2)]

ABSTRACT = ("Answering questions over tables is usually seen as a semantic parsing task. In this paper, we present TAPAS, "
            "an approach to question answering over tables without generating logical forms. TAPAS trains from weak "
            "supervision and predicts the denotation by selecting table cells. We find that semantic parsing benchmarks "
            "can be solved with table cell selection and weak supervision.")
PAGE1 = ("TAPAS: Weakly Supervised Table Parsing via Pre-training\n" + ABSTRACT +
         "\nOur model is based on BERT with extra embeddings for table struc-\nture. As Figure 1 shows, the question and "
         "the flattened table form one input sequence.\nFigure 1: TAPAS model architecture with table embeddings.")
PAGE2 = ("tables from Wikipedia are used for pre-training. Table 1 compares denotation accuracy on three datasets, where "
         "TAPAS outperforms prior semantic parsers. Results improve further with intermediate pre-training.\n"
         "Table 1: Denotation accuracy on WikiSQL, WikiTQ and SQA.")
TABLE_HTML = "<table><tr><th>Model</th><th>WikiSQL</th><th>SQA</th></tr><tr><td>TAPAS</td><td>83.6</td><td>67.2</td></tr></table>"


def make_pdf(path: Path) -> Path:
    import pymupdf

    doc = pymupdf.open()
    for text in (PAGE1, PAGE2):
        page = doc.new_page(width=612, height=792)
        page.insert_textbox(pymupdf.Rect(50, 50, 560, 300), text, fontsize=9)
        page.draw_rect(pymupdf.Rect(100, 400, 300, 550), color=(0, 0, 1), fill=(0.2, 0.5, 0.9))
    doc.save(path)
    return path


def make_db(data_dir: Path) -> Path:
    """A database with every summary column NULL. Returns the data dir."""
    from pipeline.store import Store

    data_dir.mkdir(parents=True, exist_ok=True)
    pdf = make_pdf(data_dir / "paper.pdf")
    store = Store(data_dir / "paperbase.duckdb")
    store.init()
    with store.writing() as con:
        con.execute("INSERT INTO metadata (paper_id, title, abstract, num_pages, pdf_path) VALUES (?, ?, ?, 2, ?)",
                    [PAPER, "TAPAS: Weakly Supervised Table Parsing via Pre-training", ABSTRACT, str(pdf)])
        for i, (pid, text) in enumerate(zip(PAGES, (PAGE1, PAGE2))):
            con.execute("INSERT INTO pages (page_id, page_number, page_width, page_height, page_content, ref_paper_id) "
                        "VALUES (?, ?, 612, 792, ?, ?)", [pid, i + 1, text, PAPER])
        con.execute("INSERT INTO sections (section_id, section_title, section_content, ordinal, page_numbers, ref_paper_id) "
                    "VALUES (?, 'Abstract', ?, 0, [1], ?)", [SECTIONS[0], ABSTRACT, PAPER])
        con.execute("INSERT INTO sections (section_id, section_title, section_content, ordinal, page_numbers, ref_paper_id) "
                    "VALUES (?, '2 Model', ?, 1, [1, 2], ?)", [SECTIONS[1], PAGE1[len(ABSTRACT) + 60:] + " " + PAGE2, PAPER])
        con.execute("INSERT INTO tables (table_id, table_caption, table_content, bounding_box, ordinal, ref_paper_id, ref_page_id) "
                    "VALUES (?, 'Table 1: Denotation accuracy on WikiSQL, WikiTQ and SQA.', ?, [100, 400, 200, 150], 0, ?, ?)",
                    [TABLE, TABLE_HTML, PAPER, PAGES[1]])
        con.execute("INSERT INTO images (image_id, image_caption, bounding_box, ordinal, ref_paper_id, ref_page_id) "
                    "VALUES (?, 'Figure 1: TAPAS model architecture with table embeddings.', [100, 400, 200, 150], 0, ?, ?)",
                    [IMAGES[0], PAPER, PAGES[0]])
        con.execute("INSERT INTO images (image_id, image_caption, bounding_box, ordinal, ref_paper_id, ref_page_id) "
                    "VALUES (?, '', [100, 400, 200, 150], 0, ?, ?)", [IMAGES[1], PAPER, PAGES[1]])
    return data_dir


SUMMARY_SQL = {
    "page_summary": "SELECT page_summary AS v FROM pages",
    "section_summary": "SELECT section_summary AS v FROM sections",
    "table_summary": "SELECT table_summary AS v FROM tables",
    "image_summary": "SELECT image_summary AS v FROM images",
    "tldr": "SELECT tldr AS v FROM metadata",
    "tags": "SELECT tags AS v FROM metadata",
}
N_ITEMS = 9  # 2 pages + 2 sections + 1 table + 2 images + tldr + tags


def values(data_dir: Path) -> dict[str, list]:
    from pipeline.store import Store

    store = Store(data_dir / "paperbase.duckdb")
    return {col: [r["v"] for r in store.query(sql)] for col, sql in SUMMARY_SQL.items()}


def settings_for(data_dir: Path, **summarize):
    from pipeline.config import Settings

    settings = Settings(data_dir=data_dir)
    settings.summarize = settings.summarize.model_validate({**settings.summarize.model_dump(), **summarize})
    return settings
