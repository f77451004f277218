"""ONNX Runtime and OpenVINO backends for sentence-transformers text models: exported and quantized offline, cached
under the data dir.

Rules:
- The graph is exported with `torch.onnx` from the same local model files the torch backend loads (no download, no
  optimum), then optionally quantized with `onnxruntime.quantization`; both are cached as
  `<data_dir>/models/<model>-<digest>-<variant>.onnx` (the digest covers the model's config and weight files, so a
  changed model is exported again). Files are written to a temporary name and renamed: readers never see half a file.
- `onnx-int8` is dynamic int8 quantization, per channel, with the feed-forward output projections (`output.dense`
  of each layer, whose inputs have the widest range) and the last layer left in fp32. Measured on 300 corpus chunks
  (cosine to torch fp32, min / mean): per-tensor int8 0.79 (issue), per channel everything 0.973 / 0.991, per channel
  without the FFN outputs 0.989 / 0.997, and also without the last layer 0.991 / 0.997 (this recipe; keeping the
  first layer too changes nothing). On the test papers' content-defined windows the recipe gives mean 0.9956, 1st
  percentile 0.9895, min 0.9877: below the 0.999 bf16 keeps, so `auto` never picks it (runtime.py).
- OpenVINO (`openvino`, `openvino-bf16`) reads the same fp32 file; with the bf16 precision hint its CPU plugin runs
  the matrix products in bf16 on AMX / AVX512-BF16 units (and keeps fp32 where the CPU has none: the encoder's
  `precision` says which ran). Why OpenVINO for bf16: ONNX Runtime has no bf16 CPU kernels for an fp32 graph, and
  torch autocast was measured 1.5x torch fp32 on an AMX Xeon (issue 33), slower than ONNX Runtime fp32 there.
- Pooling and normalisation follow the sentence-transformers config in the model dir (mean or CLS pooling,
  Normalize module present or not); the tokenizer is the model's own (its `tokenizer.json` through `tokenizers`,
  fasttok.py, so a query needs neither transformers nor torch), max length from `sentence_bert_config.json`.
- CUDA is used when ONNX Runtime offers it, else the CPU with every core. On the CPU the session loads the graph as
  ONNX Runtime optimised it the first time, saved beside the export (`_preoptimized`: a cold query encoder opens in
  0.06 s instead of 0.25 s).
- The encode stage feeds word pieces it already cut (`TextEncoder.encode_ids`, with the tokenizer's own special
  tokens around them); queries and other texts are tokenised here (`encode_texts`).
"""
from __future__ import annotations

import json
import os
import re
import warnings
from hashlib import blake2b
from pathlib import Path

import numpy as np

from pipeline.vectors.dense import TextEncoder

VARIANTS = ("onnx", "onnx-int8")  # the graph files: fp32 (every runtime reads it) and int8 (ONNX Runtime)
INT8_RECIPE = "pc-ffn-last"  # in the cache file name: a changed recipe is quantized again, never read stale


def _digest(model_dir: Path) -> str:
    h = blake2b(digest_size=6)
    for f in sorted(model_dir.glob("*")):
        if f.is_file() and f.suffix in (".json", ".safetensors", ".bin", ".txt"):
            h.update(f.name.encode())
            h.update(str(f.stat().st_size).encode())
            if f.suffix == ".json":
                h.update(f.read_bytes())
    return h.hexdigest()


def cache_path(model_dir: str | Path, cache_dir: Path, variant: str) -> Path:
    model_dir = Path(model_dir)
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", model_dir.parent.name if model_dir.name == "model" else model_dir.name)
    return cache_dir / f"{slug}-{_digest(model_dir)}-{variant}.onnx"


