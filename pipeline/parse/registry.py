"""Backends by name. A backend is registered as a dotted path "package.module:Class" and imported on first use,
so importing pipeline.parse never imports a backend (nor its heavy libraries).

    register_backend("mineru", "pipeline.parse.mineru:MinerUBackend")
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: options.py validates backend names against this registry
    from pipeline.parse.interface import ParseBackend

_TARGETS: dict[str, str] = {"pymupdf": "pipeline.parse.pymupdf:PyMuPDFBackend",
                            "mineru": "pipeline.parse.mineru:MinerUBackend"}  # needs the [mineru] extra
_LOADED: dict[str, ParseBackend] = {}


def register_backend(name: str, target: str) -> None:
    """Register (or replace) backend `name`; `target` is "module.path:Attribute" (a class or an instance)."""
    module, sep, attr = target.partition(":")
    if not sep or not module or not attr:
        raise ValueError(f"backend target must look like 'package.module:Class', got {target!r}")
    _TARGETS[name] = target
    _LOADED.pop(name, None)


def available_backends() -> list[str]:
    return sorted(_TARGETS)


def get_backend(name: str) -> ParseBackend:
    """The backend registered as `name` (imported and instantiated once per process)."""
    if name not in _TARGETS:
        raise ValueError(f"unknown parse backend {name!r} (available: {', '.join(available_backends())})")
    if name not in _LOADED:
        module, _, attr = _TARGETS[name].partition(":")
        obj = getattr(importlib.import_module(module), attr)
        _LOADED[name] = obj() if isinstance(obj, type) else obj
    return _LOADED[name]
