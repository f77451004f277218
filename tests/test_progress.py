"""Progress of every stage in one display (parse files, summarize items, encode cells per collection) and the closing
table of stage times; nothing of it under --json or when stderr is not a terminal."""
from __future__ import annotations

import io
import re
from types import SimpleNamespace

from cli.progress import StageProgress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _render(table) -> str:
    from rich.console import Console

    out = io.StringIO()
    Console(file=out, width=120).print(table)
    return out.getvalue()


def test_every_stage_gets_a_row_with_rate_and_eta_and_a_time_in_the_table():
    from pipeline.summarize.progress import current as summarize_cb
    from pipeline.vectors.progress import current as encode_cb

    screen = Terminal()
    with StageProgress(False, stream=screen) as progress:
        progress.parse_start(2)
        progress.parse_result(SimpleNamespace(path="/x/a.pdf", status="ok"))
        progress.parse_result(SimpleNamespace(path="/x/b.pdf", status="ok"))
        summarize_cb()(0, 40)  # what the summarize stage calls through the stage loop
        summarize_cb()(40, 40)
        encode_cb()("text_bm25_en", 300, 600)
        encode_cb()("text_bm25_en", 600, 600)
        encode_cb()("minilm", 600, 600)
        from pipeline.parse.progress import current as pages_cb
        pages_cb()("/x/scan.pdf", 0, 7)  # a scanned file's pages as OCR reads them
        pages_cb()("/x/scan.pdf", 3, 7)
    shown = screen.getvalue()
    assert "3/7" in shown and "pages/s" in shown and "scan.pdf" in shown
    assert "2/2" in shown and "40/40" in shown and "600/600" in shown
    assert "files/s" in shown and "items/s" in shown and "cells/s" in shown and "ETA" in shown
    table = _render(progress.times_table())
    for row in ("parse", "summarize", "encode", "text_bm25_en", "minilm", "ocr scan.pdf"):
        assert re.search(rf"{row}\s.*\d+\.\d", table), (row, table)
    assert "1,200 cells" in table  # the encode line adds its collections


def test_quiet_under_json_and_when_stderr_is_not_a_terminal():
    from pipeline.summarize.progress import current as summarize_cb
    from pipeline.vectors.progress import current as encode_cb

    for quiet, stream in ((False, io.StringIO()), (True, Terminal())):
        with StageProgress(quiet, stream=stream) as progress:
            assert summarize_cb() is None and encode_cb() is None
            progress.parse_start(1)
            progress.parse_result(SimpleNamespace(path="/x/a.pdf", status="ok"))
        assert stream.getvalue() == "" and progress.times_table() is None


def test_summarize_reports_items_to_the_installed_callback(tmp_path):
    """The stage itself, reached without callbacks (as the stage loop calls it), feeds the context's reporter."""
    from pipeline.summarize import summarize_papers
    from pipeline.summarize.progress import reporting
    from tests.summarize.sumdb import N_ITEMS, make_db, settings_for

    make_db(tmp_path / "data")
    calls: list[tuple[int, int]] = []
    with reporting(lambda done, total: calls.append((done, total))):
        summarize_papers(settings_for(tmp_path / "data"))
    assert calls[0] == (0, N_ITEMS) and calls[-1] == (N_ITEMS, N_ITEMS) and len(calls) == N_ITEMS + 1


def test_eta_is_known_from_the_first_batch_and_counts_down_between_batches():
    import time

    from cli.progress import _Eta

    with StageProgress(False, stream=Terminal()) as progress:
        progress.encode("c", 0, 1000)
        time.sleep(0.3)
        progress.encode("c", 100, 1000)  # the first batch: 10 % done
        task = progress.bar.tasks[0]
        first = _Eta().render(task).plain
        time.sleep(1.2)
        later = _Eta().render(task).plain  # no new batch yet: the estimate still moves
    assert re.fullmatch(r"\d+:\d\d:\d\d", first) and first != "0:00:00", first
    assert later < first


def test_warnings_during_the_live_rows_are_printed_once_after_them():
    import logging

    stream = Terminal()
    logger = logging.getLogger("paperbase")
    handler = logging.StreamHandler(stream)
    logger.addHandler(handler)
    try:
        with StageProgress(False, stream=stream) as progress:
            progress.parse_start(1)
            for _ in range(3):
                logging.getLogger("paperbase.vectors").warning("skipping a collection: model unavailable")
            held = stream.getvalue()
        assert "skipping a collection" not in held  # nothing cut into the rows
        assert stream.getvalue().count("skipping a collection: model unavailable") == 1
    finally:
        logger.removeHandler(handler)


def test_a_long_file_name_is_cut_and_the_bar_and_eta_keep_their_place():
    """The row's last column (the file just parsed, the collection) takes what the terminal has left and is cut with
    an ellipsis; the bar and the ETA never are (in a 100-column tmux pane a long name used to squeeze the bar from 12
    cells to 1 and drop the ETA)."""
    from rich.console import Console

    name = "a_very_long_file_name_" * 4 + ".pdf"
    rows = {}
    with StageProgress(False, stream=Terminal()) as progress:
        progress.parse_start(4)
        progress.parse_result(SimpleNamespace(path="/x/" + name, status="ok"))
        for width in (80, 100):
            out = io.StringIO()
            Console(file=out, width=width, color_system="truecolor").print(progress.bar.get_renderable())
            rows[width] = re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue()).rstrip("\n")
    for width, row in rows.items():
        assert len(row) == width and re.search(r"ETA \d:\d\d:\d\d a_very_long\S*…$", row), row
        assert len(re.findall(r"[━╺╸]", row)) == 12, row  # the whole bar, done part and rest
