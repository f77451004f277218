"""Helpers shared by the vector index tests (import as tests.vectors.vechelpers)."""
from __future__ import annotations

import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "corpus"
PAPERS = ["neurips2020_rag_excerpt.pdf", "icassp2024_privacy_masking_llm.pdf"]
BM25 = "text_bm25_en"
MINILM = "text_sentence_transformers_all_minilm_l6_v2"
BGE = "text_sentence_transformers_bge_large_en_v1_5"
CLIP = "image_clip_clip_vit_base_patch32"


def fresh_dir(base_db: Path, root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(base_db, root / "paperbase.duckdb")
    return root


def make_settings(data_dir: Path, enabled: list[str], models: dict[str, str] | None = None, **vectors):
    vectors.setdefault("backend", "torch")  # the ONNX paths have their own tests (tests/vectors/test_onnx.py)
    from pipeline.config import Settings
    from pipeline.vectors.config import CollectionSettings, VectorSettings
    from schemas.vectorstore import collections

    cols = {c.name: CollectionSettings(enabled=c.name in enabled, model=(models or {}).get(c.name)) for c in collections()}
    return Settings(data_dir=data_dir, vectors=VectorSettings(collections=cols, **vectors))

