"""Helpers shared by the vector index tests (import as tests.vectors.vechelpers)."""
from __future__ import annotations

import shutil
from dataclasses import dataclass
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



LITE_ONLY = "Milvus Lite only: {what} (a Milvus server has none; pipeline/vectors/server.py)"


@dataclass(frozen=True)
class Engine:
    """Where a test's vectors go: "lite" (embedded Milvus Lite in the data dir) or "server" (a database of its own on
    the real Milvus server, tests/conftest.py `milvus_engine_root`). Test modules whose behaviour applies to both take
    the `engine` / `module_engine` fixture (tests/vectors/conftest.py) and run once per engine."""

    name: str
    uri: str | None = None
    sparse: bool = True  # the engine holds sparse vectors (BM25): Milvus Lite, a server >= 2.4

    @property
    def server(self) -> bool:
        return self.name == "server"

    def settings(self, data_dir: Path, enabled: list[str], models: dict[str, str] | None = None, **vectors):
        if self.uri:
            vectors.setdefault("milvus_uri", self.uri)
        return make_settings(data_dir, enabled, models, **vectors)

    def env(self) -> dict[str, str]:
        """Environment for a `paperbase` subprocess to use this engine."""
        return {"PAPERBASE_VECTORS__MILVUS_URI": self.uri} if self.uri else {}

    def args(self) -> list[str]:
        """CLI options for a `paperbase` vector command to use this engine."""
        return ["--milvus-uri", self.uri] if self.uri else []

    def text(self, dense: str = BGE) -> str:
        """The cheap text collection for this engine: BM25 (no model) where sparse vectors are held, else `dense`."""
        return BM25 if self.sparse else dense

    def lite_only(self, what: str) -> None:
        if self.server:
            import pytest

            pytest.skip(LITE_ONLY.format(what=what))

    def needs_sparse(self) -> None:
        if not self.sparse:
            import pytest

            pytest.skip("BM25 needs sparse vectors (Milvus >= 2.4); the test server runs an older release")


def lite_minilm_copy(built: Path, root: Path):
    """(settings, report, progress calls) of a private copy of `lite_minilm_built` under root."""
    import pickle

    shutil.copytree(built / "data", root / "data")
    report, calls = pickle.loads((built / "encode.pickle").read_bytes())
    return make_settings(root / "data", [BM25, MINILM], papers_per_batch=1), report, calls
