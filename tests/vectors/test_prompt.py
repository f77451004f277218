"""The [Vectorstore Schema] block is rendered from schema data and matches the seeds byte for byte."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.vectors import render_vectorstore_prompt
from schemas.vectorstore import collections

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
LABEL = "[Vectorstore Schema]"


def seed_block(prefix: str) -> str:
    files = sorted(SEEDS.glob(f"{prefix}_*.txt")) if SEEDS.is_dir() else []
    if not files:
        pytest.skip(f"seed {prefix} absent from {SEEDS}")
    content = json.loads(files[0].read_text(encoding="utf-8").splitlines()[1])["content"]
    return content[content.index(LABEL):]


@pytest.mark.parametrize("seed", ["000", "001", "004"])
def test_all_four_collections_reproduce_seed(seed):
    assert render_vectorstore_prompt([c.name for c in collections()]) == seed_block(seed)


def test_bm25_and_minilm_only_reproduce_seed_002():
    names = ["text_sentence_transformers_all_minilm_l6_v2", "text_bm25_en"]  # order given does not matter
    rendered = render_vectorstore_prompt(names)
    assert rendered == seed_block("002")
    assert "bounding_box" not in rendered and "image_clip" not in rendered
