"""The Milvus server path, for real: `milvus-lite server` on loopback, reached by URI; also the CLIP image path."""
from __future__ import annotations

from typer.testing import CliRunner

from tests.vectors.vechelpers import BGE, BM25, CLIP, fresh_dir, make_settings

from cli import app
from pipeline.vectors import check, encode_papers, render_vectorstore_prompt, search
from pipeline.store import Store


def test_server_by_uri_with_bm25_tiny_bge_and_tiny_clip(base_db, tmp_path, tiny_models, milvus_server):
    data = fresh_dir(base_db, tmp_path)
    settings = make_settings(data, [BM25, BGE, CLIP], tiny_models, milvus_uri=milvus_server, image_dpi=72)
    report = encode_papers(settings)
    assert report.status == "ok", report.to_json()
    by_name = {c.collection: c for c in report.collections}
    n_boxes = sum(Store(settings.duckdb_path).query(f"SELECT count(*) n FROM {t} WHERE bounding_box IS NOT NULL")[0]["n"]
                  for t in ("tables", "images"))
    assert n_boxes > 0 and by_name[CLIP].vectors_inserted == n_boxes
    assert not (data / "milvus.db").exists()  # nothing embedded: the server holds the vectors
    assert check(settings) == []
    assert encode_papers(settings).inserted == 0

    img = search(settings, "a table of results", CLIP, limit=3)
    assert img and all(h.bbox and len(h.bbox) == 4 and h.page_number >= 1 and h.text is None for h in img)
    txt = search(settings, "privacy masking", BGE, table_name="chunks", limit=2)
    assert txt and all(h.table_name == "chunks" and h.text for h in txt)
    corner = search(settings, "table", CLIP, filter="bbox[0] + bbox[2] <= 10000 and page_number >= 1", limit=2)
    assert corner

    prompt = render_vectorstore_prompt(settings)
    assert CLIP in prompt and "bounding_box" in prompt

    runner = CliRunner()
    res = runner.invoke(app, ["check", "--data-dir", str(data), "--milvus-uri", milvus_server, "-c", BM25, "-c", BGE, "-c", CLIP])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["search", "privacy", "--data-dir", str(data), "--milvus-uri", milvus_server, "--json", "-n", "2"])
    assert res.exit_code == 0 and '"table_name"' in res.stdout
