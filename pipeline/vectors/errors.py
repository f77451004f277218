"""Errors of the vector stage. Batch entry points return them inside reports; single calls (search) raise them."""
from __future__ import annotations

from pipeline.results import RetryableError

__all__ = ["VectorError", "ModelUnavailable", "StoreLocked", "UnknownCollection", "CollectionGone", "ServerTooOld",
           "one_line"]


class VectorError(RuntimeError):
    """Base class for vector stage errors."""


class ModelUnavailable(VectorError):
    """A collection's model is not available offline (and downloads are off)."""


class StoreLocked(VectorError, RetryableError):
    """Another process holds the Milvus Lite store (worth retrying once it lets go)."""


class UnknownCollection(VectorError):
    """The collection is not defined in schemas/vectorstore.json or does not exist in Milvus."""


class ServerTooOld(VectorError):
    """The Milvus server lacks a feature a collection needs (e.g. sparse vectors before 2.4); names the minimum."""


class CollectionGone(UnknownCollection):
    """A collection vanished while it was being used (dropped by a `rebuild` in another process)."""


def one_line(exc: BaseException) -> str:
    """An error as one readable line: pymilvus' message without its wrapper, a full disk said plainly."""
    import errno

    text = str(getattr(exc, "message", "") or exc)
    if (isinstance(exc, OSError) and exc.errno == errno.ENOSPC) or "No space left on device" in text:
        return f"no space left on device ({type(exc).__name__}: {' '.join(text.split())})"
    return f"{type(exc).__name__}: {' '.join(text.split())}"


def is_transient(exc: BaseException) -> bool:
    """Trouble worth retrying, judged by type (and pymilvus' status code): our RetryableErrors, OS-level connection
    failures and timeouts, and a Milvus server that is unavailable or refused the connection."""
    if isinstance(exc, (RetryableError, ConnectionError, TimeoutError)):
        return True
    try:
        from pymilvus.client.types import Status as MilvusStatus
        from pymilvus.exceptions import MilvusException, MilvusUnavailableException
    except ImportError:  # pragma: no cover - pymilvus is a dependency
        return False
    if isinstance(exc, MilvusUnavailableException):
        return True
    # "Fail connecting to server": the code pymilvus gives a refused or dropped connection
    return isinstance(exc, MilvusException) and getattr(exc, "code", None) == MilvusStatus.CONNECT_FAILED
