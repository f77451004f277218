"""Per-file parse failures: each carries a short machine-readable kind and a message for humans."""
from __future__ import annotations


class ParseError(Exception):
    kind = "parse_error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


class NotAPDF(ParseError):
    kind = "not_pdf"


class CorruptPDF(ParseError):
    kind = "corrupt"


class EncryptedPDF(ParseError):
    kind = "encrypted"


class EmptyPDF(ParseError):
    kind = "empty"


class NoTextLayer(ParseError):
    kind = "no_text_layer"


class BackendUnavailable(ParseError):
    """The configured backend (or its tier) cannot run here: package or model files missing."""
    kind = "backend_unavailable"


class BackendFailed(ParseError):
    """The backend ran and failed on this file: an exception, or empty or inconsistent output."""
    kind = "backend_failed"