def export_fp32(model_dir: str | Path, out: Path) -> Path:
    """torch.onnx export of the transformer (last hidden state), dynamic batch and sequence axes."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    model = AutoModel.from_pretrained(str(model_dir)).eval()
    tok = AutoTokenizer.from_pretrained(str(model_dir))
    sample = tok(["a short text", "a somewhat longer text for the export"], padding=True, return_tensors="pt")
    names = [n for n in ("input_ids", "attention_mask", "token_type_ids") if n in sample]

    class Wrapper(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, *args):
            return self.inner(**dict(zip(names, args))).last_hidden_state

    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(f".tmp{os.getpid()}")
    axes = {n: {0: "batch", 1: "seq"} for n in [*names, "last_hidden_state"]}
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tracer notes about Python control flow in transformers' masks
        torch.onnx.export(Wrapper(model), tuple(sample[n] for n in names), str(tmp), input_names=names,
                          output_names=["last_hidden_state"], dynamic_axes=axes, opset_version=17, dynamo=False)
    os.replace(tmp, out)
    return out


def fp32_nodes(path: Path) -> list[str]:
    """MatMul nodes the int8 variant keeps in fp32: each layer's feed-forward output projection, and every MatMul of
    the last layer (whose output is pooled directly into the vector)."""
    import onnx

    graph = onnx.load(str(path), load_external_data=False).graph
    names = [n.name for n in graph.node if n.op_type == "MatMul"]
    layers = [int(m.group(1)) for n in names if (m := re.search(r"layer\.(\d+)/", n))]
    last = f"layer.{max(layers)}/" if layers else None
    return [n for n in names if ("/output/dense/" in n and "attention" not in n) or (last and last in n)]


def quantize_int8(fp32: Path, out: Path) -> Path:
    import logging

    from onnxruntime.quantization import QuantType, quantize_dynamic

    tmp = out.with_suffix(f".tmp{os.getpid()}")
    root = logging.getLogger()
    level = root.level
    root.setLevel(max(level, logging.ERROR))  # "consider pre-processing" noise, for the quantization only:
    try:  # left raised, it silenced every later warning of the process (a store repair's, for one)
        quantize_dynamic(str(fp32), str(tmp), per_channel=True, weight_type=QuantType.QInt8,
                         nodes_to_exclude=fp32_nodes(fp32))
    finally:
        root.setLevel(level)
    os.replace(tmp, out)
    return out


def ensure_model(model_dir: str | Path, cache_dir: Path, variant: str) -> Path:
    """The cached ONNX file of `variant` for this model, exported (and quantized) on first use."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown ONNX variant {variant!r}; known: {VARIANTS}")
    fp32 = cache_path(model_dir, cache_dir, "onnx")
    q = cache_path(model_dir, cache_dir, f"{variant}-{INT8_RECIPE}") if variant != "onnx" else fp32
    if q.exists():
        return q
    from pipeline.locks import file_lock

    # One process exports, the others wait for its file (an export is ~10 s of CPU; processes that start on a fresh
    # cache together, such as an ingest and a search, would each make the same file). Writes stay atomic (renames).
    with file_lock(q.with_name(f".{q.name}.lock"), timeout=1800, what="ONNX export lock"):
        if not fp32.exists():
            export_fp32(model_dir, fp32)
        if q is not fp32 and not q.exists():
            quantize_int8(fp32, q)
    return q


def _preoptimized(file: Path, ort) -> Path | None:
    """The graph as ONNX Runtime optimises it for the CPU (up to its portable `extended` level: fused attention,
    GELU, layer norm), saved once beside `file` with its weights in a separate file, or None where it cannot be
    written (a read-only models dir: the original is optimised at every load, as before).

    Why: opening a session on the exported graph re-optimises it and parses 90 MB of weights from protobuf every
    time, about 0.25 s of a cold `paperbase search` (issue 32). The saved graph loads its weights from the separate
    file without parsing them (0.06 s measured) and gives the same vectors (max difference 0.0 over test batches).
    The folder name carries ONNX Runtime's version (another version optimises afresh) and is made under a temporary
    name and renamed, so a reader never sees half of it."""
    import shutil

    folder = file.with_name(f"{file.stem}.ort-{ort.__version__}")
    model = folder / "model.onnx"
    if model.exists():
        return model
    tmp = file.with_name(f"{folder.name}.tmp{os.getpid()}")
    try:
        tmp.mkdir()
        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
        opts.optimized_model_filepath = str(tmp / "model.onnx")
        opts.add_session_config_entry("session.optimized_model_external_initializers_file_name", "model.data")
        opts.add_session_config_entry("session.optimized_model_external_initializers_min_size_in_bytes", "1024")
        ort.InferenceSession(str(file), opts, providers=["CPUExecutionProvider"])
        os.rename(tmp, folder)  # another process that finished first made the same folder: theirs is used
    except Exception:  # noqa: BLE001 - a speed-up only: any failure (a full disk, ONNX Runtime refusing to save) keeps the export
        pass
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return model if model.exists() else None


