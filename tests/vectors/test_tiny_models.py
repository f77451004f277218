"""BGE and CLIP code paths on tiny random models the test builds (real classes and tokenizers)."""
from __future__ import annotations

import io

import numpy as np
import pytest

from tests.vectors.tinymodels import build_tiny_bert, build_tiny_clip

from pipeline.vectors.encoders import availability, load_encoder
from pipeline.vectors.errors import ModelUnavailable
from schemas.vectorstore import collection

BGE = collection("text_sentence_transformers_bge_large_en_v1_5")
CLIP = collection("image_clip_clip_vit_base_patch32")


def test_sentence_transformers_path_with_a_tiny_bge(tmp_path):
    enc = load_encoder(BGE, str(build_tiny_bert(tmp_path)))
    vecs = enc.encode_texts(["retrieval model", "privacy masking of data"])
    assert vecs.shape == (2, enc.dim) and np.allclose((vecs**2).sum(1), 1.0, atol=1e-4)
    assert enc.encode_query("table").shape == (enc.dim,)


def test_clip_path_with_a_tiny_clip(tmp_path):
    from PIL import Image

    enc = load_encoder(CLIP, str(build_tiny_clip(tmp_path)))
    buf = io.BytesIO()
    Image.new("RGB", (60, 30), (10, 200, 30)).save(buf, "PNG")
    vecs = enc.encode_images([buf.getvalue()] * 3)
    assert vecs.shape == (3, enc.dim) and np.allclose((vecs**2).sum(1), 1.0, atol=1e-4)
    assert enc.encode_query("a table of results").shape == (enc.dim,)


def test_unavailable_model_is_refused_with_a_reason():
    ok, why = availability(BGE, "no-such-org/no-such-model")
    assert not ok and "not in the HF cache" in why
    with pytest.raises(ModelUnavailable, match="PAPERBASE_VECTORS__DOWNLOAD"):
        load_encoder(BGE, "no-such-org/no-such-model")
