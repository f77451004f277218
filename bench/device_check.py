"""Device check for a GPU machine: the dense and CLIP encoders pick CUDA by themselves (`vectors.device` unset) and
give the CPU's vectors; prints ONNX Runtime's providers (the ONNX backends add CUDA when it offers it).

    python3 bench/device_check.py        # from the repo root, with any Python that has torch + sentence-transformers

Loads pipeline/vectors/dense.py and clip.py as standalone modules (they need only numpy, torch,
sentence-transformers, transformers, Pillow), so it runs on a machine without paperbase's environment, with the tiny
models the tests build. Seen on an NVIDIA H100 (torch 2.11.0+cu130), 2026-11-24: both encoders on cuda:0, cosine to
the CPU's vectors 1.000000 (500 texts, 8 images); that machine's onnxruntime had no CUDA provider (CPU build)."""
import importlib.util, sys, tempfile, time
from pathlib import Path
import numpy as np

def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod); return mod

import types
dense = load("dense", "pipeline/vectors/dense.py")
for name in ("pipeline", "pipeline.vectors"):  # clip.py imports auto_device from pipeline.vectors.dense
    sys.modules[name] = types.ModuleType(name)
sys.modules["pipeline.vectors.dense"] = dense
clip = load("clip", "pipeline/vectors/clip.py")
tiny = load("tinymodels", "tests/vectors/tinymodels.py")
import torch, io
print("torch", torch.__version__, "cuda available", torch.cuda.is_available(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else "")
print("auto_device(None) ->", dense.auto_device(None))
root = Path(tempfile.mkdtemp())
bert = tiny.build_tiny_bert(root)
texts = [f"attention transformer retrieval sparse {i} " * (1 + i % 5) for i in range(500)]
gpu = dense.SentenceEncoder(str(bert), device=None)
cpu = dense.SentenceEncoder(str(bert), device="cpu")
print("sentence encoder device:", gpu.model.device)
t = time.perf_counter(); vg = np.asarray(gpu.encode_texts(texts)); tg = time.perf_counter() - t
t = time.perf_counter(); vc = np.asarray(cpu.encode_texts(texts)); tc = time.perf_counter() - t
cos = (vg * vc).sum(1) / np.linalg.norm(vg, axis=1) / np.linalg.norm(vc, axis=1)
print(f"dense: {len(texts)} texts, cosine gpu vs cpu min {cos.min():.6f}; gpu {tg:.2f}s cpu {tc:.2f}s")
cl = tiny.build_tiny_clip(root)
from PIL import Image
pngs = []
for i in range(8):
    b = io.BytesIO(); Image.new("RGB", (40, 30), (i * 30, 100, 200)).save(b, "PNG"); pngs.append(b.getvalue())
cg = clip.ClipEncoder(str(cl), device=None); cc = clip.ClipEncoder(str(cl), device="cpu")
print("clip device:", next(cg.model.parameters()).device if hasattr(cg, "model") else "?")
ig, ic = np.asarray(cg.encode_images(pngs)), np.asarray(cc.encode_images(pngs))
cos = (ig * ic).sum(1) / np.linalg.norm(ig, axis=1) / np.linalg.norm(ic, axis=1)
print(f"clip images: cosine gpu vs cpu min {cos.min():.6f}")
import onnxruntime as ort
print("onnxruntime providers:", ort.get_available_providers())
