"""Which runtime and precision the dense text encoders use on this machine (`vectors.backend = "auto"`).

Rules (measured, docs/vectors.md "Runtimes"):
- A GPU: ONNX Runtime when it offers CUDA, else sentence-transformers in torch on CUDA.
- A CPU with bf16 matrix units (AMX-BF16 or AVX512-BF16) and OpenVINO installed: `openvino-bf16`, OpenVINO's CPU
  plugin running the matrix products on those units in bf16 (vectors within cosine 0.999 of fp32).
- Any other CPU (AVX2, AVX-512 without bf16, ARM): `onnx`, ONNX Runtime fp32.
- int8 is never chosen by itself: ONNX Runtime's dynamic int8 drifts to cosine 0.988 from fp32 on corpus windows (below
  the 0.999 that keeps stored vectors interchangeable with fp32 query vectors); it stays available as `onnx-int8`.
- Any backend can be named instead (`vectors.backend`, `PAPERBASE_VECTORS__BACKEND`); `paperbase doctor` shows the
  CPU's features, the choice and why.

CPU features come from /proc/cpuinfo (Linux) or, elsewhere, from OpenVINO's own probe of the CPU.
"""
from __future__ import annotations

import importlib.util
import os
import platform
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

BACKENDS = ("auto", "onnx", "onnx-int8", "openvino", "openvino-bf16", "torch", "torch-bf16")
BF16_FLAGS = ("amx_bf16", "avx512_bf16")
SHOWN_FLAGS = ("avx2", "fma", "avx512f", "avx512_vnni", "avx_vnni", "avx512_bf16", "amx_bf16", "amx_int8", "amx_tile")


@dataclass(frozen=True)
class Choice:
    backend: str  # one of BACKENDS other than auto
    why: str


@lru_cache(maxsize=1)
def cpu_flags() -> frozenset[str]:
    """The CPU's feature flags (lower case, as /proc/cpuinfo spells them)."""
    info = Path("/proc/cpuinfo")
    if info.exists():
        for line in info.read_text(errors="replace").splitlines():
            if line.startswith(("flags", "Features")):
                return frozenset(line.split(":", 1)[1].split())
    caps = _openvino_capabilities()  # macOS, Windows: OpenVINO's own probe (BF16 when native)
    return frozenset({"avx512_bf16"} if "BF16" in caps else set())


@lru_cache(maxsize=1)
def cpu_name() -> str:
    info = Path("/proc/cpuinfo")
    if info.exists():
        for line in info.read_text(errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def has_bf16(flags: frozenset[str] | None = None) -> bool:
    return any(f in (cpu_flags() if flags is None else flags) for f in BF16_FLAGS)


def openvino_installed() -> bool:
    return importlib.util.find_spec("openvino") is not None


def _openvino_capabilities() -> list[str]:
    if not openvino_installed():
        return []
    try:
        import openvino as ov

        return list(ov.Core().get_property("CPU", "OPTIMIZATION_CAPABILITIES"))
    except Exception:  # noqa: BLE001 - no probe, no bf16
        return []


def _cuda(device: str | None) -> str | None:
    """'onnx' or 'torch' when a CUDA device is to be used, else None (cheap: torch is imported only when the NVIDIA
    driver is present)."""
    if device and not device.startswith("cuda"):
        return None
    try:
        import onnxruntime as ort

        if "CUDAExecutionProvider" in ort.get_available_providers():
            return "onnx"
    except Exception:  # noqa: BLE001
        pass
    if device or os.path.exists("/dev/nvidiactl"):
        try:
            import torch

            if torch.cuda.is_available():
                return "torch"
        except Exception:  # noqa: BLE001
            pass
    return None


def choose(backend: str = "auto", device: str | None = None, flags: frozenset[str] | None = None) -> Choice:
    """The backend to run: `backend` itself unless it is `auto` (see the module rules); `flags` default to this CPU's."""
    flags = cpu_flags() if flags is None else flags
    if backend != "auto":
        note = ""
        if backend.endswith("bf16") and not has_bf16(flags):
            note = ("; this CPU has no bf16 units: OpenVINO runs fp32" if backend.startswith("openvino")
                    else "; this CPU has no bf16 units: bf16 is emulated (slow)")
        return Choice(backend, "set by vectors.backend" + note)
    gpu = _cuda(device)
    if gpu:
        return Choice(gpu, "a CUDA device is present")
    if has_bf16(flags):
        found = ", ".join(f for f in BF16_FLAGS if f in flags)
        if openvino_installed():
            return Choice("openvino-bf16", f"the CPU has {found}: bf16 matrix products in OpenVINO")
        return Choice("onnx", f"the CPU has {found} but OpenVINO is not installed: ONNX Runtime fp32")
    return Choice("onnx", "no bf16 matrix units on this CPU (no amx_bf16 / avx512_bf16): ONNX Runtime fp32")


def describe() -> str:
    """One line for doctor: the CPU and the features that decide the choice."""
    have = [f for f in SHOWN_FLAGS if f in cpu_flags()]
    return f"{cpu_name()}, {os.cpu_count()} core(s); {' '.join(have) or 'none of ' + ' '.join(SHOWN_FLAGS)}"
