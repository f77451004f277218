"""Errors of the vector stage. Batch entry points return them inside reports; single calls (search) raise them."""
from __future__ import annotations

from pipeline.encode.errors import ModelUnavailable  # re-exported: encoders raise it, callers catch it from here

__all__ = ["VectorError", "ModelUnavailable", "StoreLocked", "UnknownCollection"]


class VectorError(RuntimeError):
    """Base class for vector index errors."""


class StoreLocked(VectorError):
    """Another process holds the Milvus Lite store."""


class UnknownCollection(VectorError):
    """The collection is not defined in schemas/vectorstore.json or does not exist in Milvus."""