def _st_config(model_dir: Path) -> tuple[str, bool, int]:
    """(pooling 'mean' | 'cls', normalize, max_seq_length) from the sentence-transformers files."""
    pooling, normalize, max_len = "mean", False, 512
    modules = model_dir / "modules.json"
    if modules.exists():
        for m in json.loads(modules.read_text()):
            normalize |= m.get("type", "").endswith("Normalize")
            if m.get("type", "").endswith("Pooling"):
                cfg = model_dir / m.get("path", "1_Pooling") / "config.json"
                if cfg.exists() and json.loads(cfg.read_text()).get("pooling_mode_cls_token"):
                    pooling = "cls"
    sbert = model_dir / "sentence_bert_config.json"
    if sbert.exists():
        max_len = int(json.loads(sbert.read_text()).get("max_seq_length", max_len))
    return pooling, normalize, max_len


class OnnxSentenceEncoder(TextEncoder):
    """ONNX Runtime on the exported graph: `onnx` (fp32) or `onnx-int8`."""

    def __init__(self, path: str, *, cache_dir: Path, variant: str = "onnx-int8", device: str | None = None,
                 batch_size: int = 32):
        from pipeline.vectors.fasttok import FastTokenizer

        model_dir = Path(path)
        if not model_dir.is_dir():  # an HF id found in the HF cache: its snapshot folder holds the files
            from huggingface_hub import snapshot_download

            model_dir = Path(snapshot_download(path if "/" in path else f"sentence-transformers/{path}",
                                               local_files_only=True))
        self.backend = variant
        self.file = ensure_model(model_dir, cache_dir, variant if variant in VARIANTS else "onnx")
        if FastTokenizer.available(model_dir):  # without importing transformers (and torch): fasttok.py
            self.tokenizer = FastTokenizer(model_dir)
        else:
            from transformers import AutoTokenizer

            self.tokenizer = AutoTokenizer.from_pretrained(str(model_dir))
        self.pooling, self.normalize, max_len = _st_config(model_dir)
        self.max_len = min(max_len, int(getattr(self.tokenizer, "model_max_length", max_len) or max_len))
        self.max_tokens = self.max_len - 2
        self.batch_size = batch_size
        self._open(device, cache_dir)
        self.dim = len(self._encode_sorted(["x"])[0])

    def _open(self, device: str | None, cache_dir: Path) -> None:
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.intra_op_num_threads = os.cpu_count() or 1
        # ONNX Runtime's worker threads otherwise spin for a while after every run, holding the cores that the search
        # right after the query encoding needs (measured at 300k vectors: a library-wide dense search over the search
        # copies, query encoding included, 92 -> 45 ms p50; batch encoding throughput unchanged)
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        providers = ["CPUExecutionProvider"]
        if (device is None or device.startswith("cuda")) and "CUDAExecutionProvider" in ort.get_available_providers():
            providers.insert(0, "CUDAExecutionProvider")
        graph = (_preoptimized(self.file, ort) if providers == ["CPUExecutionProvider"] else None) or self.file
        self.session = ort.InferenceSession(str(graph), opts, providers=providers)
        self.device_name = "cuda" if self.session.get_providers()[0].startswith("CUDA") else "cpu"
        self.inputs = [i.name for i in self.session.get_inputs()]

    def _hidden(self, feeds: dict[str, np.ndarray]) -> np.ndarray:
        """The last hidden state of one batch."""
        return self.session.run(None, feeds)[0]

    def _feeds(self, ids: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
        have = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        return {n: have[n] for n in self.inputs}

    def _pool(self, hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
        hidden = hidden.astype(np.float32, copy=False)
        if self.pooling == "cls":
            vec = hidden[:, 0]
        else:
            m = mask[..., None].astype(np.float32)
            vec = (hidden * m).sum(1) / np.maximum(m.sum(1), 1e-9)
        if self.normalize:
            vec = vec / np.maximum(np.linalg.norm(vec, axis=1, keepdims=True), 1e-12)
        return vec.astype(np.float32)

    def _encode_batch(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self._pool(self._hidden(self._feeds(ids, mask)), mask)

    def _encode_sorted(self, texts: list[str]) -> np.ndarray:
        out = []
        for i in range(0, len(texts), self.batch_size):
            x = self.tokenizer(texts[i : i + self.batch_size], padding=True, truncation=True, max_length=self.max_len,
                               return_tensors="np")
            ids, mask = x["input_ids"].astype(np.int64), x["attention_mask"].astype(np.int64)
            out.append(self._encode_batch(ids, mask))
        return np.concatenate(out)


THROUGHPUT_MIN_WINDOWS = 64  # fewer: one latency-compiled request is as fast and compiles nothing more


class OpenVinoSentenceEncoder(OnnxSentenceEncoder):
    """OpenVINO on the same exported graph: `openvino` (fp32) or `openvino-bf16`, whose matrix products run in bf16
    on CPUs that have it natively (AMX, AVX512-BF16; elsewhere OpenVINO keeps fp32). The compiled model is cached
    under the models dir, so a second process starts in a fraction of the first compile."""

    def _open(self, device: str | None, cache_dir: Path) -> None:
        import openvino as ov

        self._core = ov.Core()
        self._config = {"INFERENCE_PRECISION_HINT": "bf16" if self.backend.endswith("bf16") else "f32"}
        if os.access(cache_dir, os.W_OK):  # a read-only data dir compiles every time instead
            self._config["CACHE_DIR"] = str(cache_dir / "openvino-cache")
        self._throughput = None  # compiled on the first large `encode_ids`
        self.compiled = self._compile("LATENCY")
        self.request = self.compiled.create_infer_request()
        self.inputs = [i.get_any_name() for i in self.compiled.inputs]
        hint = self.compiled.get_property("INFERENCE_PRECISION_HINT")
        self.precision = hint.get_type_name() if hasattr(hint, "get_type_name") else str(hint)  # "bf16" or "f32"
        self.device_name = "cpu"

    def _compile(self, hint: str):
        return self._core.compile_model(self._core.read_model(str(self.file)), "CPU",
                                        {**self._config, "PERFORMANCE_HINT": hint})

    def encode_ids(self, windows, progress=None) -> np.ndarray:
        """Many windows (the encode stage) run in OpenVINO's throughput mode: the model compiled for several streams
        (one per core here), each running its own batch, fed through an async queue, so building the next batch and
        pooling the last one overlap inference instead of idling the cores. Measured on 2 AMX cores over 2,500 corpus
        windows, alternating runs: 13.7 s against 15.9 s for one request at a time over both cores (-14 %), the same
        vectors. A few windows (and every query) keep the latency-compiled request: one batch over every core."""
        if len(windows) < THROUGHPUT_MIN_WINDOWS:
            return super().encode_ids(windows, progress)
        import openvino as ov

        if self._throughput is None:
            self._throughput = self._compile("THROUGHPUT")
        queue = ov.AsyncInferQueue(self._throughput, int(self._throughput.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS")))
        out = np.zeros((len(windows), self.dim), dtype=np.float32)
        finished: list[int] = []  # word pieces per finished batch, appended by OpenVINO's threads (atomic under the GIL)
        failures: list[BaseException] = []

        def done(request, userdata) -> None:
            rows, mask = userdata
            try:
                out[rows] = self._pool(request.get_output_tensor(0).data, mask)
                finished.append(int(mask.sum()) - len(rows) * self._special_count)
            except BaseException as exc:  # noqa: BLE001 - raised in the caller's thread below
                failures.append(exc)

        def report(upto: int) -> int:  # progress is called from this thread only
            for pieces in finished[upto:len(finished)] if progress else ():
                progress(pieces)
            return len(finished)

        queue.set_callback(done)
        reported = 0
        for rows, ids, mask in self._padded_batches(windows):
            queue.start_async(self._feeds(ids, mask), (rows, mask))  # waits for a free request
            if failures:
                break
            reported = report(reported)
        queue.wait_all()
        if failures:
            raise failures[0]
        report(reported)
        return out

    @property
    def label(self) -> str:
        """What actually runs: a bf16 request on a CPU without bf16 units runs f32."""
        return f"{self.backend} on cpu ({self.precision})"

    def _hidden(self, feeds: dict[str, np.ndarray]) -> np.ndarray:
        return self.request.infer(feeds)[0]
