"""The ONNX Runtime and OpenVINO backends of the bundled MiniLM: exported and quantized offline from the local files,
cached under the data dir, and close to torch fp32 on a sample of real corpus cells (every window of them); bf16
within cosine 0.999 of fp32; the runtime chosen from the CPU's features."""
from __future__ import annotations

import numpy as np
import pytest
from tests.vectors.vechelpers import MINILM, fresh_dir, make_settings

from pipeline.store import Store
from pipeline.vectors import windows
from pipeline.vectors.encoders import clear_cache, encoder_for
from schemas.vectorstore import collection

COLL = collection(MINILM)


@pytest.fixture(scope="module")
def sample(base_db, tmp_path_factory):
    """Up to 150 windows (spread over all of them) of the text cells of the two test papers, and their torch fp32
    vectors. 150, not every window: each backend below encodes them all, and the bounds hold on the spread sample
    (bench/encode.py measures every window)."""
    from pipeline.vectors.cells import load, papers

    settings = make_settings(fresh_dir(base_db, tmp_path_factory.mktemp("onnx")), [MINILM])
    store = Store(settings.duckdb_path)
    with store.reading() as con:
        texts = [c.text or "" for c in load(con, "text", papers(con))]
    torch_enc = encoder_for(COLL, settings, "all-MiniLM-L6-v2")
    flat = [w for ws in windows.split(torch_enc.tokenizer, texts, torch_enc.max_tokens, 32) for w in ws]
    flat = flat[:: max(1, len(flat) // 150)][:150]
    return settings, flat, torch_enc.encode_texts(flat)


@pytest.mark.parametrize("backend", ["onnx", "onnx-int8"])
def test_onnx_vectors_match_torch_fp32_on_corpus_cells(sample, backend):
    settings, texts, reference = sample
    settings = settings.model_copy(deep=True)
    settings.vectors.backend = backend
    enc = encoder_for(COLL, settings, "all-MiniLM-L6-v2")
    assert enc.file.parent == settings.data_dir / "models" and f"-{backend}" in enc.file.name
    vecs = enc.encode_texts(texts)
    cos = (vecs * reference).sum(1)
    assert vecs.shape == reference.shape and np.allclose((vecs**2).sum(1), 1.0, atol=1e-4)
    if backend == "onnx":  # the same arithmetic as torch, in another runtime
        assert float(cos.min()) >= 0.9999, (cos.min(), cos.mean())
    else:  # int8: measured min 0.9877, 1st percentile 0.9895, mean 0.9956 on these papers' content-defined windows
        # (never chosen by `auto` for that: bf16 stays above 0.999)
        assert float(cos.mean()) >= 0.995 and float(np.quantile(cos, 0.01)) >= 0.985, (cos.min(), cos.mean())
        assert float(cos.min()) >= 0.985, (cos.min(), cos.mean())


def test_cached_model_is_reused_and_identical_texts_are_encoded_once(sample):
    settings, texts, _ = sample
    settings = settings.model_copy(deep=True)
    settings.vectors.backend = "onnx-int8"
    first = encoder_for(COLL, settings, "all-MiniLM-L6-v2")
    stamp = first.file.stat().st_mtime_ns
    clear_cache()
    again = encoder_for(COLL, settings, "all-MiniLM-L6-v2")
    assert again.file == first.file and again.file.stat().st_mtime_ns == stamp  # not exported again
    seen: list[int] = []
    run = again._encode_sorted
    again._encode_sorted = lambda batch: (seen.append(len(batch)), run(batch))[1]
    out = again.encode_texts([texts[1], texts[0], texts[1], texts[1]])
    assert seen == [2] and np.allclose(out[0], out[2]) and np.allclose(out[0], out[3])


def test_the_optimised_graph_is_saved_once_beside_the_export_and_gives_the_same_vectors(sample, tmp_path):
    """A cold query encoder loads the graph as ONNX Runtime optimised it the first time (onnxenc._preoptimized):
    same vectors as a session on the export itself; a models dir it cannot write to keeps the export."""
    import os
    import shutil

    import onnxruntime as ort

    from pipeline.vectors.onnxenc import _preoptimized

    settings, texts, _ = sample
    settings = settings.model_copy(deep=True)
    settings.vectors.backend = "onnx"
    clear_cache()
    enc = encoder_for(COLL, settings, "all-MiniLM-L6-v2")
    saved = enc.file.with_name(f"{enc.file.stem}.ort-{ort.__version__}")
    assert (saved / "model.onnx").is_file() and (saved / "model.data").stat().st_size > 50e6
    assert not list(enc.file.parent.glob("*.tmp*"))  # made under a temporary name, nothing left behind
    assert _preoptimized(enc.file, ort) == saved / "model.onnx"  # found, not made again
    assert (saved / "model.onnx").stat().st_mtime_ns == _preoptimized(enc.file, ort).stat().st_mtime_ns
    ours = enc.encode_texts(texts[:12])
    enc.session = ort.InferenceSession(str(enc.file), providers=["CPUExecutionProvider"])  # the export, optimised now
    assert np.abs(enc.encode_texts(texts[:12]) - ours).max() < 1e-5
    # a models dir where the optimised graph cannot be written (here: its temporary name is taken by a file; a
    # read-only dir fails the same way, but root, which runs CI, may write anywhere): the export is used as it is
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    shutil.copy(enc.file, blocked / enc.file.name)
    (blocked / f"{saved.name}.tmp{os.getpid()}").write_text("")
    assert _preoptimized(blocked / enc.file.name, ort) is None
    assert sorted(p.name for p in blocked.iterdir()) == sorted([enc.file.name, f"{saved.name}.tmp{os.getpid()}"])


@pytest.mark.parametrize("backend", ["openvino", "openvino-bf16", "torch-bf16"])
def test_openvino_and_bf16_vectors_stay_within_cosine_0999_of_fp32(sample, backend):
    """OpenVINO fp32 is the same arithmetic; bf16 matrix products (OpenVINO on a CPU with bf16 units, torch autocast
    anywhere, emulated where the CPU lacks them) keep every window within cosine 0.999 of fp32."""
    from pipeline.vectors.runtime import has_bf16

    settings, texts, reference = sample
    settings = settings.model_copy(deep=True)
    settings.vectors.backend = backend
    enc = encoder_for(COLL, settings, "all-MiniLM-L6-v2")
    assert enc.backend == backend
    if backend == "torch-bf16":
        texts, reference = texts[::5], reference[::5]  # emulated bf16 is slow on CPUs without it
    cos = (enc.encode_texts(texts) * reference).sum(1)
    exact = backend == "openvino" or (backend == "openvino-bf16" and not has_bf16())
    assert float(cos.min()) >= (0.9999 if exact else 0.999), (cos.min(), cos.mean())
    if backend.startswith("openvino"):
        assert enc.precision.lower() in (("bf16",) if backend.endswith("bf16") and has_bf16() else ("f32", "fp32"))


@pytest.mark.parametrize("backend", ["openvino", "openvino-bf16"])
def test_openvino_throughput_queue_gives_the_latency_vectors_in_input_order(sample, backend):
    """The encode stage's many windows run through OpenVINO's async throughput queue (several streams, batches in
    flight at once, finishing out of order): every vector lands on its own window, equal to the one-request path, and
    progress counts every word piece once."""
    from pipeline.vectors.dense import TextEncoder
    from pipeline.vectors.onnxenc import THROUGHPUT_MIN_WINDOWS

    settings, texts, reference = sample
    settings = settings.model_copy(deep=True)
    settings.vectors.backend = backend
    enc = encoder_for(COLL, settings, "all-MiniLM-L6-v2")
    ids = [np.asarray(x[: enc.max_tokens], dtype=np.int64)
           for x in enc.tokenizer(texts, add_special_tokens=False)["input_ids"]]
    assert len(ids) >= THROUGHPUT_MIN_WINDOWS
    seen: list[int] = []
    fast = enc.encode_ids(ids, progress=seen.append)
    assert enc._throughput is not None  # the queue ran, not the latency request
    slow = TextEncoder.encode_ids(enc, ids)
    assert float((fast * slow).sum(1).min()) >= 0.99999
    assert float((fast * reference).sum(1).min()) >= (0.999 if backend.endswith("bf16") else 0.9999)
    assert sum(seen) == sum(len(x) for x in ids) and len(seen) > 1
    few = enc.encode_ids(ids[:3])  # a handful: the latency request, same vectors
    assert np.abs(few - fast[:3]).max() < 1e-3


def test_auto_backend_follows_the_cpu_features():
    from pipeline.vectors.config import VectorSettings
    from pipeline.vectors.runtime import choose

    assert VectorSettings().backend == "auto"
    assert choose("auto", "cpu", frozenset({"avx2", "fma"})).backend == "onnx"  # int8 is never chosen: cosine 0.988
    assert choose("auto", "cpu", frozenset({"avx512f", "avx512_vnni"})).backend == "onnx"
    assert choose("auto", "cpu", frozenset({"avx512f", "avx512_bf16", "amx_bf16"})).backend == "openvino-bf16"
    assert choose("auto", "cpu", frozenset({"avx512_bf16"})).backend == "openvino-bf16"
    forced = choose("onnx-int8", "cpu", frozenset({"amx_bf16"}))
    assert forced.backend == "onnx-int8" and "vectors.backend" in forced.why


def test_a_second_process_waits_for_the_export_in_progress_instead_of_exporting_again(tmp_path):
    """Two processes on a fresh cache: the one that comes second waits on the export lock and takes the first one's
    file. Here another process holds the lock and writes the file after a pause; ensure_model returns that file."""
    import subprocess
    import sys
    import time

    from pipeline.models import resolve_model
    from pipeline.vectors.onnxenc import cache_path, ensure_model

    model_dir = resolve_model("sentence-transformers/all-MiniLM-L6-v2")
    target = cache_path(model_dir, tmp_path, "onnx")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time, pathlib\nfrom pipeline.locks import file_lock\n"
         "target = pathlib.Path(sys.argv[1])\n"
         "with file_lock(target.with_name(f'.{target.name}.lock')):\n"
         "    print('held', flush=True); time.sleep(2); target.write_bytes(b'made by the first process')",
         str(target)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    t0 = time.monotonic()
    got = ensure_model(model_dir, tmp_path, "onnx")
    assert holder.wait(30) == 0
    assert got == target and got.read_bytes() == b"made by the first process"  # not exported a second time
    assert time.monotonic() - t0 >= 1.0  # it waited for the holder


def test_quantizing_leaves_the_logging_level_as_it_was(tmp_path, shared_model_cache):
    """The quantizer's "consider pre-processing" noise is silenced for the quantization only: the root logger's
    level raised for good silenced every later warning of the process (a store repair's, seen in test_lifecycle)."""
    import logging

    from pipeline.models import resolve_model
    from pipeline.vectors.onnxenc import ensure_model, quantize_int8

    fp32 = ensure_model(resolve_model("sentence-transformers/all-MiniLM-L6-v2"), shared_model_cache, "onnx")
    root = logging.getLogger()
    before = root.level
    quantize_int8(fp32, tmp_path / "q.onnx")
    assert root.level == before and (tmp_path / "q.onnx").stat().st_size > 0
